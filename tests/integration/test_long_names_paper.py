"""Issue 44: names as long as real double names (64 characters, NAME_MAX) on every piece of paper: a game's sheet and
blank sheet of every variant, and a whist drive's table cards, score cards, tally cards and standings. Each name is
there whole (wrapped at a space or after a hyphen, or its type made smaller, never cut) and no word comes near the
edge of the sheet (pdftotext -bbox)."""

import pytest

from helpers import PLAYERS, pdftotext, words_off_the_page
from scorekeeper.core import NAME_MAX
from variants import EXAMPLES

pytestmark = pytest.mark.needs_program  # poppler's pdftotext

LONG = [
    "Anne-Marie Christiansen-Østergaard Hansen-Vestergaard Rasmussens",
    "Karen-Margrethe Christoffersen-Skovbjærg Østergaard-Vestergaards",
    "Hans-Christian Frederiksen-Lindholm Bach-Sørensen Winther-Møller",
    "Marie-Louise Kristoffersen-Brønderslev Thorvaldsen-Kjærgaard Ibs",
    "Sven-Olof Gustafsson-Lindqvist Bengtsson-Åkerlund Johansson-Berg",
    "Ole-Kristian Haugland-Bjørnstad Solberg-Fjeldheim Nordahl-Aas Li",
    "Eva-Lotta Sjöström-Wallenberg Östberg-Hedlund Kjellström-Nyman A",
    "Per-Ivar Rasmussen-Kirkegaard Holmboe-Henriksen Damgaard-Lund Bo",
]


def whole(name: str, words: str) -> bool:
    return name.replace(" ", "") in words.replace(" ", "")


def test_the_names_are_as_long_as_the_bound():
    assert all(len(name) == NAME_MAX == 64 for name in LONG)


@pytest.mark.parametrize("variant", EXAMPLES)
def test_a_sheet_and_a_blank_sheet_show_64_character_names_whole(client, api, variant, tmp_path):
    example = EXAMPLES[variant]
    count = len(example.GAME.get("players") or PLAYERS[variant])
    players = LONG[:count]
    game = api.create(variant, players=players, options=example.GAME["options"])
    for hand in example.GAME["hands"][:3]:
        api.hand(game, hand)
    for url in (f"/g/{game['id']}/sheet.pdf", f"/g/{game['id']}/blank.pdf"):
        data = client.get(url).data
        words = " ".join(pdftotext(data, tmp_path, "-raw").split())
        for name in players:
            assert whole(name, words), (url, name)
        assert words_off_the_page(data, tmp_path) == [], url


def test_a_drives_paper_shows_64_character_names_whole(client, tmp_path):
    ladies, gents = LONG[:4], [name.replace("-", " ", 1) for name in LONG[4:]]
    r = client.post("/api/drives", json={"format": "progressive", "ladies": ladies, "gents": gents, "hands": 8})
    assert r.status_code == 201, r.json
    drive = r.json
    client.get(drive["edit_page"])  # the organiser's phone: the table cards are the organiser's
    for kind in ("cards", "scorecards", "tally", "standings"):
        r = client.get(f"/d/{drive['id']}/{kind}.pdf")
        assert r.status_code == 200, kind
        words = " ".join(pdftotext(r.data, tmp_path, "-raw").split())
        for name in ladies + gents:
            if kind != "cards":  # a table card names its table, not the players
                assert whole(name, words), (kind, name)
        assert words_off_the_page(r.data, tmp_path, margin=4) == [], kind  # cut sheets: the cards fill them
