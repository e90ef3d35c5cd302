#!/usr/bin/env python3
"""The whole path of a hand at a night's size (issue 47), checkout beside checkout in alternating rounds: a benchmark
row, not a test.

    .venv/bin/python bench/hand_path.py TREE [TREE …] [--tables 2000] [--start-hands 25] [--rounds 5] [--hands 400]
        [--workers 2] [--route random|table] [--profile K]      # a TREE@table or TREE@random: its own route

Each TREE (a checkout; "." is this one, a baseline is e.g. `git archive HEAD | tar -x -C /tmp/head`) gets a process
of its own with its package first on the path and an app as a server makes it (the rate limiter on with limits no
bench reaches, the request log at INFO to /dev/null, `LIVE_TAGS` in a folder of /dev/shm, the kept games' bounds at
their defaults) over a fresh SQLite file of `--tables` Danish games of `--start-hands` hands each (imported). Then
each table in turn, as a night plays it: a watching phone's poll with the tag its page shows (the app writes the
tag's file, for nginx), the hand through the JSON API with the edit key (timed: its request, its write, its look at
the changes that moves the page's files aside, its answer), and a plain reader's poll with the old tag (answered
what changed, kept beside the tags for the other phones). `--workers 2` gives each request to one of two simulated
workers at random (the same draws for every tree), each keeping its own scored games (games/cache.py), as
`scorekeeper serve`'s two workers on one shared port take a table's requests; `--route table` gives each table's
requests to one of them (by the table's id), as nginx's hash by table over a port per worker does (deploy/nginx.conf).

Reported per hand, medians of the rounds: the user and system CPU of the hand's request (getrusage of its thread: the
system time is mostly the flush's), each tree ÷ the first; and, counted over one more round: the SQL statements of
the hand's request, the live-tag file operations it makes (audit events: open, mkdir, rename, remove, rmdir, chmod,
scandir, under the folder), and the games replayed from scratch (in the hand's request and in the polls) per 100
hands, with the hands scored per hand; the CPU of the two polls around the hand; and where the view's CPU goes, each
part timed by function (in either shape of the service: games/service.py, or the package games/service/). `--profile
K` also prints where tree K's hand requests spend their time (cProfile, the 30 functions with most time of their own).
`--no-tags` leaves LIVE_TAGS off.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}

CHILD = r"""
import cProfile, functools, io, json, logging, os, pstats, random, resource, sys, threading, time
tree, folder, tables, start_hands, workers, seed, tags = sys.argv[1:8]
tables, start_hands, workers, seed = int(tables), int(start_hands), int(workers), int(seed)
by_table = sys.argv[9] == "table"  # each table's requests to one worker (nginx's hash by table), not at random
sys.path.insert(0, tree)
import scorekeeper
assert scorekeeper.__file__.startswith(tree), scorekeeper.__file__
import scorekeeper.core as core
from scorekeeper import create_app
from scorekeeper.server import db as web_db
from scorekeeper.games import cache, service

counts = {"replays": 0, "scored": 0}
_replay = core.replay
def counted_replay(rules, setup, inputs, start=None):
    inputs = list(inputs)
    counts["scored"] += len(inputs)
    if start is None and inputs:
        counts["replays"] += 1
    return _replay(rules, setup, inputs, start)
core.replay = counted_replay  # core.play and core.play_on look it up here

tag_ops = [0]  # the request's own (not the publisher's thread, which sweeps the folder every minute)
main_ident = threading.get_ident()
EVENTS = {"open", "os.mkdir", "os.rename", "os.remove", "os.rmdir", "os.chmod", "os.scandir", "os.listdir"}
def audit(event, args):
    if tags and event in EVENTS and args and tags in str(args[0]) and threading.get_ident() == main_ident:
        tag_ops[0] += 1
sys.addaudithook(audit)

