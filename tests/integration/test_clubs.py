"""Clubs: a season of three evenings added up by hand, access to the club's changes, the CSV files, the pages."""

import csv
import io
import re
import sqlite3
from collections import Counter
from decimal import Decimal

import pytest
from babel.numbers import format_currency

from helpers import CLASSIC_WINNERS, MEMBERS, PASSWORD, RATE_CENTS, SEASON, dump, log_in, token
from scorekeeper.clubs import service as club_service
from scorekeeper.clubs.rules.club import KITTY, apply_transfers
from scorekeeper.games import service


def by_hand(evening):
    """An evening added up from the literal points above: Danish points, hands played, tables, standings."""
    _, fee, _, tables = evening
    points, hands, tables_played, standing = Counter(), Counter(), Counter(), Counter()
    present = set()
    for variant, names, table_hands in tables:
        present |= set(names)
        for name in names:
            tables_played[name] += 1
        for i, (_inp, pts) in enumerate(table_hands):
            out = names[i % 5] if len(names) == 5 else None
            for name in names:
                if name != out:
                    hands[name] += 1
            for name, p in pts.items():
                (points if variant == "danish" else standing)[name] += p
    fee_cents = int(Decimal(fee or 0) * 100)
    net = {name: points[name] * RATE_CENTS - fee_cents for name in present}
    return present, points, hands, tables_played, standing, fee_cents, net


def test_each_evening_equals_its_hands_added_up_by_hand(db, season):
    names = season["names"]
    for evening_id, evening in zip(season["evenings"], SEASON):
        present, points, hands, tables, standing, fee, net = by_hand(evening)
        r = club_service.evening(db, season["club"], evening_id).result
        got = {names[m.member]: m for m in r.members}
        assert set(got) == present
        for name in present:
            m = got[name]
            assert (m.points, m.hands, m.tables, m.fee, m.net) == (
                points[name],
                hands[name],
                tables[name],
                fee,
                net[name],
            )
            assert m.winnings == points[name] * RATE_CENTS
            assert m.standing_points == standing[name]
        assert sum(points.values()) == 0
        assert r.kitty == fee * len(present)
        assert sum(m.net for m in r.members) + r.kitty == 0  # the money adds up, fees included
        left = apply_transfers(r.net(), r.transfers)
        assert set(left.values()) <= {0}  # the payments clear every balance
        if evening[2] == "pairwise":
            assert len(r.transfers) <= len([p for p, c in r.net().items() if c]) - 1
        else:
            assert all(KITTY in (t.payer, t.payee) for t in r.transfers)


def test_the_partnership_table_gives_standings(db, season):
    r = club_service.evening(db, season["club"], season["evenings"][1]).result
    names = season["names"]
    standings = {
        names[m.member]: (m.games_won, m.standing_points)
        for m in r.members
        if m.member in {season["ids"][n] for n in ("Ida", "Anna", "Carl", "Eva")}
    }
    assert standings == {"Ida": (1, 6), "Carl": (1, 6), "Anna": (0, 3), "Eva": (0, 3)}
    assert r.has_money and r.has_standings


def test_the_ledger_equals_the_evenings_added_up_by_hand(db, season):
    names, ids = season["names"], season["ids"]
    club_service.set_settled(db, season["club"], season["evenings"][0], "pairwise", True)
    ledger = club_service.season(db, season["club"])
    expected = {name: Counter() for name in MEMBERS}
    per_evening = {name: [] for name in MEMBERS}
    kitty = kitty_unsettled = 0
    for n, evening in enumerate(SEASON):
        present, points, hands, _, standing, fee, net = by_hand(evening)
        kitty += fee * len(present)
        kitty_unsettled += fee * len(present) if n else 0
        for name in present:
            e = expected[name]
            e["evenings"] += 1
            e["hands"] += hands[name]
            e["points"] += points[name]
            e["net"] += net[name]
            e["unsettled"] += net[name] if n else 0  # evening 1 is settled
            e["games_won"] += 1 if n == 1 and name in CLASSIC_WINNERS else 0
            e["standing"] += standing[name]
            per_evening[name].append((season["evenings"][n], points[name], net[name]))
    lines = {names[line.member]: line for line in ledger.lines}
    assert set(lines) == set(MEMBERS)  # Hans retired, still in the ledger
    for name, e in expected.items():
        line = lines[name]
        assert (
            line.evenings,
            line.hands,
            line.points,
            line.net,
            line.unsettled,
            line.games_won,
            line.standing_points,
        ) == (e["evenings"], e["hands"], e["points"], e["net"], e["unsettled"], e["games_won"], e["standing"]), name
        assert [(x.evening, x.points, x.net) for x in line.entries if x] == per_evening[name]
    assert (ledger.kitty, ledger.kitty_unsettled) == (kitty, kitty_unsettled) == (13500, 9000)
    assert sum(line.net for line in ledger.lines) + ledger.kitty == 0
    assert lines["Hans"].evenings == 2 and lines["Anna"].evenings == 3
    assert ids["Bo"] in {line.member for line in ledger.lines}


