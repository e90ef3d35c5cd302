#!/usr/bin/env python3
"""What a watching phone costs (issue 27, live pages): a benchmark row, not a test.

A phone that follows the read-only protokoll of a 50-hand Danish game, and a drive table's page that waits at a
100-table drive's last hand, measured in one run two ways: as they were (the page reloaded by its meta refresh: every
20 s the protokoll, every 15 s the table page) and as they are (static/live.js asks the page's /live twin every
web.live.SECONDS with If-None-Match; 304 while nothing changed). For each, against the app under waitress in a process
of its own on 127.0.0.1 (a phone's keep-alive connection with the session cookie it was given): the server process's
CPU per request (/proc, alternating blocks of page loads and polls, the median of the blocks), the bytes of one answer
(status line, headers and body), and so the bytes and CPU a minute of one idle watching phone. The requests' own
bytes are left out (a browser's headers are the same either way).

Usage: python bench/live.py; prints Markdown. bench/run.py runs it too (--only live).
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from procstat import cpu_seconds  # noqa: E402  (bench/procstat.py)

PAGE_HANDS = 50
DRIVE_TABLES, DRIVE_HANDS = 100, 3
RELOAD = {"protokoll": 20, "table": 15}  # the meta refresh's seconds before (templates, drives.views.REFRESH)
TAG = re.compile(r'data-live-tag="([^"]+)"')
LIVE = re.compile(r'data-live-url="([^"]+)"')


class Phone:
    """One phone's keep-alive connection to the server, with the session cookie the server gave it."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookie = ""
        self.etag = ""

    def get(self, path: str, headers: dict | None = None) -> tuple[int, bytes, int]:
        """(status, body, the answer's bytes on the wire: status line, headers and body)."""
        sent = {**(headers or {}), **({"Cookie": self.cookie} if self.cookie else {})}
        self.conn.request("GET", path, headers=sent)
        r = self.conn.getresponse()
        body = r.read()
        self.etag = r.getheader("ETag") or ""
        cookie = r.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        head = f"HTTP/1.1 {r.status} {r.reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in r.getheaders())
        return r.status, body, len(head.encode()) + 2 + len(body)


def serve(db_path: Path, door: bool = True) -> tuple[subprocess.Popen, int]:
    """The app under waitress in a process of its own (as make run serves it), on a free port; `door=False`: with
    LIVE_DOOR off, every poll answered by Flask (as before server/live_door.py)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE": str(db_path),
        "SCOREKEEPER_SECRET_KEY": "bench",
        "SCOREKEEPER_DRIVE_MAX_TABLES": str(DRIVE_TABLES),
        "SCOREKEEPER_LIVE_DOOR": "true" if door else "false",
    }
    proc = subprocess.Popen(  # what make run serves: waitress, its log lines on stderr, the rate limiter on
        [sys.executable, "-m", "scorekeeper.server.serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def a_game(app) -> str:
    from run import game_data  # bench/run.py: the same 50-hand game as its page size

    from scorekeeper.games import service
    from scorekeeper.server.db import get_db

    with app.app_context():
        return service.import_game(get_db(), game_data("danish", PAGE_HANDS, "Thursday at Bo's"))[0]


def a_drive(app) -> tuple[str, str]:
    """A progressive drive of DRIVE_TABLES tables at its last hand, every table in but the last: the address of
    table 1's page, whose result is in (it waits, and used to reload)."""
    client = app.test_client()
    ladies = [f"Lady {i:03d}" for i in range(2 * DRIVE_TABLES)]
    gents = [f"Gent {i:03d}" for i in range(2 * DRIVE_TABLES)]
    r = client.post(
        "/api/drives", json={"format": "progressive", "ladies": ladies, "gents": gents, "hands": DRIVE_HANDS}
    )
    assert r.status_code == 201, r.json
    drive = r.json
    headers = {"X-Edit-Key": drive["edit_key"]}
    for hand in range(1, DRIVE_HANDS + 1):
        for table in range(1, DRIVE_TABLES + 1):
            if hand == DRIVE_HANDS and table == DRIVE_TABLES:
                break
            first = (hand * 5 + table * 3) % 14
            r = client.post(
                f"/api/drives/{drive['id']}/hands/{hand}/tables/{table}",
                json={"tricks": [first, 13 - first]},
                headers=headers,
            )
            assert r.status_code == 201, r.json
    client.get(drive["edit_page"])
    cards = client.get(f"/d/{drive['id']}/cards").get_data(as_text=True)
    return drive["id"], re.search(r'<a href="http://[^/"]+(/d/[^"]+)" data-table="1"', cards).group(1)


