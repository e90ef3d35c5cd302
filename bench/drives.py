#!/usr/bin/env python3
"""What a whist drive's paper costs, and whether a game's PDF is drawn while it is (issue 22): a benchmark row, not a
test.

1. Paper: drives of 10 tables × 24 hands, 30 × 24 and 30 × 30 (the default bounds), every result entered. For the
   score cards and the tally cards: the print page's server time (first, then kept in the worker), and the PDF drawn
   by the drives' renderer process with ReportLab (its CPU seconds and peak memory, read from /proc), then downloaded
   again (kept: a file read). Beside it in the same run, the old path: the same print page's HTML drawn by WeasyPrint
   as one document (bench/weasy.py, a process of its own per PDF; `--no-weasy` leaves it out).
2. Fairness, under waitress (8 threads, the app as `make run` serves it): a small game's PDF asked for while the
   score cards of a 30 × 30 drive are being drawn, with one renderer and one lock for everything (what main had
   before: the drives' lock and renderer made the games' own for the run) and with the drive paper's own renderer;
   the game PDF's answer and time beside the same PDF alone in the same run.

Usage: python bench/drives.py [--sizes 10x24,30x24,30x30] [--fair 30x30]; prints Markdown and writes
bench/results/drives.json.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sqlite3
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from procstat import cpu_seconds, started_child  # noqa: E402  (bench/procstat.py)

from helpers import PLAYERS, waitress_in_thread  # noqa: E402
from scorekeeper import create_app  # noqa: E402
from scorekeeper.drives import pages as drive_views  # noqa: E402
from scorekeeper.drives import service as drive_service  # noqa: E402
from scorekeeper.games import service as game_service  # noqa: E402
from scorekeeper.games import sheets  # noqa: E402
from scorekeeper.server.db import get_db  # noqa: E402


def peak_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def played_drive(app, db_path: Path, tables: int, hands: int) -> str:
    """A progressive drive with every result entered (written straight into the file: the bench is about paper)."""
    client = app.test_client()
    body = {
        "title": "Village hall",
        "format": "progressive",
        "hands": hands,
        "interval_after": hands // 2,
        "ladies": [f"Lady Skovbo-Kristoffersen {i}" for i in range(2 * tables)],
        "gents": [f"Gent Høegh-Guldberg {i}" for i in range(2 * tables)],
    }
    r = client.post("/api/drives", json=body)
    assert r.status_code == 201, r.json
    drive_id = r.json["id"]
    rng = random.Random(tables * 1000 + hands)
    conn = sqlite3.connect(db_path)
    with conn:
        for hand in range(1, hands + 1):
            for table in range(1, tables + 1):
                a = rng.randrange(14)
                conn.execute(
                    "INSERT INTO drive_results (drive_id, hand, table_number, tricks, created, updated)"
                    " VALUES (?, ?, ?, ?, '2026-12-01', '2026-12-01')",
                    [drive_id, hand, table, json.dumps([a, 13 - a])],
                )
        conn.execute("UPDATE drives SET version = ? WHERE id = ?", [hands * tables, drive_id])
    conn.close()
    return drive_id


def timed(client, path: str) -> tuple[int, float, int]:
    started = time.perf_counter()
    r = client.get(path)
    return r.status_code, time.perf_counter() - started, len(r.data)


def weasy_baseline(app, drive_id: str, kind: str, folder: Path) -> dict:
    """The old path in the same run: the print page's HTML (as the PDF saw it) drawn by WeasyPrint as one document,
    in a process of its own (bench/weasy.py): its wall and CPU seconds and its peak memory."""
    import subprocess

    from flask import render_template

    origin = "https://sheet.invalid"
    with app.test_request_context(f"/d/{drive_id}/{kind}.pdf"):
        ctx = drive_views._context(kind, drive_service.load(get_db(), drive_id))
        html = render_template(f"print/drive_{kind}.html", pdf=True, pdf_url="", drive_id=drive_id, **ctx)
    spec = {
        "jobs": [{"name": kind, "html": html}],
        "static_folder": app.static_folder,
        "prefix": origin + app.static_url_path + "/",
        "base_url": origin + "/",
    }
    jobs = folder / f"weasy-{kind}.json"
    jobs.write_text(json.dumps(spec))
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "weasy.py"), str(jobs)], capture_output=True, text=True, check=True
    )
    jobs.unlink()
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return {"s": out[kind]["s"], "cpu_s": out[kind]["cpu_s"], "peak_mib": out["peak_mib"]}


def paper(sizes: list[tuple[int, int]], folder: Path, weasy: bool = True) -> list[dict]:
    """Each PDF by a fresh, warm renderer process, so that its CPU time and peak memory are read from the process that
    drew it."""
    rows = []
    for tables, hands in sizes:
        db = folder / f"paper-{tables}x{hands}.sqlite"
        app = create_app({"DATABASE": str(db), "SECRET_KEY": "b", "GC_FREEZE": False, "PDF_TIMEOUT": 900})
        app.config.update(DRIVE_MAX_TABLES=max(tables, 30), DRIVE_MAX_HANDS=max(hands, 30))
        drive_id = played_drive(app, db, tables, hands)
        client = app.test_client()
        for kind in ("scorecards", "tally"):
            status, first, size = timed(client, f"/d/{drive_id}/{kind}")
            _, kept, _ = timed(client, f"/d/{drive_id}/{kind}")
            assert status == 200
            with app.test_request_context("/"):  # started and warm: its start is not the cards'
                pid = started_child(lambda: sheets.render_drive_pdf({"title": "warm", "blocks": []}))
            before, worker_before = cpu_seconds(pid), time.process_time()
            status, drawn, pdf_bytes = timed(client, f"/d/{drive_id}/{kind}.pdf")
            renderer_cpu = cpu_seconds(pid) - before
            worker_cpu = time.process_time() - worker_before  # the drive replayed, its context and document built
            peak = peak_mib(pid)
            sheets.drive_renderer.stop()  # the next one starts fresh
            assert status == 200, status
            _, again, _ = timed(client, f"/d/{drive_id}/{kind}.pdf")
            cards = (4 if kind == "scorecards" else 1) * tables
            old = weasy_baseline(app, drive_id, kind, folder) if weasy else None
            rows.append(
                {
                    "drive": f"{tables} × {hands}",
                    "kind": kind,
                    "cards": cards,
                    "html_kb": size / 1024,
                    "html_first_s": first,
                    "html_kept_s": kept,
                    "pdf_s": drawn,
                    "pdf_renderer_cpu_s": renderer_cpu,
                    "pdf_worker_cpu_s": worker_cpu,
                    "pdf_kb": pdf_bytes / 1024,
                    "renderer_peak_mib": peak,
                    "pdf_kept_s": again,
                    "weasy_s": old and old["s"],
                    "weasy_cpu_s": old and old["cpu_s"],
                    "weasy_peak_mib": old and old["peak_mib"],
                }
            )
            print(rows[-1], flush=True)
        sheets.drive_renderer.stop()
    return rows


def fairness(tables: int, hands: int, folder: Path, shared: bool) -> dict:
    """A game's PDF while a drive's score cards are drawn: with one lock and renderer for both (`shared`) or not."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / f"fair-{'shared' if shared else 'own'}.sqlite"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "b", "GC_FREEZE": False, "PDF_TIMEOUT": 900})
    drive_id = played_drive(app, db, tables, hands)
    with app.app_context():
        game_id, _ = game_service.import_game(
            get_db(),
            {
                "format": game_service.EXPORT_FORMAT,
                "variant": "danish",
                "players": PLAYERS["danish"],
                "dealer": 0,
                "options": {},
                "hands": [{"passed": True}] * 10,
            },
        )
    saved = sheets.drive_renderer
    if shared:  # main before issue 22: one renderer (and its turns) for every PDF
        sheets.drive_renderer = sheets.renderer
    stack = contextlib.ExitStack()
    server = stack.enter_context(waitress_in_thread(app, threads=8))
    base = f"http://127.0.0.1:{server.effective_port}"

    def get(path):
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(base + path, timeout=900) as r:
                r.read()
                return r.status, time.perf_counter() - started
        except urllib.error.HTTPError as exc:
            return exc.code, time.perf_counter() - started

    try:
        get(f"/g/{game_id}/blank.pdf")  # both renderers started and warm before anything is measured
        get("/drives/blank.pdf")
        alone = get(f"/g/{game_id}/sheet.pdf?lang=da")
        answers: list = []
        drawing = threading.Thread(target=lambda: answers.append(get(f"/d/{drive_id}/scorecards.pdf")))
        drawing.start()
        time.sleep(0.2)  # the score cards are in the renderer (about a second with ReportLab; WeasyPrint took tens)
        during = get(f"/g/{game_id}/sheet.pdf")
        still_drawing = drawing.is_alive()
        drawing.join()
        return {
            "renderers": "one for everything (before)" if shared else "drive paper's own (now)",
            "game_alone": alone,
            "game_during": during,
            "drawn_meanwhile": still_drawing,
            "drive_pdf": answers[0],
        }
    finally:
        stack.close()
        if shared:
            sheets.drive_renderer = saved
        else:
            sheets.drive_renderer.stop()
        sheets.renderer.stop()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10x24,30x24,30x30", help="drives as TABLESxHANDS, comma-separated")
    parser.add_argument("--fair", default="30x30", help="the drive drawn while a game's PDF is asked for")
    parser.add_argument("--no-weasy", action="store_true", help="leave out the WeasyPrint baseline")
    args = parser.parse_args(argv)
    sizes = [tuple(int(n) for n in s.split("x")) for s in args.sizes.split(",") if s]
    fair = tuple(int(n) for n in args.fair.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        fair_rows = [fairness(*fair, folder / "a", shared=True), fairness(*fair, folder / "b", shared=False)]
        rows = paper(sizes, folder, weasy=not args.no_weasy)
    lines = [
        "| drive | paper | cards | page | page first | page kept | PDF | worker CPU | renderer CPU | renderer peak "
        "| PDF again | WeasyPrint (CPU, peak) | ratio (wall) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['drive']} | {r['kind']} | {r['cards']} | {r['html_kb']:.0f} KB | {r['html_first_s']:.2f} s "
            f"| {r['html_kept_s'] * 1000:.0f} ms | {r['pdf_s']:.1f} s ({r['pdf_kb']:.0f} KB) "
            f"| {r['pdf_worker_cpu_s']:.2f} s | {r['pdf_renderer_cpu_s']:.2f} s | {r['renderer_peak_mib']:.0f} MiB "
            f"| {r['pdf_kept_s'] * 1000:.0f} ms "
            + (
                f"| {r['weasy_s']:.1f} s ({r['weasy_cpu_s']:.1f} s, {r['weasy_peak_mib']:.0f} MiB) "
                f"| {r['pdf_s'] / r['weasy_s']:.3f} |"
                if r["weasy_s"]
                else "| – | – |"
            )
        )
    lines += [
        "",
        "| renderers | game PDF alone | game PDF while the score cards draw | score cards |",
        "|---|---|---|---|",
    ]
    for f in fair_rows:
        lines.append(
            f"| {f['renderers']} | {f['game_alone'][0]} in {f['game_alone'][1]:.2f} s "
            f"| {f['game_during'][0]} in {f['game_during'][1]:.2f} s"
            f"{' (still drawing)' if f['drawn_meanwhile'] else ''} | {f['drive_pdf'][0]} in {f['drive_pdf'][1]:.1f} s |"
        )
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    lines.append(f"\nload average at the end: {load}")
    print("\n".join(lines))
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "drives.json").write_text(json.dumps({"paper": rows, "fairness": fair_rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