app = create_app({
    "DATABASE": os.path.join(folder, "night.sqlite"), "SECRET_KEY": "night", "RATELIMIT_ENABLED": True,
    "LIMIT_NEW_GAMES": "100000 per minute", "LOG_LEVEL": "INFO", "LIVE_TAGS": tags or None, "PROPAGATE_EXCEPTIONS": True,
    "READS_PER_SECOND": None, "REQUESTS_PER_ADDRESS": 0,  # many phones behind one address here
})
handler = logging.StreamHandler(open(os.devnull, "w"))
handler.setFormatter(logging.Formatter("[%(asctime)s] %(levelname)s in %(module)s: %(message)s"))
logging.getLogger("scorekeeper").handlers[:] = [handler]
own = [0.0, 0.0]  # the hand's own CPU: its view (the write, its edit log, the answer), its look at the tags
main_thread = threading.main_thread()
def thread_cpu(slot, do):
    @functools.wraps(do)  # the view's own marks too (guard.exempt: the limiter is not asked about the keyed hand)
    def timed(*args, **kwargs):
        if threading.current_thread() is not main_thread:  # the publisher's own thread: not the request's
            return do(*args, **kwargs)
        started = time.thread_time()  # exact (getrusage splits user and system time by sampled ticks)
        try:
            return do(*args, **kwargs)
        finally:
            own[slot] += time.thread_time() - started
    return timed
app.view_functions["api.add_hand"] = thread_cpu(0, app.view_functions["api.add_hand"])
publisher = app.extensions.get("live_tags")
if publisher is not None:
    publisher.tick = thread_cpu(1, publisher.tick)
# The parts of the view, each timed while a hand is being entered (not in the polls): the same functions in either
# shape of the service (games/service.py, or the package games/service/ with its hands and scored modules).
parts = {}
in_hand, inside = [False], [False]
def timed_part(module, name, label):
    do = getattr(module, name, None)
    if do is None:
        return
    def timed(*args, **kwargs):
        if not in_hand[0] or inside[0] or threading.current_thread() is not main_thread:
            return do(*args, **kwargs)  # a part within another is the other's
        started = time.thread_time()
        inside[0] = True
        try:
            return do(*args, **kwargs)
        finally:
            inside[0] = False
            parts[label] = parts.get(label, 0.0) + time.thread_time() - started
    setattr(module, name, timed)
from scorekeeper.games import api as games_api
from scorekeeper.storage import store as games_store, writes as games_writes
writer = sys.modules.get("scorekeeper.games.service.hands", service)
for module, name, label in [
    (games_api, "_hand_body", "the JSON body read"), (games_api, "_view", "the table read for the answer"),
    (games_api, "_hand_answer", "the answer made"), (games_api, "jsonify", "the answer made"),
    (games_store, "get_game", "the game's row read"), (writer, "may_edit", "the key checked"),
    (writer, "scored_game", "the scored game (kept, caught up or replayed)"),
    (writer, "_scored_game", "the scored game (kept, caught up or replayed)"),
    (writer, "play_on", "scoring the new hand"), (games_store, "add_hand", "the hand inserted (and its triggers)"),
    (games_store, "log_edit", "the edit log's line inserted (and its trigger)"),
    (games_writes, "flush", "the flush (fsync of the WAL)"), (writer, "remember", "the scored game kept"),
    (writer, "_remember", "the scored game kept"),
]:
    timed_part(module, name, label)
first = cache.games
kept = [first]
for _ in range(workers - 1):
    kept.append(cache.Kept())  # the default bounds, as the app's
client = app.test_client(use_cookies=False)  # each request a phone of its own: no session grows here
hand = json.loads(sys.argv[8])
def hand_body(i):
    return dict(hand, bidder=i % 4, partner=(i + 2) % 4)
made = client.post("/api/games", json={"variant": "danish", "players": ["Anna", "Bo", "Carl", "Dina"]}).json
with app.app_context():
    data = service.export_game(web_db.get_db(), made["id"])
    data["hands"] = [hand_body(i) for i in range(start_hands)]
    pool = [service.import_game(web_db.get_db(), data) for _ in range(tables)]
draws = random.Random(seed)
shown = {}
def worker(game_id):
    if by_table:
        cache.games = kept[int(game_id.encode().hex(), 16) % workers]
    else:
        cache.games = kept[draws.randrange(workers)]
polls = [0.0]
def poll(game_id, headers):
    worker(game_id)
    started = time.thread_time()
    r = client.get(f"/g/{game_id}/live", headers=headers)
    polls[0] += time.thread_time() - started
    assert r.status_code == 200, (r.status_code, r.get_data(as_text=True)[-3000:])
    return r.headers["ETag"].strip('"')
for game_id, _ in pool:
    shown[game_id] = poll(game_id, {})
