"""Bid whist through the API and the pages, over a real SQLite file: the options in full, partnerships, `leader` in
every hand, the game to the target or into the hole (409 after), every refusal of RULES.md by its field with nothing
stored, the hand form (the bidder's side's books, the other side's filled in), the protokoll, print, blank sheet and
CSV."""

import csv
import io
import re

import pytest

from helpers import dump, post_hand, start

PLAYERS = ["Ada", "Ben", "Cleo", "Dan"]


def text(r) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


def hand_post(client, game, data):
    return client.post(f"/api/games/{game['id']}/hands", json=data, headers={"X-Edit-Key": game["edit_key"]})


# ------------------------------------------------------------------ the API


def test_the_options_in_full_and_the_partnerships(api):
    game = api.create("bid", players=PLAYERS, options={"target": 11})
    assert game["sides"] == [[0, 2], [1, 3]]
    assert game["options"] == {
        "target": 11,
        "min_bid": 3,
        "made": "bid",
        "set_defenders": True,
        "no_trump_double": True,
        "boston": "quadruple",
        "kitty": True,
        "rate": None,
        "currency": "SEK",
    }


def test_every_hand_answers_the_bidder_as_its_leader(api):
    game = api.create("bid", players=PLAYERS, dealer=2, options={"target": 21})
    h = api.hand(game, {"bidder": 0, "bid": 4, "direction": "uptown", "tricks": [10, 3]})
    assert h["points"] == [4, 0] and h["leader"] == 0
    h = api.hand(game, {"passed": True})
    assert h["points"] == [0, 0] and h["leader"] == 0  # dealer 3: the dealer's left
    h = api.hand(game, {"bidder": 1, "bid": 5, "direction": "no_trump", "tricks": [7, 6]})
    assert h["points"] == [2, -10] and h["leader"] == 1
    h = api.hand(game, {"bidder": 3, "bid": 3, "direction": "downtown", "tricks": [0, 13]})
    assert h["points"] == [0, 12] and h["leader"] == 3  # a Boston: four times
    assert [x["leader"] for x in api.get(game)["hands"]] == [0, 0, 1, 3]


def test_the_game_is_won_at_the_target_and_takes_no_more_hands(client, api, db_path):
    game = api.create("bid", players=PLAYERS)
    api.hand(game, {"bidder": 0, "bid": 4, "direction": "uptown", "tricks": [10, 3]})
    api.hand(game, {"bidder": 2, "bid": 3, "direction": "uptown", "tricks": [9, 4]})
    g = api.get(game)
    assert g["finished"] and g["winner"] == 0 and g["totals"] == [7, 0]
    before = dump(db_path)
    r = hand_post(client, game, {"passed": True})
    assert r.status_code == 409 and dump(db_path) == before


def test_going_to_the_hole_loses_the_game(api):
    game = api.create("bid", players=PLAYERS, options={"set_defenders": False})
    api.hand(game, {"bidder": 1, "bid": 7, "direction": "uptown", "tricks": [2, 11]})
    g = api.get(game)
    assert g["totals"] == [0, -7] and g["finished"] and g["winner"] == 0


def test_a_boston_can_win_the_game_at_once(api):
    game = api.create("bid", players=PLAYERS, options={"target": 21, "boston": "wins_game"})
    api.hand(game, {"bidder": 1, "bid": 3, "direction": "uptown", "tricks": [0, 13]})
    g = api.get(game)
    assert g["finished"] and g["winner"] == 1 and g["totals"] == [0, 3]


def test_edits_replay_the_game(client, api):
    game = api.create("bid", players=PLAYERS)
    api.hand(game, {"bidder": 0, "bid": 7, "direction": "uptown", "tricks": [13, 0]})
    assert api.get(game)["finished"]
    r = client.put(
        f"/api/games/{game['id']}/hands/1",
        json={"bidder": 0, "bid": 3, "direction": "uptown", "tricks": [8, 5]},
        headers={"X-Edit-Key": game["edit_key"]},
    )
    assert r.status_code == 200
    g = api.get(game)
    assert not g["finished"] and g["totals"] == [-3, 0]


