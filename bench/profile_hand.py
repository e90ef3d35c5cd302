#!/usr/bin/env python3
"""Where a JSON hand entry's CPU goes under load (issue 27): a benchmark row, not a test.

The app under gunicorn's sync workers (as bench/run.py --only floor serves it), a pool of Danish games, wrk posting
hands round-robin at 8 clients for --duration seconds while py-spy samples the workers (250 Hz); the samples in the
disk flush and the writers' queue are left out (waiting, not CPU), the rest sorted into the parts of a request and
scaled to the workers' user CPU per request from /proc. py-spy is not one of the project's dependencies:
`.venv/bin/pip install py-spy` first.

Usage: python bench/profile_hand.py [--duration 15] [--clients 8]; prints Markdown.
"""

from __future__ import annotations

import argparse
import collections
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import run as bench  # noqa: E402  (bench/run.py)

WAITING = ("flush (scorekeeper/storage/writes.py", "queued (scorekeeper/storage/writes.py")
PARTS = [  # (part, a frame that puts a sample in it), the first that matches; the order matters
    ("the request's log line", "_log (scorekeeper/server/logs.py"),
    ("Flask's request: context, routing, session, security headers", "add_headers (scorekeeper/server/security.py"),
    ("the JSON body read and the answer made", "body (scorekeeper/games/api.py"),
    ("the JSON body read and the answer made", "jsonify ("),
    ("the JSON body read and the answer made", "_hand_answer (scorekeeper/games/api.py"),
    ("catching up the hands another worker added (read and scored)", "_scored_game (scorekeeper/games/service.py"),
    ("the game's row read, the key checked", "get_game (scorekeeper/storage/store.py"),
    ("the game's row read, the key checked", "key_matches (scorekeeper/games/service.py"),
    ("scoring the new hand", "play_on (scorekeeper/core/__init__.py"),
]


def part_of(frames: list[str]) -> str:
    def has(prefix: str) -> bool:
        return any(f.startswith(prefix) for f in frames)

    if not has("SyncWorker.handle ("):
        return "gunicorn: accepting"
    if not has("Flask.__call__"):
        return "gunicorn: parse, answer, close"
    for part, frame in PARTS:
        if has(frame):
            return part
    if not has("add_hand (scorekeeper/games/api.py"):
        return "Flask's request: context, routing, session, security headers"
    if not has("add_hand (scorekeeper/games/service.py"):
        return "the view (keys, headers)"
    return "the transaction: BEGIN IMMEDIATE, the hand and its edit-log line inserted, COMMIT"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=15)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args(argv)
    spy_bin = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    if spy_bin is None:
        raise SystemExit("py-spy is missing: .venv/bin/pip install py-spy")
    out = Path(tempfile.mkdtemp())
    db_path = out / "profile.sqlite"
    from scorekeeper import storage

    storage.migrate(str(db_path))
    env = {
        "SCOREKEEPER_DATABASE": str(db_path),
        "SCOREKEEPER_SECRET_KEY": "profile-" + secrets.token_hex(8),
        "SCOREKEEPER_RATELIMIT_ENABLED": "true",
        "SCOREKEEPER_LIMIT_NEW_GAMES": "1000000 per minute",
    }
    server = bench.Server("scorekeeper", "scorekeeper:create_app()", ROOT, 2, out, env)
    try:
        server.wait("/")
        pool = [bench.new_game(server.url, f"profile {k}") for k in range(bench.POOL)]
        script = bench.hands_script(out / "api.lua", pool)
        bench.wrk(server.url, script, args.clients, 3)  # warm
        stacks = out / "stacks.txt"
        spy = subprocess.Popen(
            [spy_bin, "record", "--pid", str(server.proc.pid), "--subprocesses", "--rate", "250"]
            + ["--format", "raw", "-o", str(stacks), "--nonblocking"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1)
        user, _system = server.cpu_split()
        result = bench.wrk(server.url, script, args.clients, args.duration)
        user_after, _ = server.cpu_split()
        spy.send_signal(2)
        spy.wait(60)
    finally:
        server.stop()
    user_ms = (user_after - user) * 1000 / max(result["requests"], 1)
    parts: collections.Counter = collections.Counter()
    for line in stacks.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack:
            continue
        frames = stack.split(";")[1:]
        if any(f.startswith(WAITING) for f in frames):
            continue
        parts[part_of(frames)] += int(n)
    total = sum(parts.values()) or 1
    print(
        f"JSON hand entry, {args.clients} clients, {result['rps']:.0f} req/s, {user_ms:.2f} ms of user CPU a request "
        f"(load average {', '.join(f'{v:.2f}' for v in __import__('os').getloadavg())}):\n"
    )
    print("| part | ms | share |\n|---|---:|---:|")
    for part, n in parts.most_common():
        print(f"| {part} | {n / total * user_ms:.2f} | {n / total:.0%} |")
    shutil.rmtree(out, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
