"""Issue 22, findings 6 and 7: a full disk and a damaged file, for real.

A full disk is a small tmpfs (mounted here; the tests are skipped, saying why, only where mounting is impossible),
filled by a file until the kernel says ENOSPC. A damaged database is a real file with one page overwritten.

On the main of 2026-12-01: hands on a full disk were a generic English 500, /healthz kept saying "writable", a PDF
that could not be kept was a 500; a damaged file started silently (init-db: "schema up to date", /healthz ok).
"""

import contextlib
import errno
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import PLAYERS, call, fields, free_port
from scorekeeper import create_app

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- a small disk that can be filled


class Disk:
    def __init__(self, path: Path):
        self.path = path
        self.filler = path / "filler"

    def fill(self) -> None:
        """Write until the disk refuses (ENOSPC), then a little more in small pieces: the disk is full to the byte."""
        with open(self.filler, "ab", buffering=0) as out:
            for size in (1 << 20, 1 << 14, 1 << 10, 1):
                while True:
                    try:
                        out.write(b"\0" * size)
                    except OSError as exc:
                        assert exc.errno == errno.ENOSPC, exc
                        break

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)


@pytest.fixture
def disk(tmp_path):
    """A tmpfs of 8 MiB at tmp_path/disk, unmounted afterwards."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (or CAP_SYS_ADMIN); the full-disk tests cannot run here")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"mount -t tmpfs failed, so the full-disk tests cannot run here: {done.stderr.decode().strip()}")
    try:
        yield Disk(mount)
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def app_on(disk, **extra):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(disk.path / "scorekeeper.sqlite"),
            "SECRET_KEY": "t",
            "MIN_FREE_DISK_BYTES": 0,
            **extra,
        }
    )


def start_games(client, n):
    games = []
    for _ in range(n):
        r = client.post("/api/games", json={"variant": "danish", "players": PLAYERS["danish"]})
        assert r.status_code == 201
        games.append(r.json)
    return games


def stored_hands(path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT count(*) FROM hands").fetchone()[0]
    finally:
        conn.close()


DA = {"Accept-Language": "da"}


@pytest.mark.needs_program
def test_a_hand_on_a_full_disk_is_a_507_in_the_readers_language_and_is_not_stored(disk):
    app = app_on(disk)
    client = app.test_client()
    games = start_games(client, 4)
    disk.fill()
    acknowledged = 0
    for i in range(4000):  # until the database needs a page the disk does not have
        game = games[i % len(games)]
        r = client.post(
            f"/api/games/{game['id']}/hands",
            json={"passed": True},
            headers={"X-Edit-Key": game["edit_key"], **DA},
        )
        if r.status_code != 201:
            break
        acknowledged += 1
    else:
        pytest.fail("4,000 hands went into a full disk")
    assert r.status_code == 507, r.get_data(as_text=True)[:2000]
    assert r.json == {"errors": {"storage": "serverens lager er fuldt: dette spil blev ikke gemt"}}
    print(f"{acknowledged} hands acknowledged on the full disk before the first 507")
    disk.free()
    assert stored_hands(app.config["DATABASE"]) == acknowledged  # the refused hand is not there, half or whole
    # the disk has room again: the same phone's next try goes in
    r = client.post(f"/api/games/{game['id']}/hands", json={"passed": True}, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 201
    assert stored_hands(app.config["DATABASE"]) == acknowledged + 1


@pytest.mark.needs_program
def test_the_hand_page_on_a_full_disk_says_so_in_the_readers_language(disk):
    app = app_on(disk, WTF_CSRF_ENABLED=False)
    client = app.test_client()
    games = start_games(client, 4)
    for game in games:  # this phone holds the games' edit keys, as after starting them on the page
        assert client.get(f"/g/{game['id']}/k/{game['edit_key']}").status_code == 302
    disk.fill()
    for i in range(4000):
        game = games[i % len(games)]
        page = client.get(f"/g/{game['id']}/hands/new")
        assert page.status_code == 200
        r = client.post(
            f"/g/{game['id']}/hands/new",
            data={**fields(page.get_data(as_text=True)), "passed": "1"},
            headers=DA,
        )
        if r.status_code != 302:
            break
    else:
        pytest.fail("4,000 hands went into a full disk")
    html = r.get_data(as_text=True)
    assert r.status_code == 507, html[:2000]
    assert "<html" in html.lower() and 'lang="da"' in html
    assert "Lageret er fuldt" in html and "Dette spil blev ikke gemt" in html


@pytest.mark.needs_program
def test_healthz_reports_a_full_disk_and_low_space(disk):
    app = app_on(disk)
    client = app.test_client()
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json["storage"] == "ok", r.json
    app.config["MIN_FREE_DISK_BYTES"] = 10**15  # more than the disk has: low, but a hand can still be stored
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json["storage"] == "low" and r.json["free_bytes"] < 10**15
    disk.fill()
    r = client.get("/healthz")
    assert r.status_code == 503, r.json
    assert r.json["status"] == "unavailable" and r.json["storage"] == "full"
    assert "No space left on device" in r.json["reason"] and str(disk.path) not in r.json["reason"]
    disk.free()
    assert client.get("/healthz").status_code == 200


@pytest.mark.needs_program
def test_a_pdf_that_cannot_be_kept_is_still_served(disk, caplog):
    app = app_on(disk)
    client = app.test_client()
    (game,) = start_games(client, 1)
    disk.fill()
    r = client.get(f"/g/{game['id']}/sheet.pdf")
    assert r.status_code == 200, r.get_data(as_text=True)[:2000]
    assert r.data.startswith(b"%PDF")
    assert not list(disk.path.glob("pdf/*.pdf"))  # it could not be kept …
    assert "could not be kept: No space left on device" in caplog.text  # … for want of room, and the log says so
    disk.free()
    again = client.get(f"/g/{game['id']}/sheet.pdf")  # now it is kept
    assert again.status_code == 200 and list((disk.path / "pdf").glob("*.pdf"))


# ---------------------------------------------------------------- a damaged file


def damaged_copy(tmp_path) -> str:
    """A database with games and hands, one page in the middle of its hands' table overwritten with garbage."""
    path = str(tmp_path / "damaged.sqlite")
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "t"})
    client = app.test_client()
    for _ in range(30):
        r = client.post("/api/games", json={"variant": "danish", "players": PLAYERS["danish"]})
        game = r.json
        for _ in range(10):
            client.post(
                f"/api/games/{game['id']}/hands", json={"passed": True}, headers={"X-Edit-Key": game["edit_key"]}
            )
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'hands'").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    assert pages > 10
    with open(path, "r+b") as f:  # the root page of the hands' table: a b-tree page no more
        f.seek((root - 1) * page_size)
        f.write(bytes(range(256)) * (page_size // 256))
    return path


def test_quick_check_finds_the_damage(tmp_path):
    from scorekeeper import storage

    path = damaged_copy(tmp_path)
    problems = storage.check(path)
    assert problems, "PRAGMA quick_check found nothing"
    good = str(tmp_path / "good.sqlite")
    create_app({"TESTING": True, "DATABASE": good, "SECRET_KEY": "t"})
    assert storage.check(good) == []


@pytest.mark.needs_program
def test_init_db_refuses_a_damaged_file_and_points_to_restore(tmp_path):
    path = damaged_copy(tmp_path)
    env = {**os.environ, "SCOREKEEPER_DATABASE": path, "SCOREKEEPER_SECRET_KEY": "t"}
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "init-db"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode != 0, done.stdout
    assert "schema up to date" not in done.stdout
    assert "damaged" in done.stderr and "scorekeeper restore" in done.stderr, done.stderr


@pytest.mark.needs_program
def test_the_server_refuses_to_start_on_a_damaged_file(tmp_path):
    path = damaged_copy(tmp_path)
    env = {**os.environ, "SCOREKEEPER_DATABASE": path, "SCOREKEEPER_SECRET_KEY": "t"}
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", "0"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "damaged" in done.stderr and "scorekeeper restore" in done.stderr, done.stderr[-3000:]
    assert "Traceback" not in done.stderr


def test_create_app_refuses_a_damaged_file_when_it_migrates(tmp_path):
    from scorekeeper.storage import Damaged

    path = damaged_copy(tmp_path)
    with pytest.raises(Damaged, match="scorekeeper restore"):
        create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "t"})


