"""Issue 25: a whist drive in a real hall, through the real SQLite file, the JSON API and the pages: late corrections
with their effect and "move again", renames, substitutes, odd numbers, ladies as gents, deleting a test drive,
prizes as organisers give them (places, boobies, half-time, lucky numbers, one each, cuts, countback in words), money
only for the organiser, the cards' address, the paper four to a sheet, the form's wording, the fresh movement."""

import io
import re
from html import unescape

import pytest

from helpers import dump, token

LADIES = ["Ann", "Bea", "Cat", "Dot", "Eve", "Fay"]
GENTS = ["Al", "Ben", "Cy", "Dan", "Ed", "Fred"]
PAIRS = [[lady, gent] for lady, gent in zip(LADIES, GENTS)]
TRICKS = [[8, 4, 7], [6, 10, 5], [7, 2, 9], [13, 6, 7]]  # first pair's tricks, tables 1–3, hands 1–4


def new_drive(client, status=201, **body):
    r = client.post("/api/drives", json=body)
    assert r.status_code == status, r.json
    return r.json


def post(client, drive, hand, table, tricks, status=201, **extra):
    r = client.post(
        f"/api/drives/{drive['id']}/hands/{hand}/tables/{table}",
        json={"tricks": tricks, **extra},
        headers={"X-Edit-Key": drive["edit_key"]},
    )
    assert r.status_code == status, r.json
    return r.json


def put(client, drive, hand, table, tricks, status=200, key=None, **extra):
    r = client.put(
        f"/api/drives/{drive['id']}/hands/{hand}/tables/{table}",
        json={"tricks": tricks, **extra},
        headers={"X-Edit-Key": drive["edit_key"] if key is None else key},
    )
    assert r.status_code == status, r.json
    return r.json


def write(client, drive, path, body, status=200, method="post"):
    r = getattr(client, method)(
        f"/api/drives/{drive['id']}/{path}", json=body, headers={"X-Edit-Key": drive["edit_key"]}
    )
    assert r.status_code == status, r.json
    return r.json


def get(client, drive, key=None):
    headers = {"X-Edit-Key": key} if key else {}
    return client.get(f"/api/drives/{drive['id']}", headers=headers).json


def play(client, drive, rows=TRICKS):
    out = None
    for hand, row in enumerate(rows, 1):
        for table, a in enumerate(row, 1):
            out = post(client, drive, hand, table, [a, 13 - a])
    return out


def seats_of(hand_round):
    return {name: (t["table"], i) for t in hand_round["tables"] for i, pair in enumerate(t["pairs"]) for name in pair}


def organise(client, drive):
    """This test client becomes the drive's organiser (the edit link puts the key in its session)."""
    assert client.get(drive["edit_page"]).status_code == 302


# ---------------------------------------------------------------- finding 1: the booby prize and countback


def test_the_booby_prize_goes_by_countback_and_says_why(client):
    """Two pairs tied on the lowest total (11), countback puts Dot & Dan 3rd and Bea & Ben 4th: the booby is Bea &
    Ben's alone, with the reason in words. Prizes and the fee come through POST /api/drives."""
    drive = new_drive(
        client,
        format="couples",
        pairs=PAIRS[:4],
        hands=2,
        tie_break="countback",
        fee="5",
        currency="GBP",
        prizes=[{"kind": "place", "place": 1, "name": "Wine", "amount": "8"}, {"kind": "booby", "name": "Spoon"}],
    )
    post(client, drive, 1, 1, [7, 6])
    post(client, drive, 1, 2, [8, 5])
    post(client, drive, 2, 1, [5, 8])
    d = post(client, drive, 2, 2, [6, 7])
    assert d["finished"]
    prizes = get(client, drive)["prizes"]
    assert [p["winners"] for p in prizes] == [["Cat & Cy"], ["Bea & Ben"]]
    assert prizes[1]["reasons"] == ["Dot & Dan ahead of Bea & Ben on countback: 6 v 5 in the last hand"]
    assert "amount" not in prizes[0]  # the public answer has no costs
    assert get(client, drive, drive["edit_key"])["money"]["raised"] == 8 * 500 - 800
    da = client.get(f"/api/drives/{drive['id']}", headers={"Accept-Language": "da"}).json["prizes"][1]["reasons"][0]
    assert da == "Dot & Dan foran Bea & Ben ved baglæns optælling: 6 mod 5 i sidste spil"


# ---------------------------------------------------------------- findings 2 and 3: corrections


