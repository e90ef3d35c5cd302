"""Whist drives through the JSON API and the real SQLite file: whole drives of both formats against standings worked
out by hand, every refusal (with nothing stored), the edit key, unknown drives, and the hands that take no result."""

import json
import sqlite3

import pytest

from helpers import dump

LADIES = ["Ann", "Bea", "Cat", "Dot", "Eve", "Fay"]
GENTS = ["Al", "Ben", "Cy", "Dan", "Ed", "Fred"]
PAIRS = [[lady, gent] for lady, gent in zip(LADIES, GENTS)]
# The first pair's tricks at tables 1, 2, 3 in hands 1–4 (the second pair took 13 − that); worked through in
# tests/unit/test_drives.py, seat by seat.
TRICKS = [[8, 4, 7], [6, 10, 5], [7, 2, 9], [13, 6, 7]]


def new_drive(client, **body):
    r = client.post("/api/drives", json=body)
    assert r.status_code == 201, r.json
    return r.json


def enter(client, drive, hand, table, tricks, status=201, key=None):
    headers = {"X-Edit-Key": drive["edit_key"] if key is None else key}
    r = client.post(f"/api/drives/{drive['id']}/hands/{hand}/tables/{table}", json={"tricks": tricks}, headers=headers)
    assert r.status_code == status, r.json
    return r.json


def play_all(client, drive, rows=TRICKS):
    out = None
    for hand, row in enumerate(rows, 1):
        for table, a in enumerate(row, 1):
            out = enter(client, drive, hand, table, [a, 13 - a])
    return out


def places(standings):
    return [(" & ".join(s["names"]), s["role"], s["total"], s["place"]) for s in standings]


def test_a_progressive_drive_from_start_to_finish(client):
    drive = new_drive(
        client,
        title="Village hall drive",
        format="progressive",
        ladies=LADIES,
        gents=GENTS,
        hands=4,
        trumps=["hearts", "clubs", "diamonds", "spades"],
        interval_after=2,
        tie_break="share",
    )
    assert drive["edit_page"] == f"/d/{drive['id']}/k/{drive['edit_key']}"
    assert (drive["title"], drive["format"], drive["tables"], drive["hands"]) == (
        "Village hall drive",
        "progressive",
        3,
        4,
    )
    assert (drive["current"], drive["finished"], drive["half_time"]) == (1, False, None)
    assert drive["rounds"] == [
        {
            "hand": 1,
            "trump": "hearts",
            "tables": [
                {"table": 1, "pairs": [["Ann", "Al"], ["Bea", "Ben"]], "tricks": None},
                {"table": 2, "pairs": [["Cat", "Cy"], ["Dot", "Dan"]], "tricks": None},
                {"table": 3, "pairs": [["Eve", "Ed"], ["Fay", "Fred"]], "tricks": None},
            ],
        }
    ]
    assert {s["total"] for s in drive["standings"]} == {0} and {s["place"] for s in drive["standings"]} == {1}

    after_one_table = enter(client, drive, 1, 1, [8, 5])
    assert after_one_table["current"] == 1 and len(after_one_table["rounds"]) == 1
    enter(client, drive, 1, 2, [4, 9])
    seated = enter(client, drive, 1, 3, [7, 6])
    assert seated["current"] == 2
    # Winners Ann+Al, Dot+Dan, Eve+Ed: the losing lady stays with the winning gent from up(t), the winning lady from
    # down(t) joins the losing gent.
    assert [t["pairs"] for t in seated["rounds"][1]["tables"]] == [
        [["Bea", "Dan"], ["Eve", "Ben"]],
        [["Cat", "Ed"], ["Ann", "Cy"]],
        [["Fay", "Al"], ["Dot", "Fred"]],
    ]
    assert seated["rounds"][1]["trump"] == "clubs"

    done = play_all(client, drive)
    assert done["finished"] and done["current"] == 4 and len(done["rounds"]) == 4
    assert [t["pairs"] for t in done["rounds"][3]["tables"]] == [
        [["Dot", "Cy"], ["Fay", "Dan"]],
        [["Ann", "Ben"], ["Bea", "Fred"]],
        [["Cat", "Ed"], ["Eve", "Al"]],
    ]
    assert places(done["standings"]) == [
        ("Dot", "lady", 36, 1),
        ("Eve", "lady", 31, 2),
        ("Bea", "lady", 25, 3),
        ("Cat", "lady", 25, 3),
        ("Fay", "lady", 20, 5),
        ("Ann", "lady", 19, 6),
        ("Cy", "gent", 31, 1),
        ("Ed", "gent", 31, 1),
        ("Ben", "gent", 27, 3),
        ("Al", "gent", 23, 4),
        ("Fred", "gent", 23, 4),
        ("Dan", "gent", 21, 6),
    ]
    # After two hands: Dot 9+8, Cat 4+10, Eve 7+7, Ann 8+3, Bea 5+6, Fay 6+5; Ed 7+10, Dan 9+6, Fred 6+8, Al 8+5,
    # Ben 5+7, Cy 4+3.
    assert places(done["half_time"]) == [
        ("Dot", "lady", 17, 1),
        ("Cat", "lady", 14, 2),
        ("Eve", "lady", 14, 2),
        ("Ann", "lady", 11, 4),
        ("Bea", "lady", 11, 4),
        ("Fay", "lady", 11, 4),
        ("Ed", "gent", 17, 1),
        ("Dan", "gent", 15, 2),
        ("Fred", "gent", 14, 3),
        ("Al", "gent", 13, 4),
        ("Ben", "gent", 12, 5),
        ("Cy", "gent", 7, 6),
    ]
    got = client.get(f"/api/drives/{drive['id']}")
    assert got.status_code == 200 and got.json == done
    assert "edit_key" not in got.json and "edit_page" not in got.json


