"""Concurrent phones, retries and crashes: the real app under gunicorn, in a subprocess, over a real SQLite file."""

import http.client
import os
import random
import sqlite3
import threading
import time
import uuid

import pytest

from helpers import PLAYERS, Server, call, dump
from scorekeeper import create_app
from scorekeeper.core import make_setup, play

pytestmark = pytest.mark.slow  # gunicorn under concurrent clients and SIGKILL


@pytest.fixture
def server_factory(tmp_path):
    started = []

    def make(extra=()):
        server = Server(tmp_path / "live.sqlite", tmp_path / "gunicorn.log", extra)
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


def danish_hand(rng):
    if rng.random() < 0.2:
        return {"bidder": rng.randrange(4), "bid": "sol", "tricks": rng.randrange(3)}
    bidder = rng.randrange(4)
    return {
        "bidder": bidder,
        "bid": rng.randrange(7, 10),
        "trump": rng.choice(["hearts", "spades"]),
        "partner": rng.randrange(4),
        "tricks": rng.randrange(14),
    }


def expected_totals(game, inputs):
    setup = make_setup(game["variant"], game["players"], game["dealer"], game["options"])
    return list(play(setup, inputs).totals)


# ---------------------------------------------------------------- concurrent phones


GAMES, THREADS, HANDS = 4, 8, 15


def test_concurrent_phones_never_make_the_same_hand_twice(server_factory):
    server = server_factory().start()
    games = []
    for i in range(GAMES):
        status, game = call(
            server.url + "/api/games",
            "POST",
            {"variant": "danish", "players": PLAYERS["danish"], "title": f"Table {i}"},
        )
        assert status == 201
        games.append(game)
    acknowledged = {g["id"]: [] for g in games}  # (number, input) of every 201
    stale, replays, failures = [0], [0], []
    lock = threading.Lock()
    deadline = time.monotonic() + 60

    def phone(t):
        rng = random.Random(t)
        try:
            for i in range(HANDS):
                game = games[(t + i) % GAMES]
                url = f"{server.url}/api/games/{game['id']}"
                raw, idem = danish_hand(rng), str(uuid.uuid4())
                while time.monotonic() < deadline:
                    status, seen = call(url)
                    assert status == 200
                    number = len(seen["hands"]) + 1
                    headers = {"X-Edit-Key": game["edit_key"], "X-Hand-Number": str(number), "Idempotency-Key": idem}
                    status, hand = call(url + "/hands", "POST", raw, headers)
                    if status == 409:
                        assert hand["latest"] >= number
                        with lock:
                            stale[0] += 1
                        continue
                    assert status == 201, hand
                    assert hand["number"] == number
                    if rng.random() < 0.2:  # a double tap: the same request again answers the same hand
                        again_status, again = call(url + "/hands", "POST", raw, headers)
                        assert (again_status, again["number"]) == (201, number)
                        with lock:
                            replays[0] += 1
                    with lock:
                        acknowledged[game["id"]].append((hand["number"], hand["input"]))
                    break
                else:
                    raise AssertionError("out of time")
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=phone, args=(t,)) for t in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)
    assert not failures, failures[0]
    assert sum(len(a) for a in acknowledged.values()) == THREADS * HANDS
    for game in games:
        status, stored = call(f"{server.url}/api/games/{game['id']}")
        acks = sorted(acknowledged[game["id"]], key=lambda a: a[0])
        numbers = [n for n, _ in acks]
        assert len(numbers) == len(set(numbers)), "two phones were both told they entered the same hand"
        assert numbers == list(range(1, len(stored["hands"]) + 1)), "an acknowledged hand is missing, or one too many"
        assert [h["input"] for h in stored["hands"]] == [inp for _, inp in acks]
        assert stored["totals"] == expected_totals(stored, [inp for _, inp in acks])
        assert stored["version"] == len(acks)
    # Every phone saw the others: with 2 phones a game some writes were stale, and were refused, not merged.
    assert stale[0] > 0 and replays[0] > 0


# ---------------------------------------------------------------- crashes


