"""Clubs on a real network (issue 12): the login throttle per address, the currency an evening was played in, and
what changed after an evening was settled."""

import csv
import io
import re
import sqlite3

import pytest

from scorekeeper.clubs import service as club_service
from scorekeeper.games import service
from scorekeeper.storage import close, connect

PASSWORD = "kløver-es-42"
A, B = "10.0.0.1", "10.0.0.2"  # fake client addresses inside the Flask test client only


class Clock:
    def __init__(self, now=1_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture
def db(app, db_path):
    conn = connect(db_path)
    yield conn
    close(conn)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def clocked_app(db_path, clock):
    from scorekeeper import create_app

    return create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "test", "CLUB_CLOCK": clock})


def make_club(db, currency="DKK"):
    club_id = club_service.create_club(
        db,
        {
            "name": "Kløverklubben",
            "currency": currency,
            "variant": "danish",
            "options": {"rate": "0.05"},
            "password": PASSWORD,
        },
    )
    ids = [club_service.add_member(db, club_id, name) for name in ("Anna", "Bo", "Carl", "Dina")]
    return club_id, ids


def play_evening(db, club_id, ids, date="2026-01-08", fee="5"):
    """An evening with one Danish table and one hand: Anna and Carl +60 points (3.00), Bo and Dina −60."""
    evening_id = club_service.create_evening(db, club_id, date, fee, "pairwise")
    game_id, key, _ = club_service.add_table(db, club_id, evening_id, ids, 0, "danish")
    service.add_hand(
        db, game_id, {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 10}, key
    )
    return evening_id, game_id, key


def token(client, url, address=A):
    html = client.get(url, environ_base={"REMOTE_ADDR": address}).get_data(as_text=True)
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def log_in(client, club_id, password=PASSWORD, address=A):
    return client.post(
        f"/c/{club_id}/login",
        environ_base={"REMOTE_ADDR": address},
        data={"csrf_token": token(client, f"/c/{club_id}/login", address), "password": password},
    )


def throttle(db_path, club_id):
    conn = sqlite3.connect(db_path)
    try:
        return {
            r[0]: (r[1], r[2])
            for r in conn.execute(
                "SELECT address, failures, locked_until FROM club_logins WHERE club_id = ?", [club_id]
            )
        }
    finally:
        conn.close()


# ---------------------------------------------------------------- A: the login throttle per address


def test_wrong_passwords_from_one_address_do_not_lock_out_another(clocked_app, clock, db, db_path):
    club_id, _ids = make_club(db)
    attacker, admin = clocked_app.test_client(), clocked_app.test_client()
    start = clock.now
    for n in range(3):
        assert log_in(attacker, club_id, f"nope-{n}", A).status_code == 400
    assert throttle(db_path, club_id) == {A: (3, start + 30)}
    r = log_in(attacker, club_id, PASSWORD, A)  # A is locked, even with the right password
    assert r.status_code == 429 and r.headers["Retry-After"] == "30"
    r = log_in(admin, club_id, PASSWORD, B)  # B is not
    assert r.status_code == 302 and r.location.endswith(f"/c/{club_id}")
    clock.now = start + 30
    assert log_in(attacker, club_id, "nope-3", A).status_code == 400  # A's fourth: 60 s
    r = log_in(attacker, club_id, PASSWORD, A)
    assert r.status_code == 429 and r.headers["Retry-After"] == "60"
    assert throttle(db_path, club_id)[A] == (4, start + 30 + 60)
    # The admin, logged in on their phone, is not affected: not from B, and not from A (the same router) either.
    for address in (B, A):
        r = admin.post(
            f"/c/{club_id}/members",
            environ_base={"REMOTE_ADDR": address},
            data={"name": f"Member at {address}", "csrf_token": token(admin, f"/c/{club_id}", address)},
        )
        assert r.status_code == 302
    assert log_in(admin, club_id, PASSWORD, A).status_code == 302  # already in: no lock, nothing counted
    assert throttle(db_path, club_id)[A] == (4, start + 30 + 60)
    # A wrong password from B counts for B only, and B's right one clears B's count.
    other = clocked_app.test_client()
    assert log_in(other, club_id, "nope", B).status_code == 400
    assert throttle(db_path, club_id)[B] == (1, None)
    assert log_in(other, club_id, PASSWORD, B).status_code == 302
    assert B not in throttle(db_path, club_id)
    assert log_in(attacker, club_id, PASSWORD, A).status_code == 429  # still locked until start + 90
    clock.now = start + 90
    assert log_in(attacker, club_id, PASSWORD, A).status_code == 302
    assert throttle(db_path, club_id) == {}