def test_a_correction_that_reseats_says_who_moves_on_the_screen_and_the_tables_pages(client):
    """Finding 2: the organiser turns a table's winner round after hand 2 was seated and read: PUT answers `moved`,
    the hall screen marks them "move again", the affected tables' pages tell them, the others' do not."""
    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=4)
    for t, a in enumerate(TRICKS[0], 1):
        before = post(client, drive, 1, t, [a, 13 - a])
    was = seats_of(before["rounds"][1])
    out = put(client, drive, 1, 1, [5, 8])
    now = seats_of(out["rounds"][1])
    moved = sorted((n for n in now if now[n] != was[n]), key=str.casefold)
    assert out["moved"] == moved and moved
    assert {t["name"] for t in out["totals"]} == {"Ann", "Al", "Bea", "Ben"}
    assert [m["name"] for m in get(client, drive)["move_again"]] == moved
    screen = client.get(f"/d/{drive['id']}/screen").get_data(as_text=True)
    marked = set(re.findall(r'<li class="[^"]*again[^"]*" data-name="([^"]+)"', screen))
    assert marked == set(moved)
    organise(client, drive)
    cards = client.get(f"/d/{drive['id']}/cards").get_data(as_text=True)
    urls = {int(t): p for p, t in re.findall(r'<a href="http://localhost(/d/[^"]+)" data-table="(\d+)"', cards)}
    affected = {was[n][0] for n in moved} | {now[n][0] for n in moved}
    for t, url in urls.items():
        page = client.application.test_client().get(url).get_data(as_text=True)
        box = re.search(r'<section class="move-again".*?</section>', page, re.S)
        if t in affected:
            assert box, t
            named = set(re.findall(r'data-name="([^"]+)"', box.group(0)))
            assert named and named <= set(moved)
            assert all(now[n][0] == t or was[n][0] == t for n in named)
        else:
            assert box is None, t
    # once the hand is played, nobody is told to move any more
    for t in (1, 2, 3):
        post(client, drive, 2, t, [7, 6])
    assert "move_again" not in get(client, drive)


def test_any_hand_is_corrected_late_keeping_the_seating_as_played(client, db_path):
    """Finding 3: "my card says 78" at the end of the evening: hand 1 is corrected after all four hands; the totals
    change, every later hand keeps the seating it was played in, the tables' own POST still refuses it."""
    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=4)
    done = play(client, drive)
    assert done["finished"]
    seatings = [r["tables"] for r in done["rounds"]]
    post(client, drive, 1, 1, [5, 8], status=409)  # the tables' rules
    out = put(client, drive, 1, 1, [5, 8])
    assert out["moved"] == [] and [r["tables"][0]["pairs"] for r in out["rounds"]] == [t[0]["pairs"] for t in seatings]
    assert out["rounds"][0]["tables"][0]["tricks"] == [5, 8]
    was = {s["names"][0]: s["total"] for s in done["standings"]}
    now = {s["names"][0]: s["total"] for s in out["standings"]}
    assert {n for n in was if was[n] != now[n]} == {"Ann", "Al", "Bea", "Ben"}
    assert now["Ann"] == was["Ann"] - 3 and now["Bea"] == was["Bea"] + 3
    # a dry run says what it would do and stores nothing
    before = dump(db_path)
    dry = put(client, drive, 2, 2, [3, 10], dry_run=True)
    assert dry["moved"] == [] and dump(db_path) == before
    # without the key, or for a hand not seated, or a table that is not there: refused, nothing stored
    put(client, drive, 1, 1, [6, 7], status=403, key="wrong")
    put(client, drive, 5, 1, [6, 7], status=409)
    put(client, drive, 1, 9, [6, 7], status=400)
    put(client, drive, 1, 1, [6, 6], status=400)
    assert dump(db_path) == before


def test_keep_the_seating_corrects_the_tricks_and_moves_nobody(client):
    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=4)
    for t, a in enumerate(TRICKS[0], 1):
        before = post(client, drive, 1, t, [a, 13 - a])
    out = put(client, drive, 1, 1, [5, 8], keep_seating=True)
    assert out["moved"] == [] and out["rounds"][1] == before["rounds"][1]
    assert "move_again" not in out
    assert out["rounds"][0]["tables"][0]["tricks"] == [5, 8]
    put(client, drive, 1, 1, [5, 8], keep_seating="yes", status=400)


