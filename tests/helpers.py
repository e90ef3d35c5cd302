"""What the tests share: players, a dump of the database file, a small API client, the browser's settings, the hidden
fields of a form (and the whole of it: the conformance kit's form_data), a club's season, and the app under gunicorn
in a subprocess. Fixtures live in conftest.py."""

import contextlib
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest

from scorekeeper.server import guard, health, live_door
from scorekeeper.testing.kit import form_data  # a page's whole form, as the kit reads it: the tests' too
from variants import EXAMPLES

ROOT = Path(__file__).resolve().parent.parent

# Hypothesis runs the `dev` profile unless HYPOTHESIS_PROFILE says `ci` (make test does): a quick loop at the desk,
# the full count in CI. Tests that set their own number of examples ask examples(n) for it.
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")


def examples(n: int) -> int:
    """n examples under the ci profile; a twentieth of them (at least 5) under dev."""
    return n if PROFILE == "ci" else max(5, n // 20)


# Each variant's example players (tests/variants/<name>.py).
PLAYERS = {name: list(example.PLAYERS) for name, example in EXAMPLES.items()}


# What the database counts by itself with every write, stored data of none: the live door's versions (migration m170),
# which move when a row is written and written back as it was. dump(…, counters=True) reads them too.
COUNTERS = {"live_versions"}


def dump(db_path, counters: bool = False):
    """Every table's rows, read straight from the file: compared before and after a refused request."""
    conn = sqlite3.connect(db_path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        tables = [t for t in tables if counters or t not in COUNTERS]
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in tables}
    finally:
        conn.close()


# ------------------------------------------------------------------ the scorer tests' helpers


def points(protokoll):
    """Each hand's points, as lists."""
    return [list(h.points) for h in protokoll.hands]


def refused(setup, inputs, field, *, parts=False):
    """The hands are refused with an error naming `field` (with `parts`, or one of its parts, e.g. revoke.side)."""
    from scorekeeper.core import InputError, play

    with pytest.raises(InputError) as exc:
        play(setup, inputs)
    keys = exc.value.errors
    assert field in keys or (parts and any(k.startswith(field + ".") for k in keys)), keys
    return exc.value


class Api:
    """A small client of the JSON API for tests."""

    def __init__(self, client):
        self.client = client

    def create(self, variant, players=None, **extra):
        body = {"variant": variant, "players": players or PLAYERS[variant], **extra}
        r = self.client.post("/api/games", json=body)
        assert r.status_code == 201, r.json
        return r.json

    def hand(self, game, data, status=201):
        r = self.client.post(f"/api/games/{game['id']}/hands", json=data, headers={"X-Edit-Key": game["edit_key"]})
        assert r.status_code == status, r.json
        return r.json

    def get(self, game):
        r = self.client.get(f"/api/games/{game['id']}")
        assert r.status_code == 200
        return r.json


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
PHONE = {"width": 390, "height": 844}


ARTIFACTS = ROOT / "test-artifacts"


def artifact(name: str) -> Path:
    """Where a test leaves a file for eyes (`test-artifacts/NAME`), the folder made here: nothing else makes it, and a
    test may be the first of a run, alone, on any worker."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name


# ------------------------------------------------------------------ PDFs read back (poppler-utils)


def pdftotext(data: bytes, tmp_path, *args) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    return subprocess.run(
        ["pdftotext", "-layout", *args, str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def pdfinfo(data: bytes, tmp_path) -> dict:
    path = tmp_path / "info.pdf"
    path.write_bytes(data)
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return dict(line.split(":", 1) for line in out.splitlines() if ":" in line)


def raw_pages(data: bytes, tmp_path) -> list[str]:
    """A PDF's text page by page, in the order it was drawn (pdftotext -raw)."""
    path = tmp_path / "pages.pdf"
    path.write_bytes(data)
    pages = int(pdfinfo(data, tmp_path)["Pages"])
    return [
        subprocess.run(
            ["pdftotext", "-raw", "-f", str(n), "-l", str(n), str(path), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for n in range(1, pages + 1)
    ]


def words_off_the_page(data: bytes, tmp_path, margin=28) -> list[str]:
    """Words that come closer than `margin` points (about 10 mm) to a side of the sheet, or past its foot."""
    path = tmp_path / "bbox.pdf"
    path.write_bytes(data)
    html = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True).stdout
    outside = []
    for page in re.findall(r"<page (.*?)</page>", html, re.S):
        width = float(re.search(r'width="([\d.]+)"', page)[1])
        height = float(re.search(r'height="([\d.]+)"', page)[1])
        for x0, _y0, x1, y1, word in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', page
        ):
            if float(x0) < margin or float(x1) > width - margin or float(y1) > height - 10:
                outside.append(word)
    return outside


def fields(html: str) -> dict:
    """The hidden fields of the first form on a page (csrf_token, number, version, token)."""
    out = {}
    for name in ("csrf_token", "number", "version", "token"):
        m = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html) or re.search(
            rf'<input[^>]*value="([^"]*)"[^>]*name="{name}"', html
        )
        if m:
            out[name] = m.group(1)
    return out


