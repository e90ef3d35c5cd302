#!/usr/bin/env python3
"""What a phone feels: from tapping Save on the hand form to the updated protokoll painted, in Chromium with a slow
phone's network (150 ms round trip, 1.6 Mbit/s) and CPU (4× slower), beside loading a static page of the same size in
the same run.

The app is served as `make run` serves it (waitress, `python -m scorekeeper.server.serve`); the static page is the protokoll's
own HTML, saved, and served with its stylesheet by a plain static server that lets the browser keep the stylesheet
(the best case: one round trip for the page). Both are reached by a tap (Save; a link to the static page), and both
are timed to the frame in which the new hand's row is on the screen. Rounds alternate (Save, static, Save, …).

Usage: python bench/phone.py [--rounds 5]; run.py calls run() for its table.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import slow_clients  # noqa: E402  (bench/slow_clients.py: starts the app as make run does)

from helpers import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402

NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 1_600_000 / 8}
CPU_SLOWDOWN = 4
JS = True
HAND = {"bidder": "0", "bid": "8", "trump": "spades", "partner": "2", "tricks": "9"}
SHOWN = "n => !!document.querySelector('#hand-' + n)"
# What the page's own clock says: the navigation (redirects included) and every request the page made after it.
TIMING = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const ms = v => Math.round(v);
  return {redirect: ms(nav.redirectEnd - nav.redirectStart), response_end: ms(nav.responseEnd),
    dom_content_loaded: ms(nav.domContentLoadedEventEnd), redirects: nav.redirectCount,
    requests: performance.getEntriesByType('resource').map(r => [r.name.replace(location.origin, ''),
      ms(r.startTime), ms(r.responseEnd), r.transferSize])};
}"""
NEXT_FRAME = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


class Static(http.server.SimpleHTTPRequestHandler):
    """The saved page without caching (as a protokoll is), its stylesheets and scripts kept for a year; keep-alive."""

    protocol_version = "HTTP/1.1"

    def end_headers(self):
        kept = self.path.startswith("/static/")
        self.send_header("Cache-Control", "public, max-age=31536000, immutable" if kept else "no-cache")
        super().end_headers()

    def log_message(self, *args):
        pass


def api(base: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode() if body else None, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def run(rounds: int = 5) -> dict:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        proc, base = slow_clients.start("now", folder)  # scorekeeper serve, as make run
        site = folder / "site"
        (site / "static").mkdir(parents=True)
        for path in (ROOT / "scorekeeper" / "static").rglob("*"):
            if path.is_file():
                target = site / "static" / path.relative_to(ROOT / "scorekeeper" / "static")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(path.read_bytes())
        static = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Static, directory=str(site)))
        threading.Thread(target=static.serve_forever, daemon=True).start()
        static_base = f"http://127.0.0.1:{static.server_address[1]}"
        try:
            game = api(
                base, "/api/games", {"variant": "danish", "players": ["Anna", "Bo", "Carl", "Dina"], "dealer": 0}
            )
            for _ in range(20):  # an evening under way
                request = urllib.request.Request(
                    f"{base}/api/games/{game['id']}/hands",
                    data=json.dumps(
                        {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 9}
                    ).encode(),
                    headers={"Content-Type": "application/json", "X-Edit-Key": game["edit_key"]},
                )
                urllib.request.urlopen(request, timeout=30).read()
            save, plain, sizes, failed = [], [], {}, []
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                # Service workers blocked: the emulated network slows only the page's own requests, not a worker's.
                context = browser.new_context(
                    viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block", java_script_enabled=JS
                )
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Network.emulateNetworkConditions", NETWORK)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
                page.goto(base + game["edit_page"])  # the phone that holds the edit key
                for k in range(rounds + 1):  # the first round warms the caches and is not counted
                    page.goto(f"{base}/g/{game['id']}/hands/new")
                    page.evaluate(
                        """hand => { for (const [name, value] of Object.entries(hand)) {
                            const input = document.querySelector(`input[name="${name}"][value="${value}"]`);
                            if (input) input.checked = true; } }""",
                        HAND,
                    )
                    number = int(page.get_attribute("form.hand", "data-number"))
                    started = time.perf_counter()
                    page.click("button.save")
                    try:
                        page.wait_for_function(SHOWN, arg=number, polling="raf", timeout=30_000)
                    except Exception:  # what the phone shows instead says why; the round is not counted
                        failed.append(f"{page.url}: {' '.join(page.inner_text('body').split())[:300]}")
                        continue
                    page.evaluate(NEXT_FRAME)  # painted
                    took = time.perf_counter() - started
                    save_timing = page.evaluate(TIMING)
                    html = context.request.get(f"{base}/g/{game['id']}").body()  # as this phone (the editor) gets it
                    (site / "page.html").write_bytes(html)
                    (site / "start.html").write_text('<!doctype html><a id="go" href="/page.html">go</a>')
                    sizes = {"page_bytes": len(html)}
                    page.goto(static_base + "/start.html")
                    started = time.perf_counter()
                    page.click("#go")
                    page.wait_for_function(SHOWN, arg=number, polling="raf", timeout=60_000)
                    page.evaluate(NEXT_FRAME)
                    plain_took = time.perf_counter() - started
                    static_timing = page.evaluate(TIMING)
                    if k:
                        save.append(took * 1000)
                        plain.append(plain_took * 1000)
                browser.close()
        finally:
            static.shutdown()
            proc.terminate()
            proc.wait(10)
    return {
        "rounds": rounds,
        "save_timing": save_timing,
        "static_timing": static_timing,
        "save_ms": save,
        "failed": failed,
        "static_ms": plain,
        "save_median_ms": statistics.median(save) if save else float("nan"),
        "static_median_ms": statistics.median(plain) if plain else float("nan"),
        "ratio": statistics.median(s / p for s, p in zip(save, plain)) if save else float("nan"),
        **sizes,
    }


def table(result: dict) -> str:
    return "\n".join(
        [
            "| on a slow phone (150 ms RTT, 1.6 Mbit/s, CPU 4× slower) | median ms | rounds (ms) |",
            "|---|---:|---|",
            f"| tap Save → the updated protokoll painted | {result['save_median_ms']:.0f} | "
            + ", ".join(f"{v:.0f}" for v in result["save_ms"])
            + " |",
            f"| tap a link → a static page of the same size ({result['page_bytes'] / 1000:.1f} KB) painted | "
            f"{result['static_median_ms']:.0f} | " + ", ".join(f"{v:.0f}" for v in result["static_ms"]) + " |",
            f"| ratio (median of the rounds' ratios) | {result['ratio']:.2f} | |",
            *(f"| a Save that showed no protokoll (not counted) | | {why} |" for why in result["failed"]),
        ]
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    result = run(args.rounds)
    print(json.dumps(result, indent=1))
    print(table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