def test_the_ledger_filtered_by_date(db, season):
    ledger = club_service.season(db, season["club"], "2026-01-10", "2026-01-20")
    assert [r.evening.id for r in ledger.results] == [season["evenings"][1]]
    present, points, *_ = by_hand(SEASON[1])
    assert {season["names"][line.member]: line.points for line in ledger.lines if line.evenings} == {
        name: points[name] for name in present
    }


def test_statistics_per_member(db, season):
    stats = {season["names"][s.member]: s for s in club_service.stats(db, season["club"])}
    anna = stats["Anna"]
    assert (anna.bids, anna.bids_made, anna.sol_bids, anna.selvmakker) == (2, 2, 0, 0)
    assert anna.evenings == 3
    assert anna.points == 170 + (-60) + 0 and anna.average == Decimal("36.7")
    assert (stats["Ida"].sol_bids, stats["Ida"].sol_made, stats["Ida"].bids, stats["Ida"].bids_made) == (1, 1, 1, 0)
    assert (stats["Carl"].sol_bids, stats["Carl"].sol_made) == (1, 0)
    assert (stats["Gro"].selvmakker, stats["Gro"].selvmakker_made) == (1, 1)
    assert dict(stats["Bo"].partners) == {season["ids"]["Dina"]: 1, season["ids"]["Anna"]: 1, season["ids"]["Finn"]: 1}


def test_settling_keeps_the_balances_and_a_later_edit_shows_as_unsettled(db, season, client):
    club_id, first = season["club"], season["evenings"][0]
    club_service.set_settled(db, club_id, first, "pairwise", True)
    data = club_service.evening(db, club_id, first)
    assert data.record.settled and not data.result.changed_since_settled
    assert data.record.settled_balances == {str(k): v for k, v in data.result.net().items()}
    anna = season["ids"]["Anna"]
    line = {line.member: line for line in club_service.season(db, club_id).lines}[anna]
    assert line.unsettled == by_hand(SEASON[1])[6]["Anna"] + by_hand(SEASON[2])[6]["Anna"]
    # The table's scorer deletes the gode hand (Anna +160) after the evening was settled.
    game_id, key = season["keys"][0, 0]
    service.delete_hand(db, game_id, 4, key)
    data = club_service.evening(db, club_id, first)
    assert data.result.changed_since_settled
    assert data.result.unsettled(anna) == -160 * RATE_CENTS
    assert sum(data.result.unsettled(p) for p in data.result.net()) == 0
    line = {line.member: line for line in club_service.season(db, club_id).lines}[anna]
    assert line.unsettled == -160 * RATE_CENTS + by_hand(SEASON[1])[6]["Anna"] + by_hand(SEASON[2])[6]["Anna"]
    assert "changed after it was settled" in client.get(f"/c/{club_id}/e/{first}/result").get_data(as_text=True)


def test_rules_presets_and_own_numbers(db):
    options = club_service.check_rules(
        "danish", {"tariff": [10, 20, 40, 80, 160, 320, 640], "lost": "per_trick", "rate": 0.25}, "NOK"
    )
    assert options["lost"] == "per_trick" and options["currency"] == "NOK" and options["rate"] == 0.25
    with pytest.raises(service.InputError) as exc:
        club_service.check_rules("danish", {"tariff": [10, 20]}, "DKK")
    assert "options.tariff" in exc.value.errors
    assert club_service.check_rules("norwegian", {"target": 25, "rate": 1}, "NOK")["rate"] is None


def test_tables_only_for_active_members_of_the_club(db, season):
    club_id, evening = season["club"], season["evenings"][2]
    ids = season["ids"]
    for members, field in (
        ([ids["Anna"], ids["Bo"], ids["Carl"], ids["Hans"]], "players"),  # Hans retired
        ([ids["Anna"], ids["Anna"], ids["Carl"], ids["Dina"]], "players"),
        ([ids["Anna"], ids["Bo"], ids["Carl"], 9999], "players"),
        ([ids["Anna"], ids["Bo"], ids["Carl"]], "players"),
    ):
        with pytest.raises(service.InputError) as exc:
            club_service.add_table(db, club_id, evening, members)
        assert field in exc.value.errors
    other = club_service.create_club(db, {"name": "Other", "currency": "SEK", "variant": "danish", "password": "x" * 8})
    stranger = club_service.add_member(db, other, "Stranger")
    with pytest.raises(service.InputError):
        club_service.add_table(db, club_id, evening, [ids["Anna"], ids["Bo"], ids["Carl"], stranger])


def test_member_names_are_unique_in_a_club(db, season):
    with pytest.raises(service.InputError):
        club_service.add_member(db, season["club"], "anna")
    with pytest.raises(service.InputError):
        club_service.rename_member(db, season["club"], season["ids"]["Carl"], "ANNA")


# ---------------------------------------------------------------- the pages