def test_the_organisers_correction_page_shows_the_effect_before_saving(client, db_path):
    """The correction page: choose the tricks, see who moves and whose totals change, nothing stored until Save; the
    saved notice is shown where the page lands (#notice), not at the page's top."""
    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=4)
    for t, a in enumerate(TRICKS[0], 1):
        post(client, drive, 1, t, [a, 13 - a])
    organise(client, drive)
    before = dump(db_path)
    page = client.get(f"/d/{drive['id']}/correct", query_string={"hand": 1, "table": 1, "tricks": 5})
    html = unescape(page.get_data(as_text=True))
    assert page.status_code == 200 and dump(db_path) == before
    assert "8–5 becomes 5–8" in html and "The other pair wins the table now." in html
    moved = re.findall(r'<ul class="moved" id="moved">(.*?)</ul>', html, re.S)[0]
    assert set(re.findall(r'data-name="([^"]+)"', moved)) == set(
        put(client, drive, 1, 1, [5, 8], dry_run=True)["moved"]
    )
    assert re.search(r'<li data-name="Ann"><b>Ann</b> \d+ → \d+</li>', html)
    assert 'id="save-keep"' in html
    seated = re.findall(r'<input type="hidden" name="seated" value="([^"]*)">', html)[:4]
    r = client.post(
        f"/d/{drive['id']}/correct",
        data={
            "csrf_token": token(client, f"/d/{drive['id']}"),
            "hand": 1,
            "table": 1,
            "tricks": 5,
            "seated": seated,
            "keep_seating": "0",
        },
    )
    assert r.status_code == 302 and r.headers["Location"].endswith("#notice")
    landed = client.get(r.headers["Location"]).get_data(as_text=True)
    notice = re.search(r'<div class="notice" id="notice" role="status">(.*?)</div>', landed, re.S).group(1)
    assert "saved" in notice and "Move again" in notice
    assert 'class="flashes"' not in landed  # not also at the top, out of view
    assert get(client, drive)["rounds"][0]["tables"][0]["tricks"] == [5, 8]


# ---------------------------------------------------------------- finding 3: real numbers of people


def test_rename_substitute_and_delete(client, db_path):
    drive = new_drive(
        client, format="progressive", ladies=LADIES, gents=GENTS, hands=4, interval_after=2, substitute_card="new"
    )
    out = write(client, drive, "rename", {"from": "Fay", "to": "Faye"})
    assert out["ladies"][5] == "Faye" and out["rounds"][0]["tables"][2]["pairs"][1][0] == "Faye"
    write(client, drive, "rename", {"from": "Faye", "to": "Ann"}, status=400)
    play(client, drive, TRICKS[:2])
    # at the interval Bea leaves and Zoe takes her seat
    out = write(client, drive, "substitutes", {"out": "Bea", "in": "Zoe", "hand": 3}, status=201)
    assert any("Zoe" in pair for t in out["rounds"][2]["tables"] for pair in t["pairs"])
    assert not any("Bea" in pair for t in out["rounds"][2]["tables"] for pair in t["pairs"])
    assert any("Bea" in pair for t in out["rounds"][1]["tables"] for pair in t["pairs"])  # history stays
    bea_before = next(s for s in out["standings"] if s["names"] == ["Bea"])
    for hand in (3, 4):
        for table, a in enumerate(TRICKS[hand - 1], 1):
            done = post(client, drive, hand, table, [a, 13 - a])
    zoe = next(s for s in done["standings"] if s["names"] == ["Zoe"])
    bea = next(s for s in done["standings"] if s["names"] == ["Bea"])
    assert (bea["total"], bea["place"], bea["played"]) == (bea_before["total"], None, 2)
    assert zoe["place"] is None and zoe["played"] == 2
    write(client, drive, "substitutes", {"out": "Bea", "in": "Yan", "hand": 4}, status=400)
    # a drive with results is not deleted; one without is
    r = client.delete(f"/api/drives/{drive['id']}", headers={"X-Edit-Key": drive["edit_key"]})
    assert r.status_code == 409
    test = new_drive(client, format="couples", pairs=PAIRS[:4])
    assert client.delete(f"/api/drives/{test['id']}", headers={"X-Edit-Key": "nope"}).status_code == 403
    assert client.delete(f"/api/drives/{test['id']}", headers={"X-Edit-Key": test["edit_key"]}).status_code == 204
    assert client.get(f"/api/drives/{test['id']}").status_code == 404