def test_healthz_reports_damage_found_after_the_start(tmp_path):
    path = damaged_copy(tmp_path)
    # an app that did not check at its start (it does not migrate), and checks again at every probe
    app = create_app(
        {"TESTING": True, "DATABASE": path, "SECRET_KEY": "t", "MIGRATE_ON_START": False, "INTEGRITY_CHECK_EVERY": 0}
    )
    r = app.test_client().get("/healthz")
    assert r.status_code == 503, r.json
    assert r.json["database"] == "damaged" and "scorekeeper restore" in r.json["reason"]
    assert path not in r.json["reason"]


def test_healthz_checks_the_file_now_and_then_not_at_every_probe(tmp_path):
    path = str(tmp_path / "fine.sqlite")
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "t", "INTEGRITY_CHECK_EVERY": 3600})
    client = app.test_client()
    first = client.get("/healthz").json
    assert first["database"] == "writable" and first["integrity"]["result"] == "ok"
    assert first["integrity"]["checks"] == 1  # the start's
    assert client.get("/healthz").json["integrity"]["checks"] == 1  # no probe ran a new one yet
    app.config["INTEGRITY_CHECK_EVERY"] = 0
    assert client.get("/healthz").json["integrity"]["checks"] == 2


# ---------------------------------------------------------------- issue 34: faults said as what they are


