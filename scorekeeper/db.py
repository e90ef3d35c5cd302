"""The SQLite connection per request, the schema's migrations and `flask init-db`."""
from __future__ import annotations

import sqlite3
from contextlib import contextmanager

import click
import sqlite_utils
from flask import current_app, g
from flask.cli import with_appcontext

migrations = sqlite_utils.Migrations("scorekeeper")


@migrations()
def m001_games_and_hands(db):
    db.execute("""
        CREATE TABLE games (
            id TEXT PRIMARY KEY,
            variant TEXT NOT NULL,
            title TEXT,
            players TEXT NOT NULL,
            dealer INTEGER NOT NULL,
            options TEXT NOT NULL,
            edit_key_hash TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 0
        )""")
    db.execute("""
        CREATE TABLE hands (
            id INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            input TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        )""")
    db.execute("CREATE INDEX hands_game ON hands(game_id, id)")


def connect(path: str) -> sqlite_utils.Database:
    """A connection with foreign keys on, WAL, and a busy timeout for concurrent phones."""
    conn = sqlite3.connect(path, timeout=10, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA busy_timeout=10000")
    if path != ":memory:":
        db.enable_wal()
    return db


def migrate(path: str) -> list[str]:
    """Create or upgrade the schema; answer the names of the migrations applied."""
    db = connect(path)
    try:
        pending = [m.name for m in migrations.pending(db)]
        migrations.apply(db)
        return pending
    finally:
        db.conn.close()


@contextmanager
def writing(db: sqlite_utils.Database):
    """One write transaction that takes the write lock at once (BEGIN IMMEDIATE), so two phones queue instead of deadlocking."""
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        with db.atomic():
            yield db
    except BaseException:
        db.rollback()
        raise
    db.commit()


def get_db() -> sqlite_utils.Database:
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(exc=None):
    db = g.pop("db", None)
    if db is not None:
        db.conn.close()


@click.command("init-db")
@with_appcontext
def init_db_command():
    """Create the database or bring its schema up to date."""
    applied = migrate(current_app.config["DATABASE"])
    click.echo(f"Database {current_app.config['DATABASE']}: " + (
        "applied " + ", ".join(applied) if applied else "schema up to date"))


def init_app(app):
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