def start(client, variant, players=None, **options):
    """A game started through the new-game page: its whole form as a browser sends it, with the players filled in and
    the options given (`name="y"` ticks a box, `name=""` or False clears it; a dotted name is a field of an option's
    editor, such as the Danish tariff card's `card.cell.8.0`)."""
    page = client.get(f"/new/{variant}")
    assert page.status_code == 200
    data = {**form_data(page.get_data(as_text=True)), "dealer": "0"}
    for i, name in enumerate(players or PLAYERS[variant]):
        data[f"player{i}"] = name
    for name, value in options.items():
        field = name if "." in name else f"opt_{name}"  # a dotted name is an option editor's field (card.cell.8.0)
        if value in ("", False, None) and data.get(field) in ("y", "on"):
            del data[field]  # an unticked box is not sent
        else:
            data[field] = value
    r = client.post(f"/new/{variant}", data=data)
    assert r.status_code == 302, r.get_data(as_text=True)
    return r.headers["Location"].rsplit("/", 1)[-1]


def post_hand(client, game_id, data, number=None, expect=302):
    url = f"/g/{game_id}/hands/new" if number is None else f"/g/{game_id}/hands/{number}"
    page = client.get(url)
    assert page.status_code == 200
    r = client.post(url, data={**fields(page.get_data(as_text=True)), **data})
    assert r.status_code == expect, r.get_data(as_text=True)[:2000]
    return r


# ------------------------------------------------------------------ a club's season

PASSWORD = "kløver-es-42"
MEMBERS = ["Anna", "Bo", "Carl", "Dina", "Eva", "Finn", "Gro", "Hans", "Ida"]
RATE_CENTS = 5  # 0.05 DKK a point: 5 øre

