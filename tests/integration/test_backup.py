"""Backup while the app writes, and a game exported as JSON and imported again."""

import sqlite3
import threading

import pytest

import scorekeeper.storage as dbmod
from helpers import PLAYERS, dump
from scorekeeper import create_app
from scorekeeper.games import service
from variants import EXAMPLES


def comparable(game):
    return {k: v for k, v in game.items() if k not in ("id", "created", "links", "version", "edit_key", "edit_page")}


@pytest.mark.parametrize("variant", EXAMPLES)
def test_export_then_import_gives_an_identical_game(client, api, variant):
    example = EXAMPLES[variant].GAME
    options, hands = example["options"], example["hands"]
    players = example.get("players") or PLAYERS[variant]
    game = api.create(variant, players=players, dealer=1, title=f"Ærø {variant}", options=options)
    for hand in hands:
        api.hand(game, hand)
    # A history of edits and deletes is not part of the game: the import has the hands as they stand.
    client.delete(f"/api/games/{game['id']}/hands/{len(hands)}", headers={"X-Edit-Key": game["edit_key"]})
    api.hand(game, hands[-1])
    exported = client.get(f"/api/games/{game['id']}/export")
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    assert exported.json["format"] == service.EXPORT_FORMAT
    assert "edit_key" not in exported.get_data(as_text=True) and game["edit_key"] not in exported.get_data(as_text=True)
    r = client.post("/api/games/import", json=exported.json)
    assert r.status_code == 201, r.json
    copy = r.json
    assert copy["id"] != game["id"] and copy["edit_key"] != game["edit_key"]
    assert copy["edit_page"] == f"/g/{copy['id']}/k/{copy['edit_key']}"
    assert r.headers["Location"] == f"/api/games/{copy['id']}"
    original = api.get(game)
    assert comparable(api.get(copy)) == comparable(original)
    assert comparable(copy) == comparable(original)
    assert client.get(f"/api/games/{copy['id']}/export").json == exported.json
    # The copy is a game of its own: its key writes to it, the old key does not.
    assert (
        client.delete(f"/api/games/{copy['id']}/hands/1", headers={"X-Edit-Key": game["edit_key"]}).status_code == 403
    )
    assert [e["action"] for e in client.get(f"/api/games/{copy['id']}/log").json["log"]] == ["added"] * len(hands)


def test_an_export_survives_a_round_trip_through_a_file(client, api, tmp_path):
    game = api.create("german", players=["Åsa", "Örjan"])
    api.hand(game, {"tricks": [9, 4]})
    path = tmp_path / "game.json"
    path.write_bytes(client.get(f"/api/games/{game['id']}/export").data)
    r = client.post("/api/games/import", data=path.read_bytes(), content_type="application/json")
    assert r.status_code == 201 and r.json["players"] == ["Åsa", "Örjan"] and r.json["totals"] == [3, 0]


everything = dump  # every table, read straight from the file


@pytest.mark.parametrize(
    "change,field",
    [
        ({"format": "other/1"}, "format"),
        ({"format": None}, "format"),
        ({"hands": {"tricks": [9, 4]}}, "hands"),
        ({"hands": [{"tricks": [9, 5]}]}, "hands"),
        ({"hands": [{"tricks": [13, 0]}, {"tricks": [13, 0]}]}, "hands"),  # a hand after the game ended
        ({"hands": [{"tricks": [9, 4], "note": "x"}]}, "hands"),
        ({"players": ["Anna"]}, "players"),
        ({"variant": "bridge"}, "variant"),
        ({"options": {"target": 0}}, "options.target"),
        ({"title": "x" * 81}, "title"),
        ({"edit_key": "mine"}, "edit_key"),
        ({"id": "abc"}, "id"),
    ],
)
def test_bad_imports_are_refused_and_store_nothing(client, api, db_path, change, field):
    game = api.create("german")
    api.hand(game, {"tricks": [9, 4]})
    exported = client.get(f"/api/games/{game['id']}/export").json
    before = everything(db_path)
    r = client.post("/api/games/import", json={**exported, **change})
    assert r.status_code == 400 and field in r.json["errors"], r.json
    assert everything(db_path) == before


def test_export_of_an_unknown_game_is_404(client):
    assert client.get("/api/games/nonesuch/export").status_code == 404


# ---------------------------------------------------------------- backup