step = [0]
def one(measure=None):
    i = step[0]
    step[0] += 1
    game_id, key = pool[i % len(pool)]
    poll(game_id, {"X-Live-Tag": shown[game_id]})  # a phone's unchanged poll: the tag's file written
    worker(game_id)
    r = measure(lambda: client.post(f"/api/games/{game_id}/hands", json=hand_body(i), headers={"X-Edit-Key": key}))
    assert r.status_code == 201, (r.status_code, r.get_data(as_text=True))
    shown[game_id] = poll(game_id, {"X-Live-Tag": shown[game_id], "X-Live-Parts": "1"})
spent = [0.0, 0.0, 0.0, 0.0]
def rusage(do):
    before, mine = resource.getrusage(resource.RUSAGE_THREAD), list(own)
    in_hand[0] = True
    try:
        out = do()
    finally:
        in_hand[0] = False
    after = resource.getrusage(resource.RUSAGE_THREAD)
    spent[0] += after.ru_utime - before.ru_utime
    spent[1] += after.ru_stime - before.ru_stime
    spent[2] += own[0] - mine[0]
    spent[3] += own[1] - mine[1]
    return out
for _ in range(len(pool)):  # every table once: each simulated worker meets most games
    one(lambda do: do())
print("ready", flush=True)
for line in sys.stdin:
    what, n = line.split()
    n = int(n)
    if what == "cpu":
        spent[:] = [0.0, 0.0, 0.0, 0.0]
        polls[0] = 0.0
        parts.clear()
        for _ in range(n):
            one(rusage)
        print(*(x / n * 1e6 for x in (*spent, polls[0])), flush=True)
    elif what == "parts":
        print(json.dumps({label: cpu / max(n, 1) * 1e6 for label, cpu in parts.items()}), flush=True)
    elif what == "count":
        with app.app_context():
            conn = web_db.get_db().conn
        seen = []
        in_post = {"replays": 0, "scored": 0, "ops": 0}
        def traced(do):
            conn.set_trace_callback(seen.append)
            before = dict(counts), tag_ops[0]
            try:
                return do()
            finally:
                conn.set_trace_callback(None)
                in_post["replays"] += counts["replays"] - before[0]["replays"]
                in_post["scored"] += counts["scored"] - before[0]["scored"]
                in_post["ops"] += tag_ops[0] - before[1]
        start = dict(counts)
        for _ in range(n):
            one(traced)
        distinct = [s for i, s in enumerate(seen) if i == 0 or s != seen[i - 1]]  # a trigger's steps: one statement
        in_polls = counts["replays"] - start["replays"] - in_post["replays"]
        print(len(distinct) / n, in_post["ops"] / n, in_post["replays"] / n * 100, in_polls / n * 100,
              in_post["scored"] / n, flush=True)
    else:  # profile
        profile = cProfile.Profile()
        def profiled(do):
            profile.enable()
            try:
                return do()
            finally:
                profile.disable()
        for _ in range(n):
            one(profiled)
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(30)
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(45)
        print(json.dumps(out.getvalue()), flush=True)
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+")
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--start-hands", type=int, default=25)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--profile", type=int, default=None, help="print tree K's profile (0: the first)")
    parser.add_argument(
        "--route",
        choices=("random", "table"),
        default="random",
        help="which simulated worker takes a request: one at random (one shared port), or each table's own (nginx's "
        "hash by table over a port per worker, deploy/nginx.conf)",
    )
    parser.add_argument("--no-tags", action="store_true", help="LIVE_TAGS off (the polls all come to the app)")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    children = []
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory(dir="/dev/shm") as shm:
        for k, named in enumerate(args.trees):
            tree, _, route = named.partition("@")  # TREE@random or TREE@table: this tree's own --route
            folder = Path(tmp) / str(k)
            folder.mkdir()
            child = subprocess.Popen(
                [sys.executable, "-c", CHILD, str(Path(tree).resolve()), str(folder)]
                + [str(args.tables), str(args.start_hands), str(args.workers), str(args.seed)]
                + ["" if args.no_tags else str(Path(shm) / f"tags-{k}"), json.dumps(HAND), route or args.route],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env={**os.environ, "PYTHONPATH": str(Path(tree).resolve())},
            )
            children.append(child)
        for tree, child in zip(args.trees, children):
            assert child.stdout.readline().strip() == "ready", tree

        def ask(child, what: str, n: int) -> list[float]:
            child.stdin.write(f"{what} {n}\n")
            child.stdin.flush()
            return [float(x) for x in child.stdout.readline().split()]

        user: list[list[float]] = [[] for _ in children]
        system: list[list[float]] = [[] for _ in children]
        view: list[list[float]] = [[] for _ in children]
        tick: list[list[float]] = [[] for _ in children]
        polled: list[list[float]] = [[] for _ in children]
        parted: list[dict[str, list[float]]] = [{} for _ in children]
        for _ in range(args.rounds):
            for k, child in enumerate(children):
                u, s, v, t, p = ask(child, "cpu", args.hands)
                polled[k].append(p)
                child.stdin.write(f"parts {args.hands}\n")
                child.stdin.flush()
                for label, cpu in json.loads(child.stdout.readline()).items():
                    parted[k].setdefault(label, []).append(cpu)
                user[k].append(u)
                system[k].append(s)
                view[k].append(v)
                tick[k].append(t)
        counted = [ask(child, "count", args.hands) for child in children]
        profile = None
        if args.profile is not None:
            child = children[args.profile]
            child.stdin.write(f"profile {args.hands}\n")
            child.stdin.flush()
            profile = json.loads(child.stdout.readline())
        for child in children:
            child.stdin.close()
            child.wait()
    load_after = os.getloadavg()
    first = statistics.median(user[0])
    own = [statistics.median(v + t for v, t in zip(vs, ts)) for vs, ts in zip(view, tick)]
    print(
        f"The hand's path, in-process: {args.tables} Danish tables of {args.start_hands}+ hands, LIVE_TAGS"
        f" {'off' if args.no_tags else 'on (tmpfs)'}, {args.workers} simulated worker(s) {'at random' if args.route == 'random' else 'by table'} (TREE@random, TREE@table: that tree's own); {args.rounds}"
        f" alternating rounds of {args.hands} hands; load average {', '.join(f'{v:.2f}' for v in load_before)} before,"
        f" {', '.join(f'{v:.2f}' for v in load_after)} after\n"
    )
    print(
        "| tree | the request: user CPU µs per hand (median) | rounds (min–max) | ÷ the first | the hand's own: its"
        " view and its look at the tags, CPU µs | ÷ the first | of which the tags' | system CPU µs | SQL statements"
        " | live-tag file operations | replays from scratch per 100 hands: in the hand, in the polls | hands scored"
        " per hand | the two polls around it, CPU µs | ÷ the first |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    first_polls = statistics.median(polled[0])
    rows = zip(args.trees, user, system, own, tick, polled, counted)
    for tree, rounds, sys_rounds, mine, ticks, poll_rounds, (sql, ops, replays, poll_replays, scored) in rows:
        median, polls = statistics.median(rounds), statistics.median(poll_rounds)
        print(
            f"| {tree} | {median:.0f} | {min(rounds):.0f}–{max(rounds):.0f} | {median / first:.2f} | {mine:.0f} | "
            f"{mine / own[0]:.2f} | {statistics.median(ticks):.0f} | {statistics.median(sys_rounds):.0f} | {sql:.1f} "
            f"| {ops:.1f} | {replays:.1f}, {poll_replays:.1f} | {scored:.1f} | {polls:.0f} | {polls / first_polls:.2f} |"
        )
    labels = sorted(
        {label for found in parted for label in found}, key=lambda label: -statistics.median(parted[0].get(label, [0]))
    )
    print(
        "\nWhere the hand's own CPU goes (µs per hand, medians of the rounds; the rest of the view is the transaction's"
        " BEGIN IMMEDIATE and COMMIT, the lock file and the glue):\n"
    )
    print("| part | " + " | ".join(args.trees) + " |")
    print("|---|" + "---:|" * len(args.trees))
    for label in labels:
        print(
            f"| {label} | " + " | ".join(f"{statistics.median(found.get(label, [0])):.0f}" for found in parted) + " |"
        )
    print(
        "| the look at the live tags (Publisher.tick) | "
        + " | ".join(f"{statistics.median(t):.0f}" for t in tick)
        + " |"
    )
    print("| the view in all | " + " | ".join(f"{statistics.median(v):.0f}" for v in view) + " |")
    if profile is not None:
        print(f"\nProfile of {args.trees[args.profile]}'s hand requests:\n\n```\n{profile}\n```")
    return 0


if __name__ == "__main__":
    sys.exit(main())