def test_odd_numbers_sit_out_or_play_with_a_dummy(client):
    """7 ladies and 7 gents: four tables; the last has an empty lady's and gent's seat in one partnership, so its
    two players sit out and score 7; 8 ladies and 7 gents: the last table plays with a dummy."""
    drive = new_drive(
        client, format="progressive", ladies=[f"L{i}" for i in range(7)], gents=[f"G{i}" for i in range(7)], hands=2
    )
    assert drive["tables"] == 4 and drive["sit_out"] == 7
    last = drive["rounds"][0]["tables"][3]
    assert last == {"table": 4, "pairs": [["L6", "G6"], [None, None]], "tricks": None, "plays": "out"}
    post(client, drive, 1, 4, [7, 6], status=409)
    for t in (1, 2, 3):
        d = post(client, drive, 1, t, [8, 5])
    assert d["current"] == 2
    assert next(s for s in d["standings"] if s["names"] == ["L6"])["total"] == 7
    dummy = new_drive(
        client, format="progressive", ladies=[f"L{i}" for i in range(8)], gents=[f"G{i}" for i in range(7)]
    )
    assert dummy["rounds"][0]["tables"][3]["plays"] == "dummy"
    couples = new_drive(client, format="couples", pairs=PAIRS[:5], sit_out="average")
    assert couples["tables"] == 3 and couples["rounds"][0]["tables"][2]["plays"] == "out"
    full = new_drive(client, format="couples", pairs=PAIRS[:4])
    assert "plays" not in full["rounds"][0]["tables"][0] and "sit_out" not in full  # shapes as they were


def test_a_lady_playing_as_gent(client):
    drive = new_drive(
        client, format="progressive", ladies=LADIES[:4], gents=["Al", "Ben", "Cy", "Dora"], ladies_as_gents=["Dora"]
    )
    dora = next(s for s in drive["standings"] if s["names"] == ["Dora"])
    assert dora["role"] == "gent" and dora["lady_as_gent"] is True


# ---------------------------------------------------------------- finding 4: two phones at a table


def test_a_second_phones_different_result_is_shown_not_silently_replaced(client):
    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=2)
    organise(client, drive)
    cards = client.get(f"/d/{drive['id']}/cards").get_data(as_text=True)
    url = re.search(r'<a href="http://localhost(/d/[^"]+)" data-table="1"', cards).group(1)
    a, b = client.application.test_client(), client.application.test_client()
    page_a = a.get(url).get_data(as_text=True)
    # updates itself in place (live.js asks its /live twin), never under a tap not sent (drives.js marks the form)
    assert 'data-live-url="' in page_a and "live.js" in page_a and "drives.js" in page_a
    seated = re.findall(r'name="seated" value="([^"]*)"', page_a)
    r = b.post(url, data={"hand": "1", "tricks": "8", "was": "", "seated": seated})
    assert r.status_code == 302
    r = a.post(url, data={"hand": "1", "tricks": "5", "was": "", "seated": seated})
    html = unescape(r.get_data(as_text=True))
    assert r.status_code == 409 and "another phone at this table sent 8–5 meanwhile" in html
    assert "Send N–S 5 · E–W 8 (replaces N–S 8 · E–W 5)" in html and "Keep N–S 8 · E–W 5" in html
    assert get(client, drive)["rounds"][0]["tables"][0]["tricks"] == [8, 5]
    r = a.post(url, data={"hand": "1", "tricks": "5", "was": "", "seated": seated, "replace": "1"})
    assert r.status_code == 302 and get(client, drive)["rounds"][0]["tables"][0]["tricks"] == [5, 8]
    # phone b, which sent 8–5, is told on its next refresh that another phone sent 5–8
    later = unescape(b.get(url + "?sent=8").get_data(as_text=True))
    assert "Another phone at this table sent N–S 5 · E–W 8 after your N–S 8 · E–W 5" in later


# ---------------------------------------------------------------- finding 5: the cards' address


def test_the_cards_page_warns_when_phones_cannot_reach_the_address(client, tmp_path):
    from scorekeeper import create_app

    drive = new_drive(client, format="couples", pairs=PAIRS[:4])
    organise(client, drive)
    html = client.get(f"/d/{drive['id']}/cards").get_data(as_text=True)
    assert 'id="unreachable"' in html and "PUBLIC_URL" in html and "localhost" in html
    from scorekeeper.drives.present import unreachable

    for url, host in (
        ("http://127.0.0.1:5000/d/x/t/1/y", "127.0.0.1"),
        ("http://[::1]:5000/d/x", "::1"),
        ("http://0.0.0.0:5000/d/x", "0.0.0.0"),
        ("http://localhost/d/x", "localhost"),
        ("http://127.0.1.1/d/x", "127.0.1.1"),
    ):
        assert unreachable(url) == host
    for url in ("http://192.168.1.20:5000/d/x", "https://whist.example.org/d/x", "http://whist.lan/d/x"):
        assert unreachable(url) is None
    app = create_app({"DATABASE": str(tmp_path / "p.sqlite"), "SECRET_KEY": "p", "PUBLIC_URL": "http://whist.lan:5000"})
    other = app.test_client()
    d = other.post("/api/drives", json={"format": "couples", "pairs": PAIRS[:4]}).json
    other.get(d["edit_page"])
    assert 'id="unreachable"' not in other.get(f"/d/{d['id']}/cards").get_data(as_text=True)