def test_the_pages_show_the_season(client, season):
    club_id = season["club"]
    page = client.get(f"/c/{club_id}").get_data(as_text=True)
    assert "Kløverklubben" in page and "Bo Jensen" in page and "Admin login" in page
    assert "New card evening" not in page
    first = client.get(f"/c/{club_id}/e/{season['evenings'][0]}/result").get_data(as_text=True)
    assert "Bo Jensen" in first and ">Bo<" not in first  # the rename follows into old results
    game_id, _key = season["keys"][0, 0]  # and into the table's own score sheet
    scored_game = client.get(f"/api/games/{game_id}").get_json()
    assert scored_game["players"] == ["Anna", "Bo Jensen", "Carl", "Dina"]
    assert "Bo Jensen" in client.get(f"/g/{game_id}/print").get_data(as_text=True)
    other, _key = season["keys"][0, 1]
    assert client.get(f"/api/games/{other}").get_json()["players"] == ["Eva", "Finn", "Gro", "Hans", "Ida"]
    kitty = client.get(f"/c/{club_id}/e/{season['evenings'][1]}/result").get_data(as_text=True)
    assert "the kitty" in kitty and "Standings" in kitty
    ledger = client.get(f"/c/{club_id}/ledger").get_data(as_text=True)
    assert "Hans" in ledger and "retired" in ledger and "+135.00" in ledger
    assert client.get(f"/c/{club_id}/ledger?from=2026-01-10&to=2026-01-20").status_code == 200
    assert client.get(f"/c/{club_id}/ledger?from=yesterday").status_code == 400
    stats = client.get(f"/c/{club_id}/stats").get_data(as_text=True)
    assert "Most frequent partners" in stats and "1 of 1 made" in stats
    assert client.get("/c/nope").status_code == 404
    assert client.get(f"/c/{club_id}/e/99999/result").status_code == 404


def test_the_result_page_shows_the_settlement(client, season, db):
    club_id, evening_id = season["club"], season["evenings"][0]
    page = client.get(f"/c/{club_id}/e/{evening_id}/result").get_data(as_text=True)
    r = club_service.evening(db, club_id, evening_id).result
    names = {v: k for k, v in season["ids"].items()} | {season["ids"]["Bo"]: "Bo Jensen"}
    for t in r.transfers:
        payer = "The kitty" if t.payer == KITTY else names[t.payer]
        payee = "the kitty" if t.payee == KITTY else names[t.payee]
        amount = format_currency(Decimal(t.cents).scaleb(-2), "DKK", locale="en").replace("DKK", "DKK\xa0")  # DKK 12.50
        assert f"{payer} pays {payee} {amount}" in page
    assert len(r.transfers) == page.count("pays")


# ---------------------------------------------------------------- CSV


def read_csv(response):
    assert response.status_code == 200 and response.mimetype == "text/csv"
    return list(csv.DictReader(io.StringIO(response.data.decode("utf-8-sig"))))


def test_the_evening_csv_reads_back_to_the_same_figures(client, season, db):
    club_id = season["club"]
    for evening_id in season["evenings"]:
        rows = read_csv(client.get(f"/c/{club_id}/e/{evening_id}/result.csv"))
        r = club_service.evening(db, club_id, evening_id).result
        names = {m.id: m.name for m in club_service.members(db, club_id).values()}
        by_name = {row["member"]: row for row in rows}
        for m in r.members:
            row = by_name[names[m.member]]
            assert (int(row["points"]), int(row["hands"]), int(row["tables"])) == (m.points, m.hands, m.tables)
            assert (Decimal(row["before fee"]), Decimal(row["fee"]), Decimal(row["net"])) == (
                Decimal(m.winnings) / 100,
                Decimal(m.fee) / 100,
                Decimal(m.net) / 100,
            )
            assert (int(row["games won"]), int(row["standing points"])) == (m.games_won, m.standing_points)
        assert Decimal(by_name["kitty"]["net"]) == Decimal(r.kitty) / 100
        assert sum(Decimal(row["net"]) for row in rows) == 0


def test_the_ledger_csv_reads_back_to_the_same_figures(client, season, db):
    club_id = season["club"]
    rows = read_csv(client.get(f"/c/{club_id}/ledger.csv"))
    ledger = club_service.season(db, club_id)
    names = {m.id: m.name for m in club_service.members(db, club_id).values()}
    by_name = {row["member"]: row for row in rows}
    for line in ledger.lines:
        row = by_name[names[line.member]]
        assert (int(row["evenings"]), int(row["hands"]), int(row["points"])) == (line.evenings, line.hands, line.points)
        assert (Decimal(row["net (DKK)"]), Decimal(row["unsettled (DKK)"])) == (
            Decimal(line.net) / 100,
            Decimal(line.unsettled) / 100,
        )
        for r, entry in zip(ledger.results, line.entries):
            points, money = row[f"{r.evening.date} points"], row[f"{r.evening.date} net (DKK)"]
            if entry is None:
                assert points == money == ""
            else:
                assert (int(points), Decimal(money)) == (entry.points, Decimal(entry.net) / 100)
    assert Decimal(by_name["kitty"]["net (DKK)"]) == Decimal(ledger.kitty) / 100 == Decimal("135.00")
    assert sum(Decimal(row["net (DKK)"]) for row in rows) == 0
    assert len(read_csv(client.get(f"/c/{club_id}/ledger.csv?from=2026-01-20"))[0]) == 8 + 2


