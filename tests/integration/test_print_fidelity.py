"""The printed sheet says what the phone says: each finding of issue 27 read back from the PDF (pdftotext)."""

import re

import pytest

from helpers import pdftotext, raw_pages
from scorekeeper.games import service

DANISH_HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}


def flat(text: str) -> str:
    return " ".join(text.split())


def imported(client, variant: str, players: list[str], hands: list[dict], **extra) -> str:
    body = {
        "format": service.EXPORT_FORMAT,
        "variant": variant,
        "players": players,
        "dealer": 0,
        "options": {},
        "hands": hands,
        **extra,
    }
    r = client.post("/api/games/import", json=body)
    assert r.status_code == 201, r.json
    return r.json["id"]


def test_the_norwegian_sheet_says_a_grand_was_lost_as_the_phone_does(client, api, tmp_path):
    game = api.create("norwegian", players=["Ola", "Kari", "Per", "Liv"], language="nb")
    api.hand(game, {"bid": "grand", "bidder": 1, "tricks": [8, 5]})  # Kari's side took 5: the grand is lost
    api.hand(game, {"bid": "grand", "bidder": 0, "tricks": [8, 5]})
    page = client.get(f"/g/{game['id']}", headers={"Accept-Language": "nb"}).get_data(as_text=True)
    phone = flat(re.sub(r"<[^>]+>", " ", page))
    assert "Grand Kari, 8–5 bet" in phone and "Grand Ola, 8–5 klart" in phone
    words = flat(pdftotext(client.get(f"/g/{game['id']}/sheet.pdf").data, tmp_path))
    assert "Grand Kari, 8–5 bet" in words and "Grand Ola, 8–5 klart" in words


def hyphen_pieces(name: str) -> list[str]:
    return [p for word in name.split() for p in re.findall(r"[^-]+-|[^-]+$", word)]


@pytest.mark.parametrize("seats", [4, 5])
def test_a_long_name_is_never_split_inside_a_word(client, api, tmp_path, seats):
    players = ["Christoffersen-Skovbjærg", "Ann-Kristin Østergård-Nielsen", "Søren", "Bo", "Mikkelsen-Brønderslev"]
    game = api.create("danish", players=players[:seats])
    api.hand(game, {**DANISH_HAND, "bidder": 1})
    tokens = pdftotext(client.get(f"/g/{game['id']}/sheet.pdf").data, tmp_path, "-raw").split()
    for name in players[:seats]:
        for piece in hyphen_pieces(name):
            if len(piece) < 8:
                continue
            cut = [t for t in tokens if t != piece and len(t) >= 3 and (piece.startswith(t) or piece.endswith(t))]
            cut = [t for t in cut if t not in hyphen_pieces(" ".join(players))]
            assert not cut, f"{piece!r} of {name!r} is printed cut: {cut}"
            assert any(piece in t for t in tokens), f"{piece!r} of {name!r} is not printed whole"


def test_the_running_totals_heading_is_never_left_without_its_chart(client, tmp_path):
    players = ["Anna", "Bo", "Carl", "Dina"]
    for n in range(14, 30):
        hands = [{**DANISH_HAND, "bidder": k % 4, "partner": (k + 2) % 4, "tricks": 5 + k % 7} for k in range(n)]
        game_id = imported(client, "danish", players, hands, language="da", options={"rate": 0.05})
        pages = raw_pages(client.get(f"/g/{game_id}/sheet.pdf").data, tmp_path)
        held = [page for page in pages if "Stillingen undervejs" in page]
        assert len(held) == 1, n
        after = held[0].split("Stillingen undervejs", 1)[1]
        assert all(name in after for name in players), f"{n} hands: the chart's legend is not on the heading's page"


def test_the_rubber_sheet_says_how_its_rubber_points_are_made_up(client, api, tmp_path):
    # Game 1 won 5–1 (a double), game 2 lost 3–5 (a single), game 3 won 5–0 (a treble), and 2 for the rubber.
    game = api.create("classic", options={"rubber": True}, language="sv")
    for tricks in ([7, 6], [6, 7], [10, 3], [9, 4], [3, 10], [6, 7], [11, 2]):
        api.hand(game, {"trump": "hearts", "tricks": tricks})
    game = api.get(game)
    assert game["finished"] and game["games_won"] == [2, 1] and game["rubber_points"] == [7, 1]
    words = flat(pdftotext(client.get(f"/g/{game['id']}/sheet.pdf").data, tmp_path))
    assert "Robbertpoäng: 7 – 1" in words
    assert "Anna & Carl: 2 (parti 1) + 3 (parti 3) + 2 (robberten) = 7" in words
    assert "Bo & Dina: 1 (parti 2) = 1" in words
    assert "Robberten är värd 6 poäng." in words
    page = flat(re.sub(r"<[^>]+>", " ", client.get(f"/g/{game['id']}?lang=sv").get_data(as_text=True)))
    assert "Anna &amp; Carl: 2 (parti 1) + 3 (parti 3) + 2 (robberten) = 7" in page  # the phone says it too
