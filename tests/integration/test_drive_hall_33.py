"""Issue 33, the hall: through the real SQLite file, the API and the pages: prizes that say who was passed over
(organiser's page, hall screen, results paper and PDF), standings "after hand N", replaced results the organiser
settles, the phone that is told "Sent" only for what it sent, the substitute and spare-seat rules, the lucky draw
among the entrants, a table that sits out named where the players are sent."""

import re
import sqlite3
from html import unescape

import pytest
import sqlite_utils

from helpers import pdftotext, token
from scorekeeper.storage.migrations import migrations

LADIES = ["Ann", "Bea", "Cat", "Dot"]
GENTS = ["Al", "Ben", "Cyril Cook", "Dan"]


def new_drive(client, **body):
    r = client.post("/api/drives", json=body)
    assert r.status_code == 201, r.json
    return r.json


def post(client, drive, hand, table, tricks, status=201):
    r = client.post(
        f"/api/drives/{drive['id']}/hands/{hand}/tables/{table}",
        json={"tricks": tricks},
        headers={"X-Edit-Key": drive["edit_key"]},
    )
    assert r.status_code == status, r.json
    return r.json


def organise(client, drive):
    assert client.get(drive["edit_page"]).status_code == 302


def text(response) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))


def rows(db_path, sql):
    conn = sqlite3.connect(db_path)
    conn.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in conn.execute(sql)]
    finally:
        conn.close()


def table_url(client, drive, table):
    cards = client.get(f"/d/{drive['id']}/cards").get_data(as_text=True)
    return re.search(rf'<a href="http://localhost(/d/[^"]+)" data-table="{table}"', cards).group(1)


# ---------------------------------------------------------------- H1: passed over, and why


@pytest.fixture
def prized(client):
    """Cyril Cook leads the gents at half-time and wins the half-time prize; under one prize each, 1st gent goes on."""
    drive = new_drive(
        client,
        format="progressive",
        ladies=LADIES,
        gents=GENTS,
        hands=2,
        interval_after=1,
        one_prize_each=True,
        prizes=[
            {"kind": "half_time", "role": "gent", "place": 1, "name": "Chocolates"},
            {"kind": "place", "role": "gent", "place": 1, "name": "Wine"},
        ],
    )
    organise(client, drive)
    post(client, drive, 1, 1, [4, 9])  # table 1: Ann & Al 4, Bea & Ben 9
    post(client, drive, 1, 2, [11, 2])  # table 2: Cat & Cyril Cook 11
    hand2 = client.get(f"/api/drives/{drive['id']}").json["rounds"][1]["tables"]
    for t in hand2:
        post(client, drive, 2, t["table"], [7, 6])
    out = client.get(f"/api/drives/{drive['id']}", headers={"X-Edit-Key": drive["edit_key"]}).json
    assert out["finished"] and out["prizes"][0]["winners"] == ["Cyril Cook"]
    assert "Cyril Cook" not in out["prizes"][1]["winners"]
    return drive


PASSED = "Cyril Cook passed over: already has a prize (Half-time, 1st gent)"


def test_the_organisers_page_says_who_was_passed_over_and_why(client, prized):
    assert PASSED in text(client.get(f"/d/{prized['id']}"))


def test_the_hall_screen_and_the_results_paper_say_it_too(client, prized):
    assert PASSED in text(client.get(f"/d/{prized['id']}/screen"))
    assert PASSED in text(client.get(f"/d/{prized['id']}/standings"))


@pytest.mark.needs_program
def test_the_results_pdf_says_it(client, prized, tmp_path):
    pdf = client.get(f"/d/{prized['id']}/standings.pdf")
    assert pdf.status_code == 200
    words = " ".join(pdftotext(pdf.data, tmp_path, "-raw").split())
    assert "Cyril Cook passed over: already has a prize (Half-" in words, words  # wrapped: "(Half- time, …"


# ---------------------------------------------------------------- M1: after hand N