# ---------------------------------------------------------------- finding 6: the hall screen


def test_the_screen_pages_its_names_marks_provisional_standings_and_ends_with_the_prizes(client):
    ladies, gents = [f"Lady {i:02d}" for i in range(24)], [f"Gent {i:02d}" for i in range(24)]
    drive = new_drive(
        client, format="progressive", ladies=ladies, gents=gents, hands=2, prizes=[{"kind": "place", "role": "lady"}]
    )
    html = client.get(f"/d/{drive['id']}/screen").get_data(as_text=True)
    pages = re.findall(r'<section class="screen-page page-(\w+)"', html)
    assert pages == ["moves", "moves", "prizes"]  # 48 names: two pages of 24; no standings before a result
    names = re.findall(r'<li class="[^"]*" data-name="([^"]+)"', html)
    assert sorted(names) == sorted(ladies + gents)
    assert "drives.js" in html and 'http-equiv="refresh"' in html  # in <noscript>: without the script it reloads
    post(client, drive, 1, 1, [8, 5])
    html = client.get(f"/d/{drive['id']}/screen").get_data(as_text=True)
    assert 'id="provisional"' in html and "tables 2, 3, 4" in html
    # everyone's total, 24 ladies beside 24 gents in three pages of 8 (issue 33: the top 10 left 28 out)
    pages = re.findall(r'<section class="screen-page page-(\w+)"', html)
    assert pages == ["moves", "moves", "standings", "standings", "standings", "prizes"]
    assert sorted(re.findall(r'<tr data-name="([^"]+)"', html)) == sorted(ladies + gents)


# ---------------------------------------------------------------- finding 7: prizes as organisers give them


def test_places_per_role_boobies_half_time_lucky_number_and_one_each(client):
    prizes = [
        {"kind": "place", "role": "lady", "place": 1, "name": "Wine", "amount": "10"},
        {"kind": "place", "role": "lady", "place": 2, "name": "Chocolates", "amount": "5"},
        {"kind": "place", "role": "lady", "place": 3, "name": "Soap"},
        {"kind": "place", "role": "gent", "place": 1, "name": "Beer", "amount": "8"},
        {"kind": "booby", "role": "lady", "name": "Spoon"},
        {"kind": "booby", "role": "gent", "name": "Spoon"},
        {"kind": "half_time", "name": "Flowers"},
        {"kind": "lucky", "name": "Raffle bottle"},
    ]
    drive = new_drive(
        client,
        format="progressive",
        ladies=LADIES,
        gents=GENTS,
        hands=4,
        interval_after=2,
        tie_break="countback",
        one_prize_each=True,
        prize_ties="cut",
        prizes=prizes,
    )
    play(client, drive)
    shown = get(client, drive)["prizes"]
    assert [p["status"] for p in shown[:6]] == ["won"] * 6
    # countback, as in tests/unit/test_drives.py: Dot 36, Eve 31, Bea 25, Cat 25 (Bea on countback), …; Ann last
    assert [p["winners"] for p in shown[:3]] == [["Dot"], ["Eve"], ["Bea"]]
    assert shown[2]["reasons"] == ["Bea ahead of Cat on countback: 7 v 4 in hand 3"]
    assert shown[4]["winners"] == ["Ann"] and shown[5]["winners"] == ["Dan"]
    lucky = shown[7]
    assert lucky["status"] == "draw"
    out = write(client, drive, "prizes/draw", {})
    lucky = out["prizes"][7]
    assert lucky["status"] == "won" and lucky["drawn"] and isinstance(lucky["number"], int)
    won = [w for p in out["prizes"][:7] for w in p["winners"]]
    assert lucky["winners"][0] not in won  # one prize per person
    again = write(client, drive, "prizes/draw", {})
    assert again["prizes"][7] == lucky  # recorded: drawing again draws nothing new
    given = write(client, drive, "prizes/given", {})
    assert given["prizes_given"]
    put(client, drive, 1, 1, [5, 8], status=409)  # after the prizes are given, the results are final
    post(client, drive, 4, 1, [5, 8], status=409)


