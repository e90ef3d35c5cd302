"""Scotch whist through the API and the pages over a real SQLite file: teams and sides, options listed in full, the
leader of every hand, refusals naming their field with nothing stored, the hand form (the last side's tricks filled
in, one tap an honour), the protokoll's cells, the printed and blank sheets within A4, and the CSV read back."""

import csv
import io
import re

import pytest

from helpers import dump, form_data, pdfinfo, post_hand, start, words_off_the_page
from variants import EXAMPLES

SIX = ["Anna", "Bo", "Carl", "Dina", "Erik", "Frida"]
EIGHT = ["Anne-Kathrine", "Christoffer", "Kirsten-Marie", "Bo", "Sønderborg", "Åsa-Lena", "Østergaard", "Ida"]
HONOURS = ("jack", "ten", "ace", "king", "queen")


def honours(*sides):
    return dict(zip(HONOURS, sides))


def text(r) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


def post(client, game, data):
    return client.post(f"/api/games/{game['id']}/hands", json=data, headers={"X-Edit-Key": game["edit_key"]})


# ---------------------------------------------------------------- the API


def test_a_game_in_two_teams_through_the_api(api):
    game = api.create("scotch", players=SIX[:4], options={"teams": 2})
    assert game["sides"] == [[0, 2], [1, 3]]
    assert game["options"] == {
        "target": 41,
        "values": {"jack": 11, "ten": 10, "ace": 4, "king": 3, "queen": 2},
        "card_points": "excess",
        "teams": 2,
        "hand_size": None,
    }
    # 5–4: 20 cards against the 18 dealt to a pair, +2; 11 + 4 against 10 + 3 + 2.
    hand = api.hand(game, {"tricks": [5, 4], "honours": honours(0, 1, 0, 1, 1)})
    assert hand["points"] == [17, 15] and hand["leader"] == 1
    api.hand(game, {"tricks": [5, 4], "honours": honours(0, 1, 0, 1, 1)})
    answer = api.get(game)
    assert answer["totals"] == [34, 30] and [h["leader"] for h in answer["hands"]] == [1, 2]
    assert not answer["finished"] and answer["next_leader"] == 3


def test_three_pairs_at_six_and_the_count_out(api, client):
    game = api.create("scotch", players=SIX, options={"teams": 3})
    assert game["sides"] == [[0, 3], [1, 4], [2, 5]]
    # T = 6, pairs dealt 12: 3 tricks +6. Pair 0 jack 11, pair 1 ten + ace 14, pair 2 king + queen 5.
    assert api.hand(game, {"tricks": [3, 2, 1], "honours": honours(0, 1, 1, 2, 2)})["points"] == [17, 14, 5]
    api.hand(game, {"tricks": [3, 2, 1], "honours": honours(0, 1, 1, 2, 2)})  # 34–28–10
    # Hand 3: pair 0 jack + king 14 → 48 (+ 0 cards: 2 tricks), pair 1 ten + 6 cards → 44, pair 2 ace + queen → 16.
    # Counted out: ten, pair 1 38; cards, pair 1 44: over first, pair 1 wins though pair 0 ends at 48.
    api.hand(game, {"tricks": [2, 3, 1], "honours": honours(0, 1, 2, 0, 2)})
    answer = api.get(game)
    assert answer["totals"] == [48, 44, 16] and answer["finished"] and answer["winner"] == 1
    r = post(client, game, {"tricks": [2, 2, 2], "honours": honours(0, 1, 2, 0, 2)})
    assert r.status_code == 409


@pytest.mark.parametrize(
    "body, field",
    [
        ({"tricks": [3, 2, 4], "honours": honours(0, 0, 0, 0, 0)}, "tricks"),
        ({"tricks": [3, 2, 4, 1], "honours": honours(0, 0, 0, 0, 0)}, "tricks"),
        ({"tricks": [3, 2, 4, 0], "honours": honours(3, 0, 0, 0, 0)}, "honours"),
        ({"tricks": [3, 2, 4, 0], "honours": {"jack": 0}}, "honours"),
        ({"tricks": [3, 2, 4, 0], "honours": honours(0, 0, 0, 0, 7)}, "honours"),
        ({"tricks": [3, 2, 4, 0]}, "honours"),
        ({"tricks": [3, 2, 4, 0], "honours": honours(0, 0, 0, 0, 0), "trump": "spades"}, "trump"),
    ],
)
def test_a_bad_hand_is_refused_by_its_field_and_nothing_stored(api, client, db_path, body, field):
    game = api.create("scotch", players=SIX[:4])
    before = dump(db_path)
    r = post(client, game, body)
    assert r.status_code == 400 and field in r.json["errors"], r.json
    assert dump(db_path) == before