@pytest.mark.parametrize("name", ['=HYPERLINK("http://x")', "+1", "-Bo", "@SUM(A1)"])
def test_csv_text_cells_cannot_be_formulas(client, db, name):
    club_id = club_service.create_club(db, {"name": name, "currency": "EUR", "variant": "danish", "password": PASSWORD})
    ids = [club_service.add_member(db, club_id, n) for n in (name, "Anna", "Bo", "Carl")]
    evening_id = club_service.create_evening(db, club_id, "2026-02-01", "1")
    game_id, key, _ = club_service.add_table(db, club_id, evening_id, ids)
    service.add_hand(
        db, game_id, {"bidder": 1, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 10}, key
    )
    for url in (f"/c/{club_id}/e/{evening_id}/result.csv", f"/c/{club_id}/ledger.csv"):
        text = client.get(url).data.decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text)))
        cells = [c for row in rows for c in row]
        assert "'" + name in cells and name not in cells
        assert "-4.00" in cells  # −60 points × 0.05 − 1.00: a number
        assert not any(c[:1] in "=+@" for c in cells if c)


def test_cell_guard():
    from scorekeeper.clubs.present import cell

    assert [cell(v) for v in ("=1+2", "+4", "-x", "@a", "\tx", "\rx", "Anna", "", 5, Decimal("-1.50"))] == [
        "'=1+2",
        "'+4",
        "'-x",
        "'@a",
        "'\tx",
        "'\rx",
        "Anna",
        "",
        5,
        Decimal("-1.50"),
    ]


# ---------------------------------------------------------------- access


everything = dump  # every table, read straight from the file


def admin_posts(season):
    club_id, evening_id = season["club"], season["evenings"][2]
    ids = season["ids"]
    return [
        (f"/c/{club_id}/settings", {"name": "Taken", "currency": "EUR", "preset": "standard", "opt_rate": "1"}),
        (f"/c/{club_id}/members", {"name": "Intruder"}),
        (f"/c/{club_id}/members/{ids['Anna']}", {"name": "Renamed", "action": "rename"}),
        (f"/c/{club_id}/members/{ids['Anna']}", {"name": "Anna", "action": "retire"}),
        (f"/c/{club_id}/evenings/new", {"date": "2026-03-01", "fee": "5", "settlement": "kitty"}),
        (
            f"/c/{club_id}/e/{evening_id}/tables",
            {
                "variant": "danish",
                "seat0": ids["Anna"],
                "seat1": ids["Bo"],
                "seat2": ids["Carl"],
                "seat3": ids["Dina"],
                "dealer": "0",
            },
        ),
        (f"/c/{club_id}/e/{evening_id}/settle", {"settlement": "kitty", "action": "settle"}),
        (f"/c/{club_id}/e/{evening_id}/edit", {"date": "2026-03-02", "fee": "1", "settlement": "kitty"}),
        (f"/c/{club_id}/e/{evening_id}/delete", {}),
    ]


def test_no_club_change_without_the_admin_login(client, season, db_path):
    before = everything(db_path)
    csrf = token(client, f"/c/{season['club']}/login")
    for url, data in admin_posts(season):
        r = client.post(url, data={**data, "csrf_token": csrf})
        assert r.status_code == 403, url
        assert "admin can change the club" in r.get_data(as_text=True)
    assert everything(db_path) == before
    for url in (
        f"/c/{season['club']}/settings",
        f"/c/{season['club']}/evenings/new",
        f"/c/{season['club']}/format",
    ):
        r = client.get(url)
        assert r.status_code == 302 and "/login" in r.location
    # A member's page shows the season to anyone with the club's link, without the form that changes the member.
    page = client.get(f"/c/{season['club']}/members/{season['ids']['Anna']}").get_data(as_text=True)
    assert 'id="season"' in page and 'id="rename"' not in page


def test_the_admin_of_another_club_is_not_admin_here(client, season, db, db_path):
    other = club_service.create_club(
        db, {"name": "Other", "currency": "SEK", "variant": "danish", "password": "other-pass"}
    )
    assert log_in(client, other, "other-pass").status_code == 302
    before = everything(db_path)
    csrf = token(client, f"/c/{other}")
    for url, data in admin_posts(season):
        assert client.post(url, data={**data, "csrf_token": csrf}).status_code == 403
    assert everything(db_path) == before


def test_a_wrong_password_is_refused(client, season, db_path):
    r = log_in(client, season["club"], "wrong password")
    assert r.status_code == 400 and "Wrong password" in r.get_data(as_text=True)
    before = everything(db_path)
    r = client.post(
        f"/c/{season['club']}/members", data={"name": "X", "csrf_token": token(client, f"/c/{season['club']}/login")}
    )
    assert r.status_code == 403 and everything(db_path) == before