def test_a_couples_drive_refuses_a_ladys_prize_and_costs_stay_with_the_organiser(client):
    """Finding 7: a couples drive accepted a "top lady" prize; prize costs and the takings were shown to every
    player on the public standings."""
    r = client.post(
        "/api/drives", json={"format": "couples", "pairs": PAIRS[:4], "prizes": [{"kind": "place", "role": "lady"}]}
    )
    assert r.status_code == 400 and "prizes.1.role" in r.json["errors"]
    drive = new_drive(
        client,
        format="couples",
        pairs=PAIRS[:4],
        hands=1,
        fee="3",
        currency="GBP",
        prizes=[{"kind": "place", "name": "Wine", "amount": "7.50"}],
    )
    post(client, drive, 1, 1, [8, 5])
    post(client, drive, 1, 2, [8, 5])
    public = client.application.test_client().get(f"/d/{drive['id']}/standings").get_data(as_text=True)
    assert "Wine" in public and "£7.50" not in public and 'id="takings"' not in public and 'id="raised"' not in public
    assert "7.50" not in client.application.test_client().get(f"/d/{drive['id']}").get_data(as_text=True)
    organise(client, drive)
    own = client.get(f"/d/{drive['id']}/standings").get_data(as_text=True)
    assert "£7.50" in own and re.search(r'id="takings">£24\.00<', own)


# ---------------------------------------------------------------- finding 8: paper


def test_score_cards_four_to_a_page_and_blank_cards_two(client):
    from pypdf import PdfReader

    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=12)
    r = client.get(f"/d/{drive['id']}/scorecards.pdf")
    assert r.status_code == 200 and len(PdfReader(io.BytesIO(r.data)).pages) == 3  # 12 cards, 4 a page
    html = client.get(f"/d/{drive['id']}/scorecards").get_data(as_text=True)
    assert html.count('class="sheet4"') == 3 and html.count('class="score-card"') == 12
    blank = client.get("/drives/blank.pdf?hands=16")
    assert len(PdfReader(io.BytesIO(blank.data)).pages) == 1  # two cards, one page (16 rows of 6 mm fit A5)
    page = client.get("/drives/blank?hands=30").get_data(as_text=True)
    assert page.count('class="sheet1"') == 2 and page.count("<tr><td>30</td>") == 2  # 30 rows of 6 mm: one A4 each


@pytest.mark.parametrize("query", ["hands=0&trump=joker", "hands=0", "trump=joker", "hands=x", "hands=31"])
def test_bad_blank_card_parameters_are_refused_naming_them(client, query):
    for path in ("/drives/blank", "/drives/blank.pdf"):
        r = client.get(f"{path}?{query}")
        html = r.get_data(as_text=True)
        assert r.status_code == 400, (path, query)
        for field in ("hands", "trump"):
            if field in query:
                assert field in html.lower() or "hånd" in html.lower()


# ---------------------------------------------------------------- finding 9: the form's wording


def form_data(client, **fields):
    data = {
        "csrf_token": token(client, "/drives/new"),
        "format": "progressive",
        "ladies": "\n".join(LADIES),
        "gents": "\n".join(GENTS),
        "hands": "24",
        "interval_after": "12",
        "tie_break": "share",
        "movement": "winners",
        "sit_out": "7",
        "trump0": "hearts",
        "currency": "DKK",
        "prize_ties": "share",
    }
    data.update(fields)
    return data


@pytest.mark.parametrize("lang", ["en", "da", "nb", "sv"])
def test_the_default_interval_with_twelve_hands_is_answered_in_words(client, lang):
    r = client.post("/drives/new", data=form_data(client, hands="12"), query_string={"lang": lang})
    html = unescape(r.get_data(as_text=True))
    assert r.status_code == 400
    error = re.search(
        r'<div class="field-box" id="first-error">.*?name="interval_after".*?<p class="error"[^>]*>(.*?)</p>',
        html,
        re.S,
    )
    assert error, html[:4000]
    assert "null" not in error.group(1) and "11" in error.group(1)


def test_a_pair_line_with_one_name_is_answered_in_words(client):
    r = client.post("/drives/new", data=form_data(client, format="couples", pairs="Ann & Al\nBea\nCat & Cy\nDot & Dan"))
    html = unescape(r.get_data(as_text=True))
    assert r.status_code == 400
    assert "line 2, “Bea”, has one name" in html and '[["' not in html