def filled(path: str) -> dict:
    """A database at `path` with a game of one hand, every connection closed (no -wal or -shm left beside it)."""
    from scorekeeper import storage
    from scorekeeper.games import service

    storage.migrate(path)
    db = storage.connect(path)
    try:
        game_id, key = service.start_game(db, {"variant": "danish", "players": PLAYERS["danish"]})
        service.add_hand(db, game_id, {"passed": True}, key)
    finally:
        storage.close(db)
    return {"id": game_id, "edit_key": key}


@pytest.fixture
def read_only(tmp_path):
    """A filled database on a tmpfs, its folder bound read-only at tmp_path/ro (a real EROFS, which stops root as it
    stops anyone: chmod does not stop root): answers (the database's path there, its game, the writable path)."""
    if os.geteuid() != 0:
        pytest.skip("mounting needs root (or CAP_SYS_ADMIN): the read-only folder tests cannot run here")
    rw, ro = tmp_path / "rw", tmp_path / "ro"
    rw.mkdir()
    ro.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(rw)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"mount -t tmpfs failed: {done.stderr.decode().strip()}")
    try:
        game = filled(str(rw / "scorekeeper.sqlite"))
        subprocess.run(["mount", "--bind", str(rw), str(ro)], check=True)
        subprocess.run(["mount", "-o", "remount,bind,ro", str(ro)], check=True)
        yield str(ro / "scorekeeper.sqlite"), game, str(rw / "scorekeeper.sqlite")
    finally:
        subprocess.run(["umount", "-l", str(ro)], check=False)
        subprocess.run(["umount", "-l", str(rw)], check=False)


