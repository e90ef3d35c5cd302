"""Issue 34, F-A2: a club's IPv6 Wi-Fi is not one client. Budgets counted an IPv6 client by its /64, which every phone
of the LAN shares: a stranger's wrong passwords locked the admin out even with the right one (429), and 62 wrong table
codes blocked the real QR code. Now an IPv6 address is its own client (its /64 held to a larger budget, so one client
taking many addresses is still bounded), only wrong codes are counted, and a phone that has logged in to the club
before (its device cookie, signed) has a count of its own that no stranger's wrong password touches, even behind one
IPv4 address. The connection caps: tests/integration/test_slow_sockets.py."""

import re

import pytest
from test_clubs_network import PASSWORD, Clock, log_in, make_club

from scorekeeper import create_app
from scorekeeper.clubs import service as club_service
from scorekeeper.storage import close, connect
from scorekeeper.web import phone

STRANGER, ADMIN = "2001:db8:1:2::bad", "2001:db8:1:2::a11"  # two phones on one club's IPv6 Wi-Fi
NAT = "10.0.0.1"  # every phone of a hall behind one IPv4 address


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def limited_app(db_path, clock):
    """The app as served: rate limits on (a test app has them off), the club login's clock in the test's hands."""
    return create_app(
        {"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "t", "CLUB_CLOCK": clock, "RATELIMIT_ENABLED": True}
    )


@pytest.fixture
def club(limited_app, db_path):
    conn = connect(db_path)
    try:
        yield make_club(conn)[0]
    finally:
        close(conn)


def test_a_strangers_wrong_passwords_on_the_lan_do_not_lock_out_the_admins_phone(limited_app, club):
    stranger, admin = limited_app.test_client(), limited_app.test_client()
    for n in range(6):
        assert log_in(stranger, club, f"nope-{n}", STRANGER).status_code in (400, 429)
    assert log_in(stranger, club, PASSWORD, STRANGER).status_code == 429  # the guesser's own address is locked
    r = log_in(admin, club, PASSWORD, ADMIN)
    assert r.status_code == 302, r.status_code  # was 429: the /64 was one client


def test_a_phone_that_logged_in_before_is_not_locked_by_a_stranger_behind_the_same_address(limited_app, club):
    admin, stranger = limited_app.test_client(), limited_app.test_client()
    assert log_in(admin, club, PASSWORD, NAT).status_code == 302  # the admin's phone: its device cookie
    admin.post(f"/c/{club}/logout", data={"csrf_token": _token(admin, club)}, environ_base={"REMOTE_ADDR": NAT})
    for n in range(6):
        log_in(stranger, club, f"nope-{n}", NAT)
    assert log_in(stranger, club, PASSWORD, NAT).status_code == 429  # the address is locked for unknown phones
    assert log_in(admin, club, PASSWORD, NAT).status_code == 302  # the admin's phone counts on its own
    # and its own wrong passwords lock it as any client's do
    admin.post(f"/c/{club}/logout", data={"csrf_token": _token(admin, club)}, environ_base={"REMOTE_ADDR": NAT})
    for n in range(3):
        assert log_in(admin, club, f"typo-{n}", NAT).status_code == 400
    assert log_in(admin, club, PASSWORD, NAT).status_code == 429


def test_a_forged_device_cookie_is_an_unknown_phone(limited_app, club):
    stranger = limited_app.test_client()
    for n in range(3):
        log_in(stranger, club, f"nope-{n}", NAT)
    stranger.set_cookie(phone.DEVICE_COOKIE, '{"id": "x", "clubs": ["' + club + '"]}')
    assert log_in(stranger, club, PASSWORD, NAT).status_code == 429


def test_one_client_taking_many_addresses_of_the_lan_is_still_bounded(db):
    club_id, _ids = make_club(db)
    now = 5_000.0
    for n in range(club_service.NETWORK_LOCK_AFTER):
        assert club_service.login(db, club_id, "bad", now, f"2001:db8:1:2::{n + 1:x}") is False
    with pytest.raises(club_service.LockedOut):  # a fresh address of the same /64, unknown: the network is locked
        club_service.login(db, club_id, PASSWORD, now, "2001:db8:1:2::ffff")
    assert club_service.login(db, club_id, PASSWORD, now, "2001:db8:1:3::1") is True  # another network
    assert club_service.login(db, club_id, PASSWORD, now, "2001:db8:1:2::ffff", device="d1") is True  # a known phone


def test_a_strangers_wrong_codes_on_the_lan_do_not_block_the_real_qr_code(limited_app, club, db_path):
    conn = connect(db_path)
    try:
        ids = [m.id for m in club_service.members(conn, club).values()]
        evening_id = club_service.create_evening(conn, club, "2026-01-08", "5", "pairwise")
        club_service.add_table(conn, club, evening_id, ids, 0, "danish")
        code = club_service.evening(conn, club, evening_id).tables[0].record.code
    finally:
        close(conn)
    stranger, phone = limited_app.test_client(), limited_app.test_client()
    statuses = [
        stranger.get(f"/c/{club}/k/WRONG{n % 10}", environ_base={"REMOTE_ADDR": STRANGER}).status_code
        for n in range(62)
    ]
    assert statuses[0] == 404 and statuses[-1] == 429  # the guesser is held to its budget
    r = phone.get(f"/c/{club}/k/{code}", environ_base={"REMOTE_ADDR": ADMIN})
    assert r.status_code == 302, r.status_code  # was 429
    for _ in range(70):  # right codes are not counted: a hall's phones scan as often as they like
        assert phone.get(f"/c/{club}/k/{code}", environ_base={"REMOTE_ADDR": ADMIN}).status_code == 302


def _token(client, club):
    html = client.get(f"/c/{club}", environ_base={"REMOTE_ADDR": NAT}).get_data(as_text=True)
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


@pytest.fixture
def db(limited_app, db_path):
    conn = connect(db_path)
    yield conn
    close(conn)