# Each evening: date, fee, how it settles, and its tables: (variant, members in seat order, hands).
# Each hand: what the table entered, and the points it gives, worked out by hand from the standard tariff
# (7…13: 10, 20, 40, 80, 160, 320, 640; sol 50, ren sol 100, bordlægger 150).
SEASON = [
    (
        "2026-01-08",
        "5",
        "pairwise",
        [
            (
                "danish",
                ["Anna", "Bo", "Carl", "Dina"],
                [
                    (
                        {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 10},
                        {"Anna": 60, "Bo": -60, "Carl": 60, "Dina": -60},
                    ),  # 20 + 2 × 20
                    ({"bidder": 1, "bid": "sol", "tricks": 1}, {"Anna": -50, "Bo": 150, "Carl": -50, "Dina": -50}),
                    ({"passed": True}, {}),
                    (
                        {"bidder": 3, "bid": 9, "suffix": "gode", "partner": 1, "tricks": 8},
                        {"Anna": 160, "Bo": -160, "Carl": 160, "Dina": -160},
                    ),  # lost: 2 × 40, gode doubles
                ],
            ),
            (
                "danish",
                ["Eva", "Finn", "Gro", "Hans", "Ida"],
                [  # five: the dealer sits out
                    (
                        {"bidder": 1, "bid": 7, "suffix": "plain", "trump": "hearts", "partner": 3, "tricks": 9},
                        {"Eva": 0, "Finn": 30, "Gro": -30, "Hans": 30, "Ida": -30},
                    ),  # Eva deals: 10 × 3
                    (
                        {"bidder": 2, "bid": 8, "suffix": "plain", "trump": "clubs", "partner": 2, "tricks": 8},
                        {"Eva": -20, "Finn": 0, "Gro": 60, "Hans": -20, "Ida": -20},
                    ),  # Finn deals; selvmakker
                    (
                        {"bidder": 4, "bid": "ren_sol", "tricks": 0},
                        {"Eva": -100, "Finn": -100, "Gro": 0, "Hans": -100, "Ida": 300},
                    ),  # Gro deals
                ],
            ),
        ],
    ),
    (
        "2026-01-15",
        "10.00",
        "kitty",
        [
            (
                "danish",
                ["Anna", "Eva", "Bo", "Finn"],
                [
                    (
                        {"bidder": 1, "bid": 10, "suffix": "plain", "trump": "hearts", "partner": 3, "tricks": 10},
                        {"Anna": -80, "Eva": 80, "Bo": -80, "Finn": 80},
                    ),
                    (
                        {"bidder": 0, "bid": 7, "suffix": "sans", "partner": 2, "tricks": 7},
                        {"Anna": 20, "Eva": -20, "Bo": 20, "Finn": -20},
                    ),  # sans doubles 10
                ],
            ),
            (
                "danish",
                ["Carl", "Dina", "Gro", "Hans"],
                [
                    (
                        {"bidder": 0, "bid": "bordlaegger", "tricks": 2},
                        {"Carl": -900, "Dina": 300, "Gro": 300, "Hans": 300},
                    ),  # lost: 2 × 150 to each
                    (
                        {"bidder": 3, "bid": 8, "suffix": "vip", "trump": "none", "partner": 2, "tricks": 9},
                        {"Carl": -80, "Dina": -80, "Gro": 80, "Hans": 80},
                    ),  # (20 + 20) × 2
                ],
            ),
            (
                "classic",
                ["Ida", "Anna", "Carl", "Eva"],
                [  # Ida & Carl against Anna & Eva
                    ({"trump": "hearts", "tricks": [8, 5]}, {"Ida": 2, "Carl": 2}),
                    ({"trump": "spades", "tricks": [4, 9]}, {"Anna": 3, "Eva": 3}),
                    ({"trump": "diamonds", "tricks": [10, 3]}, {"Ida": 4, "Carl": 4}),  # 6: Ida & Carl win the game
                ],
            ),
        ],
    ),
    (
        "2026-01-22",
        "",
        "pairwise",
        [
            (
                "danish",
                ["Anna", "Bo", "Carl", "Dina"],
                [
                    (
                        {"bidder": 3, "bid": 11, "suffix": "plain", "trump": "spades", "partner": 0, "tricks": 11},
                        {"Anna": 160, "Bo": -160, "Carl": -160, "Dina": 160},
                    ),
                ],
            ),
            (
                "danish",
                ["Eva", "Finn", "Gro", "Ida"],
                [
                    (
                        {"bidder": 3, "bid": 7, "suffix": "halve", "trump": "diamonds", "partner": 0, "tricks": 5},
                        {"Eva": -40, "Finn": 40, "Gro": 40, "Ida": -40},
                    ),  # lost: 2 × 10, halve doubles
                ],
            ),
            (
                "danish",
                ["Anna", "Eva", "Finn", "Bo"],
                [  # a second round for four of them
                    (
                        {"bidder": 2, "bid": 9, "suffix": "plain", "trump": "clubs", "partner": 3, "tricks": 12},
                        {"Anna": -160, "Eva": -160, "Finn": 160, "Bo": 160},
                    ),  # 40 × 4
                ],
            ),
        ],
    ),
]
CLASSIC_WINNERS = {"Ida", "Carl"}


def token(client, url):
    html = client.get(url).get_data(as_text=True)
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def log_in(client, club_id, password=PASSWORD):
    return client.post(
        f"/c/{club_id}/login", data={"csrf_token": token(client, f"/c/{club_id}/login"), "password": password}
    )


