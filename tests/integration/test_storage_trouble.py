"""Issue 22, findings 6 and 7: a full disk and a damaged file, for real.

A full disk is a small tmpfs (mounted here; the tests are skipped, saying why, only where mounting is impossible),
filled by a file until the kernel says ENOSPC. A damaged database is a real file with one page overwritten.

On the main of 2026-12-01: hands on a full disk were a generic English 500, /healthz kept saying "writable", a PDF
that could not be kept was a 500; a damaged file started silently (init-db: "schema up to date", /healthz ok).
"""

import contextlib
import errno
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import PLAYERS, fields
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