def test_sigkill_mid_stream_loses_no_acknowledged_hand(server_factory, tmp_path):
    server = server_factory().start()
    games = []
    for title in ("Monday", "Tuesday"):
        status, game = call(
            server.url + "/api/games", "POST", {"variant": "danish", "players": PLAYERS["danish"], "title": title}
        )
        assert status == 201
        games.append(game)
    acknowledged = {g["id"]: [] for g in games}
    failures, stop = [], threading.Event()

    def writer(game, seed):
        """Enters hands one after another; an unanswered request is sent again, with the same key, until answered."""
        rng = random.Random(seed)
        url = f"{server.url}/api/games/{game['id']}/hands"
        try:
            while not stop.is_set():
                raw = danish_hand(rng)
                number = len(acknowledged[game["id"]]) + 1
                headers = {
                    "X-Edit-Key": game["edit_key"],
                    "X-Hand-Number": str(number),
                    "Idempotency-Key": str(uuid.uuid4()),
                }
                while True:
                    try:
                        status, hand = call(url, "POST", raw, headers, timeout=5)
                    except (
                        OSError,
                        http.client.HTTPException,
                    ):  # the server is down or died mid-answer: the write may or may not be committed
                        time.sleep(0.02)
                        continue
                    assert status == 201, (status, hand)
                    assert hand["number"] == number and hand["input"] == raw | hand["input"]
                    acknowledged[game["id"]].append(hand["input"])
                    break
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=writer, args=(g, i)) for i, g in enumerate(games)]
    for thread in threads:
        thread.start()
    for _ in range(3):
        time.sleep(random.uniform(0.3, 0.7))
        before = sum(len(a) for a in acknowledged.values())
        server.kill()
        server.start()
        assert sum(len(a) for a in acknowledged.values()) >= before
    time.sleep(0.3)
    stop.set()
    for thread in threads:
        thread.join(30)
    assert not failures, failures[0]
    server.kill()  # the last crash, too, mid-stream or not

    conn = sqlite3.connect(server.db_path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    app = create_app({"TESTING": True, "DATABASE": server.db_path, "SECRET_KEY": "x"})
    client = app.test_client()
    for game in games:
        stored = client.get(f"/api/games/{game['id']}").json
        acks = acknowledged[game["id"]]
        assert len(acks) > 5
        assert [h["input"] for h in stored["hands"]] == acks
        assert stored["version"] == len(acks), "a hand without its version bump: half written"
        log = client.get(f"/api/games/{game['id']}/log").json["log"]
        assert [(e["action"], e["number"], e["after"]) for e in log] == [
            ("added", i + 1, inp) for i, inp in enumerate(acks)
        ]
        assert stored["totals"] == expected_totals(stored, acks)


def test_migrations_are_applied_once_when_workers_start_together(tmp_path):
    """Two gunicorn workers run create_app at the same moment on a new file."""
    import scorekeeper.storage as dbmod

    path = str(tmp_path / "new.sqlite")
    errors = []

    def start():
        try:
            dbmod.migrate(path)
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors
    conn = sqlite3.connect(path)
    names = [r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
    conn.close()
    assert names == [m.name for m in dbmod.migrations.pending(dbmod.connect(":memory:"))]


# ---------------------------------------------------------------- stale writes, retries and the edit log (test client)


DANISH_8 = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 10}


everything = dump  # every table, read straight from the file


@pytest.fixture
def danish(api):
    return api.create("danish")


def post_hand(client, game, data, **headers):
    return client.post(f"/api/games/{game['id']}/hands", json=data, headers={"X-Edit-Key": game["edit_key"], **headers})


def test_a_stale_hand_number_is_refused_and_nothing_is_stored(client, danish, db_path):
    assert post_hand(client, danish, DANISH_8, **{"X-Hand-Number": "1"}).status_code == 201
    before = everything(db_path)
    r = post_hand(client, danish, {**DANISH_8, "tricks": 8}, **{"X-Hand-Number": "1"})
    assert r.status_code == 409
    assert r.json["latest"] == 1 and r.json["version"] == 1 and "hand 1" in r.json["errors"]["number"]
    assert everything(db_path) == before
    assert post_hand(client, danish, DANISH_8, **{"X-Hand-Number": "2"}).json["number"] == 2


def test_without_a_hand_number_the_hand_is_appended(client, danish):
    assert [post_hand(client, danish, DANISH_8).json["number"] for _ in range(3)] == [1, 2, 3]


@pytest.mark.parametrize(
    "header,value",
    [
        ("X-Hand-Number", "two"),
        ("X-Hand-Number", "-1"),
        ("X-Hand-Number", "1.0"),
        ("X-Hand-Number", "9" * 30),
        ("X-Hand-Number", "²"),
        ("X-Hand-Number", ""),
        ("Idempotency-Key", ""),
        ("Idempotency-Key", "has space"),
        ("Idempotency-Key", "k" * 256),
        ("Idempotency-Key", "tab\there"),
        ("Idempotency-Key", "é"),
    ],
)
def test_bad_write_headers_are_400(client, danish, db_path, header, value):
    before = everything(db_path)
    r = post_hand(client, danish, DANISH_8, **{header: value})
    assert r.status_code == 400 and header in r.json["errors"]
    assert everything(db_path) == before


@pytest.mark.parametrize("value", ["x", "1.5", "", '"1', 'W/"x"'])
def test_bad_if_match_is_400(client, danish, db_path, value):
    post_hand(client, danish, DANISH_8)
    before = everything(db_path)
    for method in ("put", "delete"):
        r = getattr(client, method)(
            f"/api/games/{danish['id']}/hands/1",
            json=DANISH_8,
            headers={"X-Edit-Key": danish["edit_key"], "If-Match": value},
        )
        assert r.status_code == 400 and "If-Match" in r.json["errors"], (method, value)
    assert everything(db_path) == before


@pytest.mark.parametrize("quoted", ["{v}", '"{v}"', 'W/"{v}"'])
def test_if_match_guards_edit_and_delete(client, danish, db_path, quoted):
    post_hand(client, danish, DANISH_8)
    post_hand(client, danish, DANISH_8)
    url, key = f"/api/games/{danish['id']}", {"X-Edit-Key": danish["edit_key"]}
    seen = client.get(url)
    assert seen.json["version"] == 2 and seen.headers["ETag"] == '"2"'
    # Someone else edits hand 2 meanwhile.
    assert client.put(url + "/hands/2", json={**DANISH_8, "tricks": 9}, headers=key).status_code == 200
    before = everything(db_path)
    stale = {**key, "If-Match": quoted.format(v=2)}
    r = client.put(url + "/hands/1", json={**DANISH_8, "tricks": 7}, headers=stale)
    assert r.status_code == 409 and "If-Match" in r.json["errors"] and r.json["version"] == 3
    assert client.delete(url + "/hands/1", headers=stale).status_code == 409
    assert everything(db_path) == before
    fresh = {**key, "If-Match": quoted.format(v=3)}
    assert client.put(url + "/hands/1", json={**DANISH_8, "tricks": 7}, headers=fresh).status_code == 200
    assert client.delete(url + "/hands/1", headers={**key, "If-Match": quoted.format(v=4)}).status_code == 200
    assert client.put(url + "/hands/1", json=DANISH_8, headers={**key, "If-Match": "*"}).status_code == 200


def test_the_same_request_again_makes_no_second_hand(client, danish, db_path):
    headers = {"Idempotency-Key": "tap-1", "X-Hand-Number": "1"}
    first = post_hand(client, danish, DANISH_8, **headers)
    before = everything(db_path)
    again = post_hand(client, danish, DANISH_8, **headers)
    assert (first.status_code, again.status_code) == (201, 201) and again.json == first.json
    assert everything(db_path) == before
    # A retry after others moved on answers the hand as it is scored now.
    post_hand(client, danish, DANISH_8)
    client.put(
        f"/api/games/{danish['id']}/hands/1", json={**DANISH_8, "tricks": 8}, headers={"X-Edit-Key": danish["edit_key"]}
    )
    late = post_hand(client, danish, DANISH_8, **headers)
    assert late.status_code == 201 and late.json["number"] == 1 and late.json["input"]["tricks"] == 8
    assert len(client.get(f"/api/games/{danish['id']}").json["hands"]) == 2


def test_a_key_is_per_game_and_per_request(client, api, danish, db_path):
    other = api.create("danish")
    assert post_hand(client, danish, DANISH_8, **{"Idempotency-Key": "k1"}).status_code == 201
    assert post_hand(client, other, DANISH_8, **{"Idempotency-Key": "k1"}).status_code == 201
    before = everything(db_path)
    r = post_hand(client, danish, {**DANISH_8, "tricks": 9}, **{"Idempotency-Key": "k1"})
    assert r.status_code == 400 and "Idempotency-Key" in r.json["errors"]
    r = client.delete(
        f"/api/games/{danish['id']}/hands/1", headers={"X-Edit-Key": danish["edit_key"], "Idempotency-Key": "k1"}
    )
    assert r.status_code == 400
    assert everything(db_path) == before


def test_a_refused_write_does_not_use_up_its_key(client, danish):
    assert post_hand(client, danish, {**DANISH_8, "tricks": 14}, **{"Idempotency-Key": "k"}).status_code == 400
    assert post_hand(client, danish, DANISH_8, **{"Idempotency-Key": "k"}).status_code == 201


def test_a_retried_delete_deletes_once(client, danish):
    for tricks in (7, 8, 9):
        post_hand(client, danish, {**DANISH_8, "tricks": tricks})
    headers = {"X-Edit-Key": danish["edit_key"], "Idempotency-Key": "del"}
    first = client.delete(f"/api/games/{danish['id']}/hands/1", headers=headers)
    again = client.delete(f"/api/games/{danish['id']}/hands/1", headers=headers)
    assert first.status_code == again.status_code == 200
    assert [h["input"]["tricks"] for h in again.json["hands"]] == [8, 9]


def test_a_retried_edit_edits_once(client, danish):
    post_hand(client, danish, DANISH_8)
    url, headers = f"/api/games/{danish['id']}/hands/1", {"X-Edit-Key": danish["edit_key"], "Idempotency-Key": "e"}
    first = client.put(url, json={**DANISH_8, "tricks": 9}, headers={**headers, "If-Match": "1"})
    again = client.put(url, json={**DANISH_8, "tricks": 9}, headers={**headers, "If-Match": "1"})
    assert first.status_code == again.status_code == 200 and first.json == again.json
    assert client.get(f"/api/games/{danish['id']}").json["version"] == 2
    assert len(client.get(f"/api/games/{danish['id']}/log").json["log"]) == 2


def test_the_service_contract(app, danish):
    from scorekeeper.games import service
    from scorekeeper.server.db import get_db

    with app.app_context():
        db, gid, key = get_db(), danish["id"], danish["edit_key"]
        hand = service.add_hand(db, gid, DANISH_8, key, expected_number=1, idempotency_key="form:abc")
        assert service.add_hand(db, gid, DANISH_8, key, expected_number=1, idempotency_key="form:abc") == hand
        with pytest.raises(service.Stale) as stale:
            service.add_hand(db, gid, DANISH_8, key, expected_number=1)
        assert stale.value.latest == 1
        with pytest.raises(service.Stale):
            service.replace_hand(db, gid, 1, DANISH_8, key, expected_version=0)
        with pytest.raises(service.Stale):
            service.delete_hand(db, gid, 1, key, expected_version=0)
        service.replace_hand(db, gid, 1, {**DANISH_8, "tricks": 9}, key, expected_version=1)
        service.delete_hand(db, gid, 1, key, expected_version=2)
        log = service.edit_log(db, gid)
        assert [e["action"] for e in log] == ["added", "edited", "deleted"]
        with pytest.raises(service.NotFound):
            service.edit_log(db, "nonesuch")


def test_the_edit_log_records_every_change_with_before_and_after(client, danish):
    url, key = f"/api/games/{danish['id']}", {"X-Edit-Key": danish["edit_key"]}
    post_hand(client, danish, DANISH_8)
    post_hand(client, danish, {"bidder": 1, "bid": "sol", "tricks": 0})
    client.put(url + "/hands/1", json={**DANISH_8, "tricks": 11}, headers=key)
    client.put(url + "/hands/1", json={**DANISH_8, "tricks": 11}, headers=key)  # no change: not logged
    client.delete(url + "/hands/2", headers=key)
    post_hand(client, danish, {**DANISH_8, "tricks": 14})  # refused: not logged
    log = client.get(url + "/log").json["log"]
    sol = {"bidder": 1, "bid": "sol", "tricks": 0}
    assert [(e["action"], e["number"], e["before"], e["after"]) for e in log] == [
        ("added", 1, None, DANISH_8),
        ("added", 2, None, sol),
        ("edited", 1, DANISH_8, {**DANISH_8, "tricks": 11}),
        ("deleted", 2, sol, None),
    ]
    assert all(e["at"].endswith("+00:00") and e["at"][:4].isdigit() for e in log)
    assert client.get("/api/games/nonesuch/log").status_code == 404


def test_upgrading_an_old_database_starts_the_log_from_its_hands(tmp_path):
    import scorekeeper.storage as dbmod

    path = str(tmp_path / "old.sqlite")
    conn = dbmod.connect(path)
    dbmod.migrations.apply(conn, stop_before="m002_edit_log_and_idempotency")
    conn.execute(
        "INSERT INTO games VALUES ('g1', 'german', NULL, '[\"A\",\"B\"]', 0,"
        ' \'{"count":"phase2","currency":"SEK","rate":null,"target":7}\', \'h\', \'t\', \'t\', 2)'
    )
    conn.execute(
        "INSERT INTO hands (game_id, input, created, updated) VALUES"
        " ('g1', '{\"tricks\":[8,5]}', '2026-01-01T20:00:00+00:00', 't'),"
        " ('g1', '{\"tricks\":[5,8]}', '2026-01-01T20:05:00+00:00', 't')"
    )
    conn.conn.commit()
    dbmod.close(conn)
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "x"})
    log = app.test_client().get("/api/games/g1/log").json["log"]
    assert log == [
        {
            "at": "2026-01-01T20:00:00+00:00",
            "action": "added",
            "number": 1,
            "before": None,
            "after": {"tricks": [8, 5]},
        },
        {
            "at": "2026-01-01T20:05:00+00:00",
            "action": "added",
            "number": 2,
            "before": None,
            "after": {"tricks": [5, 8]},
        },
    ]