def test_a_couples_drive_from_start_to_finish(client):
    drive = new_drive(client, format="couples", pairs=PAIRS, hands=4, trumps=["none"], tie_break="countback")
    assert [t["pairs"] for t in drive["rounds"][0]["tables"]] == [PAIRS[0:2], PAIRS[2:4], PAIRS[4:6]]
    done = play_all(client, drive)
    p1, p2, p3, p4, p5, p6 = PAIRS
    # Table t seats its losing pair and the winning pair of down(t).
    assert [[t["pairs"] for t in r["tables"]] for r in done["rounds"]] == [
        [[p1, p2], [p3, p4], [p5, p6]],
        [[p2, p5], [p3, p1], [p6, p4]],
        [[p2, p4], [p1, p5], [p6, p3]],
        [[p4, p6], [p1, p2], [p3, p5]],
    ]
    assert {r["trump"] for r in done["rounds"]} == {"none"}
    # p2 and p3 both 25 and both 7 in hand 4; in hand 3 p2 took 7, p3 4: countback puts p2 third, p3 fourth.
    assert places(done["standings"]) == [
        ("Dot & Dan", "pair", 36, 1),
        ("Eve & Ed", "pair", 31, 2),
        ("Bea & Ben", "pair", 25, 3),
        ("Cat & Cy", "pair", 25, 4),
        ("Fay & Fred", "pair", 20, 5),
        ("Ann & Al", "pair", 19, 6),
    ]
    assert done["finished"] and done["half_time"] is None


def test_countback_through_the_api(client):
    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=4, tie_break="countback")
    done = play_all(client, drive)
    # Cy and Ed 31 (hand 4: 13 against 7), Al and Fred 23 (hand 4: 6 against 7), Bea and Cat 25 (7 and 7, then 7, 4).
    assert [(s["names"][0], s["place"]) for s in done["standings"]] == [
        ("Dot", 1),
        ("Eve", 2),
        ("Bea", 3),
        ("Cat", 4),
        ("Fay", 5),
        ("Ann", 6),
        ("Cy", 1),
        ("Ed", 2),
        ("Ben", 3),
        ("Fred", 4),
        ("Al", 5),
        ("Dan", 6),
    ]