def test_the_standings_after_hand_1_do_not_count_hand_2s_sit_outs(client):
    drive = new_drive(
        client, format="progressive", ladies=[f"L{i}" for i in range(7)], gents=[f"G{i}" for i in range(7)], hands=3
    )
    assert {s["total"] for s in drive["standings"]} == {0}  # before hand 1: nobody on 7 yet
    for t in drive["rounds"][0]["tables"]:
        if t["plays"] != "out":
            out = post(client, drive, 1, t["table"], [8, 5])
    assert out["current"] == 2
    assert max(s["total"] for s in out["standings"]) == 8  # not 7 + 7
    organise(client, drive)
    page = text(client.get(f"/d/{drive['id']}"))
    assert "Standings after hand 1" in page and "provisional" not in page.split("Standings", 1)[-1][:400]
    assert "Standings after hand 1" in text(client.get(f"/d/{drive['id']}/standings"))  # the paper says so too


# ---------------------------------------------------------------- M2: replaced results, and "Sent" only for what was sent


def test_a_replaced_result_is_marked_for_the_organiser_until_settled(client, db_path):
    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=2)
    organise(client, drive)
    url = table_url(client, drive, 1)
    a, b = client.application.test_client(), client.application.test_client()
    page_a, page_b = a.get(url).get_data(as_text=True), b.get(url).get_data(as_text=True)
    phone_a = re.search(r"This phone: (\w{4})", page_a).group(1)
    phone_b = re.search(r"This phone: (\w{4})", page_b).group(1)
    assert phone_a != phone_b
    seated = re.findall(r'name="seated" value="([^"]*)"', page_a)
    assert b.post(url, data={"hand": "1", "tricks": "7", "was": "", "seated": seated}).status_code == 302
    # phone a lost the race: it is shown both, and never a green "Sent" for b's 7–6
    r = a.post(url, data={"hand": "1", "tricks": "10", "was": "", "seated": seated})
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    assert 'id="sent"' not in html and "Sent: N–S 7 · E–W 6" not in unescape(html)
    assert "This table's result is in: N–S 7 · E–W 6, sent by another phone" in text(r)
    r = a.post(url, data={"hand": "1", "tricks": "10", "was": "", "seated": seated, "replace": "1"})
    assert r.status_code == 302
    assert "Sent: N–S 10 · E–W 3" in text(a.get(r.headers["Location"]))
    # the organiser's page marks the table and the hand with both, who sent which and when
    page = text(client.get(f"/d/{drive['id']}"))
    assert "Replaced results: which is right?" in page and "replaced: see above" in page
    assert f"7–6 sent by phone {phone_b} at" in page and f"10–3 sent by phone {phone_a} at" in page
    assert re.search(r"10–3 sent by phone \w{4} at [^(]+ \(stored now\)", page)
    kept = rows(db_path, "SELECT * FROM drive_replaced")
    assert len(kept) == 1 and kept[0]["settled"] is None
    assert (kept[0]["sender"], kept[0]["by_sender"]) == (f"phone:{phone_b}", f"phone:{phone_a}")
    api = client.get(f"/api/drives/{drive['id']}", headers={"X-Edit-Key": drive["edit_key"]}).json
    assert api["replaced"][0]["tricks"] == [7, 6] and api["replaced"][0]["by"]["tricks"] == [10, 3]
    assert "replaced" not in client.application.test_client().get(f"/api/drives/{drive['id']}").json
    # keep the stored one: settled, no longer shown
    r = client.post(
        f"/d/{drive['id']}/hands/1/tables/1/settle", data={"csrf_token": token(client, f"/d/{drive['id']}")}
    )
    assert r.status_code == 302
    page = text(client.get(f"/d/{drive['id']}"))
    assert "Replaced results" not in page and "settled" in page
    assert rows(db_path, "SELECT settled FROM drive_replaced")[0]["settled"] is not None
    assert client.get(f"/api/drives/{drive['id']}").json["rounds"][0]["tables"][0]["tricks"] == [10, 3]


