"""Issue 22, findings 4 and 11: every write that makes rows is rate limited and storage-guarded, decided in one place
(server/guard.py), and a test walks the URL map so that a new write route cannot forget it; the limits count an IPv6
client by its /64.

On the main of 2026-12-01 a club's tables, evenings and members had no limit and no storage guard (60 tables in 2.9 s
from one address, a table, an evening and 200 members accepted while /api/games answered 507), and two addresses of
one IPv6 /64 each had a budget of their own.
"""

import pytest

from helpers import PASSWORD, PLAYERS, dump, log_in, token
from scorekeeper import create_app
from scorekeeper.clubs import service as club_service
from scorekeeper.drives import service as drive_service
from scorekeeper.games import service as game_service
from scorekeeper.server import guard
from scorekeeper.storage import close, connect

WRITES = {"POST", "PUT", "PATCH", "DELETE"}


def limited_app(db_path, **extra):
    return create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "t", "RATELIMIT_ENABLED": True, **extra})


def write_rules(app):
    return sorted(
        (rule for rule in app.url_map.iter_rules() if rule.methods & WRITES), key=lambda r: (r.rule, r.endpoint)
    )


@pytest.fixture
def world(db_path):
    """A club with members and an evening, a game and a drive: what the write routes' arguments name."""
    create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "t"})  # makes the schema
    db = connect(db_path)
    try:
        club_id = club_service.create_club(
            db,
            {"name": "Kløverklubben", "currency": "DKK", "variant": "danish", "options": {}, "password": PASSWORD},
        )
        club_service.add_members(db, club_id, ["Anna", "Bo", "Carl", "Dina"])
        evening_id = club_service.create_evening(db, club_id, "2026-11-05", "", "pairwise")
        game_id, game_key = game_service.start_game(db, {"variant": "german", "players": PLAYERS["german"]})
        drive_id, drive_key = drive_service.create_drive(
            db, {"title": "Julewhist", "format": "couples", "pairs": [["A", "B"], ["C", "D"], ["E", "F"], ["G", "H"]]}
        )
    finally:
        close(db)
    return {
        "club_id": club_id,
        "evening_id": evening_id,
        "game_id": game_id,
        "drive_id": drive_id,
        "member_id": 1,
        "number": 1,
        "hand": 1,
        "table": 1,
        "key": game_key,
        "token": "x",
        "variant": "danish",
    }


def _fill(rule, world):
    path = rule.rule
    for name in rule.arguments:
        for spelling in (f"<{name}>", f"<int:{name}>"):
            path = path.replace(spelling, str(world[name]))
    return path


def test_every_write_route_declares_its_guard(app):
    """Each POST/PUT/PATCH/DELETE route is guarded by server/guard.writes(kind) or exempt with a reason: a new
    row-making route that forgets it fails here."""
    undeclared = [
        f"{sorted(rule.methods & WRITES)} {rule.rule}"
        for rule in write_rules(app)
        if guard.declared(app.view_functions[rule.endpoint]) is None
    ]
    assert not undeclared, "say @guard.writes(kind) or @guard.exempt(reason) on: " + ", ".join(undeclared)
    kinds = {guard.declared(app.view_functions[r.endpoint]) for r in write_rules(app)}
    assert {"new-game", "import", "new-club", "evening", "members", "drive", "login"} <= kinds


def test_the_routes_that_make_rows_are_the_guarded_ones(app):
    """What the issue names, by endpoint: a club's tables are new games, evenings, members and drives have limits of
    their own; hand entry with an edit key is never limited."""
    declared = {r.endpoint: guard.declared(app.view_functions[r.endpoint]) for r in write_rules(app)}
    assert declared["clubs.new_table"] == "new-game"
    assert declared["api.create_game"] == declared["games.new_game"] == declared["games.play_again"] == "new-game"
    assert declared["clubs.new_evening"] == "evening"
    assert declared["clubs.add_member"] == "members"
    assert declared["drives.new_drive"] == declared["drives_api.create_drive"] == "drive"
    for endpoint in ("api.add_hand", "api.replace_hand", "games.new_hand", "games.edit_hand"):
        assert declared[endpoint].startswith("exempt: "), endpoint