def test_the_throttle_in_the_service(db):
    club_id, _ids = make_club(db)
    other, _ = make_club(db, "SEK")
    now, locked_for = 5_000.0, []
    for _ in range(11):  # 30 × 2⁷ s passes the cap
        assert club_service.login(db, club_id, "bad", now, A) is False
        until = club_service.login_lock(db, club_id, A, now)
        locked_for.append(until - now if until else 0)
        now = until or now
    assert locked_for[:6] == [0, 0, 30, 60, 120, 240] and locked_for[-1] == club_service.LOCK_MAX
    with pytest.raises(club_service.LockedOut):
        club_service.login(db, club_id, PASSWORD, now - 1, A)
    assert club_service.login(db, club_id, PASSWORD, now - 1, B) is True  # another address
    assert club_service.login(db, other, PASSWORD, now - 1, A) is True  # another club
    # An IPv6 client is its address (issue 34, F-A2: the phones of a club's Wi-Fi share a /64); its /64 is held to
    # NETWORK_LOCK_AFTER (tests/integration/test_shared_address.py).
    for _ in range(3):
        club_service.login(db, club_id, "bad", now, "2001:db8:1:2::1")
    with pytest.raises(club_service.LockedOut):
        club_service.login(db, club_id, PASSWORD, now, "2001:db8:1:2::1")
    assert club_service.login(db, club_id, PASSWORD, now, "2001:db8:1:2:ffff::9") is True
    assert club_service.login(db, club_id, PASSWORD, now, "2001:db8:1:3::1") is True


def test_expired_throttle_rows_are_purged_on_write(db, db_path):
    club_id, _ids = make_club(db)
    club_service.login(db, club_id, "bad", 1_000.0, A)
    assert set(throttle(db_path, club_id)) == {A}
    club_service.login(db, club_id, "bad", 1_000.0 + club_service.LOCK_FORGET + 1, B)
    assert set(throttle(db_path, club_id)) == {B}  # A's old row is gone
    # A row forgotten is a fresh start: the count does not carry on.
    club_service.login(db, club_id, "bad", 1_000.0 + 2 * club_service.LOCK_FORGET + 2, B)
    assert throttle(db_path, club_id)[B] == (1, None)


# ---------------------------------------------------------------- B: an evening keeps its currency


def read_csv(response):
    assert response.status_code == 200 and response.mimetype == "text/csv"
    return list(csv.DictReader(io.StringIO(response.data.decode("utf-8-sig"))))


def change_currency(db, club_id, currency):
    club = club_service.get_club(db, club_id)
    club_service.update_club(
        db,
        club_id,
        {
            "name": club.name,
            "currency": currency,
            "variant": club.variant,
            "options": club.options,
            "language": club.language,
        },
    )


def test_an_evening_keeps_the_currency_it_was_played_in(client, db):
    club_id, ids = make_club(db, "DKK")
    old, _game, _key = play_evening(db, club_id, ids, "2026-01-08", fee="5")
    change_currency(db, club_id, "EUR")
    assert club_service.get_club(db, club_id).currency == "EUR"
    assert club_service.get_evening(db, club_id, old).currency == "DKK"

    page = client.get(f"/c/{club_id}/e/{old}/result?lang=da").get_data(as_text=True)
    assert "kr." in page and "€" not in page and "EUR" not in page
    page = client.get(f"/c/{club_id}/e/{old}/result").get_data(as_text=True)
    assert "DKK\xa0" in page and "EUR" not in page
    page = client.get(f"/c/{club_id}/e/{old}").get_data(as_text=True)
    assert "DKK\xa00.05 per point" in page and "EUR" not in page
    rows = read_csv(client.get(f"/c/{club_id}/e/{old}/result.csv"))
    assert {row["currency"] for row in rows} == {"DKK"}
    single = client.get(f"/c/{club_id}/ledger?lang=da").get_data(as_text=True)
    assert "kr." in single and "€" not in single

    late, _key, _n = club_service.add_table(db, club_id, old, ids, 0, "danish")  # a table added late: in DKK
    assert service.load(db, late).game.options["currency"] == "DKK"

    new, game_id, _key = play_evening(db, club_id, ids, "2026-02-05", fee="2")
    assert club_service.get_evening(db, club_id, new).currency == "EUR"
    assert service.load(db, game_id).game.options["currency"] == "EUR"
    page = client.get(f"/c/{club_id}/e/{new}/result?lang=da").get_data(as_text=True)
    assert "€" in page and "kr." not in page

    # The season: each currency added up on its own, never one sum of kroner and euros.
    ledger = club_service.season(db, club_id)
    assert ledger.currencies == ("DKK", "EUR")
    anna = {line.member: line for line in ledger.lines}[ids[0]]
    assert anna.by_currency == {"DKK": (300 - 500, 300 - 500), "EUR": (300 - 200, 300 - 200)}
    assert anna.net is None and ledger.kitty is None
    page = client.get(f"/c/{club_id}/ledger").get_data(as_text=True)
    assert "more than one currency" in page
    assert "<b>−2.00</b>" in page and "<b>+1.00</b>" in page and "<b>−1.00</b>" not in page
    assert "−DKK\xa02.00 · €1.00" in page  # Anna: −2 DKK and +1 EUR, not −1
    rows = {row["member"]: row for row in read_csv(client.get(f"/c/{club_id}/ledger.csv"))}
    assert (rows["Anna"]["net (DKK)"], rows["Anna"]["net (EUR)"]) == ("-2.00", "1.00")
    assert rows["Anna"]["2026-01-08 net (DKK)"] == "-2.00" and rows["Anna"]["2026-02-05 net (EUR)"] == "1.00"
    assert "money" not in rows["Anna"]
    # A date range with only the old evening is all in kroner again.
    rows = read_csv(client.get(f"/c/{club_id}/ledger.csv?to=2026-01-31"))
    assert "net (DKK)" in rows[0] and "net (EUR)" not in rows[0]


