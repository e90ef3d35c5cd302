"""The SQLite store: schema by migrations, WAL, foreign keys, and inputs kept as entered."""

import json
import sqlite3

import scorekeeper.storage as dbmod
from helpers import dump
from scorekeeper import create_app
from scorekeeper.games import service
from scorekeeper.server import db as web_db
from scorekeeper.storage import store


def test_init_db_creates_then_reports_up_to_date(tmp_path):
    path = str(tmp_path / "new.sqlite")
    app = create_app({"TESTING": True, "DATABASE": path, "MIGRATE_ON_START": False, "SECRET_KEY": "x"})
    runner = app.test_cli_runner()
    result = runner.invoke(args=["init-db"])
    # create_app made the file because it was new; init-db then finds nothing to do.
    assert result.exit_code == 0 and "up to date" in result.output
    tables = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "hands", "_sqlite_migrations"} <= tables


def test_init_db_on_an_empty_file_applies_the_migrations(tmp_path):
    path = str(tmp_path / "empty.sqlite")
    sqlite3.connect(path).close()
    app = create_app({"TESTING": True, "DATABASE": path, "MIGRATE_ON_START": False, "SECRET_KEY": "x"})
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0 and "applied m001_games_and_hands" in result.output


def test_wal_and_foreign_keys(app, db_path):
    with app.app_context():
        db = web_db.get_db()
        assert next(db.query("PRAGMA journal_mode"))["journal_mode"] == "wal"
        assert next(db.query("PRAGMA foreign_keys"))["foreign_keys"] == 1


def test_hands_are_stored_as_entered_and_totals_are_not_stored(app, api, db_path):
    game = api.create("danish")
    api.hand(game, {"bidder": 0, "bid": 8, "trump": "spades", "partner": 2, "tricks": 10})
    conn = sqlite3.connect(db_path)
    columns = [r[1] for r in conn.execute("PRAGMA table_info(hands)")]
    assert "points" not in columns and "totals" not in columns
    stored = json.loads(conn.execute("SELECT input FROM hands").fetchone()[0])
    assert stored == {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 10}


def test_a_fixed_scorer_fixes_old_sheets(app, api, db_path, monkeypatch):
    """Totals are recomputed from the stored inputs on every read."""
    game = api.create("danish")
    api.hand(game, {"bidder": 0, "bid": 8, "trump": "spades", "partner": 2, "tricks": 10})
    conn = sqlite3.connect(db_path)
    options = json.loads(conn.execute("SELECT options FROM games").fetchone()[0])
    options["tariff"] = [1, 2, 4, 8, 16, 32, 64]
    del options["house"]  # the house the tariff built; a game stored before `house` existed has none
    conn.execute("UPDATE games SET options = ?", [json.dumps(options)])
    conn.commit()
    assert api.get(game)["totals"] == [6, -6, 6, -6]


def test_deleting_a_game_row_takes_its_hands(app, api, db_path):
    game = api.create("german")
    api.hand(game, {"tricks": [7, 6]})
    with app.app_context():
        db = web_db.get_db()
        with dbmod.writing(db):
            db.execute("DELETE FROM games WHERE id = ?", [game["id"]])
        assert store.count_hands(db, game["id"]) == 0


def test_a_failed_write_leaves_nothing(app, api, db_path):
    game = api.create("german")
    before = dump(db_path)
    with app.app_context():
        db = web_db.get_db()
        try:
            with dbmod.writing(db):
                store.insert_hand(db, game["id"], {"tricks": [7, 6]})
                raise RuntimeError("power cut")
        except RuntimeError:
            pass
    assert dump(db_path) == before


def test_edit_keys_are_stored_hashed(app, api, db_path):
    game = api.create("german")
    row = sqlite3.connect(db_path).execute("SELECT * FROM games").fetchone()
    assert game["edit_key"] not in json.dumps(row)
    assert service.hash_key(game["edit_key"]) in row


def test_threads_that_end_leave_no_lock_files_open(app, client, api, db_path):
    """Each thread keeps its own connection and lock file (the dev server starts a thread per request); when the
    thread ends its lock file is closed, not left open until the process runs out of file descriptors. (SQLite
    itself keeps a few descriptors of closed connections for reuse while others hold locks: a bounded number.)"""
    import gc
    import os
    import threading

    def lock_files():
        found = 0
        for fd in os.listdir("/proc/self/fd"):
            try:
                found += os.readlink(f"/proc/self/fd/{fd}") == os.path.realpath(db_path) + ".lock"
            except OSError:
                pass
        return found

    game = api.create("danish")
    client.get(f"/api/games/{game['id']}")
    before = lock_files()
    for _ in range(40):
        worker = threading.Thread(target=lambda: client.get(f"/api/games/{game['id']}"))
        worker.start()
        worker.join()
    gc.collect()
    assert lock_files() <= before


def test_any_change_to_the_hands_bumps_the_game_version_in_the_database(app, api, client, db_path):
    """A trigger, not the app, bumps the version: a hand mended with sqlite3 at the file reaches every page at once,
    though the workers keep scored sheets (they are checked against the game's row)."""
    from scorekeeper.core import make_setup, play

    game = api.create("german")
    setup = make_setup("german", game["players"], game["dealer"], game["options"])

    def expected(*tricks):
        return list(play(setup, [{"tricks": list(t)} for t in tricks]).totals)

    for tricks in ([8, 5], [5, 8]):
        api.hand(game, {"tricks": tricks})
    assert api.get(game)["totals"] == expected((8, 5), (5, 8))  # the sheet is now kept
    conn = sqlite3.connect(db_path)
    version = lambda: conn.execute("SELECT version FROM games WHERE id = ?", [game["id"]]).fetchone()[0]  # noqa: E731
    before = version()
    with conn:
        conn.execute("UPDATE hands SET input = '{\"tricks\":[10,3]}' WHERE id = (SELECT max(id) FROM hands)")
    assert version() == before + 1
    assert api.get(game)["totals"] == expected((8, 5), (10, 3))
    with conn:
        conn.execute("DELETE FROM hands WHERE id = (SELECT max(id) FROM hands)")
    assert version() == before + 2
    assert api.get(game)["totals"] == expected((8, 5))
    with conn:
        conn.execute(
            "INSERT INTO hands (game_id, input, created, updated) VALUES (?, '{\"tricks\":[3,10]}', 'x', 'x')",
            [game["id"]],
        )
    assert version() == before + 3
    assert api.get(game)["totals"] == expected((8, 5), (3, 10))
    conn.close()