def test_the_admin_login_allows_changes_and_a_new_password_logs_others_out(app, client, season, db):
    club_id = season["club"]
    assert log_in(client, club_id).status_code == 302
    other = app.test_client()
    assert log_in(other, club_id).status_code == 302
    r = client.post(f"/c/{club_id}/members", data={"name": "Jens", "csrf_token": token(client, f"/c/{club_id}")})
    assert r.status_code == 302 and "Jens" in {m.name for m in club_service.members(db, club_id).values()}
    r = client.post(
        f"/c/{club_id}/settings",
        data={
            "csrf_token": token(client, f"/c/{club_id}/settings"),
            "name": "Kløverklubben",
            "currency": "DKK",
            "preset": "standard",
            "opt_rate": "0.05",
            "opt_deals": "",
            "password": "a new password",
            "password2": "a new password",
        },
    )
    assert r.status_code == 302, r.get_data(as_text=True)
    r = other.post(f"/c/{club_id}/members", data={"name": "Late", "csrf_token": token(other, f"/c/{club_id}/login")})
    assert r.status_code == 403
    assert (
        client.post(
            f"/c/{club_id}/members", data={"name": "Karen", "csrf_token": token(client, f"/c/{club_id}")}
        ).status_code
        == 302
    )
    assert client.post(f"/c/{club_id}/logout", data={"csrf_token": token(client, f"/c/{club_id}")}).status_code == 302
    assert (
        client.post(
            f"/c/{club_id}/members", data={"name": "After", "csrf_token": token(client, f"/c/{club_id}/login")}
        ).status_code
        == 403
    )


def test_a_form_without_csrf_token_changes_nothing(client, season, db_path):
    assert log_in(client, season["club"]).status_code == 302
    before = everything(db_path)
    r = client.post(f"/c/{season['club']}/members", data={"name": "NoToken"})
    assert r.status_code in (302, 400)
    assert everything(db_path) == before


class Clock:
    def __init__(self, now=1_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture
def clocked(db_path):
    from scorekeeper import create_app

    clock = Clock()
    app = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "test", "CLUB_CLOCK": clock})
    return app.test_client(), clock


def failures(db_path, club_id, address="127.0.0.1"):
    """The wrong passwords in a row from the test client's address, and until when its login is closed."""
    conn = sqlite3.connect(db_path)
    try:
        row = conn.execute(
            "SELECT failures, locked_until FROM club_logins WHERE club_id = ? AND address = ?", [club_id, address]
        ).fetchone()
        return row or (0, None)
    finally:
        conn.close()


def test_repeated_wrong_passwords_lock_the_login_for_longer_and_longer(clocked, season, db_path):
    client, clock = clocked
    club_id = season["club"]
    start = clock.now
    assert log_in(client, club_id, "nope-1").status_code == 400
    assert log_in(client, club_id, "nope-2").status_code == 400
    assert failures(db_path, club_id) == (2, None)
    assert log_in(client, club_id, "nope-3").status_code == 400  # the third locks for 30 s
    assert failures(db_path, club_id) == (3, start + 30)
    clock.now = start + 10
    r = log_in(client, club_id)  # even the right one waits
    assert r.status_code == 429 and r.headers["Retry-After"] == "20"
    assert "Try again in 20 seconds" in r.get_data(as_text=True)
    assert failures(db_path, club_id) == (3, start + 30)  # a refused try is not counted
    clock.now = start + 31
    assert log_in(client, club_id, "nope-4").status_code == 400  # the fourth locks for 60 s
    assert failures(db_path, club_id) == (4, start + 31 + 60)
    clock.now = start + 31 + 59
    assert log_in(client, club_id).status_code == 429
    clock.now = start + 31 + 60
    assert log_in(client, club_id, "nope-5").status_code == 400  # 120 s
    assert failures(db_path, club_id) == (5, start + 91 + 120)
    clock.now = start + 91 + 120
    assert log_in(client, club_id).status_code == 302  # right at last: the count starts again
    assert failures(db_path, club_id) == (0, None)


def test_the_lockout_is_capped_and_per_club(db, season):
    other = club_service.create_club(
        db, {"name": "Other", "currency": "SEK", "variant": "danish", "password": "other-pass"}
    )
    now, locked_for, address = 5_000.0, [], "192.0.2.7"
    for _ in range(11):  # 30 × 2⁷ s passes the cap
        assert club_service.login(db, season["club"], "bad", now, address) is False
        until = club_service.login_lock(db, season["club"], address, now)
        locked_for.append(until - now if until else 0)
        now = until or now
    assert locked_for[:6] == [0, 0, 30, 60, 120, 240] and locked_for[-1] == club_service.LOCK_MAX
    with pytest.raises(club_service.LockedOut):
        club_service.login(db, season["club"], PASSWORD, now - 1, address)
    assert club_service.login(db, other, "other-pass", now - 1, address) is True


# ---------------------------------------------------------------- the whole flow through the forms


