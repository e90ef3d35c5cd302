"""Issue 33, "The family's tables", Plump: a missing bid names its player and marks the row (once, in the reader's
language); the CSV has the cards of each deal; the refusal to delete a middle deal speaks as a player would."""

import csv
import io
import re

import pytest

from helpers import dump, post_hand, start

FIVE = ["Anna", "Bo", "Carl", "Dina", "Erik"]


def seat_rows(html: str) -> dict:
    """Each player's row on the hand page: its classes and its error text."""
    rows = {}
    for m in re.finditer(
        r'<div class="plump-seat([^"]*)" data-seat="(\d)">(.*?)(?=<div class="plump-seat|</div>\s*</div>\s*<p)',
        html,
        re.S,
    ):
        errors = " ".join(re.findall(r'<p class="error"[^>]*>(.*?)</p>', m.group(3), re.S))
        rows[int(m.group(2))] = (m.group(1), errors)
    return rows


def shown_errors(html: str) -> list[str]:
    return re.findall(r'<p class="error"[^>]*>(.*?)</p>', html, re.S) + re.findall(
        r'class="error-box"[^>]*>(.*?)</div>', html, re.S
    )


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", "no bid for Carl: each bids from 0 to 10"),
        ("da", "intet bud fra Carl: hver melder fra 0 til 10"),
        ("sv", "inget bud från Carl: var och en bjuder från 0 till 10"),
    ],
)
def test_a_missing_bid_names_the_player_and_marks_the_row_once(client, db_path, lang, said):
    gid = start(client, "plump", FIVE)
    client.get(f"/lang/{lang}")
    before = dump(db_path)
    form = {"b0": "1", "b1": "2", "b3": "0", "b4": "1", "t0": "1", "t1": "2", "t2": "3", "t3": "0", "t4": "4"}
    html = post_hand(client, gid, form, expect=400).get_data(as_text=True)
    rows = seat_rows(html)
    assert "missing" in rows[2][0] and said in rows[2][1], rows
    assert all("missing" not in rows[s][0] for s in (0, 1, 3, 4)), rows
    errors = shown_errors(html)
    assert sum(said in e for e in errors) == 1, errors  # said once, beside Carl
    assert 'id="first-error"' in html
    assert dump(db_path) == before


def test_two_missing_bids_and_two_missing_tricks_name_both_and_mark_both(client, db_path):
    gid = start(client, "plump", FIVE)
    client.get("/lang/sv")
    form = {"b0": "1", "b2": "2", "b4": "1", "t0": "1", "t1": "2", "t2": "3"}
    html = post_hand(client, gid, form, expect=400).get_data(as_text=True)
    rows = seat_rows(html)
    assert {s for s, (cls, _e) in rows.items() if "missing" in cls} == {1, 3, 4}
    errors = " ".join(shown_errors(html))
    assert "inget bud från Bo, Dina" in errors and "inga stick för Dina, Erik" in errors, errors
    assert errors.count("inget bud") == 1 and errors.count("inga stick") == 1


def test_the_api_names_the_player_too(client):
    r = client.post("/api/games", json={"variant": "plump", "players": FIVE})
    game = r.json
    r = client.post(
        f"/api/games/{game['id']}/hands",
        json={"bids": [1, None, 0, 0, 0], "tricks": [10, 0, 0, 0, 0]},
        headers={"X-Edit-Key": game["edit_key"]},
    )
    assert r.status_code == 400 and "Bo" in r.json["errors"]["bids"]


def test_the_bids_page_marks_the_missing_bidder_only(client):
    r = client.post("/api/games", json={"variant": "plump", "players": FIVE})
    game = r.json
    client.get(game["edit_page"])
    page = client.get(f"/g/{game['id']}/bids")
    assert page.status_code == 200
    from helpers import fields

    data = {**fields(page.get_data(as_text=True)), "b0": "1", "b1": "2", "b2": "0", "b4": "1"}
    html = client.post(f"/g/{game['id']}/bids", data=data).get_data(as_text=True)
    rows = seat_rows(html)
    assert {s for s, (cls, _e) in rows.items() if "missing" in cls} == {3}, rows
    assert "no bid for Dina" in rows[3][1]


def test_the_csv_has_the_cards_of_each_deal(client):
    r = client.post("/api/games", json={"variant": "plump", "players": FIVE[:4], "options": {"schedule": [3, 1, 2]}})
    game = r.json
    for body in ({"bids": [1, 0, 0, 0], "tricks": [1, 1, 1, 0]}, {"bids": [0, 0, 0, 0], "tricks": [0, 1, 0, 0]}):
        client.post(f"/api/games/{game['id']}/hands", json=body, headers={"X-Edit-Key": game["edit_key"]})
    rows = list(csv.DictReader(io.StringIO(client.get(f"/g/{game['id']}/hands.csv").data.decode("utf-8-sig"))))
    assert [row["cards"] for row in rows] == ["3", "1"]
    assert list(rows[0])[:4] == ["hand", "dealer", "cards", "bid Anna"]


@pytest.mark.parametrize(
    "lang, said",
    [
        (
            "en",
            "Hand 1 cannot be deleted: the hands after it would each move up a deal, and hand 2 (cards: 2) does not "
            "fit hand 1 (cards: 3). Change or delete the later hands first.",
        ),
        ("da", "Spil 1 kan ikke slettes: de følgende spil ville hver rykke ét frem, og spil 2 (kort: 2)"),
    ],
)
def test_the_refusal_to_delete_a_middle_deal_says_it_as_a_player_would(client, db_path, lang, said):
    from helpers import fields

    r = client.post(
        "/api/games", json={"variant": "plump", "players": FIVE[:4], "options": {"schedule": "down", "max_cards": 3}}
    )
    game = r.json
    for body in ({"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]}, {"bids": [0, 1, 0, 0], "tricks": [0, 1, 1, 0]}):
        client.post(f"/api/games/{game['id']}/hands", json=body, headers={"X-Edit-Key": game["edit_key"]})
    before = dump(db_path)
    client.get(game["edit_page"])
    client.get(f"/lang/{lang}")
    page = client.get(f"/g/{game['id']}/hands/1/delete")
    r = client.post(f"/g/{game['id']}/hands/1/delete", data=fields(page.get_data(as_text=True)))
    shown = re.sub(r"\s+", " ", " ".join(shown_errors(r.get_data(as_text=True))))
    assert r.status_code == 400 and said in shown.replace("&#39;", "'"), shown
    assert "this change" not in shown and "ændringen" not in shown and "Tricks:" not in shown
    assert dump(db_path) == before