def test_the_migration_gives_old_evenings_their_clubs_currency(tmp_path):
    import scorekeeper.storage as dbmod

    path = str(tmp_path / "old.sqlite")
    conn = connect(path)
    dbmod.migrations.apply(conn, stop_before="m104_club_logins_per_address")
    conn.execute(
        "INSERT INTO clubs (id, name, currency, variant, options, password_hash, created, updated)"
        " VALUES ('c', 'C', 'NOK', 'danish', '{}', 'x', 'now', 'now')"
    )
    conn.execute("INSERT INTO club_evenings (club_id, date, created) VALUES ('c', '2026-01-01', 'now')")
    conn.conn.commit()
    close(conn)
    dbmod.migrate(path)
    conn = connect(path)
    try:
        assert [r["currency"] for r in conn.query("SELECT currency FROM club_evenings")] == ["NOK"]
    finally:
        close(conn)


# ---------------------------------------------------------------- C: what changed after settling


def edit_evening(client, club_id, evening_id, date, fee, settlement="pairwise"):
    url = f"/c/{club_id}/e/{evening_id}/edit"
    r = client.post(
        url,
        data={"csrf_token": token(client, url), "date": date, "fee": fee, "settlement": settlement},
        environ_base={"REMOTE_ADDR": A},
    )
    assert r.status_code == 302, r.get_data(as_text=True)


def test_the_result_says_what_changed_after_settling(client, db):
    club_id, ids = make_club(db)
    evening_id, game_id, key = play_evening(db, club_id, ids, "2026-01-08", fee="5")
    assert log_in(client, club_id).status_code == 302
    url = f"/c/{club_id}/e/{evening_id}/result"
    club_service.set_settled(db, club_id, evening_id, "pairwise", True)
    page = client.get(url).get_data(as_text=True)
    assert "Settled." in page and "changed after" not in page

    edit_evening(client, club_id, evening_id, "2026-01-08", "7,50")  # only the fee
    page = client.get(url).get_data(as_text=True)
    assert "The fee was changed after it was settled" in page and "Hands were changed" not in page

    edit_evening(client, club_id, evening_id, "2026-01-08", "5")  # back as it was settled
    assert "changed after" not in client.get(url).get_data(as_text=True)

    edit_evening(client, club_id, evening_id, "2026-01-09", "5", "kitty")  # date and way of settling up
    page = client.get(url).get_data(as_text=True)
    assert "The date was changed after it was settled" in page
    assert "The way of settling up was changed after it was settled" in page
    assert "Hands were changed" not in page and "The fee was changed" not in page

    edit_evening(client, club_id, evening_id, "2026-01-08", "5")
    service.add_hand(db, game_id, {"bidder": 1, "bid": "sol", "tricks": 1}, key)  # a hand
    page = client.get(url).get_data(as_text=True)
    assert "Hands were changed after it was settled" in page and "fee was changed" not in page

    edit_evening(client, club_id, evening_id, "2026-01-08", "6")  # and then the fee too
    page = client.get(url).get_data(as_text=True)
    assert "Hands and the fee were changed after it was settled" in page


def test_an_evening_settled_before_the_terms_were_kept_still_tells_fee_from_hands(client, db, db_path):
    club_id, ids = make_club(db)
    evening_id, game_id, key = play_evening(db, club_id, ids, "2026-01-08", fee="5")
    club_service.set_settled(db, club_id, evening_id, "pairwise", True)
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE club_evenings SET settled_terms = NULL")  # as settled before m106
    conn.commit()
    conn.close()
    club_service.change_evening(db, club_id, evening_id, "2026-01-08", "8", "pairwise")
    page = client.get(f"/c/{club_id}/e/{evening_id}/result").get_data(as_text=True)
    assert "The fee was changed after it was settled" in page and "Hands were changed" not in page
    club_service.change_evening(db, club_id, evening_id, "2026-01-08", "5", "pairwise")
    service.add_hand(db, game_id, {"bidder": 1, "bid": "sol", "tricks": 1}, key)
    page = client.get(f"/c/{club_id}/e/{evening_id}/result").get_data(as_text=True)
    assert "Hands were changed after it was settled" in page and "fee was changed" not in page