def test_a_club_made_and_run_through_its_pages(client, db):
    r = client.get("/")
    assert 'href="/clubs"' in r.get_data(as_text=True)
    page = client.get("/clubs/new").get_data(as_text=True)
    assert 'id="card-matrix"' in page and "Doubled tariff per missing trick" in page
    csrf = token(client, "/clubs/new")
    form = {
        "csrf_token": csrf,
        "name": "Torsdagsklubben",
        "currency": "DKK",
        "preset": "per_trick",
        "opt_tariff": "",
        "opt_lost": "flat",
        "opt_solo_values": "",
        "opt_rate": "0,10",
        "opt_deals": "",
        "password": "short",
        "password2": "short",
    }
    r = client.post("/clubs/new", data=form)
    assert r.status_code == 400 and "must be 8 to 200 characters" in r.get_data(as_text=True)
    r = client.post("/clubs/new", data={**form, "password": "long enough", "password2": "different"})
    assert r.status_code == 400 and "The two passwords differ" in r.get_data(as_text=True)
    # Own numbers with a preview of the matrix: bid 7 with 13 tricks at a tariff of 5 is 5 × 7 = 35.
    r = client.post(
        "/clubs/new",
        data={
            **form,
            "preset": "own",
            "opt_tariff": "5, 10, 20, 40, 80, 160, 320",
            "opt_solo_values": "50, 100, 150, 200",
            "preview": "1",
        },
    )
    assert r.status_code == 200 and ">35<" in r.get_data(as_text=True)
    r = client.post("/clubs/new", data={**form, "password": "long enough", "password2": "long enough"})
    assert r.status_code == 302
    club_id = r.location.rsplit("/", 1)[-1]
    club = club_service.get_club(db, club_id)
    assert club.options["lost"] == "per_trick" and club.options["rate"] == 0.1
    assert club.password_hash.startswith(("scrypt:", "pbkdf2:")) and "long enough" not in club.password_hash

    for name in ("Anna", "Bo", "Carl", "Dina", "Eva"):
        r = client.post(f"/c/{club_id}/members", data={"name": name, "csrf_token": csrf})
        assert r.status_code == 302
    ids = {m.name: m.id for m in club_service.members(db, club_id).values()}
    r = client.post(
        f"/c/{club_id}/members/{ids['Eva']}", data={"name": "Eva Berg", "action": "rename", "csrf_token": csrf}
    )
    assert r.status_code == 302 and club_service.members(db, club_id)[ids["Eva"]].name == "Eva Berg"
    r = client.post(
        f"/c/{club_id}/members/{ids['Eva']}", data={"name": "Eva Berg", "action": "retire", "csrf_token": csrf}
    )
    assert club_service.members(db, club_id)[ids["Eva"]].retired

    r = client.post(
        f"/c/{club_id}/evenings/new",
        data={"date": "2026-02-05", "fee": "12,50", "settlement": "kitty", "csrf_token": csrf},
    )
    assert r.status_code == 302
    evening_id = int(r.location.rsplit("/", 1)[-1])
    assert client.post(f"/c/{club_id}/evenings/new", data={"date": "5 Feb", "csrf_token": csrf}).status_code == 400
    seats = {"seat0": ids["Anna"], "seat1": ids["Bo"], "seat2": ids["Carl"], "seat3": ids["Dina"]}
    r = client.post(
        f"/c/{club_id}/e/{evening_id}/tables",
        data={**seats, "seat4": ids["Eva"], "variant": "danish", "dealer": "0", "csrf_token": csrf},
    )
    assert r.status_code == 400 and "retired" in r.get_data(as_text=True)
    r = client.post(
        f"/c/{club_id}/e/{evening_id}/tables", data={**seats, "variant": "danish", "dealer": "1", "csrf_token": csrf}
    )
    assert r.status_code == 302
    page = client.get(r.location).get_data(as_text=True)
    code = re.search(r'id="code-1">([A-Z0-9]{3}-[A-Z0-9]{3})<', page).group(1)  # the table's handover code
    scorer = client.application.test_client()
    r = scorer.get(f"/c/{club_id}/k/{code.replace('-', '')}")
    assert r.status_code == 302
    game_id = r.location.rsplit("/", 1)[-1]
    assert "Enter hand 1" in scorer.get(f"/g/{game_id}").get_data(as_text=True)  # the scanning phone may score
    assert "Enter hand 1" in client.get(f"/g/{game_id}").get_data(as_text=True)  # so may the admin's, which started it
    key = service.handed_key(service.load(db, game_id).game)
    game = service.load(db, game_id)
    assert game.game.players == ("Anna", "Bo", "Carl", "Dina") and game.game.dealer == 1
    assert game.game.options["lost"] == "per_trick" and game.game.options["rate"] == 0.1
    r = client.post(
        f"/api/games/{game_id}/hands",
        headers={"X-Edit-Key": key},
        json={"bidder": 2, "bid": 9, "suffix": "plain", "trump": "hearts", "partner": 0, "tricks": 7},
    )
    assert r.status_code == 201 and r.json["points"] == [-160, 160, -160, 160]  # 2 × 40 × 2 missing tricks
    # A reader without the login sees the evening but no code.
    reader = client.application.test_client()
    assert code not in reader.get(f"/c/{club_id}/e/{evening_id}").get_data(as_text=True)
    page = client.get(f"/c/{club_id}/e/{evening_id}/result").get_data(as_text=True)
    # Anna −160 × 0.10 = −16.00 − 12.50 fee: pays the kitty 28.50; Bo +16.00 − 12.50: the kitty pays 3.50.
    assert "Anna pays the kitty DKK\xa028.50" in page and "The kitty pays Bo DKK\xa03.50" in page
    r = client.post(
        f"/c/{club_id}/e/{evening_id}/settle", data={"settlement": "kitty", "action": "settle", "csrf_token": csrf}
    )
    assert r.status_code == 302 and club_service.get_evening(db, club_id, evening_id).settled
    ledger = client.get(f"/c/{club_id}/ledger").get_data(as_text=True)
    assert "+50.00" in ledger  # the kitty: 4 × 12.50
    # A table with hands stays; a second one, empty, can be taken off again.
    r = client.post(f"/c/{club_id}/e/{evening_id}/tables/{game_id}/remove", data={"csrf_token": csrf})
    assert len(club_service.evening(db, club_id, evening_id).tables) == 1
    r = client.post(
        f"/c/{club_id}/e/{evening_id}/tables", data={**seats, "variant": "norwegian", "dealer": "0", "csrf_token": csrf}
    )
    tables = club_service.evening(db, club_id, evening_id).tables
    assert [t.scored_game.game.variant for t in tables] == ["danish", "norwegian"]
    assert tables[1].scored_game.game.options["rate"] is None
    r = client.post(
        f"/c/{club_id}/e/{evening_id}/tables/{tables[1].scored_game.game.id}/remove", data={"csrf_token": csrf}
    )
    assert r.status_code == 302 and len(club_service.evening(db, club_id, evening_id).tables) == 1