def test_taking_the_other_result_is_a_correction_that_settles_it(client, db_path):
    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=2)
    organise(client, drive)
    url = table_url(client, drive, 1)
    a, b = client.application.test_client(), client.application.test_client()
    seated = re.findall(r'name="seated" value="([^"]*)"', a.get(url).get_data(as_text=True))
    b.get(url)
    b.post(url, data={"hand": "1", "tricks": "7", "was": "", "seated": seated})
    a.post(url, data={"hand": "1", "tricks": "10", "was": "7", "seated": seated})
    html = client.get(f"/d/{drive['id']}").get_data(as_text=True)
    take = unescape(re.search(r'id="take-1-1-7" href="([^"]+)"', html).group(1))
    check = client.get(take)
    assert check.status_code == 200 and "7–6" in text(check)
    form = check.get_data(as_text=True).split('class="save-correction"', 1)[1].split("</form>", 1)[0]
    data = {"csrf_token": token(client, f"/d/{drive['id']}")}
    data.update(hand="1", table="1", tricks="7", keep_seating="0")
    data["seated"] = re.findall(r'name="seated" value="([^"]*)"', form)
    r = client.post(f"/d/{drive['id']}/correct", data=data)
    assert r.status_code == 302
    assert client.get(f"/api/drives/{drive['id']}").json["rounds"][0]["tables"][0]["tricks"] == [7, 6]
    assert "Replaced results" not in text(client.get(f"/d/{drive['id']}"))
    assert rows(db_path, "SELECT settled FROM drive_replaced")[0]["settled"] is not None


def test_a_phone_that_sent_nothing_is_not_told_sent(client):
    drive = new_drive(
        client, format="progressive", ladies=[*LADIES, "Eve", "Fay"], gents=[*GENTS, "Ed", "Fred"], hands=2
    )
    organise(client, drive)
    url = table_url(client, drive, 1)
    a, b = client.application.test_client(), client.application.test_client()
    post(client, drive, 1, 3, [7, 6])  # the organiser enters table 3's
    assert "This table's result is in: N–S 7 · E–W 6, sent by the organiser" in text(b.get(table_url(client, drive, 3)))
    seated = re.findall(r'name="seated" value="([^"]*)"', a.get(url).get_data(as_text=True))
    a.post(url, data={"hand": "1", "tricks": "8", "was": "", "seated": seated})
    fresh = b.get(url)
    assert 'id="sent"' not in fresh.get_data(as_text=True)
    assert "This table's result is in: N–S 8 · E–W 5, sent by another phone" in text(fresh)
    assert "Sent: N–S 8 · E–W 5" in text(a.get(url + "?sent=8"))
    assert "Sent: N–S 8 · E–W 5" in text(a.get(url))  # the cookie says it is this phone's, whatever the address
    r = client.put(
        f"/api/drives/{drive['id']}/hands/1/tables/1",
        json={"tricks": [9, 4]},
        headers={"X-Edit-Key": drive["edit_key"]},
    )
    assert r.status_code == 200
    told = text(a.get(url + "?sent=8"))
    assert "The organiser corrected your N–S 8 · E–W 5 to N–S 9 · E–W 4." in told and "Another phone" not in told


# ---------------------------------------------------------------- M3, M7: the organiser's rules, on the people page


