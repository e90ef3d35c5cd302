#!/usr/bin/env python3
"""What a hall's drive costs after issue 25: a benchmark row, not a test.

A progressive drive of 8 tables (32 players) and 24 hands, every result entered through the API, then:
1. the score cards as a PDF (drawn by the drives' renderer): pages, bytes and the time of the first draw — four A6
   cards to a sheet now, one card a page before;
2. the hall screen's page and the drive's JSON: the server's time (median of 20);
3. the organiser's correction of hand 1 after all 24 hands, as a dry run (what the correction page shows): its time
   beside the GET of the same drive (median of 20), as a ratio.

`--tree PATH` runs the same against another checkout (say main before issue 25, from `git archive`) in a process of
its own, for the "before" column in the same run. Usage: python bench/drive_hall.py [--tree /tmp/old]; prints
Markdown and writes bench/results/drive_hall.json.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(tree: Path) -> dict:
    sys.path.insert(0, str(tree))
    from pypdf import PdfReader

    from scorekeeper import create_app

    folder = Path(tempfile.mkdtemp())
    app = create_app({"DATABASE": str(folder / "hall.sqlite"), "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False})
    client = app.test_client()
    ladies, gents = [f"Lady {i:02d}" for i in range(16)], [f"Gent {i:02d}" for i in range(16)]
    drive = client.post(
        "/api/drives", json={"format": "progressive", "ladies": ladies, "gents": gents, "hands": 24}
    ).json
    headers = {"X-Edit-Key": drive["edit_key"]}
    for hand in range(1, 25):
        for table in range(1, 9):
            first = (hand * 5 + table * 3) % 14
            r = client.post(
                f"/api/drives/{drive['id']}/hands/{hand}/tables/{table}",
                json={"tricks": [first, 13 - first]},
                headers=headers,
            )
            assert r.status_code == 201, r.json
    out: dict = {"tree": str(tree)}
    start = time.perf_counter()
    pdf = client.get(f"/d/{drive['id']}/scorecards.pdf")
    out["scorecards_seconds"] = round(time.perf_counter() - start, 2)
    assert pdf.status_code == 200
    out["scorecards_pages"] = len(PdfReader(io.BytesIO(pdf.data)).pages)
    out["scorecards_kib"] = round(len(pdf.data) / 1024)

    def median_ms(path: str, method: str = "get", **kw) -> float:
        times = []
        for _ in range(20):
            start = time.perf_counter()
            r = getattr(client, method)(path, **kw)
            times.append(time.perf_counter() - start)
            assert r.status_code in (200, 201), (path, r.status_code)
        return round(statistics.median(times) * 1000, 1)

    out["screen_ms"] = median_ms(f"/d/{drive['id']}/screen")
    out["get_ms"] = median_ms(f"/api/drives/{drive['id']}")
    probe = client.put(
        f"/api/drives/{drive['id']}/hands/1/tables/1", json={"tricks": [13, 0], "dry_run": True}, headers=headers
    )
    if probe.status_code == 200:
        out["correction_dry_run_ms"] = median_ms(
            f"/api/drives/{drive['id']}/hands/1/tables/1",
            method="put",
            json={"tricks": [13, 0], "dry_run": True},
            headers=headers,
        )
        out["correction_over_get"] = round(out["correction_dry_run_ms"] / out["get_ms"], 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tree", type=Path, help="another checkout to measure in the same run (the 'before')")
    parser.add_argument("--only", type=Path, help=argparse.SUPPRESS)  # the child process: measure this tree
    args = parser.parse_args()
    if args.only:
        print(json.dumps(measure(args.only)))
        return
    rows = []
    for tree in [args.tree, ROOT] if args.tree else [ROOT]:
        done = subprocess.run(
            [sys.executable, __file__, "--only", str(tree)], capture_output=True, text=True, check=True, cwd=tree
        )
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
    keys = [
        "scorecards_pages",
        "scorecards_kib",
        "scorecards_seconds",
        "screen_ms",
        "get_ms",
        "correction_dry_run_ms",
        "correction_over_get",
    ]
    print("| | " + " | ".join(r["tree"] for r in rows) + " |")
    print("|---|" + "---|" * len(rows))
    for key in keys:
        print(f"| {key} | " + " | ".join(str(r.get(key, "—")) for r in rows) + " |")
    results = ROOT / "bench" / "results"
    results.mkdir(exist_ok=True)
    (results / "drive_hall.json").write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