@pytest.mark.parametrize("lang,currency", [("da", "DKK"), ("nb", "NOK"), ("sv", "SEK"), ("en", "GBP")])
def test_the_currency_defaults_to_the_drives_language(client, lang, currency):
    html = client.get("/drives/new", query_string={"lang": lang}).get_data(as_text=True)
    assert f'<option value="{currency}" selected>' in html
    drive = client.post(
        "/api/drives",
        json={"format": "couples", "pairs": PAIRS[:4], "fee": "2"},
        headers={"Accept-Language": lang, "X-Edit-Key": ""},
    ).json
    assert get(client, drive, drive["edit_key"])["money"]["currency"] == currency


# ---------------------------------------------------------------- finding 10: fresh partners


def test_the_fresh_movement_gives_32_players_fresh_partners_for_12_hands(client):
    drive = new_drive(
        client,
        format="progressive",
        ladies=[f"L{i}" for i in range(16)],
        gents=[f"G{i}" for i in range(16)],
        hands=12,
        movement="fresh",
    )
    d = drive
    for hand in range(1, 13):
        for t in range(1, 9):
            d = post(client, drive, hand, t, [(hand * t) % 14, 13 - (hand * t) % 14])
    assert d["finished"] and d["movement"] == "fresh"
    partnerships = [tuple(pair) for r in d["rounds"] for t in r["tables"] for pair in t["pairs"]]
    assert len(partnerships) == len(set(partnerships)) == 12 * 16


# ---------------------------------------------------------------- the organiser's other pages


def test_the_prizes_page_writes_the_prizes_and_says_what_is_wrong_by_its_row(client, db_path):
    drive = new_drive(client, format="couples", pairs=PAIRS[:4], hands=2, interval_after=1, fee="2")
    organise(client, drive)
    page = client.get(f"/d/{drive['id']}/prizes").get_data(as_text=True)
    assert page.count('class="prize-row"') == 8
    more = client.post(
        f"/d/{drive['id']}/prizes", data={"csrf_token": token(client, f"/d/{drive['id']}"), "rows": "8", "more": "1"}
    )
    assert more.get_data(as_text=True).count('class="prize-row"') == 12
    fields = {
        "csrf_token": token(client, f"/d/{drive['id']}"),
        "rows": "8",
        "currency": "NOK",
        "fee": "50",
        "prize_ties": "cut",
        "prize0_what": "place:1",
        "prize0_for": "any",
        "prize0_name": "Vin",
        "prize0_amount": "200",
        "prize1_what": "place:1",
        "prize1_for": "lady",  # a couples drive has no lady's prize
        "prize1_name": "Blomster",
        "prize2_what": "half_time:1",
        "prize2_for": "any",
        "prize2_name": "Sjokolade",
        "prize2_amount": "lots",
    }
    before = dump(db_path)
    r = client.post(f"/d/{drive['id']}/prizes", data=fields)
    html = unescape(r.get_data(as_text=True))
    assert r.status_code == 400 and dump(db_path) == before
    rows = re.findall(r'<tr class="prize-error"><td colspan="4"><p class="error" role="alert">(.*?)</p>', html)
    assert len(rows) == 2 and "pair" in rows[0] and "12.50" in rows[1]
    assert '<tr class="prize-row" id="first-error">' in html
    fields.update(prize1_for="any", prize2_amount="30")
    r = client.post(f"/d/{drive['id']}/prizes", data=fields)
    assert r.status_code == 302
    d = get(client, drive, drive["edit_key"])
    assert [(p["kind"], p["role"], p["name"], p["amount"]) for p in d["prizes"]] == [
        ("place", "pair", "Vin", 20000),
        ("place", "pair", "Blomster", 0),
        ("half_time", "pair", "Sjokolade", 3000),
    ]
    assert d["money"]["currency"] == "NOK" and d["money"]["prize_ties"] == "cut"