def test_a_result_is_replaced_until_the_next_hand_has_one(client, db_path):
    drive = new_drive(client, format="couples", pairs=PAIRS[:4], hands=2)
    enter(client, drive, 1, 1, [7, 6])
    enter(client, drive, 1, 2, [7, 6])
    again = enter(client, drive, 1, 1, [3, 10])  # p2 won instead: hand 2 is seated anew
    assert again["rounds"][0]["tables"][0]["tricks"] == [3, 10]
    assert [t["pairs"] for t in again["rounds"][1]["tables"]] == [[PAIRS[0], PAIRS[2]], [PAIRS[3], PAIRS[1]]]
    enter(client, drive, 2, 1, [7, 6])
    before = dump(db_path)
    refused = enter(client, drive, 1, 1, [7, 6], status=409)
    assert "hand" in refused["errors"]
    assert dump(db_path) == before
    enter(client, drive, 2, 1, [8, 5])  # hand 2, the current one, still takes it
    done = enter(client, drive, 2, 2, [0, 13])
    assert done["finished"]
    fixed = enter(client, drive, 2, 2, [1, 12])  # the last hand's results may be corrected: there is no hand after it
    assert fixed["finished"] and fixed["rounds"][1]["tables"][1]["tricks"] == [1, 12]
    conn = sqlite3.connect(db_path)
    try:
        rows = conn.execute(
            "SELECT hand, table_number, tricks FROM drive_results ORDER BY hand, table_number"
        ).fetchall()
    finally:
        conn.close()
    assert rows == [(1, 1, "[3,10]"), (1, 2, "[7,6]"), (2, 1, "[8,5]"), (2, 2, "[1,12]")]


@pytest.mark.parametrize(
    "hand,setup",
    [
        (2, []),  # hand 1 is being played
        (3, [(1, 1), (1, 2)]),  # hand 2 is
        (0, []),
        (5, [(h, t) for h in (1, 2, 3, 4) for t in (1, 2)]),  # after the last hand
        (3, [(h, t) for h in (1, 2, 3, 4) for t in (1, 2)]),  # a finished drive takes only corrections of its last hand
    ],
)
def test_a_result_for_a_hand_that_takes_none_now_is_409(client, db_path, hand, setup):
    drive = new_drive(client, format="progressive", ladies=LADIES[:4], gents=GENTS[:4], hands=4)
    for h, t in setup:
        enter(client, drive, h, t, [7, 6])
    before = dump(db_path)
    r = enter(client, drive, hand, 1, [7, 6], status=409)
    assert list(r["errors"]) == ["hand"]
    assert dump(db_path) == before


@pytest.mark.parametrize(
    "table,body,field",
    [
        (1, {"tricks": [7, 7]}, "tricks"),
        (1, {"tricks": [14, -1]}, "tricks"),
        (1, {"tricks": [13]}, "tricks"),
        (1, {"tricks": "7-6"}, "tricks"),
        (1, {"tricks": [6.5, 6.5]}, "tricks"),
        (1, {}, "tricks"),
        (1, {"tricks": [7, 6], "honours": [2, 2]}, "honours"),
        (3, {"tricks": [7, 6]}, "table"),
        (0, {"tricks": [7, 6]}, "table"),
    ],
)
def test_a_bad_result_is_400_and_stores_nothing(client, db_path, table, body, field):
    drive = new_drive(client, format="couples", pairs=PAIRS[:4], hands=4)
    before = dump(db_path)
    r = client.post(
        f"/api/drives/{drive['id']}/hands/1/tables/{table}", json=body, headers={"X-Edit-Key": drive["edit_key"]}
    )
    assert r.status_code == 400 and field in r.json["errors"], r.json
    assert dump(db_path) == before


def test_a_body_that_is_not_json_is_400(client, db_path):
    drive = new_drive(client, format="couples", pairs=PAIRS[:4])
    before = dump(db_path)
    r = client.post(
        f"/api/drives/{drive['id']}/hands/1/tables/1",
        data="tricks=7,6",
        content_type="text/plain",
        headers={"X-Edit-Key": drive["edit_key"]},
    )
    assert r.status_code == 400 and "body" in r.json["errors"]
    assert client.post("/api/drives", data="[1, 2]", content_type="application/json").status_code == 400
    assert dump(db_path) == before