def watching(port: int, path: str) -> tuple[Phone, str, dict, int, int]:
    """A phone that opened the page and polls its twin: (phone, the twin's address, its If-None-Match, the page's
    bytes, the poll's bytes)."""
    from html import unescape

    phone = Phone(port)
    status, body, page_bytes = phone.get(path)
    assert status == 200, status
    page = body.decode()
    live = unescape(LIVE.search(page).group(1))
    asked = {"If-None-Match": f'"{TAG.search(page).group(1)}"'}
    status, body, poll_bytes = phone.get(live, asked)
    assert status == 304 and body == b"", (status, body[:200])
    return phone, live, asked, page_bytes, poll_bytes


def measure(kind: str, door: tuple, flask: tuple, path: str, blocks: int, per_block: int) -> dict:
    """The server process's CPU per request, page (reloaded) against poll (304), in alternating blocks of requests
    (the machine's other load falls on all alike): the median of the blocks' per-request figures. `door` and `flask`
    are (process, port) of the app with LIVE_DOOR on (as served) and off (every poll through Flask)."""
    from scorekeeper.web import live as web_live

    proc, port = door
    phone, live, asked, page_bytes, poll_bytes = watching(port, path)
    through, through_live, through_asked, _, _ = watching(flask[1], path)
    status, _body, _n = phone.get("/static/app.css")
    static = {"If-None-Match": phone.etag}
    per: dict[str, list[float]] = {"page": [], "poll": [], "flask": [], "floor": []}
    for _ in range(blocks):
        for what, who, pid, target, headers, expect in (
            ("page", phone, proc.pid, path, None, 200),
            ("poll", phone, proc.pid, live, asked, 304),
            ("flask", through, flask[0].pid, through_live, through_asked, 304),
            ("floor", phone, proc.pid, "/static/app.css", static, 304),
        ):
            n = per_block if what == "page" else per_block * 25  # a poll costs ~1 ms or less: enough /proc ticks
            before = cpu_seconds(pid)
            for _ in range(n):
                assert who.get(target, headers)[0] == expect
            per[what].append((cpu_seconds(pid) - before) * 1000 / n)
    page_cpu, poll_cpu = statistics.median(per["page"]), statistics.median(per["poll"])
    floor_cpu = statistics.median(per["floor"])
    reloads, polls = 60 / RELOAD[kind], 60 / web_live.SECONDS
    return {
        "page_cpu_ms": round(page_cpu, 2),
        "poll_cpu_ms": round(poll_cpu, 3),
        "cpu_ratio": round(poll_cpu / page_cpu, 4),
        "flask_poll_cpu_ms": round(statistics.median(per["flask"]), 3),
        "flask_cpu_ratio": round(statistics.median(per["flask"]) / page_cpu, 4),
        "floor_cpu_ms": round(floor_cpu, 3),
        "page_bytes": page_bytes,
        "poll_bytes": poll_bytes,
        "reload_s": RELOAD[kind],
        "poll_s": web_live.SECONDS,
        "before_bytes_min": round(reloads * page_bytes),
        "now_bytes_min": round(polls * poll_bytes),
        "before_cpu_ms_min": round(reloads * page_cpu, 1),
        "now_cpu_ms_min": round(polls * poll_cpu, 2),
    }


BUSY = (1, 2, 7)  # polls of one phone per commit elsewhere in the file: a 100-table drive's last round (a result every
# 3 s or so: one poll in five seconds sees one), a busy club evening, a quiet one (five tables, a hand each every three
# minutes: a commit every 36 s, seven polls)


def busy(door: tuple, db_path: Path, path: str, blocks: int, per_block: int) -> dict:
    """The door's poll while the rest of the file changes: for each number of polls per commit (BUSY), a commit made
    by another program (another game's title, through a connection of its own: no server CPU) before every so many
    polls, the server's CPU per poll (the median of alternating blocks). Each commit sends the poll after it through
    Flask (which answers 304 from the rows: this game did not change), the polls after that through the door."""
    import sqlite3

    proc, port = door
    phone, live, asked, _, _ = watching(port, path)
    per: dict[int, list[float]] = {k: [] for k in BUSY}
    conn = sqlite3.connect(db_path, isolation_level=None)
    other = conn.execute("SELECT id FROM games WHERE id != ? LIMIT 1", (path.rsplit("/", 1)[1],)).fetchone()
    commits = 0
    for _ in range(blocks):
        for every in BUSY:
            n = per_block * 25
            before = cpu_seconds(proc.pid)
            for k in range(n):
                if k % every == 0:  # a real change (SQLite commits nothing for an update that changes nothing)
                    commits += 1
                    conn.execute("UPDATE games SET title = ? WHERE id = ?", (f"Table {commits}", *other))
                assert phone.get(live, asked)[0] == 304
            per[every].append((cpu_seconds(proc.pid) - before) * 1000 / n)
    conn.close()
    return {str(every): round(statistics.median(v), 3) for every, v in per.items()}