def test_every_guarded_route_refuses_to_grow_a_full_database(db_path, world):
    """With the storage guard tripped, every route that makes rows answers 507 and the file is unchanged; the walk
    finds the routes itself."""
    app = limited_app(db_path, MAX_DATABASE_BYTES=1, RATELIMIT_ENABLED=False, WTF_CSRF_ENABLED=False)
    client = app.test_client()
    guarded = [r for r in write_rules(app) if guard.KINDS.get(guard.declared(app.view_functions[r.endpoint]))]
    storage_guarded = [r for r in guarded if guard.KINDS[guard.declared(app.view_functions[r.endpoint])][1]]
    assert len(storage_guarded) >= 9
    before = dump(db_path)
    for rule in storage_guarded:
        method = sorted(rule.methods & WRITES)[0]
        path = _fill(rule, world)
        r = client.open(path, method=method, data={"names": "Eva"})
        assert r.status_code == 507, (path, r.status_code, r.get_data(as_text=True)[:300])
    assert dump(db_path) == before


def test_every_guarded_route_is_rate_limited(db_path, world):
    """With each limit at one a minute, the second write to any guarded route from one client is 429 (each route from
    its own address, since a kind's routes share one budget)."""
    limits = {setting: "1 per minute" for setting, _storage in guard.KINDS.values()}
    app = limited_app(db_path, WTF_CSRF_ENABLED=False, **limits)
    client = app.test_client()
    guarded = [r for r in write_rules(app) if guard.KINDS.get(guard.declared(app.view_functions[r.endpoint]))]
    for i, rule in enumerate(guarded):
        method = sorted(rule.methods & WRITES)[0]
        path = _fill(rule, world)
        address = {"REMOTE_ADDR": f"10.22.0.{i + 1}"}
        codes = [client.open(path, method=method, data={}, environ_base=address).status_code for _ in range(2)]
        assert codes[0] != 429 and codes[1] == 429, (path, codes)


def admin_client(app, club_id):
    client = app.test_client()
    assert log_in(client, club_id).status_code == 302
    return client


def new_table(client, world):
    path = f"/c/{world['club_id']}/e/{world['evening_id']}/tables"
    data = {"csrf_token": token(client, path.rsplit("/", 1)[0]), "dealer": "0"}
    for seat, member in enumerate((1, 2, 3, 4)):
        data[f"seat{seat}"] = str(member)
    return client.post(path, data=data)


def tables(db_path):
    conn = connect(db_path)
    try:
        return conn.execute("SELECT count(*) FROM club_tables").fetchone()[0]
    finally:
        close(conn)


def test_club_tables_use_the_new_game_limit(db_path, world):
    """The finding: 60 tables from one address in seconds. Now the new-game budget (shared with /api/games) holds."""
    app = limited_app(db_path, LIMIT_NEW_GAMES="5 per minute")
    client = admin_client(app, world["club_id"])
    first = new_table(client, world)
    assert first.status_code == 302, first.get_data(as_text=True)[:1000]
    assert client.post("/api/games", json={"variant": "german", "players": PLAYERS["german"]}).status_code == 201
    codes = [new_table(client, world).status_code for _ in range(6)]
    assert codes == [302, 302, 302, 429, 429, 429]
    assert tables(db_path) == 4
    refused = new_table(client, world)
    assert refused.status_code == 429 and b"<html" in refused.data.lower()


def test_a_drawn_half_takes_a_new_game_for_each_of_its_tables(db_path, world):
    """Issue 43: one tap starting the break's draw made every drawn table for one new game, and taking the new half's
    tables off again (they have no hands) and drawing anew made as many more: on the main of 2026-12-05, 16 games
    through the pages for 5 of a limit of 5 a minute, without end. Each drawn table is a new game now."""
    conn = connect(db_path)
    try:
        club_service.add_members(conn, world["club_id"], ["Eva", "Finn", "Gro", "Hans"])
        club_service.set_format(conn, world["club_id"], {"halves": 2})
        evening_id = club_service.create_evening(conn, world["club_id"], "2026-11-12", "", "pairwise")
        club_service.add_table(conn, world["club_id"], evening_id, [5, 6, 7, 8])  # the first half's other table
    finally:
        close(conn)
    app = limited_app(db_path, LIMIT_NEW_GAMES="5 per minute")
    client = admin_client(app, world["club_id"])
    evening = f"/c/{world['club_id']}/e/{evening_id}"
    assert new_table(client, {**world, "evening_id": evening_id}).status_code == 302  # 1 of 5

    def games():
        conn = connect(db_path)
        try:
            return conn.execute("SELECT count(*) FROM games").fetchone()[0]
        finally:
            close(conn)

    def draw_start_and_take_off() -> int:
        assert client.post(evening + "/draw", data={"csrf_token": token(client, evening)}).status_code == 302
        started = client.post(evening + "/draw/start", data={"csrf_token": token(client, evening)}).status_code
        conn = connect(db_path)
        try:
            drawn = [t.game_id for t in club_service.evening_tables(conn, evening_id) if t.half == 2]
        finally:
            close(conn)
        for game_id in drawn:
            r = client.post(f"{evening}/tables/{game_id}/remove", data={"csrf_token": token(client, evening)})
            assert r.status_code == 302
        return started

    before = games()
    assert draw_start_and_take_off() == 302  # two tables: 3 of 5
    assert games() == before + 2
    assert draw_start_and_take_off() == 302  # 5 of 5
    assert draw_start_and_take_off() == 429  # two more would be 7
    assert games() == before + 4
    assert client.post("/api/games", json={"variant": "german", "players": PLAYERS["german"]}).status_code == 429