def test_a_write_is_flushed_to_disk_before_it_is_answered_and_outside_the_lock(app, client, db_path, monkeypatch):
    """Durability without synchronous=FULL: after the COMMIT, and before the answer, the WAL file is fsynced; by then
    the lock file is free, so the next writer's transaction overlaps this one's disk flush (group commit)."""
    import fcntl

    from scorekeeper.server.db import get_db

    events = []
    fsync = os.fsync

    def watched_fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        probe = os.open(db_path + ".lock", os.O_RDWR)
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)  # raises if a writer still held the lock
            fcntl.flock(probe, fcntl.LOCK_UN)
            events.append(("lock free",))
        finally:
            os.close(probe)
        return fsync(fd)

    game = client.post("/api/games", json={"variant": "danish", "players": PLAYERS["danish"]}).get_json()
    with app.app_context():
        get_db().conn.set_trace_callback(lambda sql: sql == "COMMIT" and events.append(("COMMIT",)))
    monkeypatch.setattr(os, "fsync", watched_fsync)
    r = client.post(
        f"/api/games/{game['id']}/hands",
        headers={"X-Edit-Key": game["edit_key"]},
        json={"bidder": 0, "bid": 8, "trump": "spades", "partner": 2, "tricks": 9},
    )
    events.append(("answered", r.status_code))
    assert events == [("COMMIT",), ("fsync", os.path.realpath(db_path) + "-wal"), ("lock free",), ("answered", 201)]
    with app.app_context():
        assert get_db().conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: the flush is ours


def test_a_new_wal_file_gets_its_directory_entry_flushed_once(tmp_path, monkeypatch):
    """SQLite deletes the WAL file when the last connection closes and makes a new one later: the first flush after
    that also fsyncs the folder, so a power cut cannot lose the file's name; later flushes only the file."""
    import scorekeeper.storage as dbmod

    path = str(tmp_path / "fresh.sqlite")
    dbmod.migrate(path)  # and closes: no WAL file is left
    flushed = []
    fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: flushed.append(os.readlink(f"/proc/self/fd/{fd}")) or fsync(fd))
    db = dbmod.connect(path)
    try:
        for _ in range(2):
            with dbmod.writing(db):
                db.execute(
                    "INSERT INTO games (id, variant, players, dealer, options, edit_key_hash, created, updated)"
                    " VALUES (lower(hex(randomblob(4))), 'german', '[]', 0, '{}', 'h', 't', 't')"
                )
    finally:
        dbmod.close(db)
    wal, folder = os.path.realpath(path) + "-wal", os.path.realpath(tmp_path)
    assert flushed == [wal, folder, wal]