@pytest.mark.parametrize(
    "players, options, field",
    [
        (SIX[:4], {"teams": 3}, "options.teams"),
        (SIX[:5], {"teams": 2}, "options.teams"),
        (SIX[:2], {"teams": 2}, "options.teams"),
        (SIX[:4], {"teams": 4}, "options.teams"),
        (SIX[:4], {"values": {"ten": 200}}, "options.values"),
        (SIX[:4], {"values": {"nine": 1}}, "options.values"),
        (SIX[:4], {"card_points": "all"}, "options.card_points"),
        (SIX[:1], {}, "players"),
    ],
)
def test_a_game_that_does_not_fit_is_refused_at_creation(client, db_path, players, options, field):
    before = dump(db_path)
    r = client.post("/api/games", json={"variant": "scotch", "players": players, "options": options})
    assert r.status_code == 400 and field in r.json["errors"], r.json
    assert dump(db_path) == before


def test_values_are_answered_in_full(api):
    game = api.create("scotch", players=SIX[:3], options={"values": {"ten": 20}, "card_points": "none"})
    assert game["options"]["values"] == {"jack": 11, "ten": 20, "ace": 4, "king": 3, "queen": 2}
    assert api.hand(game, {"tricks": [4, 4, 4], "honours": honours(0, 1, 2, 2, 2)})["points"] == [11, 20, 9]


# ---------------------------------------------------------------- the pages


def test_the_new_game_page_refuses_teams_that_do_not_fit(client, db_path):
    page = client.get("/new/scotch")
    assert page.status_code == 200 and 'name="opt_teams"' in page.get_data(as_text=True)
    assert "2 to 8 players" in text(page)
    data = {**form_data(page.get_data(as_text=True)), "dealer": "0", "opt_teams": "2"}
    data.update({f"player{i}": name for i, name in enumerate(SIX[:5])})
    before = dump(db_path)
    r = client.post("/new/scotch", data=data)
    assert r.status_code == 400 and "5 players cannot play in teams of equal size" in text(r)
    assert dump(db_path) == before


def enter(client, gid, taps, expect=302):
    """A hand as a browser posts the form: what the page preselects, then the taps."""
    page = client.get(f"/g/{gid}/hands/new")
    assert page.status_code == 200
    r = client.post(f"/g/{gid}/hands/new", data={**form_data(page.get_data(as_text=True)), **taps})
    assert r.status_code == expect, text(r)[:2000]
    return r


def test_six_alone_through_the_hand_form(client):
    gid = start(client, "scotch", SIX)
    page = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    # A row of 0..6 for each of the first five, the sixth has the rest; all preselected at 0 (Frida has all six).
    assert [f"t{s}" for s in range(5)] == re.findall(r'name="(t\d)" id="t\d-0" value="0" checked', page)
    assert 'name="t5"' not in page and "the rest:" in page and 'class="rest-count">6<' in page
    assert page.count('name="jack"') == 6 and "Deals: <b>Anna</b>" in page and "Leads: <b>Bo</b>" in page
    # T = 6, one dealt each: 2 tricks +6. Anna jack 11 + queen 2, Bo ace 4, Dina king 3, Erik ten 10.
    enter(
        client,
        gid,
        {"t0": "2", "t1": "1", "t3": "1", "t4": "2", "jack": "0", "ten": "4", "ace": "1", "king": "3", "queen": "0"},
    )
    game = client.get(f"/api/games/{gid}").json
    assert game["hands"][0]["input"] == {"tricks": [2, 1, 0, 1, 2, 0], "honours": honours(0, 4, 1, 3, 0)}
    assert game["hands"][0]["points"] == [19, 4, 0, 3, 16, 0]
    protokoll = text(client.get(f"/g/{gid}"))
    assert "Tricks 2–1–0–1–2–0; honours: Anna J Q, Bo A, Dina K, Erik 10" in protokoll
    assert "2 tr. J Q" in protokoll and "0 tr." in protokoll and "6 cards" in protokoll
    # Editing: the form comes back with the tricks and the honours, the rest said.
    edit = client.get(f"/g/{gid}/hands/1").get_data(as_text=True)
    assert 'id="t4-2" value="2" checked' in edit and 'id="ten-4" value="4" checked' in edit
    assert 'class="rest-count">0<' in edit
    post_hand(client, gid, {**form_data(edit), "t4": "1", "ten": "5"}, number=1)  # Frida 1 trick, the ten
    assert client.get(f"/api/games/{gid}").json["hands"][0]["points"] == [19, 4, 0, 3, 0, 10]


def test_the_form_says_what_is_wrong_in_the_page_language_and_stores_nothing(client, db_path):
    gid = start(client, "scotch", SIX)
    before = dump(db_path)
    honours_taps = {"jack": "0", "ten": "1", "ace": "0", "king": "0", "queen": "0"}
    r = enter(client, gid, {"t0": "4", "t1": "3", **honours_taps}, expect=400)  # 7 of 6: Frida would have −1
    assert "each side takes from 0 to 6 tricks, not 4 – 3 – 0 – 0 – 0 – −1" in text(r)
    assert 'class="side-row rest over"' in r.get_data(as_text=True)
    r = enter(client, gid, {"t0": "6", "jack": "0", "ten": "2", "ace": "0", "king": "0", "queen": "0"}, expect=400)
    assert "ten: Carl took no trick, so could not capture it" in text(r)
    r = enter(client, gid, {"t0": "6", "jack": "0", "ten": "0", "ace": "0", "king": "0"}, expect=400)
    assert "queen is missing" in text(r)
    client.get("/lang/da")
    r = enter(client, gid, {"t0": "6", "jack": "0", "ten": "2", "ace": "0", "king": "0", "queen": "0"}, expect=400)
    assert "tier: Carl tog ingen stik og kan ikke have taget den" in text(r) and "took no trick" not in text(r)
    assert dump(db_path) == before