def test_the_people_page_explains_and_sets_both_rules(client, db_path):
    drive = new_drive(
        client, format="progressive", ladies=[f"L{i}" for i in range(7)], gents=[f"G{i}" for i in range(7)], hands=4
    )
    organise(client, drive)
    page = text(client.get(f"/d/{drive['id']}/people"))
    assert "The substitute continues the leaver's card" in page and "One table sits out in turn" in page
    assert "This drive has 1 empty lady's and 1 empty gent's seats." in page
    for t in drive["rounds"][0]["tables"]:
        if t["plays"] != "out":
            post(client, drive, 1, t["table"], [8, 5])
    hand1 = client.get(f"/api/drives/{drive['id']}").json["rounds"][0]
    r = client.post(
        f"/d/{drive['id']}/rules",
        data={
            "csrf_token": token(client, f"/d/{drive['id']}/people"),
            "substitute_card": "continue",
            "spare_seats": "sit_out",
        },
    )
    assert r.status_code == 302
    assert '"spare_seats":"sit_out"' in rows(db_path, "SELECT setup FROM drives")[0]["setup"]
    out = client.get(f"/api/drives/{drive['id']}").json
    assert out["rounds"][0] == hand1  # the hand played keeps its seating
    for r_ in out["rounds"]:
        assert [t["plays"] for t in r_["tables"]].count("out") == 1 and "dummy" not in [
            t["plays"] for t in r_["tables"]
        ]
    assert "one table sits out each hand, in turn" in text(client.get(f"/d/{drive['id']}"))
    bad = client.post(
        f"/d/{drive['id']}/rules",
        data={"csrf_token": token(client, f"/d/{drive['id']}/people"), "spare_seats": "ghosts"},
    )
    assert bad.status_code == 400 and "must be one of dummy, sit_out" in text(bad)


def test_a_substitute_continues_the_card_and_the_lucky_draw_counts_entrants(client):
    drive = new_drive(
        client,
        format="progressive",
        ladies=LADIES,
        gents=GENTS,
        hands=2,
        prizes=[{"kind": "lucky", "role": "any", "name": "Raffle"}, {"kind": "place", "role": "lady", "place": 1}],
    )
    for t in (1, 2):
        post(client, drive, 1, t, [8, 5])
    r = client.post(
        f"/api/drives/{drive['id']}/substitutes",
        json={"out": "Bea", "in": "Zoe", "hand": 2},
        headers={"X-Edit-Key": drive["edit_key"]},
    )
    assert r.status_code == 201
    card = next(s for s in r.json["standings"] if s["names"] == ["Zoe"])
    assert card["formerly"] == ["Bea"] and card["place"] is not None and "played" not in card
    for t in (1, 2):
        out = post(client, drive, 2, t, [6, 7])
    assert [s["names"] for s in out["standings"]].count(["Bea"]) == 0 and len(out["standings"]) == 8
    assert "Zoe" in text(client.get(f"/d/{drive['id']}/screen")) and "took over the card from Bea" in text(
        client.get(f"/d/{drive['id']}/standings")
    )
    drawn = client.post(f"/api/drives/{drive['id']}/prizes/draw", headers={"X-Edit-Key": drive["edit_key"]}).json
    assert drawn["prizes"][0]["number"] in range(1, 9)  # 8 cards for 8 people, no 9th number


# ---------------------------------------------------------------- Low: sent to a table that sits out; a substitute before the hand


def test_the_players_sent_to_a_table_that_sits_out_are_told_so(client):
    drive = new_drive(
        client, format="progressive", ladies=[f"L{i}" for i in range(7)], gents=[f"G{i}" for i in range(7)], hands=3
    )
    organise(client, drive)
    for t in drive["rounds"][0]["tables"]:
        if t["plays"] != "out":
            out = post(client, drive, 1, t["table"], [8, 5])
    out_table = next(t["table"] for t in out["rounds"][1]["tables"] if t["plays"] == "out")
    found = False
    for table in range(1, 5):
        page = client.application.test_client().get(table_url(client, drive, table))
        html = page.get_data(as_text=True)
        if f'data-table="{out_table}"' in html and "leaving" in html:
            found = True
            assert "(sits out hand 2)" in text(page)
    assert found


def test_a_substitute_on_a_new_card_is_not_listed_before_the_hand(client):
    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=3, substitute_card="new")
    for t in (1, 2):
        post(client, drive, 1, t, [8, 5])
    r = client.post(
        f"/api/drives/{drive['id']}/substitutes",
        json={"out": "Bea", "in": "Zoe"},
        headers={"X-Edit-Key": drive["edit_key"]},
    )
    assert r.status_code == 201 and ["Zoe"] not in [s["names"] for s in r.json["standings"]]
    organise(client, drive)
    assert "Zoe" not in text(client.get(f"/d/{drive['id']}")).split("Standings", 1)[-1]