@pytest.mark.parametrize("key", ["", "wrong", None])
def test_a_wrong_or_missing_edit_key_is_403(client, db_path, key):
    drive = new_drive(client, format="couples", pairs=PAIRS[:4])
    before = dump(db_path)
    headers = {} if key is None else {"X-Edit-Key": key}
    r = client.post(f"/api/drives/{drive['id']}/hands/1/tables/1", json={"tricks": [7, 6]}, headers=headers)
    assert r.status_code == 403 and "X-Edit-Key" in r.json["errors"]
    assert dump(db_path) == before


def test_the_edit_key_is_stored_only_as_its_hash(client, db_path):
    drive = new_drive(client, format="couples", pairs=PAIRS[:4])
    assert drive["edit_key"] not in repr(dump(db_path))


def test_an_unknown_drive_is_404(client, db_path):
    assert client.get("/api/drives/nothing-here").status_code == 404
    before = dump(db_path)
    r = client.post("/api/drives/nothing-here/hands/1/tables/1", json={"tricks": [7, 6]}, headers={"X-Edit-Key": "k"})
    assert r.status_code == 404 and "drive" in r.json["errors"]
    assert dump(db_path) == before


@pytest.mark.parametrize(
    "body,field",
    [
        # drives need not fill whole tables (issue 25), but at most one empty seat a table: 6 ladies, 2 gents
        ({"format": "progressive", "ladies": LADIES, "gents": GENTS[:2]}, "gents"),
        ({"format": "progressive", "ladies": LADIES[:2], "gents": GENTS[:2]}, "ladies"),
        (
            {"format": "progressive", "ladies": ["Ann", "Bea", "Cat", "Dot"], "gents": ["Al", "Ben", "Cy", "Al"]},
            "ladies",
        ),
        ({"format": "couples", "pairs": PAIRS[:2]}, "pairs"),
        ({"format": "couples", "pairs": [["Ann", "<script>"], *PAIRS[1:4]]}, "pairs"),
        ({"format": "couples", "pairs": PAIRS[:4], "hands": 101}, "hands"),
        ({"format": "couples", "pairs": PAIRS[:4], "trumps": ["hearts", "trumps"]}, "trumps"),
        ({"format": "couples", "pairs": PAIRS[:4], "hands": 10, "interval_after": 10}, "interval_after"),
        ({"format": "couples", "pairs": PAIRS[:4], "tie_break": "toss"}, "tie_break"),
        ({"format": "whist", "pairs": PAIRS[:4]}, "format"),
        ({"pairs": PAIRS[:4]}, "format"),
    ],
)
def test_a_drive_is_refused_naming_the_field_and_nothing_is_stored(client, db_path, body, field):
    before = dump(db_path)
    r = client.post("/api/drives", json=body)
    assert r.status_code == 400 and field in r.json["errors"], r.json
    assert dump(db_path) == before


def test_a_body_over_64_kib_is_413(client, db_path):
    before = dump(db_path)
    r = client.post("/api/drives", data='{"title": "' + "x" * 70_000 + '"}', content_type="application/json")
    assert r.status_code == 413 and "body" in r.json["errors"]
    assert dump(db_path) == before


def test_errors_speak_the_requests_language(client):
    r = client.post("/api/drives", json={"format": "couples", "pairs": PAIRS[:2]}, headers={"Accept-Language": "da"})
    english = "a couples drive has at least two tables: at least 3 pairs (not 2)"
    assert r.status_code == 400 and r.json["errors"]["pairs"] not in ("", english)


# ---------------------------------------------------------------- a result carries the seating it was entered for


