#!/usr/bin/env python3
"""What a scored game not kept costs (issue 37: a night of thousands of tables on one machine): the game loaded and a
hand entered through the JSON API with the game kept by the worker (games/cache.py) against the same with nothing
kept (the game replayed from its stored hands first), in CPU milliseconds, the median of N of each; and the memory a
kept game holds (tracemalloc, per hand).

    .venv/bin/python bench/kept_games.py [--hands 8 30] [-n 200]
"""

from __future__ import annotations

import argparse
import functools
import gc
import logging
import os
import statistics
import tempfile
import time
import tracemalloc

from scorekeeper import create_app
from scorekeeper.games import cache, service
from scorekeeper.server.db import get_db

HAND = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}


def cpu_ms(do) -> float:
    started = time.process_time()
    do()
    return (time.process_time() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[8, 30])
    parser.add_argument("-n", type=int, default=200)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="kept-games-")
    app = create_app(
        {"DATABASE": os.path.join(folder, "kept.sqlite"), "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False}
    )
    logging.getLogger("scorekeeper.request").disabled = True
    client = app.test_client()
    print(f"load average before: {os.getloadavg()[0]:.2f}\n")
    print(
        "| hands in the game | load, kept | load, not kept | a hand, kept | a hand, not kept | kept memory per hand |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for hands in args.hands:
        game = client.post("/api/games", json={"variant": "danish", "players": ["A", "B", "C", "D"]}).json
        key = {"X-Edit-Key": game["edit_key"]}

        def hand(game=game, key=key):
            assert client.post(f"/api/games/{game['id']}/hands", json=HAND, headers=key).status_code == 201

        for _ in range(hands):
            hand()
        with app.app_context():
            db = get_db()
            load = functools.partial(service.load, db, game["id"])
            kept, cold = [], []
            for _ in range(args.n):
                kept.append(cpu_ms(load))
                cache.games.clear()
                cold.append(cpu_ms(load))
            cache.games.clear()
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            service.load(db, game["id"])
            gc.collect()
            memory = (tracemalloc.get_traced_memory()[0] - before) / hands
            tracemalloc.stop()
        entered, entered_cold = [], []
        for _ in range(max(10, args.n // 4)):  # each adds a hand: the game grows by a few
            entered.append(cpu_ms(hand))
            cache.games.clear()
            entered_cold.append(cpu_ms(hand))
        print(
            f"| {hands} | {statistics.median(kept):.2f} ms | {statistics.median(cold):.2f} ms "
            f"| {statistics.median(entered):.2f} ms | {statistics.median(entered_cold):.2f} ms | {memory / 1024:.1f} KB |"
        )
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