def command(path, *args, prefix=(), **env):
    environment = {**os.environ, "SCOREKEEPER_DATABASE": path, "SCOREKEEPER_SECRET_KEY": "t", **env}
    return subprocess.run(
        [*prefix, sys.executable, "-m", "scorekeeper", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def says_not_writable(done, why: str) -> None:
    assert done.returncode != 0, done.stdout
    assert why in done.stderr and "not damaged" in done.stderr, done.stderr[-3000:]
    assert "restore the last good backup" not in done.stderr and "Traceback" not in done.stderr, done.stderr[-3000:]


@pytest.mark.needs_program  # a tmpfs mount or setpriv: a program of its own
def test_init_db_and_serve_on_a_read_only_folder_say_read_only_not_damaged(read_only):
    """Issue 34, F-F1: "damaged, restore the last good backup" was the advice, which loses the evening's hands."""
    path, _game, _rw = read_only
    says_not_writable(command(path, "init-db"), "read-only")
    says_not_writable(command(path, "serve", "--host", "127.0.0.1", "--port", "0"), "read-only")


@pytest.mark.needs_program  # a tmpfs mount or setpriv: a program of its own
def test_pages_api_and_healthz_on_a_read_only_folder_say_so(read_only):
    path, game, rw = read_only
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "t", "MIGRATE_ON_START": False})
    client = app.test_client()
    page = client.get(f"/g/{game['id']}", headers=DA)
    html = page.get_data(as_text=True)
    assert page.status_code == 503 and 'lang="da"' in html, html[:2000]
    assert "skrivebeskyttet" in html and "backup" not in html.lower(), html
    r = client.post(f"/api/games/{game['id']}/hands", json={"passed": True}, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 503 and "read-only" in r.json["errors"]["storage"], r.json
    health = client.get("/healthz")
    assert health.status_code == 503 and health.json["database"] == "read-only", health.json
    assert "not damaged" in health.json["reason"] and path not in health.json["reason"]
    assert stored_hands(rw) == 1


def without_overriding_permissions() -> tuple[str, ...]:
    """Root without the capabilities that pass over a file's mode: a folder of mode 555 refuses it, as it refuses the
    user an app runs as (a user other than root cannot run this checkout's Python here)."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("setpriv as root is needed to take away CAP_DAC_OVERRIDE")
    return ("setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--")


@pytest.mark.needs_program  # a tmpfs mount or setpriv: a program of its own
def test_a_folder_without_write_permission_is_said_as_permission_denied(tmp_path):
    prefix = without_overriding_permissions()
    folder = tmp_path / "data"
    folder.mkdir()
    path = str(folder / "scorekeeper.sqlite")
    game = filled(path)
    folder.chmod(0o555)
    try:
        says_not_writable(command(path, "init-db", prefix=prefix), "permission denied")
        port = free_port()
        server = subprocess.Popen(
            [*prefix, sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env={
                **os.environ,
                "SCOREKEEPER_DATABASE": path,
                "SCOREKEEPER_SECRET_KEY": "t",
                "SCOREKEEPER_MIGRATE_ON_START": "false",
            },
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 30
            while True:
                try:
                    status, body = call(base + "/healthz")
                    break
                except OSError:
                    assert time.monotonic() < deadline, "the server did not start"
                    time.sleep(0.2)
            assert status == 503 and body["database"] == "permission denied", body
            status, body = call(
                f"{base}/api/games/{game['id']}/hands", "POST", {"passed": True}, {"X-Edit-Key": game["edit_key"]}
            )
            assert status == 503 and "permission denied" in body["errors"]["storage"], body
        finally:
            server.terminate()
            server.wait(10)
    finally:
        folder.chmod(0o755)
    assert stored_hands(path) == 1


def damage(path: str) -> None:
    """The root page of the hands' table overwritten with garbage, as damaged_copy does, in a file in use."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'hands'").fetchone()[0]
    with open(path, "r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(bytes(range(256)) * (page_size // 256))


def test_damage_met_while_serving_is_said_in_words_and_healthz_says_so_at_once(tmp_path):
    """Issue 34, F-F2: every page was a bare 500 while /healthz said "integrity ok" for up to an hour."""
    from scorekeeper.games import cache

    path = str(tmp_path / "serving.sqlite")
    game = filled(path)
    cache.games.clear()  # a fresh process: nothing scored kept
    app = create_app(
        {"TESTING": True, "DATABASE": path, "SECRET_KEY": "t", "INTEGRITY_CHECK_EVERY": 3600, "KEEP_CONNECTION": False}
    )
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    damage(path)
    page = client.get(f"/g/{game['id']}", headers=DA)
    html = page.get_data(as_text=True)
    assert page.status_code == 503 and 'lang="da"' in html, html[:2000]
    assert "beskadiget" in html, html
    health = client.get("/healthz")
    assert health.status_code == 503 and health.json["database"] == "damaged", health.json
    assert "malformed" in health.json["reason"] and "scorekeeper restore" in health.json["reason"]
    r = client.post(f"/api/games/{game['id']}/hands", json={"passed": True}, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 503 and "damaged" in r.json["errors"]["storage"], r.json


def test_a_hand_while_another_program_holds_the_write_lock_is_busy_not_saved(tmp_path):
    """Issue 34, F-F3: past the busy timeout a hand was a bare 500; now 503 with Retry-After, in words, not stored."""
    path = str(tmp_path / "busy.sqlite")
    game = filled(path)
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "t", "BUSY_TIMEOUT": 0.2})
    client = app.test_client()
    assert client.get(f"/g/{game['id']}/k/{game['edit_key']}").status_code == 302
    form = client.get(f"/g/{game['id']}/hands/new").get_data(as_text=True)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program (sqlite3 at the file, a backup tool) holds the write lock
    try:
        r = client.post(
            f"/api/games/{game['id']}/hands", json={"passed": True}, headers={"X-Edit-Key": game["edit_key"]}
        )
        assert r.status_code == 503 and r.headers["Retry-After"].isdigit(), r.get_data(as_text=True)[:2000]
        assert "busy" in r.json["errors"]["storage"] and "not saved" in r.json["errors"]["storage"]
        page = client.post(f"/g/{game['id']}/hands/new", data={**fields(form), "passed": "1"}, headers=DA)
        html = page.get_data(as_text=True)
        assert page.status_code == 503 and page.headers["Retry-After"].isdigit(), html[:2000]
        assert "optaget" in html and "ikke gemt" in html, html
        health = client.get("/healthz")
        assert health.status_code == 503 and health.json["database"] == "busy", health.json
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert stored_hands(path) == 1
    r = client.post(f"/api/games/{game['id']}/hands", json={"passed": True}, headers={"X-Edit-Key": game["edit_key"]})
    assert r.status_code == 201
