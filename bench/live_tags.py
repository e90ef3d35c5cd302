#!/usr/bin/env python3
"""What the LIVE_TAGS folder's bound costs a hand's path (issue 43): the publisher at REV (unbounded) against this
tree's (every file counted under the folder's lock, the oldest games' files going past LIVE_TAGS_MAX_BYTES), in one
run, a benchmark row, not a test.

    .venv/bin/python bench/live_tags.py [--before REV] [--rounds 7] [-n 60]

Each round, for each publisher in turn, an app with LIVE_TAGS over a Danish game that three plain readers (two in
English, one in Danish) and the scorer's phone watch, n times: a hand through the JSON API (the write, then its look at
the changes, Publisher.tick, which moves the page's files aside before the answer), then each phone's poll as live.js
asks it (the page's new tag and mark written; the first reader in each language answered what changed, kept for the
others). CPU per hand (time.process_time, the whole request in-process) and the CPU inside the publisher (time.thread_time:
its tick on the hand's path; publish and keep_answer on the polls), medians of the rounds in µs; the load average before and
after. And the read every page and hand makes of the game's row, with and without the restore's epoch (issue 43's
other half: the tag is the epoch's too), in µs per read.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
BEFORE = "8394f2b"  # the last commit before the bound (issue 43)

from helpers import Api  # noqa: E402
from scorekeeper import create_app  # noqa: E402
from scorekeeper.storage import migrate  # noqa: E402

HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}
TAG = re.compile(rb'data-live-tag="([^"]+)"')


def load(rev: str, path: str, name: str):
    """The module at `path` as of `rev`, as a module named `name`."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"], capture_output=True, check=True).stdout
    folder = Path(tempfile.mkdtemp())
    (folder / f"{name}.py").write_bytes(source)
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def an_app(template: Path, old=None):
    """An app over a copy of the migrated file with LIVE_TAGS: this tree's publisher, or `old`'s."""
    folder = Path(tempfile.mkdtemp())
    db = folder / "scorekeeper.sqlite"
    db.write_bytes(template.read_bytes())
    config = {"TESTING": True, "DATABASE": str(db), "SECRET_KEY": "x", "LOG_LEVEL": "WARNING"}
    if old is None:
        app = create_app({**config, "LIVE_TAGS": str(folder / "live-tags")})
    else:
        app = create_app(config)
        app.config["LIVE_TAGS"] = str(folder / "live-tags")
        old.init_app(app)
    publisher = app.extensions["live_tags"]
    publisher.every = 3600.0  # its thread asleep: only the requests look
    spent = {"tick": 0.0, "publish": 0.0}
    for name, into in (("tick", "tick"), ("publish", "publish"), ("keep_answer", "publish")):
        method = getattr(publisher, name)

        def timed(*args, _method=method, _into=into, **kwargs):
            started = time.thread_time()
            try:
                return _method(*args, **kwargs)
            finally:
                spent[_into] += time.thread_time() - started

        setattr(publisher, name, timed)
    return app, spent


def a_round(app, spent, n: int) -> dict:
    """n hands, each followed by the four phones' polls: µs per hand (CPU), in the tick, in the polls' publishing."""
    scorer = app.test_client()
    api = Api(scorer)
    game = api.create("danish")
    scorer.get(f"/g/{game['id']}/k/{game['edit_key']}")
    phones = [(scorer, {})] + [(app.test_client(), {"Accept-Language": language}) for language in ("en", "en", "da")]
    tags = [TAG.search(client.get(f"/g/{game['id']}", headers=headers).data).group(1) for client, headers in phones]
    hand_cpu = 0.0
    spent["tick"] = spent["publish"] = 0.0
    for _ in range(n):
        started = time.process_time()
        api.hand(game, HAND)
        hand_cpu += time.process_time() - started
        for i, (client, headers) in enumerate(phones):
            answer = client.get(
                f"/g/{game['id']}/live", headers={**headers, "X-Live-Tag": tags[i].decode(), "X-Live-Parts": "1"}
            )
            tags[i] = TAG.search(answer.data).group(1)
    return {
        "hand (CPU)": hand_cpu / n * 1e6,
        "its tick": spent["tick"] / n * 1e6,
        "the polls' publishing": spent["publish"] / n * 1e6,
    }


def game_reads(template: Path, n: int = 5_000) -> dict:
    """store.get_game's statement without the epoch and with it, µs per read (one connection, a warm cache)."""
    from scorekeeper.storage.store import games

    db = Path(tempfile.mkdtemp()) / "s.sqlite"
    db.write_bytes(template.read_bytes())
    app = create_app({"TESTING": True, "DATABASE": str(db), "SECRET_KEY": "x", "LOG_LEVEL": "WARNING"})
    game = Api(app.test_client()).create("danish")
    conn = sqlite3.connect(db)
    without = games.GAME_COLUMNS.rsplit(", (SELECT", 1)[0]
    times: dict[str, list[float]] = {"without the epoch": [], "with the epoch": []}
    for _ in range(15):  # alternating, the best of each: the machine's other load left out as far as it can be
        for name, columns in (("without the epoch", without), ("with the epoch", games.GAME_COLUMNS)):
            sql = f"SELECT {columns} FROM games g LEFT JOIN open_deals d ON d.game_id = g.id WHERE g.id = ?"
            started = time.perf_counter()
            for _ in range(n):
                conn.execute(sql, [game["id"]]).fetchone()
            times[name].append((time.perf_counter() - started) / n * 1e6)
    return {f"the game's row read, {name}": min(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", default=BEFORE)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("-n", type=int, default=60)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    old = load(args.before, "scorekeeper/server/live_tags.py", "live_tags_before")
    template = Path(tempfile.mkdtemp()) / "template.sqlite"
    migrate(str(template))
    load_before = os.getloadavg()[0]
    rows: dict[str, dict[str, list]] = {"before": {}, "bounded": {}}
    apps = {"before": an_app(template, old), "bounded": an_app(template)}
    for _ in range(args.rounds):
        for name, (app, spent) in apps.items():
            for key, value in a_round(app, spent, args.n).items():
                rows[name].setdefault(key, []).append(value)
    reads = game_reads(template)
    print(
        f"`bench/live_tags.py --rounds {args.rounds} -n {args.n}` (before: {args.before}), load average "
        f"{load_before:.1f} → {os.getloadavg()[0]:.1f}; medians of the rounds, µs\n"
    )
    print("| | before | bounded | ÷ |\n|---|---|---|---|")
    for key in rows["before"]:
        was, now = statistics.median(rows["before"][key]), statistics.median(rows["bounded"][key])
        print(f"| {key} | {was:.0f} | {now:.0f} | {now / was:.2f} |")
    (was_key, was), (now_key, now) = reads.items()
    print(f"| {was_key} → {now_key} | {was:.1f} | {now:.1f} | {now / was:.2f} |")


if __name__ == "__main__":
    main()
