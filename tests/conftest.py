import sqlite3

import pytest

from scorekeeper import create_app

PLAYERS = {
    "classic": ["Anna", "Bo", "Carl", "Dina"],
    "norwegian": ["Ola", "Kari", "Per", "Liv"],
    "danish": ["Anna", "Bo", "Carl", "Dina"],
    "german": ["Anna", "Bo"],
    "swedish": ["Åsa", "Björn", "Örjan", "Märta"],
}


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "scorekeeper.sqlite")


@pytest.fixture
def app(db_path, tmp_path):
    return create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "test"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


def dump(db_path):
    """Every table's rows, read straight from the file: compared before and after a refused request."""
    conn = sqlite3.connect(db_path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
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


@pytest.fixture
def api(client):
    return Api(client)


# ------------------------------------------------------------------ a real browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": PHONE, "device_scale_factor": 2, "is_mobile": True,
            "has_touch": True}


@pytest.fixture
def live_server(tmp_path):
    """The app on 127.0.0.1 in a thread, over a real SQLite file; answers (base_url, db_path)."""
    import threading

    from werkzeug.serving import make_server

    path = str(tmp_path / "live.sqlite")
    app = create_app({"DATABASE": path, "SECRET_KEY": "live", "GC_FREEZE": False})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", path
    server.shutdown()
    thread.join(5)


ARTIFACTS = __import__("pathlib").Path(__file__).resolve().parent.parent / "test-artifacts"