# ------------------------------------------------------------------ the app under gunicorn, in its own process group


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(tmp_path, **settings):
    """The app as the README's run command serves it (`python -m scorekeeper.server.serve`, waitress) on 127.0.0.1 and
    a free port, with `settings` as SCOREKEEPER_ variables: (base URL, port) once /healthz answers; stopped after."""
    port = free_port()
    env = {
        "SCOREKEEPER_DATABASE": str(tmp_path / "served.sqlite"),
        "SCOREKEEPER_SECRET_KEY": "x",
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": os.environ.get("PYTHONPATH", str(ROOT)),
        **{f"SCOREKEEPER_{name}": value for name, value in settings.items()},
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.server.serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/healthz", timeout=2).read()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "the server did not start"
                time.sleep(0.2)
        yield base, port
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


class Server:
    """gunicorn (2 workers × 4 threads) in its own process group, so that SIGKILL takes master and workers at once."""

    def __init__(self, db_path, log_path, extra=()):
        self.db_path, self.log_path, self.extra = str(db_path), str(log_path), list(extra)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = None

    def start(self, timeout=60):
        env = {
            **os.environ,
            "SCOREKEEPER_DATABASE": self.db_path,
            "SCOREKEEPER_SECRET_KEY": "reliability",
            "PYTHONPATH": str(ROOT),
            "SCOREKEEPER_MAX_HANDS": "1000000",
            # every phone here is 127.0.0.1 and reads as fast as it is answered: a real address reads a few a second
            "SCOREKEEPER_READS_PER_SECOND": "null",
        }  # the writers enter hands as fast as they can, past 500 a game
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "--workers",
                    "2",
                    "--threads",
                    "4",
                    "--worker-class",
                    "gthread",
                    "--bind",
                    f"127.0.0.1:{self.port}",
                    "--graceful-timeout",
                    "2",
                    *self.extra,
                    "scorekeeper:create_app()",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, Path(self.log_path).read_text()[-3000:]
            try:
                urllib.request.urlopen(self.url + "/api/games/none", timeout=1)
            except urllib.error.HTTPError as exc:
                if exc.code == 404:
                    return self
            except OSError:
                pass
            time.sleep(0.05)
        raise AssertionError("the server did not start:\n" + Path(self.log_path).read_text()[-3000:])

    def kill(self):
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def call(url, method="GET", body=None, headers=None, timeout=30):
    """(status, JSON answer) of one request; connection errors raise OSError."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


@contextlib.contextmanager
def waitress_in_thread(app, **settings):
    """waitress on 127.0.0.1 and a free port, in a thread, as `scorekeeper serve` makes it (server/serve.py's
    create_server); yields the server. Closing a waitress server from another thread can leave its loop one select()
    on a socket just closed: an error then is the shutdown, not a failure."""
    from scorekeeper.server.serve import create_server

    server = create_server(app, host="127.0.0.1", port=0, **settings)
    stopping = threading.Event()

    def run():
        try:
            server.run()
        except (OSError, ValueError):
            if not stopping.is_set():
                raise

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        stopping.set()
        server.close()
        thread.join(5)


# ---------------------------------------------------------------- a print page's text against its PDF's


class _PageText(HTMLParser):
    """The text a print page shows on paper: every text node with a space at each tag, leaving out the head, scripts,
    an SVG's tooltips and whatever is `no-print`; a `dt` gets the ": " print.css adds after it."""

    SKIP = {"head", "title", "script", "style"}
    VOID = {"br", "img", "input", "link", "meta", "col", "hr", "line", "polyline"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.stack: list[tuple[str, bool]] = []

    def skipping(self) -> bool:
        return any(skip for _tag, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        self.stack.append((tag, tag in self.SKIP or "no-print" in classes))
        self.out.append(" ")

    def handle_startendtag(self, tag, attrs):
        self.out.append(" ")

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        while self.stack:
            top, _skip = self.stack.pop()
            if top == "dt" and not self.skipping():
                self.out.append(":")
            if top == tag:
                break
        self.out.append(" ")

    def handle_data(self, data):
        if not self.skipping():
            self.out.append(data)


def paper_words(text: str) -> list[str]:
    """Text as words to compare: whitespace normalised (a line broken after a hyphen joined again, but never an address
    whose random token ends in one: "…/t/1/ikepb9t1jx6amvdig2m-" then "the"), case folded (the variant's name is
    printed in capitals), list bullets left out (markers, as the page's list style draws them)."""
    text = re.sub(
        r"(\S*\w)-\s+(?=\w)",
        lambda m: m.group(0) if "/" in m.group(1) else m.group(1) + "-",
        text.replace("\xa0", " "),
    )
    return [w for w in text.casefold().split() if w != "•"]


def page_words(html: str) -> list[str]:
    parser = _PageText()
    parser.feed(html)
    return paper_words("".join(parser.out))


def pdf_words(data: bytes, tmp_path, title: str, header: list[str] | None = None) -> list[str]:
    """A PDF's words in the order they were drawn (pdftotext -raw), page after page, without what only paper has: each
    page's footer (the title and "n / N") and, after the first page, the table's header row repeated at its top."""
    texts = raw_pages(data, tmp_path)
    pages = len(texts)
    out: list[str] = []
    for number, page in enumerate(texts, 1):
        words = paper_words(page)
        foot = paper_words(f"{title} {number} / {pages}")
        assert words[-len(foot) :] == foot, f"page {number} ends with {words[-len(foot) - 3 :]}, not its footer"
        words = words[: -len(foot)]
        if number > 1 and header and words[: len(header)] == header:
            words = words[len(header) :]
        out += words
    return out


def point_value(text: str):
    """A point as the pages print it (12, −3, ¾, −10¾, 1⁵⁄₁₆: web/i18n.point) read back as an int or a Fraction."""
    from fractions import Fraction

    from scorekeeper.core.numbers import ascii_written

    text = text.strip().replace("\u2212", "-").removeprefix("+")
    text = re.sub(
        r"([0-9]?)([⁰¹²³⁴⁵⁶⁷⁸⁹]+)⁄([₀₁₂₃₄₅₆₇₈₉]+)", lambda m: f"{m[1]}{' ' if m[1] else ''}{m[2]}/{m[3]}", text
    )
    text = text.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹₀₁₂₃₄₅₆₇₈₉", "01234567890123456789"))
    text = ascii_written(text)
    sign = -1 if text.startswith("-") else 1
    whole, _space, part = text.lstrip("-").rpartition(" ") if " " in text else ("", "", text.lstrip("-"))
    value = Fraction(part) + (int(whole) if whole else 0)
    value *= sign
    return int(value) if value.denominator == 1 else value


class SharedApp:
    """One app lent to test after test, each over a database file of its own, as create_app would have made it over
    that file: its configuration, extensions, live door and rate limits as they were made (a test may change them; the
    next one gets them back). Making an app costs some 60 ms of CPU (bench/fixture_cost.py), most of it Werkzeug
    compiling the URL map."""

    def __init__(self, app):
        self.app, self.config, self.extensions = app, dict(app.config), dict(app.extensions)
        door = app.wsgi_app
        self.inner = door.wsgi_app if isinstance(door, live_door.LiveDoor) else None

    def lend(self, db_path: str):
        app = self.app
        app.config.clear()
        app.config.update(self.config, DATABASE=db_path)
        app.extensions.clear()
        app.extensions.update({k: v for k, v in self.extensions.items() if k != health.INTEGRITY})
        health.record(app, [])  # the start's check, as create_app records it
        # The rate limiter is one object for every app of the process (server/guard.py), switched by the last app
        # made: back to this app's setting, and its memory emptied when it counts.
        guard.limiter.enabled = bool(app.config.get("RATELIMIT_ENABLED"))
        if guard.limiter.enabled:
            guard.limiter.reset()
        if self.inner is not None:
            app.wsgi_app = live_door.LiveDoor(self.inner, db_path)
        return app

    def give_back(self) -> None:
        door = self.app.wsgi_app
        if getattr(door, "conn", None) is not None:
            door.conn.close()