def test_the_people_page_renames_and_substitutes_and_a_test_drive_is_deleted_from_its_page(client):
    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=4)
    organise(client, drive)
    assert "Pernille" not in client.get(f"/d/{drive['id']}/people").get_data(as_text=True)
    csrf = token(client, f"/d/{drive['id']}")
    r = client.post(f"/d/{drive['id']}/rename", data={"csrf_token": csrf, "old": "Fay", "new": "Ann"})
    assert r.status_code == 400 and "Ann is in the drive already" in unescape(r.get_data(as_text=True))
    assert (
        client.post(f"/d/{drive['id']}/rename", data={"csrf_token": csrf, "old": "Fay", "new": "Faye"}).status_code
        == 302
    )
    r = client.post(
        f"/d/{drive['id']}/substitutes", data={"csrf_token": csrf, "out": "Ben", "newcomer": "Bob", "hand": "1"}
    )
    assert r.status_code == 302
    d = get(client, drive)
    assert d["gents"][1] == "Ben" and d["rounds"][0]["tables"][0]["pairs"][1] == ["Bea", "Bob"]
    assert d["ladies"][5] == "Faye" and not any(s["names"] == ["Ben"] for s in d["standings"])  # left before playing
    # a drive with no results is deleted from its page; one with results is not
    page = client.get(f"/d/{drive['id']}").get_data(as_text=True)
    assert 'id="delete-drive"' in page
    post(client, drive, 1, 1, [7, 6])
    assert 'id="delete-drive"' not in client.get(f"/d/{drive['id']}").get_data(as_text=True)
    test = new_drive(client, format="couples", pairs=PAIRS[:4])
    organise(client, test)
    r = client.post(f"/d/{test['id']}/delete", data={"csrf_token": token(client, f"/d/{test['id']}")})
    assert r.status_code == 302 and client.get(f"/api/drives/{test['id']}").status_code == 404
    other = client.application.test_client()
    assert other.post(f"/d/{drive['id']}/delete", data={}).status_code in (400, 403)


@pytest.mark.parametrize("lang", ["da", "nb", "sv"])
def test_the_organisers_new_pages_speak(client, lang):
    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=4, interval_after=2)
    for t, a in enumerate(TRICKS[0], 1):
        post(client, drive, 1, t, [a, 13 - a])
    organise(client, drive)
    put(client, drive, 1, 1, [5, 8])
    for path in (
        f"/d/{drive['id']}/correct?hand=1&table=2&tricks=3&lang={lang}",
        f"/d/{drive['id']}/people",
        f"/d/{drive['id']}/prizes",
        f"/d/{drive['id']}",
        f"/d/{drive['id']}/screen",
    ):
        r = client.get(path if "?" in path else f"{path}?lang={lang}")
        html = r.get_data(as_text=True)
        assert r.status_code == 200, path
        for english in (
            "What this correction does",
            "Who moves again",
            "Put a name right",
            "Write the prizes",
            "move again",
            "Correct an earlier hand",
            "Move again:",
            "Save the prizes",
            "Lucky number",
        ):
            assert english not in html, (path, english)


def test_prizes_stored_before_they_were_a_list_are_read_as_rules(client, db_path):
    """A drive started with the old money (one top lady, top gent, half-time, booby: migration m108) keeps them."""
    from scorekeeper.storage import connect, store, writing

    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=4, interval_after=2)
    couples = new_drive(client, format="couples", pairs=PAIRS[:4], hands=1)
    old = {
        "currency": "DKK",
        "fee": 2000,
        "prizes": [
            {"kind": "top_lady", "name": "Vin", "amount": 5000},
            {"kind": "top_gent", "name": "Øl", "amount": 0},
            {"kind": "half_time", "name": "Blomster", "amount": 0},
            {"kind": "booby", "name": "Træske", "amount": 0},
        ],
    }
    db = connect(db_path)
    with writing(db):
        store.put_drive_money(db, drive["id"], old)
        store.put_drive_money(db, couples["id"], old)
    play(client, drive)
    shown = get(client, drive)["prizes"]
    assert [(p["kind"], p["role"]) for p in shown] == [
        ("place", "lady"),
        ("place", "gent"),
        ("half_time", "any"),
        ("booby", "any"),
    ]
    assert shown[0]["winners"] == ["Dot"] and all(p["status"] == "won" for p in shown)
    assert [(p["kind"], p["role"]) for p in get(client, couples)["prizes"]][:2] == [
        ("place", "pair"),
        ("place", "pair"),
    ]


@pytest.mark.parametrize(
    "prize",
    [
        {"kind": ["place"]},
        {"kind": {"a": 1}},
        {"kind": "place", "role": ["lady"]},
        {"kind": "place", "place": 1e9},
        {"kind": "place", "place": True},
        {"kind": "lucky", "name": 7},
        "wine",
        None,
    ],
)
def test_a_strange_prize_is_a_400_naming_it_not_a_500(client, db_path, prize):
    before = dump(db_path)
    r = client.post("/api/drives", json={"format": "couples", "pairs": PAIRS[:4], "prizes": [prize]})
    assert r.status_code in (201, 400), r.json
    if r.status_code == 400:
        assert any(k.startswith("prizes") for k in r.json["errors"]) and dump(db_path) == before
