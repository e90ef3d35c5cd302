"""Plump through the API and the pages: the answer's cards, deal sizes and next cards, the options resolved and
refused for the table, refusals naming the field with nothing stored, editing keeping a deal's size, deleting moving
the later hands up or refused (API and the delete page, in the reader's language), the hand form's taps."""

import csv
import io
import re

import pytest

from helpers import dump, fields, form_data, post_hand, start

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]


def text(r) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


def create(client, players=PLAYERS, **options):
    r = client.post("/api/games", json={"variant": "plump", "players": players, "options": options})
    assert r.status_code == 201, r.json
    return r.json


def hand(client, game, body, status=201):
    r = client.post(f"/api/games/{game['id']}/hands", json=body, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == status, r.json
    return r.json


def test_the_answer_has_the_options_resolved_the_deal_sizes_and_each_hands_cards(client):
    game = create(client)
    assert game["options"] == {
        "schedule": "down_up",
        "max_cards": 10,
        "hook": True,
        "bonus": 10,
        "zero_bid": 5,
        "bonus_round_zero": None,
        "miss": "zero",
        "lead": "left_of_dealer",
    }
    assert game["sides"] == [[0], [1], [2], [3]]
    assert game["deal_sizes"] == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert game["next_cards"] == 10
    first = hand(client, game, {"bids": [3, 2, 0, 4], "tricks": [3, 1, 0, 6], "cards": 10})
    assert first["points"] == [13, 0, 5, 0] and first["cards"] == 10 and first["leader"] == 1
    got = client.get(f"/api/games/{game['id']}").json
    assert got["hands"][0]["cards"] == 10 and got["hands"][0]["leader"] == 1 and got["next_cards"] == 9
    six = create(client, ["A", "B", "C", "D", "E", "F"], schedule="up")
    assert six["options"]["max_cards"] == 8 and six["deal_sizes"] == [1, 2, 3, 4, 5, 6, 7, 8]


def test_the_last_deal_finishes_the_game_and_next_cards_is_null(client):
    game = create(client, schedule=[2, 1])
    hand(client, game, {"bids": [1, 0, 0, 0], "tricks": [1, 1, 0, 0]})
    last = hand(client, game, {"bids": [1, 1, 1, 1], "tricks": [1, 0, 0, 0]})
    assert last["cards"] == 1
    got = client.get(f"/api/games/{game['id']}").json
    assert got["finished"] and got["next_cards"] is None and got["winner"] == 0 and got["totals"] == [22, 0, 5, 5]
    hand(client, game, {"bids": [1, 1, 1, 1], "tricks": [1, 0, 0, 0]}, status=409)


@pytest.mark.parametrize(
    "players, options, field",
    [
        (["A", "B", "C", "D", "E", "F", "G"], {"max_cards": 8}, "options.max_cards"),
        (["A", "B", "C", "D", "E", "F", "G", "H"], {"schedule": [7]}, "options.schedule"),
        (PLAYERS, {"schedule": "zigzag"}, "options.schedule"),
        (PLAYERS, {"lead": "youngest"}, "options.lead"),
        (["A"], {}, "players"),
        (["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"], {}, "players"),
    ],
)
def test_a_game_that_does_not_fit_its_table_is_refused_and_nothing_stored(client, app, players, options, field):
    before = dump(app.config["DATABASE"])
    r = client.post("/api/games", json={"variant": "plump", "players": players, "options": options})
    assert r.status_code == 400 and field in r.json["errors"], r.json
    assert dump(app.config["DATABASE"]) == before


@pytest.mark.parametrize(
    "body, field",
    [
        ({"bids": [3, 3, 0, 4], "tricks": [3, 1, 0, 6]}, "bids"),  # the hook
        ({"bids": [3, 2, 0], "tricks": [3, 1, 0, 6]}, "bids"),
        ({"bids": [3, 2, 0, 11], "tricks": [3, 1, 0, 6]}, "bids"),
        ({"bids": [3, 2, 0, 4], "tricks": [3, 1, 0, 5]}, "tricks"),
        ({"bids": [3, 2, 0, 4], "tricks": [3, 1, 0, 6], "cards": 9}, "cards"),
    ],
)
def test_bad_hands_are_400_naming_the_field_and_nothing_is_stored(client, app, body, field):
    game = create(client)
    before = dump(app.config["DATABASE"])
    r = client.post(f"/api/games/{game['id']}/hands", json=body, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 400 and field in r.json["errors"], r.json
    assert dump(app.config["DATABASE"]) == before


def test_editing_keeps_the_deals_size(client):
    game = create(client, schedule="down", max_cards=3)
    hand(client, game, {"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]})
    hand(client, game, {"bids": [0, 1, 0, 0], "tricks": [0, 1, 1, 0]})
    key = {"X-Edit-Key": game["edit_key"]}
    r = client.put(f"/api/games/{game['id']}/hands/2", json={"bids": [0, 0, 0, 0], "tricks": [2, 0, 0, 0]}, headers=key)
    assert r.status_code == 200 and r.json["cards"] == 2 and r.json["points"] == [0, 5, 5, 5]
    r = client.put(f"/api/games/{game['id']}/hands/2", json={"bids": [0, 0, 0, 0], "tricks": [3, 0, 0, 0]}, headers=key)
    assert r.status_code == 400 and "tricks" in r.json["errors"]


def test_deleting_moves_the_later_hands_up_and_rescores_them_in_their_new_size(client):
    game = create(client, schedule=[3, 2, 2, 1])
    key = {"X-Edit-Key": game["edit_key"]}
    for body in (
        {"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]},
        {"bids": [1, 0, 0, 0], "tricks": [1, 1, 0, 0]},
        {"bids": [0, 0, 0, 1], "tricks": [0, 0, 1, 1]},
    ):
        hand(client, game, body)
    r = client.delete(f"/api/games/{game['id']}/hands/2", headers=key)
    assert r.status_code == 200
    hands = r.json["hands"]
    assert [h["cards"] for h in hands] == [3, 2] and hands[1]["input"]["tricks"] == [0, 0, 1, 1]
    assert [h["dealer"] for h in hands] == [0, 1] and r.json["next_cards"] == 2


def test_a_deletion_that_leaves_a_hand_not_fitting_its_new_size_is_refused_by_the_api_and_the_page(client, app):
    game = create(client, schedule="down", max_cards=3)
    key = {"X-Edit-Key": game["edit_key"]}
    hand(client, game, {"bids": [1, 1, 0, 0], "tricks": [1, 1, 1, 0]})
    hand(client, game, {"bids": [0, 1, 0, 0], "tricks": [0, 1, 1, 0]})
    before = dump(app.config["DATABASE"])
    r = client.delete(f"/api/games/{game['id']}/hands/1", headers=key)
    assert r.status_code == 400 and "does not fit hand 1 (cards: 3)" in r.json["errors"]["hand"], r.json
    assert dump(app.config["DATABASE"]) == before
    client.get(game["edit_page"])
    client.get("/lang/sv")
    page = client.get(f"/g/{game['id']}/hands/1/delete")
    r = client.post(f"/g/{game['id']}/hands/1/delete", data=fields(page.get_data(as_text=True)))
    said = text(r)
    assert r.status_code == 400 and "Giv 1 kan inte tas bort" in said and "does not fit" not in said, said[:3000]
    assert dump(app.config["DATABASE"]) == before


def test_the_form_plays_hands_with_the_last_tricks_filled_in(client):
    gid = start(client, "plump", PLAYERS)
    page = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    assert 'name="cards" type="hidden" value="10"' in page or 'name="cards" value="10"' in page, page[:2000]
    assert "10 cards each" in page and 'id="b3-10"' in page
    sent = form_data(page)
    assert sent["cards"] == "10"
    post_hand(client, gid, {"b0": "3", "b1": "2", "b2": "0", "b3": "4", "t0": "3", "t1": "1", "t2": "0"})
    got = client.get(f"/api/games/{gid}").json
    assert got["hands"][0]["input"] == {"bids": [3, 2, 0, 4], "tricks": [3, 1, 0, 6]}
    # The hook, refused by the form with the reason.
    r = post_hand(
        client, gid, {"b0": "3", "b1": "3", "b2": "0", "b3": "3", "t0": "3", "t1": "3", "t2": "0"}, expect=400
    )
    assert "may not bid 3" in text(r)
    # The dealer's forbidden bid is marked when the page knows the others' bids (editing hand 1: Anna deals).
    edit = client.get(f"/g/{gid}/hands/1").get_data(as_text=True)
    assert re.search(r'class="forbidden"\s*>may not bid <b>4</b>', edit), edit
    assert 'id="b3-4" value="4" checked' in edit
    protokoll = text(client.get(f"/g/{gid}"))
    assert "3/3" in protokoll and "4/6" in protokoll and "10 cards" in protokoll and "9 cards" in protokoll


def test_the_protokoll_print_csv_and_blank_sheet(client):
    game = create(client, schedule=[2, 1, 2], lead="highest_bid")
    hand(client, game, {"bids": [1, 0, 0, 0], "tricks": [1, 1, 0, 0]})
    hand(client, game, {"bids": [0, 0, 0, 0], "tricks": [0, 1, 0, 0]})
    printed = text(client.get(f"/g/{game['id']}/print"))
    assert "1/1" in printed and "0/1" in printed and "2 1 2" in printed and "the highest bidder" in printed
    rows = list(csv.DictReader(io.StringIO(client.get(f"/g/{game['id']}/hands.csv").data.decode("utf-8-sig"))))
    assert rows[0]["bid Anna"] == "1" and rows[1]["tricks Bo"] == "1" and rows[1]["points Bo"] == "0"
    blank = client.get(f"/g/{game['id']}/blank").get_data(as_text=True)
    assert blank.count('<td class="entry">2</td>') == 1  # the third deal, 2 cards, printed ahead
    assert blank.count('<th class="side-entry">bid</th>') == 4


@pytest.mark.parametrize(
    "lang, label, value",
    [
        ("da", "Giverreglen", "giveren må ikke få buddene til at gå op"),
        ("en", "The hook", "the dealer may not make the bids add up"),
    ],
)
@pytest.mark.needs_program  # pdftotext reads the PDF back
def test_the_hook_is_said_once_in_the_sheets_heading(client, tmp_path, lang, label, value):
    """Issue 33: the Danish PDF's heading read "Giverreglen: til: giveren må ikke …", its label and its value both
    saying the rule is on; the print page and the PDF give the label, then the rule."""
    from helpers import pdftotext

    game = create(client, hook=True)
    client.get(f"/lang/{lang}")
    printed = text(client.get(f"/g/{game['id']}/print"))
    pdf = " ".join(pdftotext(client.get(f"/g/{game['id']}/sheet.pdf").data, tmp_path).split())
    for shown in (printed, pdf):
        assert re.search(rf"{label}:? {value}", shown), shown[:1500]


NAMES = [
    "Anne-Kathrine",
    "Christoffer",
    "Kirsten-Marie",
    "Bo",
    "Sønderborg",
    "Åsa-Lena",
    "Østergaard",
    "Ida",
    "Maj-Britt",
    "Jens",
]


@pytest.mark.needs_program
@pytest.mark.parametrize("n", range(2, 11))
def test_the_blank_sheet_prints_each_deals_cards_and_a_bid_column_per_player_within_a4(client, tmp_path, n):
    from helpers import pdfinfo, pdftotext, words_off_the_page

    query = "&".join(f"player={p}" for p in NAMES[:n])
    sheet = client.get(f"/blank/plump?{query}&dealer=0").get_data(as_text=True)
    sizes = re.findall(r'<td class="entry">(\d+)</td>', sheet)
    top = min(10, 52 // n)
    assert sizes == [str(k) for k in [*range(top, 0, -1), *range(2, top + 1)]]  # every deal, its cards printed ahead
    assert sheet.count('<th class="side-entry">bid</th>') == n
    pdf = client.get(f"/blank/plump.pdf?{query}&dealer=0")
    assert pdf.status_code == 200
    assert int(pdfinfo(pdf.data, tmp_path)["Pages"]) == 1 and not words_off_the_page(pdf.data, tmp_path)
    assert "Cards" in pdftotext(pdf.data, tmp_path)
