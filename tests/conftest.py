"""The fixtures every test may ask for: an app over a fresh SQLite file, its client, a small API client, a browser
at a phone's size, the app served on 127.0.0.1, and a club's season. Plain helpers are in helpers.py."""

import os
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from helpers import CHROMIUM, CHROMIUM_ARGS, MEMBERS, PASSWORD, PHONE, PROFILE, SEASON, Api, SharedApp
from scorekeeper import create_app
from scorekeeper.clubs import service as club_service
from scorekeeper.games import service
from scorekeeper.server import db as web_db
from scorekeeper.storage import close, connect, migrate

# `dev` (the default): few examples and no example database between runs, for a quick loop; `ci` (make test): the
# full count. helpers.examples(n) scales the tests that set their own count.
settings.register_profile("ci", max_examples=100)
settings.register_profile("dev", max_examples=10)
settings.load_profile(PROFILE)

# A program a test starts (`python -m scorekeeper serve`, the PDF renderer) imports this checkout, whichever checkout
# the environment was installed from (a worktree, a second clone sharing one venv).
CHECKOUT = str(Path(__file__).resolve().parents[1])
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (CHECKOUT, os.environ.get("PYTHONPATH", "")) if p)


@pytest.fixture(scope="session")
def migrated_db(tmp_path_factory):
    """A database file migrated once per session (per xdist worker): the tests copy it rather than each migrating a new
    file through every migration. The migrations' own tests start from files of their own."""
    path = tmp_path_factory.mktemp("migrated") / "scorekeeper.sqlite"
    migrate(str(path))
    return path


def migrated_copy(migrated_db, path) -> str:
    """A copy of the migrated database at `path` (the file alone: migrate() closed it, so no WAL is left)."""
    shutil.copyfile(migrated_db, path)
    return str(path)


@pytest.fixture
def db_path(tmp_path, migrated_db):
    """A fresh database with the schema as create_app leaves it: a copy of the migrated one."""
    return migrated_copy(migrated_db, tmp_path / "scorekeeper.sqlite")


@pytest.fixture(scope="session")
def shared_app(tmp_path_factory, migrated_db):
    """One app per session (per xdist worker), lent to each test over a database file of its own (`app`): making an app
    costs some 60 ms of CPU, most of it Werkzeug compiling the URL map, which was most of an in-process test's time."""
    path = migrated_copy(migrated_db, tmp_path_factory.mktemp("shared") / "scorekeeper.sqlite")
    return SharedApp(create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "test"}))


@pytest.fixture
def app(db_path, shared_app):
    """The app over a fresh database file, as create_app would have made it (helpers.SharedApp)."""
    yield shared_app.lend(db_path)
    shared_app.give_back()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def api(client):
    return Api(client)


# ------------------------------------------------------------------ a real browser


@pytest.fixture(scope="session")
def base_url():
    """None: the browser tests serve the app themselves (live_server). pytest-playwright's own fallback fixture is an
    instance method, which pytest 9 warns about in every run."""
    return None


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": PHONE, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.fixture
def live_server(tmp_path, migrated_db):
    """The app on 127.0.0.1 in a thread, over a real SQLite file; answers (base_url, db_path)."""
    import threading

    from werkzeug.serving import make_server

    path = migrated_copy(migrated_db, tmp_path / "live.sqlite")
    # Every page and phone of a test is 127.0.0.1: many phones, not one reading as fast as a browser is answered.
    app = create_app({"DATABASE": path, "SECRET_KEY": "live", "GC_FREEZE": False, "READS_PER_SECOND": None})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", path
    server.shutdown()
    thread.join(5)


# ------------------------------------------------------------------ a club's season (clubs, pages, languages)


@pytest.fixture
def statements(monkeypatch):
    """Every SQL statement the app's connections run (sqlite3's trace callback on the real file): a function that
    answers those since it was last called."""
    seen: list[str] = []
    connect_traced = web_db.connect

    def tracing(path, **options):
        db = connect_traced(path, **options)
        db.conn.set_trace_callback(seen.append)
        return db

    monkeypatch.setattr(web_db, "connect", tracing)

    def read():
        out = list(seen)
        seen.clear()
        return out

    return read


@pytest.fixture
def db(app, db_path):
    conn = connect(db_path)
    yield conn
    close(conn)


@pytest.fixture
def season(db):
    """The club, its 9 members and three evenings, entered through the services as the pages do it."""
    club_id = club_service.create_club(
        db,
        {
            "name": "Kløverklubben",
            "currency": "DKK",
            "variant": "danish",
            "options": {"rate": "0.05"},
            "password": PASSWORD,
        },
    )
    ids = {name: club_service.add_member(db, club_id, name) for name in MEMBERS}
    evenings, keys = [], {}
    for n, (date, fee, settlement, tables) in enumerate(SEASON):
        if n == 1:
            club_service.rename_member(db, club_id, ids["Bo"], "Bo Jensen")
        if n == 2:
            club_service.set_retired(db, club_id, ids["Hans"], True)
        evening_id = club_service.create_evening(db, club_id, date, fee, settlement)
        for t, (variant, names, hands) in enumerate(tables):
            game_id, key, _ = club_service.add_table(db, club_id, evening_id, [ids[m] for m in names], 0, variant)
            keys[n, t] = game_id, key
            for inp, pts in hands:
                scored = service.add_hand(db, game_id, inp, key)
                sides = service.load(db, game_id).protokoll.sides
                got = {names[seat]: scored.points[s] for s, seats in enumerate(sides) for seat in seats}
                assert {k: v for k, v in got.items() if v} == {k: v for k, v in pts.items() if v}, (date, inp)
        evenings.append(evening_id)
    return {"club": club_id, "ids": ids, "names": {v: k for k, v in ids.items()}, "evenings": evenings, "keys": keys}


@pytest.hookimpl(tryfirst=True)  # before -m deselects
def pytest_collection_modifyitems(items):
    """A test that takes Playwright's page, context or browser drives Chromium: marked browser, whatever its file says
    (tests/browser/test_layout.py once said nothing, and `make quick` started Chromium)."""
    for item in items:
        if {"page", "context", "browser"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


# ------------------------------------------------------------------ programs outside Python: the needs_program marker

# Every program started while a test runs (sys.audit's "subprocess.Popen" event, whoever starts it): a test that starts
# one must be marked needs_program (or browser), so that `make quick` (-m "not needs_program") runs none. The app's own
# PDF renderer (scorekeeper.server.pdf) is part of the app under test, not a program of its own.
STARTED: list[str] = []
OWN_PROCESSES = ("scorekeeper.server.pdf",)
STARTED_BEFORE = pytest.StashKey[int]()


def _audit(event: str, args: tuple) -> None:
    if event == "subprocess.Popen":
        argv = [args[1]] if isinstance(args[1], (str, bytes)) else list(args[1] or [])
        command = " ".join(map(str, argv or [args[0]]))
        if not any(own in command for own in OWN_PROCESSES):
            STARTED.append(command.replace(sys.executable, "python"))
    elif event == "os.system":
        STARTED.append(str(args[0]))


sys.addaudithook(_audit)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    item.stash[STARTED_BEFORE] = len(STARTED)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    started = STARTED[item.stash.get(STARTED_BEFORE, len(STARTED)) :]
    marked = item.get_closest_marker("needs_program") or item.get_closest_marker("browser")
    if call.when == "teardown" and report.passed and started and not marked:
        report.outcome = "failed"
        report.longrepr = f"started {started[0][:200]!r} but is not marked needs_program (pyproject.toml's markers)"
    return report