REFUSED = [
    ({"bidder": 0, "bid": 2, "direction": "uptown", "tricks": [10, 3]}, "bid"),
    ({"bidder": 0, "bid": 8, "direction": "uptown", "tricks": [10, 3]}, "bid"),
    ({"bidder": 0, "direction": "uptown", "tricks": [10, 3]}, "bid"),
    ({"bidder": 0, "bid": 4, "direction": "sideways", "tricks": [10, 3]}, "direction"),
    ({"bidder": 0, "bid": 4, "tricks": [10, 3]}, "direction"),
    ({"bidder": 4, "bid": 4, "direction": "uptown", "tricks": [10, 3]}, "bidder"),
    ({"bid": 4, "direction": "uptown", "tricks": [10, 3]}, "bidder"),
    ({"bidder": 0, "bid": 4, "direction": "uptown", "tricks": [10, 2]}, "tricks"),
    ({"bidder": 0, "bid": 4, "direction": "uptown", "tricks": [11, 3]}, "tricks"),
    ({"bidder": 0, "bid": 4, "direction": "uptown", "tricks": [0, 13]}, "tricks"),  # the kitty is theirs
    ({"bidder": 1, "bid": 4, "direction": "uptown", "tricks": [13, 0]}, "tricks"),
    ({"bidder": 0, "bid": 4, "direction": "uptown"}, "tricks"),
    ({"passed": True, "bid": 4}, "bid"),
]