# ---------------------------------------------------------------- the migration


def test_m163_keeps_the_rule_drives_with_substitutes_were_played_under(tmp_path):
    path = tmp_path / "old.sqlite"
    db = sqlite_utils.Database(str(path))
    migrations.apply(db, stop_before="m163_drive_replaced_results")
    setup = '{"format":"progressive","ladies":["A","B","C","D"],"gents":["E","F","G","H"],"substitutes":[{"hand":2,"in":"Z","out":"B"}]}'
    plain = '{"format":"progressive","ladies":["A","B","C","D"],"gents":["E","F","G","H"]}'
    for i, s in ((1, setup), (2, plain)):
        db.execute(
            "INSERT INTO drives (id, setup, edit_key_hash, created, updated) VALUES (?, ?, 'x', '2026-01-01', '2026-01-01')",
            [f"d{i}", s],
        )
    db.conn.commit()
    migrations.apply(db)
    rows = dict(sqlite3.connect(path).execute("SELECT id, json_extract(setup, '$.substitute_card') FROM drives"))
    assert rows == {"d1": "new", "d2": None}


def test_the_substitute_continues_the_leavers_score_card_on_paper(client):
    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=2)
    for t in (1, 2):
        post(client, drive, 1, t, [8, 5])
    client.post(
        f"/api/drives/{drive['id']}/substitutes",
        json={"out": "Bea", "in": "Zoe", "hand": 2},
        headers={"X-Edit-Key": drive["edit_key"]},
    )
    for t in (1, 2):
        post(client, drive, 2, t, [6, 7])
    html = client.get(f"/d/{drive['id']}/scorecards").get_data(as_text=True)
    assert html.count('class="score-card"') == 8  # one card each, not a ninth for Zoe
    assert "Bea, then Zoe from hand 2" in unescape(html)


def test_the_api_sets_the_rules_and_settles_a_replaced_result(client, db_path):
    drive = new_drive(client, format="progressive", ladies=LADIES, gents=GENTS, hands=2)
    key = {"X-Edit-Key": drive["edit_key"]}
    base = f"/api/drives/{drive['id']}"
    before = rows(db_path, "SELECT setup, version FROM drives")
    r = client.put(f"{base}/rules", json={"spare_seats": "ghosts"}, headers=key)
    assert r.status_code == 400 and set(r.json["errors"]) == {"spare_seats"}
    assert client.put(f"{base}/rules", json={"colour": "red"}, headers=key).status_code == 400
    assert client.put(f"{base}/rules", json={"substitute_card": "new"}).status_code == 403
    assert rows(db_path, "SELECT setup, version FROM drives") == before  # nothing stored
    r = client.put(f"{base}/rules", json={"substitute_card": "new"}, headers=key)
    assert r.status_code == 200 and r.json["substitute_card"] == "new"
    r = client.post(f"{base}/hands/1/tables/1/settle", headers=key)
    assert r.status_code == 400 and set(r.json["errors"]) == {"table"}
    organise(client, drive)
    url = table_url(client, drive, 1)
    a, b = client.application.test_client(), client.application.test_client()
    seated = re.findall(r'name="seated" value="([^"]*)"', a.get(url).get_data(as_text=True))
    b.post(url, data={"hand": "1", "tricks": "7", "was": "", "seated": seated})
    a.post(url, data={"hand": "1", "tricks": "10", "was": "7", "seated": seated})
    assert len(client.get(base, headers=key).json["replaced"]) == 1
    r = client.post(f"{base}/hands/1/tables/1/settle", headers=key)
    assert r.status_code == 200 and "replaced" not in r.json
    assert r.json["rounds"][0]["tables"][0]["tricks"] == [10, 3]