def run(blocks: int = 7) -> dict:
    from scorekeeper import create_app

    load_before = [round(v, 2) for v in os.getloadavg()]
    folder = Path(tempfile.mkdtemp())
    db_path = folder / "live.sqlite"
    app = create_app(
        {
            "DATABASE": str(db_path),
            "SECRET_KEY": "bench",
            "RATELIMIT_ENABLED": False,
            "DRIVE_MAX_TABLES": DRIVE_TABLES,
            "GC_FREEZE": False,
        }
    )
    game_id = a_game(app)
    a_game(app)  # another game, whose row the busy rows change
    _drive_id, table_path = a_drive(app)
    door, flask = serve(db_path), serve(db_path, door=False)
    try:
        result = {
            "protokoll": measure("protokoll", door, flask, f"/g/{game_id}", blocks, 20),
            "table": measure("table", door, flask, table_path, blocks, 10),
            "busy": busy(door, db_path, f"/g/{game_id}", blocks, 20),
        }
    finally:
        for proc, _port in (door, flask):
            proc.terminate()
            proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
    result["load_before"] = load_before
    result["load_after"] = [round(v, 2) for v in os.getloadavg()]
    result["hands"], result["tables"] = PAGE_HANDS, DRIVE_TABLES
    return result


def table(r: dict) -> str:
    rows = [
        "| page | before: reload | server CPU ms | bytes | bytes/min | now: poll (304) | server CPU ms | bytes "
        "| bytes/min | poll ÷ reload (CPU) | the poll through Flask (no door), CPU ms | ÷ reload "
        "| a static file's 304, CPU ms |",
        "|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    names = {
        "protokoll": f"protokoll, {r['hands']} hands, read-only",
        "table": f"drive table page, {r['tables']} tables, its last hand",
    }
    for kind in ("protokoll", "table"):
        m = r[kind]
        rows.append(
            f"| {names[kind]} | every {m['reload_s']} s | {m['page_cpu_ms']:.1f} | {m['page_bytes']} | "
            f"{m['before_bytes_min']} | every {m['poll_s']} s | {m['poll_cpu_ms']:.2f} | {m['poll_bytes']} | "
            f"{m['now_bytes_min']} | {m['cpu_ratio']:.3f} | {m['flask_poll_cpu_ms']:.2f} | {m['flask_cpu_ratio']:.3f} | "
            f"{m['floor_cpu_ms']:.2f} |"
        )
    rows.append("")
    if "busy" in r:
        rows.append("The protokoll's poll while the rest of the file changes (a commit elsewhere every so many polls):")
        rows.append("")
        rows.append("| polls per commit elsewhere | server CPU ms per poll | ÷ page render |")
        rows.append("|---:|---:|---:|")
        page = r["protokoll"]["page_cpu_ms"]
        for every, ms in r["busy"].items():
            rows.append(f"| {every} | {ms:.2f} | {ms / page:.3f} |")
        rows.append("")
    rows.append(f"Load average before {r['load_before']}, after {r['load_after']}.")
    return "\n".join(rows)


def checks(r: dict) -> list[tuple[str, bool, str]]:
    out = []
    for kind in ("protokoll", "table"):
        m = r[kind]
        out.append(
            (f"an idle watching phone ({kind}) ≤ 1 KB per poll", m["poll_bytes"] <= 1024, f"{m['poll_bytes']} B")
        )
        out.append(
            (
                f"CPU per poll ({kind}) ≤ 1/20 of a page render",
                m["cpu_ratio"] <= 0.05,
                f"{m['poll_cpu_ms']:.2f} ms ÷ {m['page_cpu_ms']:.1f} ms = {m['cpu_ratio']:.3f}",
            )
        )
    return out


if __name__ == "__main__":
    result = run()
    print(table(result))
    print()
    for what, ok, value in checks(result):
        print(f"- {'✔' if ok else '✘'} {what}: {value}")