def test_a_partnership_club_keeps_standings_and_no_money(client, db):
    club_id = club_service.create_club(
        db, {"name": "Grand", "currency": "NOK", "variant": "norwegian", "options": {"target": 5}, "password": PASSWORD}
    )
    ids = [club_service.add_member(db, club_id, n) for n in ("Ola", "Kari", "Per", "Liv")]
    evening_id = club_service.create_evening(db, club_id, "2026-02-02")
    game_id, key, _ = club_service.add_table(db, club_id, evening_id, ids)
    assert service.load(db, game_id).game.options["target"] == 5
    service.add_hand(db, game_id, {"bid": "grand", "bidder": 0, "tricks": [11, 2]}, key)  # 5: Ola & Per win
    german, gkey, _ = club_service.add_table(db, club_id, evening_id, ids[1:3], 0, "german")
    service.add_hand(db, german, {"tricks": [9, 4]}, gkey)
    r = club_service.evening(db, club_id, evening_id).result
    by = {m.member: m for m in r.members}
    assert not r.has_money and r.transfers == () and r.kitty == 0
    assert [(by[i].games_won, by[i].standing_points) for i in ids] == [(1, 5), (0, 3), (1, 5), (0, 0)]
    page = client.get(f"/c/{club_id}/e/{evening_id}/result").get_data(as_text=True)
    assert "Standings" in page and 'id="settlement"' not in page
    ledger = club_service.season(db, club_id)
    assert {line.member: line.games_won for line in ledger.lines} == {ids[0]: 1, ids[1]: 0, ids[2]: 1, ids[3]: 0}
    assert ledger.kitty == 0 and all(line.net == 0 for line in ledger.lines)


def test_the_settings_page_shows_the_club_as_it_is(client, season):
    assert log_in(client, season["club"]).status_code == 302
    page = client.get(f"/c/{season['club']}/settings").get_data(as_text=True)
    assert 'value="Kløverklubben"' in page and 'value="0.05"' in page
    assert '<option value="standard" selected>' in page and 'class="matrix"' in page
    assert client.get(f"/c/{season['club']}/settings?variant=swedish").status_code == 200
    assert client.get(f"/c/{season['club']}/settings?variant=bridge").status_code == 404


def test_the_preview_names_a_wrong_tariff(client):
    r = client.post(
        "/clubs/new",
        data={
            "csrf_token": token(client, "/clubs/new"),
            "name": "X",
            "currency": "DKK",
            "preset": "own",
            "opt_tariff": "10, 20, 40",
            "opt_lost": "flat",
            "opt_solo_values": "50, 100, 150, 200",
            "opt_rate": "0.05",
            "preview": "1",
        },
    )
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "must be 7 whole numbers" in page and 'id="matrix"' not in page


# ---------------------------------------------------------------- correcting and deleting an evening