def test_a_result_for_a_seating_that_changed_is_409(client, db_path):
    """Issue 22, finding 5: table 1's phone shows hand 2's seating; the organiser corrects hand 1 and hand 2 is
    seated anew; the phone's result, sent with the pairs it showed, is refused and nothing is stored (before, it was
    stored for the new pairs: a hand credited to players who did not play it)."""
    drive = new_drive(client, format="progressive", ladies=LADIES[:4], gents=GENTS[:4], hands=3)
    enter(client, drive, 1, 1, [8, 5])
    shown = enter(client, drive, 1, 2, [8, 5])["rounds"][1]["tables"][0]  # hand 2 at table 1, as the phone shows it
    corrected = enter(client, drive, 1, 1, [5, 8])["rounds"][1]["tables"][0]  # the organiser: the other pair won
    assert corrected["pairs"] != shown["pairs"]
    assert set(corrected) == {"table", "pairs", "tricks"}  # the rounds as API.md has them
    url = f"/api/drives/{drive['id']}/hands/2/tables/1"
    headers = {"X-Edit-Key": drive["edit_key"]}
    before = dump(db_path)
    r = client.post(url, json={"tricks": [7, 6], "pairs": shown["pairs"]}, headers=headers)
    assert r.status_code == 409 and r.json["errors"] == {"pairs": "the seating changed — reload"}
    danish = client.post(
        url, json={"tricks": [7, 6], "pairs": shown["pairs"]}, headers={**headers, "Accept-Language": "da"}
    )
    assert danish.status_code == 409 and danish.json["errors"]["pairs"] not in ("", "the seating changed — reload")
    assert dump(db_path) == before
    # The pairs as they sit now are taken; so is a result without them, as before (the API's contract).
    r = client.post(url, json={"tricks": [7, 6], "pairs": corrected["pairs"]}, headers=headers)
    assert r.status_code == 201 and r.json["rounds"][1]["tables"][0]["tricks"] == [7, 6]
    r = client.post(f"/api/drives/{drive['id']}/hands/2/tables/2", json={"tricks": [6, 7]}, headers=headers)
    assert r.status_code == 201 and r.json["current"] == 3


def test_an_unchanged_seating_is_taken_after_a_correction(client):
    """A correction that does not change who won at a table leaves the next hand's seating alone."""
    drive = new_drive(client, format="couples", pairs=PAIRS[:4], hands=3)
    enter(client, drive, 1, 1, [8, 5])
    shown = enter(client, drive, 1, 2, [8, 5])["rounds"][1]["tables"][0]
    assert enter(client, drive, 1, 1, [9, 4])["rounds"][1]["tables"][0]["pairs"] == shown["pairs"]
    r = client.post(
        f"/api/drives/{drive['id']}/hands/2/tables/1",
        json={"tricks": [7, 6], "pairs": shown["pairs"]},
        headers={"X-Edit-Key": drive["edit_key"]},
    )
    assert r.status_code == 201


@pytest.mark.parametrize("pairs", [7, "Ann & Al", [["Ann", "Al"]], [["Ann", "Al"], ["Bea", 3]], [[], []]])
def test_pairs_that_are_not_two_pairs_of_names_are_400(client, db_path, pairs):
    drive = new_drive(client, format="couples", pairs=PAIRS[:4], hands=2)
    before = dump(db_path)
    r = client.post(
        f"/api/drives/{drive['id']}/hands/1/tables/1",
        json={"tricks": [7, 6], "pairs": pairs},
        headers={"X-Edit-Key": drive["edit_key"]},
    )
    assert r.status_code == 400 and list(r.json["errors"]) == ["pairs"], r.json
    assert dump(db_path) == before


def test_a_drive_stored_before_todays_name_rules_still_opens(client, db_path):
    """Name rules have grown stricter (markup, control and bidi characters refused); a drive whose stored names the
    rules of today refuse is read back as it was kept — every page opens, the names printed as letters — not a 500."""
    drive = new_drive(client, format="progressive", ladies=LADIES[:4], gents=GENTS[:4], hands=2)
    with sqlite3.connect(db_path) as conn:
        (setup,) = conn.execute("SELECT setup FROM drives WHERE id = ?", [drive["id"]]).fetchone()
        data = json.loads(setup)
        data["ladies"][0] = "<b>Ann</b>"
        data["title"] = "Old <drive>"
        conn.execute("UPDATE drives SET setup = ? WHERE id = ?", [json.dumps(data), drive["id"]])
    r = client.get(f"/api/drives/{drive['id']}")
    assert r.status_code == 200 and "<b>Ann</b>" in json.dumps(r.json)
    for path in ("", "/screen", "/standings", "/scorecards"):
        page = client.get(f"/d/{drive['id']}{path}")
        assert page.status_code == 200, path
        html = page.get_data(as_text=True)
        assert "&lt;b&gt;Ann&lt;/b&gt;" in html and "<b>Ann</b>" not in html, path
    pdf = client.get(f"/d/{drive['id']}/scorecards.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    enter(client, drive, 1, 1, [7, 6])  # and it goes on