def check_copy(path):
    """A backup opens, passes integrity_check, and is consistent: every hand with its version bump and log line."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        rows = conn.execute("""SELECT g.version, (SELECT count(*) FROM hands h WHERE h.game_id = g.id),
                                      (SELECT count(*) FROM edits e WHERE e.game_id = g.id) FROM games g""").fetchall()
    finally:
        conn.close()
    assert rows and all(version == hands == edits for version, hands, edits in rows)
    return sum(r[1] for r in rows)


def test_backup_while_writing(app, db_path, tmp_path):
    runner = app.test_cli_runner()
    stop, failures, written = threading.Event(), [], [0]

    def writer():
        db = dbmod.connect(db_path)
        try:
            while not stop.is_set():
                game_id, key = service.start_game(db, {"variant": "danish", "players": PLAYERS["danish"]})
                for _ in range(10):
                    service.add_hand(
                        db, game_id, {"bidder": 0, "bid": 8, "trump": "spades", "partner": 2, "tricks": 9}, key
                    )
                    written[0] += 1
        except Exception as exc:
            failures.append(exc)
        finally:
            dbmod.close(db)

    thread = threading.Thread(target=writer)
    thread.start()
    counts = []
    try:
        for i in range(5):
            while written[0] < 20 * (i + 1) and thread.is_alive():
                threading.Event().wait(0.005)
            target = tmp_path / f"copy{i}.sqlite"
            result = runner.invoke(args=["backup", str(target)])
            assert result.exit_code == 0, result.output
            assert str(target) in result.output
            counts.append(check_copy(target))
    finally:
        stop.set()
        thread.join(30)
    assert not failures, failures[0]
    assert counts == sorted(counts) and counts[0] >= 20
    # The copy is a working database for the app.
    restored = create_app({"TESTING": True, "DATABASE": str(tmp_path / "copy4.sqlite"), "SECRET_KEY": "x"})
    conn = sqlite3.connect(tmp_path / "copy4.sqlite")
    game_id = conn.execute("SELECT id FROM games ORDER BY rowid LIMIT 1").fetchone()[0]  # the first game, complete
    conn.close()
    r = restored.test_client().get(f"/api/games/{game_id}")
    assert r.status_code == 200 and len(r.json["hands"]) == 10


def test_backup_into_a_folder_makes_a_dated_file_and_leaves_nothing_else(app, api, tmp_path):
    api.create("german")
    folder = tmp_path / "backups"
    folder.mkdir()
    result = app.test_cli_runner().invoke(args=["backup", str(folder)])
    assert result.exit_code == 0, result.output
    files = list(folder.iterdir())
    assert len(files) == 1 and files[0].name.startswith("scorekeeper-") and files[0].suffix == ".sqlite"
    conn = sqlite3.connect(files[0])
    assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 1
    conn.close()


def test_backup_replaces_an_older_copy(app, api, tmp_path):
    target = tmp_path / "copy.sqlite"
    runner = app.test_cli_runner()
    api.create("german")
    assert runner.invoke(args=["backup", str(target)]).exit_code == 0
    api.create("german")
    assert runner.invoke(args=["backup", str(target)]).exit_code == 0
    conn = sqlite3.connect(target)
    assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 2
    conn.close()


def test_backup_to_a_missing_folder_fails_cleanly(app, tmp_path):
    result = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "no" / "such" / "copy.sqlite")])
    assert result.exit_code != 0 and "Error" in result.output


@pytest.mark.needs_program
def test_flask_backup_command_line(api, db_path, tmp_path):
    """The command as documented: `flask --app scorekeeper backup PATH`."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    api.create("german")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "SCOREKEEPER_DATABASE": db_path, "SCOREKEEPER_SECRET_KEY": "x", "PYTHONPATH": str(root)}
    target = tmp_path / "cli.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "backup", str(target)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert check_copy(target) == 0


def test_restore_puts_a_backup_back_and_refuses_what_is_not_one(app, api, client, db_path, tmp_path):
    runner = app.test_cli_runner()
    game = api.create("german")
    api.hand(game, {"tricks": [8, 5]})
    saved = tmp_path / "saved.sqlite"
    assert runner.invoke(args=["backup", str(saved)]).exit_code == 0
    kept = dump(db_path, counters=True)
    api.hand(game, {"tricks": [5, 8]})  # a hand entered after the backup, then regretted
    other = api.create("danish")

    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("hands on paper")
    before = dump(db_path)
    result = runner.invoke(args=["restore", "--yes", str(not_a_db)])
    assert result.exit_code != 0 and "not an SQLite database" in result.output
    stranger = tmp_path / "stranger.sqlite"
    sqlite3.connect(stranger).execute("CREATE TABLE t (x)").connection.commit()
    result = runner.invoke(args=["restore", "--yes", str(stranger)])
    assert result.exit_code != 0 and "not a scorekeeper database" in result.output
    result = runner.invoke(args=["restore", str(saved)], input="n\n")  # asks first; no means no
    assert result.exit_code != 0 and dump(db_path) == before

    result = runner.invoke(args=["restore", "--yes", str(saved)])
    assert result.exit_code == 0, result.output
    restored = dump(db_path, counters=True)
    # the one row a restore adds: a new epoch for the live door (server/live_door.py), so no kept poll outlives it
    kept_scopes = {row[0] for row in kept["live_versions"]}
    assert [row[0] for row in restored["live_versions"] if row[0] not in kept_scopes] == ["epoch"]
    assert {**restored, "live_versions": [r for r in restored["live_versions"] if r[0] != "epoch"]} == kept
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    # The kept sheets were made at later versions than the restored rows: none of them is used again.
    assert len(api.get(game)["hands"]) == 1
    assert client.get(f"/api/games/{other['id']}").status_code == 404
    api.hand(game, {"tricks": [7, 6]})  # and the restored database takes hands again
    assert len(api.get(game)["hands"]) == 2