def test_an_evening_is_corrected_and_its_result_follows(client, season, db, db_path):
    club_id, first = season["club"], season["evenings"][0]
    url = f"/c/{club_id}/e/{first}/edit"
    assert client.get(url).status_code == 302  # not logged in: to the login
    assert log_in(client, club_id).status_code == 302
    page = client.get(f"/c/{club_id}/e/{first}").get_data(as_text=True)
    assert f'href="{url}"' in page
    club_service.set_settled(db, club_id, first, "pairwise", True)
    page = client.get(url).get_data(as_text=True)
    assert 'value="2026-01-08"' in page and 'value="5.00"' in page and "marked settled" in page
    assert "cannot be deleted" in page and 'id="delete-evening"' not in page  # it has tables

    before = everything(db_path)
    r = client.post(
        url, data={"csrf_token": token(client, url), "date": "2026-02-30", "fee": "x", "settlement": "pairwise"}
    )
    text = r.get_data(as_text=True)
    assert r.status_code == 400 and "must be a date" in text and "must be an amount" in text
    assert everything(db_path) == before

    r = client.post(
        url, data={"csrf_token": token(client, url), "date": "2026-01-09", "fee": "7,50", "settlement": "kitty"}
    )
    assert r.status_code == 302 and r.location.endswith(f"/c/{club_id}/e/{first}")
    record = club_service.get_evening(db, club_id, first)
    assert (record.date, record.fee_cents, record.settlement, record.rate) == ("2026-01-09", 750, "kitty", "0.05")
    present, points, *_ = by_hand(SEASON[0])
    data = club_service.evening(db, club_id, first)
    assert {season["names"][m.member]: m.net for m in data.result.members} == {
        name: points[name] * RATE_CENTS - 750 for name in present
    }
    assert data.record.settled and data.result.changed_since_settled  # the fee changed since it was settled
    assert "changed after it was settled" in client.get(f"/c/{club_id}/e/{first}/result").get_data(as_text=True)


def test_only_an_evening_without_tables_is_deleted(client, season, db, db_path):
    club_id, first = season["club"], season["evenings"][0]
    assert log_in(client, club_id).status_code == 302
    before = everything(db_path)
    r = client.post(
        f"/c/{club_id}/e/{first}/delete", data={"csrf_token": token(client, f"/c/{club_id}/e/{first}/edit")}
    )
    assert r.status_code == 302
    assert "has tables" in client.get(r.location).get_data(as_text=True)
    assert everything(db_path) == before

    mistake = club_service.create_evening(db, club_id, "2026-03-01")
    page = client.get(f"/c/{club_id}/e/{mistake}/edit").get_data(as_text=True)
    assert 'id="delete-evening"' in page
    r = client.post(
        f"/c/{club_id}/e/{mistake}/delete", data={"csrf_token": token(client, f"/c/{club_id}/e/{mistake}/edit")}
    )
    assert r.status_code == 302 and r.location.endswith(f"/c/{club_id}")
    assert "The evening was deleted." in client.get(r.location).get_data(as_text=True)
    with pytest.raises(club_service.ClubNotFound):
        club_service.get_evening(db, club_id, mistake)
    assert everything(db_path) == before
    assert client.get(f"/c/{club_id}/e/{mistake}/edit").status_code == 404


# The club pages' routes as they were before clubs/pages/views.py was split by job (issue 26): issues 23 and 24 build on
# these endpoint names and addresses.
CLUB_ROUTES = {
    ("add_member", "/c/<club_id>/members"),
    ("new_club_preview", "/clubs/new/preview"),
    ("club", "/c/<club_id>"),
    ("delete_evening", "/c/<club_id>/e/<int:evening_id>/delete"),
    ("edit_evening", "/c/<club_id>/e/<int:evening_id>/edit"),
    ("evening", "/c/<club_id>/e/<int:evening_id>"),
    ("index", "/clubs"),
    ("ledger", "/c/<club_id>/ledger"),
    ("ledger_csv", "/c/<club_id>/ledger.csv"),
    ("login", "/c/<club_id>/login"),
    ("logout", "/c/<club_id>/logout"),
    ("member", "/c/<club_id>/members/<int:member_id>"),
    ("new_club", "/clubs/new"),
    ("new_evening", "/c/<club_id>/evenings/new"),
    ("new_table", "/c/<club_id>/e/<int:evening_id>/tables"),
    ("remove_table", "/c/<club_id>/e/<int:evening_id>/tables/<game_id>/remove"),
    ("result", "/c/<club_id>/e/<int:evening_id>/result"),
    ("result_csv", "/c/<club_id>/e/<int:evening_id>/result.csv"),
    ("settings", "/c/<club_id>/settings"),
    ("settle", "/c/<club_id>/e/<int:evening_id>/settle"),
    ("stats", "/c/<club_id>/stats"),
}


def test_the_club_pages_keep_their_endpoints_and_addresses(app):
    from scorekeeper.clubs.pages import access, evenings, season

    routes = {(r.endpoint[6:], r.rule) for r in app.url_map.iter_rules() if r.endpoint.startswith("clubs.")}
    assert routes >= CLUB_ROUTES  # every one kept; issues 23 and 24 add their own
    # Each in the module of its job.
    assert {"login", "logout", "member", "club", "settings"} <= set(vars(access))
    assert {"evening", "new_table", "result", "settle"} <= set(vars(evenings))
    assert {"ledger", "ledger_csv", "stats"} <= set(vars(season))