def test_two_sides_share_one_row_of_buttons(client):
    gid = start(client, "scotch", SIX, teams="2")
    page = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    assert "Anna &amp; Carl &amp; Erik – Bo &amp; Dina &amp; Frida" in page
    assert 'for="t0-4">4–2<' in page and "checked" not in page.split('id="f-t0"')[1].split("</fieldset>")[0]
    # Six in two teams of three, T = 6: 4 tricks are 24 cards against 18, +6.
    enter(client, gid, {"t0": "4", "jack": "0", "ten": "1", "ace": "0", "king": "0", "queen": "1"})
    assert client.get(f"/api/games/{gid}").json["totals"] == [24, 12]


# ---------------------------------------------------------------- paper and CSV


@pytest.mark.parametrize(
    "players, options",
    [
        (EIGHT, {"target": 500}),
        (EIGHT, {"teams": 4}),
        (EIGHT[:7], {}),
        (SIX, {}),
        (SIX, {"teams": 3}),
        (EIGHT[:5], {}),
        (EIGHT[:4], {}),
        (EIGHT[:3], {}),
        (SIX[:2], {"target": 500}),
    ],
)
@pytest.mark.needs_program
def test_printed_and_blank_sheets_fit_a4(client, api, tmp_path, players, options):
    game = api.create("scotch", players=players, options={"target": 500, **options})
    width = len(game["sides"])
    total = {2: 18, 3: 12, 4: 9, 5: 7, 6: 6, 7: 5, 8: 4}[len(players)]
    for k in range(3):
        tricks = [0] * width
        tricks[k % width] = total
        api.hand(game, {"tricks": tricks, "honours": dict.fromkeys(HONOURS, k % width)})
    printed = client.get(f"/g/{game['id']}/print")
    assert "Trump honours" in text(printed) and "counted out: ten, cards, ace, king, queen, jack" in text(printed)
    assert f"{total} tr. J 10 A K Q" in text(printed)
    for url in (f"/g/{game['id']}/sheet.pdf", f"/g/{game['id']}/blank.pdf"):
        pdf = client.get(url)
        assert pdf.status_code == 200 and not words_off_the_page(pdf.data, tmp_path), url
    query = "&".join(f"player={p}" for p in players) + "".join(f"&{k}={v}" for k, v in options.items())
    blank = client.get(f"/blank/scotch.pdf?{query}&dealer=0")
    assert blank.status_code == 200
    assert int(pdfinfo(blank.data, tmp_path)["Pages"]) == 1 and not words_off_the_page(blank.data, tmp_path)


def test_the_blank_sheet_names_its_columns_and_the_deal(client):
    blank = text(client.get("/blank/scotch?player=Anna&player=Bo&player=Carl&dealer=0"))
    assert "Tricks" in blank and "Honours" in blank and "36 cards, 12 tricks (played in packets of six)" in blank


def test_the_csv_reads_back_with_teams(client, api):
    game = api.create("scotch", players=SIX, options={"teams": 3})
    hands = [
        {"tricks": [3, 2, 1], "honours": honours(0, 1, 1, 2, 2)},
        {"tricks": [0, 4, 2], "honours": honours(1, 1, 2, 2, 1)},
    ]
    for h in hands:
        api.hand(game, h)
    raw = client.get(f"/g/{game['id']}/hands.csv").data.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(raw)))
    assert list(rows[0])[:6] == [
        "hand",
        "dealer",
        "tricks Anna & Dina",
        "tricks Bo & Erik",
        "tricks Carl & Frida",
        "jack",
    ]
    assert rows[0]["ten"] == "Bo & Erik" and rows[1]["points Carl & Frida"] == "7"
    assert [EXAMPLES["scotch"].from_csv(row, game) for row in rows] == hands


def test_three_teams_are_named_each_against_the_others_on_the_sheet(api, client):
    """Six players in three pairs: the sheet's head says no two teams play together against the third."""
    game = api.create("scotch", players=["Ane", "Bo", "Cai", "Dag", "Eva", "Finn"], options={"teams": 3})
    text = client.get(f"/g/{game['id']}/print").get_data(as_text=True)
    assert "Ane &amp; Dag against Bo &amp; Eva against Cai &amp; Finn" in text or (
        "Ane & Dag against Bo & Eva against Cai & Finn" in text
    ), text[:2000]