@pytest.mark.parametrize("data, field", REFUSED)
def test_each_refusal_names_its_field_and_stores_nothing(client, api, db_path, data, field):
    game = api.create("bid", players=PLAYERS, options={"target": 21})
    api.hand(game, {"bidder": 0, "bid": 3, "direction": "uptown", "tricks": [9, 4]})
    before = dump(db_path)
    r = hand_post(client, game, data)
    assert r.status_code == 400 and field in r.json["errors"], r.json
    r = client.put(f"/api/games/{game['id']}/hands/1", json=data, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 400 and field in r.json["errors"], r.json
    assert dump(db_path) == before


def test_min_bid_and_no_kitty(client, api, db_path):
    game = api.create("bid", players=PLAYERS, options={"min_bid": 4, "kitty": False})
    before = dump(db_path)
    r = hand_post(client, game, {"bidder": 0, "bid": 3, "direction": "uptown", "tricks": [9, 4]})
    assert r.status_code == 400 and "bid" in r.json["errors"] and dump(db_path) == before
    h = api.hand(game, {"bidder": 0, "bid": 4, "direction": "uptown", "tricks": [0, 13]})
    assert h["points"] == [-4, 7]


@pytest.mark.parametrize(
    "options, field",
    [
        ({"target": 0}, "options.target"),
        ({"min_bid": 8}, "options.min_bid"),
        ({"made": "tricks"}, "options.made"),
        ({"boston": "triple"}, "options.boston"),
        ({"kitty": "no"}, "options.kitty"),
    ],
)
def test_bad_options_are_refused_and_nothing_stored(client, db_path, options, field):
    client.get("/")
    before = dump(db_path)
    r = client.post("/api/games", json={"variant": "bid", "players": PLAYERS, "options": options})
    assert r.status_code == 400 and field in r.json["errors"], r.json
    assert dump(db_path) == before


# ------------------------------------------------------------------ the pages


def test_the_form_counts_the_bidders_sides_books_and_plays_a_game(client):
    gid = start(client, "bid", PLAYERS, target="11")
    html = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    assert re.findall(r'name="bid" id="bid-(\d)"', html) == ["3", "4", "5", "6", "7"]
    assert re.findall(r'name="direction" id="direction-([a-z_]+)"', html) == ["uptown", "downtown", "no_trump"]
    assert re.findall(r'name="tricks" id="tricks-(\d+)"', html) == [str(t) for t in range(1, 14)]  # the kitty
    assert re.search(r'Leads: <b data-follows="bidder"[^>]*>the bidder</b>', html)  # a tapped bidder is named
    post_hand(client, gid, {"bidder": "0", "bid": "4", "direction": "uptown", "tricks": "10"})
    post_hand(client, gid, {"bidder": "1", "bid": "5", "direction": "no_trump", "tricks": "6"})  # Ben & Dan set
    post_hand(client, gid, {"passed": "1"})
    game = client.get(f"/api/games/{gid}").json
    assert [h["input"] for h in game["hands"]] == [
        {"bidder": 0, "bid": 4, "direction": "uptown", "tricks": [10, 3]},
        {"bidder": 1, "bid": 5, "direction": "no_trump", "tricks": [7, 6]},
        {"passed": True},
    ]
    assert game["totals"] == [6, -10]
    page = text(client.get(f"/g/{gid}"))
    assert "Ada 4 uptown, 10 books" in page and "Ben 5 no trump, 6 books" in page and "Passed out" in page
    edit = client.get(f"/g/{gid}/hands/2").get_data(as_text=True)
    assert 'id="tricks-6" value="6" checked' in edit and 'id="direction-no_trump" value="no_trump" checked' in edit
    post_hand(client, gid, {"bidder": "1", "bid": "5", "direction": "no_trump", "tricks": "11"}, number=2)
    assert client.get(f"/api/games/{gid}").json["totals"] == [4, 10]


@pytest.mark.parametrize(
    "data, field, message",
    [
        ({"bid": "4", "direction": "uptown", "tricks": "10"}, "bidder", "choose a player"),
        ({"bidder": "0", "direction": "uptown", "tricks": "10"}, "bid", "is missing"),
        ({"bidder": "0", "bid": "9", "direction": "uptown", "tricks": "10"}, "bid", "from 3 to 7"),
        ({"bidder": "0", "bid": "4", "tricks": "10"}, "direction", "is missing"),
        ({"bidder": "0", "bid": "4", "direction": "uptown", "tricks": "0"}, "tricks", "the kitty"),
        ({"bidder": "0", "bid": "4", "direction": "uptown"}, "tricks", "is missing"),
    ],
)
def test_a_bad_hand_is_shown_by_its_field_and_nothing_stored(client, db_path, data, field, message):
    gid = start(client, "bid", PLAYERS)
    before = dump(db_path)
    r = post_hand(client, gid, data, expect=400)
    html = r.get_data(as_text=True)
    m = re.search(rf'id="f-{field}".*?</fieldset>\s*<p class="error" role="alert"[^>]*>([^<]+)</p>', html, re.S)
    assert m and message in m.group(1), html[:3000]
    assert dump(db_path) == before


def test_the_refusal_speaks_swedish_on_a_swedish_page(client, db_path):
    gid = start(client, "bid", PLAYERS)
    client.get("/lang/sv")
    before = dump(db_path)
    r = post_hand(client, gid, {"bidder": "0", "bid": "4", "direction": "uptown", "tricks": "0"}, expect=400)
    assert "spelförarlaget har minst ett stick: katten" in text(r)
    assert dump(db_path) == before


@pytest.mark.parametrize(
    "lang, words",
    [
        ("da", "mangler: en af højt (uptown), lavt (downtown), uden trumf"),
        ("sv", "saknas: ett av högt (uptown), lågt (downtown), utan trumf"),
    ],
)
def test_a_missing_direction_is_named_in_the_readers_words(client, api, db_path, lang, words):
    """Issue 33: a Danish Bid whist hand said "en af uptown, downtown, no_trump", the API's codes; the page names the
    directions as its buttons do, and the API still spells its codes."""
    gid = start(client, "bid", PLAYERS)
    client.get(f"/lang/{lang}")
    before = dump(db_path)
    html = post_hand(client, gid, {"bidder": "0", "bid": "4", "tricks": "10"}, expect=400).get_data(as_text=True)
    shown = re.search(r'id="f-direction".*?</fieldset>\s*<p class="error" role="alert"[^>]*>([^<]+)</p>', html, re.S)
    assert shown and words in shown.group(1) and "no_trump" not in shown.group(1), html[:3000]
    assert dump(db_path) == before
    game = api.create("bid", players=PLAYERS)
    r = client.post(
        f"/api/games/{game['id']}/hands",
        json={"bidder": 0, "bid": 4, "tricks": 10},
        headers={"X-Edit-Key": game["edit_key"]},
    )
    assert "no_trump" in r.json["errors"]["direction"]


def test_without_the_kitty_the_books_start_at_nought(client):
    gid = start(client, "bid", PLAYERS, kitty="")
    html = client.get(f"/g/{gid}/hands/new").get_data(as_text=True)
    assert 'id="tricks-0"' in html and "(the kitty is one)" not in html
    post_hand(client, gid, {"bidder": "3", "bid": "3", "direction": "downtown", "tricks": "0"})
    assert client.get(f"/api/games/{gid}").json["hands"][0]["points"] == [7, -3]


def test_print_blank_and_csv(client, api):
    game = api.create("bid", players=PLAYERS, options={"target": 30})
    for hand in (
        {"bidder": 0, "bid": 4, "direction": "uptown", "tricks": [10, 3]},
        {"bidder": 3, "bid": 3, "direction": "no_trump", "tricks": [0, 13]},
        {"passed": True},
    ):
        api.hand(game, hand)
    printed = text(client.get(f"/g/{game['id']}/print"))
    assert "Bid whist" in printed and "Dan 3 no trump, 13 books · Boston" in printed
    assert "Game to (at minus it: in the hole) 30" in printed and "four times the score" in printed
    assert "Ada &amp; Cleo against Ben &amp; Dan" in printed or "Ada & Cleo against Ben & Dan" in printed
    blank = text(client.get(f"/g/{game['id']}/blank"))
    for column in ("Bidder", "Bid", "Direction", "Books"):
        assert column in blank
    rows = list(csv.DictReader(io.StringIO(client.get(f"/g/{game['id']}/hands.csv").data.decode("utf-8-sig"))))
    assert [r["direction"] for r in rows] == ["uptown", "no trump", ""]  # the sheet's words (issue 44)
    assert rows[1]["tricks Ben & Dan"] == "13" and rows[1]["points Ben & Dan"] == "24"  # 3 × 2 × 4