def test_a_full_disk_refuses_tables_evenings_and_members_as_it_refuses_games(db_path, world):
    app = limited_app(db_path)
    client = admin_client(app, world["club_id"])
    app.config["MIN_FREE_DISK_BYTES"] = 10**18
    before = dump(db_path)
    assert client.post("/api/games", json={"variant": "german", "players": PLAYERS["german"]}).status_code == 507
    assert new_table(client, world).status_code == 507
    club = f"/c/{world['club_id']}"
    form = token(client, club)
    names = "\n".join(f"M{i}" for i in range(200))
    assert client.post(club + "/members", data={"csrf_token": form, "names": names}).status_code == 507
    r = client.post(club + "/evenings/new", data={"csrf_token": form, "date": "2026-11-12", "settlement": "pairwise"})
    assert r.status_code == 507 and b"<html" in r.data.lower()
    assert dump(db_path) == before
    # hands of a game already started still go in
    r = client.post(
        f"/api/games/{world['game_id']}/hands", json={"tricks": [7, 6]}, headers={"X-Edit-Key": world["key"]}
    )
    assert r.status_code == 201


# ---------------------------------------------------------------- finding 11: an IPv6 client is its /64


def create(client, address, **headers):
    body = {"variant": "german", "players": PLAYERS["german"]}
    return client.post("/api/games", json=body, environ_base={"REMOTE_ADDR": address}, headers=headers).status_code


def test_rate_limits_count_an_ipv6_client_by_its_64(db_path):
    app = limited_app(db_path, LIMIT_NEW_GAMES="2 per minute")
    client = app.test_client()
    assert create(client, "2001:db8:1:2::1") == 201
    assert create(client, "2001:db8:1:2:ffff:ffff:ffff:fffe") == 201  # another address of the same /64
    assert create(client, "2001:db8:1:2::abcd") == 429  # a third: the /64 has used its budget
    assert create(client, "2001:db8:1:3::1") == 201  # the next /64 is someone else
    # IPv4 is counted by the address; an IPv4-mapped IPv6 address is that IPv4 client
    assert create(client, "192.0.2.1") == 201
    assert create(client, "::ffff:192.0.2.1") == 201
    assert create(client, "192.0.2.1") == 429
    assert create(client, "192.0.2.2") == 201


def test_behind_a_trusted_proxy_the_forwarded_ipv6_client_is_keyed_by_its_64(db_path):
    app = limited_app(db_path, LIMIT_NEW_GAMES="2 per minute", PROXY_FIX=1)
    client = app.test_client()
    proxy = "127.0.0.1"
    assert create(client, proxy, **{"X-Forwarded-For": "2001:db8:7:7::1"}) == 201
    # a client that forges an address in front of the one the proxy wrote gains nothing
    assert create(client, proxy, **{"X-Forwarded-For": "198.51.100.9, 2001:db8:7:7::2"}) == 201
    assert create(client, proxy, **{"X-Forwarded-For": "198.51.100.10, 2001:db8:7:7::3"}) == 429
    assert create(client, proxy, **{"X-Forwarded-For": "2001:db8:7:8::1"}) == 201


def test_without_a_trusted_proxy_forwarded_headers_are_ignored(db_path):
    app = limited_app(db_path, LIMIT_NEW_GAMES="1 per minute")
    client = app.test_client()
    assert create(client, "2001:db8:9:9::1", **{"X-Forwarded-For": "2001:db8:a::1"}) == 201
    assert create(client, "2001:db8:9:9::2", **{"X-Forwarded-For": "2001:db8:b::1"}) == 429
