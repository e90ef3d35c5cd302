#!/usr/bin/env python3
"""The PDF renderer, checkout beside checkout, in alternating rounds (issue 35: the hand-written process and pipe
against pebble's ProcessPool; issue 34 F-S2: a 1-page PDF asked for while another client prints 500 hands).

    python bench/renderer.py TREE [TREE …] [--rounds 5]

Each TREE (a checkout; "." is this one) gets a process of its own with that tree's package first on the path, an app
(not TESTING), a fresh SQLite file with a 10-hand and a 500-hand Danish game, and its renderer warmed by one PDF.
Then, round after round and tree after tree:

- alone: the 1-page sheet drawn 5 times and the 500-hand sheet once, one after another (`render_pdf`, the drawing
  only): the wall time of each, and the serving process's own CPU per PDF (what the pool's machinery costs it);
- side by side: one client (10.0.0.1) downloads the 500-hand game's PDF while another (10.0.0.2) downloads the 1-page
  one 0.2 s later, through the app (kept PDFs removed first): the second's status and wall time.

Medians of the rounds, and each tree ÷ the first, in one run; the load average before and after.
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

CHILD = r"""
import json, os, resource, shutil, sys, threading, time
tree, folder = sys.argv[1], sys.argv[2]
sys.path.insert(0, tree)
sys.path.insert(0, os.path.join(tree, "tests"))
import scorekeeper
assert scorekeeper.__file__.startswith(tree), scorekeeper.__file__
from scorekeeper import create_app
from scorekeeper.games import service
from scorekeeper.server.db import get_db
from scorekeeper.games import document, paper
from scorekeeper.games import sheets
from scorekeeper.clubs.pages import tables as club_tables
sys.path.insert(0, os.path.join(tree, "tests", "integration"))
from test_limits_pdf import exported, long_danish_game

pdfs = os.path.join(folder, "pdf")
app = create_app({"DATABASE": os.path.join(folder, "r.sqlite"), "SECRET_KEY": "x", "PDF_FOLDER": pdfs,
                  "PDF_TIMEOUT": 600, "GC_FREEZE": False})
with app.app_context():
    big, _ = service.import_game(get_db(), long_danish_game(), max_hands=app.config["MAX_HANDS"])
    small, _ = service.import_game(get_db(), exported(10))
    docs = {}
    with app.test_request_context("/"):
        for name, game_id in (("small", small), ("big", big)):
            scored = club_tables.titled(service.load(get_db(), game_id))
            docs[name] = document.sheet_document(paper.sheet_context(scored))
        sheets.render_pdf(docs["small"])

def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime

for line in sys.stdin:
    out = {}
    with app.test_request_context("/"):
        for name, times in (("small", 5), ("big", 1)):
            walls, cpus = [], []
            for _ in range(times):
                c, t = cpu(), time.perf_counter()
                assert sheets.render_pdf(docs[name]).startswith(b"%PDF")
                walls.append(time.perf_counter() - t)
                cpus.append(cpu() - c)
            out[name + "_ms"] = 1000 * sorted(walls)[len(walls) // 2]
            out[name + "_cpu_ms"] = 1000 * sorted(cpus)[len(cpus) // 2]
    shutil.rmtree(pdfs, ignore_errors=True)
    got = {}

    def download(who, game_id, key):
        t = time.perf_counter()
        r = app.test_client().get(f"/g/{game_id}/sheet.pdf", environ_base={"REMOTE_ADDR": who})
        got[key] = (r.status_code, time.perf_counter() - t)

    a = threading.Thread(target=download, args=("10.0.0.1", big, "big"))
    a.start()
    time.sleep(0.2)
    download("10.0.0.2", small, "small")
    a.join()
    out["beside_status"] = got["small"][0]
    out["beside_ms"] = 1000 * got["small"][1]
    out["beside_big_status"] = got["big"][0]
    out["beside_big_ms"] = 1000 * got["big"][1]
    print(json.dumps(out), flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("trees", nargs="+")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    load_before = os.getloadavg()
    children = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, tree in enumerate(args.trees):
            folder = Path(tmp) / str(i)
            folder.mkdir()
            env = {**os.environ, "PYTHONPATH": os.path.abspath(tree)}
            children.append(
                subprocess.Popen(
                    [sys.executable, "-c", CHILD, os.path.abspath(tree), str(folder)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                    env=env,
                )
            )
        rows: list[list[dict]] = [[] for _ in args.trees]
        for _ in range(args.rounds):
            for i, child in enumerate(children):
                child.stdin.write("go\n")
                child.stdin.flush()
                rows[i].append(json.loads(child.stdout.readline()))
        for child in children:
            child.stdin.close()
            child.wait()
    load_after = os.getloadavg()
    keys = ["small_ms", "small_cpu_ms", "big_ms", "big_cpu_ms", "beside_ms", "beside_big_ms"]
    medians = [{k: statistics.median(r[k] for r in tree_rows) for k in keys} for tree_rows in rows]
    print(
        f"PDF renderer, {args.rounds} alternating rounds; load average {load_before[0]:.1f} before, "
        f"{load_after[0]:.1f} after\n"
    )
    print(
        "| tree | 1 page, ms | its serving CPU, ms | 500 hands, ms | its serving CPU, ms | "
        "1 page beside 500 hands: statuses | its ms | the 500 hands' ms |"
    )
    print("|---|---:|---:|---:|---:|---|---:|---:|")
    for tree, m, tree_rows in zip(args.trees, medians, rows, strict=True):
        ratio = " ".join(f"{m[k] / medians[0][k]:.2f}" if medians[0][k] else "-" for k in ("small_ms", "big_ms"))
        statuses = ",".join(str(r["beside_status"]) for r in tree_rows)
        print(
            f"| {tree} (÷ first: {ratio}) | {m['small_ms']:.0f} | {m['small_cpu_ms']:.1f} | {m['big_ms']:.0f} | "
            f"{m['big_cpu_ms']:.1f} | {statuses} | {m['beside_ms']:.0f} | {m['beside_big_ms']:.0f} |"
        )


if __name__ == "__main__":
    main()
