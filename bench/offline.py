#!/usr/bin/env python3
"""Saving a hand at the table, in real Chromium at 390×844 (a benchmark row, not a timed test).

1. Offline: from tapping Save with no network to the protokoll showing the hand as waiting (measured in the page:
   the submit handler's clock to the pending row's), the median of several hands.
2. Online under Chromium's network emulation (CDP Network.emulateNetworkConditions, 150 ms round trip): from
   tapping Save to the updated protokoll loaded (POST, redirect, GET), against loading a static page of the same
   size in the same run (one GET of the same bytes from the same server, same emulation).

Usage: python bench/offline.py [--hands 8] [--rtt 150]; prints a Markdown table and writes bench/results/offline.json.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from helpers import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402
from scorekeeper import create_app  # noqa: E402


def serve(app):
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--rtt", type=int, default=150)
    args = parser.parse_args()
    logging.disable(logging.INFO)
    from playwright.sync_api import sync_playwright

    copy: dict[str, bytes] = {}
    app = create_app({"DATABASE": tempfile.mkdtemp() + "/bench.sqlite", "SECRET_KEY": "bench", "GC_FREEZE": False})
    app.add_url_rule("/bench/static-copy", "static_copy", lambda: (copy["html"], {"Content-Type": "text/html"}))
    server, base = serve(app)
    out: dict = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.goto(f"{base}/new/german")
        page.fill("#player0", "Anna")
        page.fill("#player1", "Bo")
        page.fill("input[name=opt_target]", "100")  # no end before the last hand
        page.click("#start")
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        page.wait_for_selector("html[data-offline-ready]", state="attached")
        protokoll = page.url

        # 1. Offline: Save to the pending row.
        context.set_offline(True)
        offline = []
        for n in range(args.hands):
            page.click("#enter-hand")
            page.wait_for_selector("form.hand")
            page.click(f"label[for='tricks-{6 + n % 2}']")
            started = time.perf_counter()
            page.click("button.save")
            page.wait_for_selector(f"#pending-{n + 1}")
            wall = (time.perf_counter() - started) * 1000
            page.wait_for_selector("html[data-kept-shown-ms]", state="attached")
            offline.append((float(page.get_attribute("html", "data-kept-shown-ms")), wall))
        context.set_offline(False)
        page.wait_for_selector(f"#hand-{args.hands}", timeout=30000)
        page.wait_for_selector("tbody.pending", state="detached")
        out["offline_save_to_pending_ms"] = statistics.median(x for x, _ in offline)
        out["offline_save_to_pending_wall_ms"] = statistics.median(w for _, w in offline)

        # 2. Online with 150 ms RTT: Save to the updated protokoll, against a static page of the same size.
        page.goto(protokoll)
        page.wait_for_selector("html[data-offline-ready]", state="attached")
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        conditions = {"offline": False, "latency": args.rtt, "downloadThroughput": -1, "uploadThroughput": -1}
        cdp.send("Network.emulateNetworkConditions", conditions)
        online, static, sizes = [], [], []
        for n in range(args.hands):
            page.click("#enter-hand")
            page.wait_for_selector("form.hand")
            page.click(f"label[for='tricks-{6 + n % 2}']")
            started = time.perf_counter()
            page.click("button.save")
            page.wait_for_selector(f"#hand-{args.hands + n + 1}.saved")
            page.wait_for_load_state("load")
            online.append((time.perf_counter() - started) * 1000)
            copy["html"] = page.content().encode()
            sizes.append(len(copy["html"]))
            started = time.perf_counter()
            page.goto(f"{base}/bench/static-copy", wait_until="load")
            static.append((time.perf_counter() - started) * 1000)
            page.goto(protokoll)
        out.update(
            rtt_ms=args.rtt,
            online_save_to_protokoll_ms=statistics.median(online),
            static_page_same_size_ms=statistics.median(static),
            page_bytes=int(statistics.median(sizes)),
            hands=args.hands,
        )
        browser.close()
    server.shutdown()
    results = ROOT / "bench" / "results"
    results.mkdir(exist_ok=True)
    (results / "offline.json").write_text(json.dumps(out, indent=2))
    print("| measure | median |")
    print("|---|---|")
    print(f"| offline: Save → pending row shown (in the page) | {out['offline_save_to_pending_ms']:.0f} ms |")
    print(
        f"| offline: Save → pending row shown (Playwright's clock) | {out['offline_save_to_pending_wall_ms']:.0f} ms |"
    )
    print(
        f"| online, {args.rtt} ms RTT: Save → updated protokoll loaded | {out['online_save_to_protokoll_ms']:.0f} ms |"
    )
    print(f"| online, {args.rtt} ms RTT: a static page of the same size ({out['page_bytes'] // 1024} KB) | ", end="")
    print(f"{out['static_page_same_size_ms']:.0f} ms |")


if __name__ == "__main__":
    main()
