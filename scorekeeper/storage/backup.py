"""Backups while the app runs, and putting one back (SQLite's online backup API, under the writers' lock)."""

from __future__ import annotations

import os
import secrets
import sqlite3
from datetime import datetime
from pathlib import Path

from scorekeeper.storage import migrate
from scorekeeper.storage.connection import close, connect
from scorekeeper.storage.writes import flush, queued, writing

# A new epoch for the live versions (a restore's: server/live_door.py, server/live_tags.py, every page's tag).
EPOCH = (
    "INSERT INTO live_versions (scope, version) VALUES ('epoch', abs(random()))"
    " ON CONFLICT (scope) DO UPDATE SET version = excluded.version"
)


def backup(source: str, target: str) -> Path:
    """A consistent copy of a live database by SQLite's online backup API, written beside the target and renamed into place."""
    if not os.path.isfile(source):
        raise RuntimeError(f"there is no database at {source}")
    path = Path(target)
    if path.is_dir():
        path = path / f"scorekeeper-{datetime.now().strftime('%Y%m%d-%H%M%S')}.sqlite"
    partial = path.with_name(f".{path.name}.{secrets.token_hex(4)}.partial")
    try:
        src = sqlite3.connect(source, timeout=10)
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # all pages in one step: one snapshot, while writers go on (WAL)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            check = dst.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            dst.close()
            src.close()
        if check != "ok":
            raise RuntimeError(f"the copy failed its integrity check: {check}")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def restore(source: str, target: str) -> list[str]:
    """Put a backup made by `backup` back as the database at `target`; answers the migrations it then needed.

    The backup is checked first (a whole SQLite file of scorekeeper's that passes its integrity check) and left as it
    is. It is copied in by SQLite's backup API under the writers' lock file and SQLite's write lock, so the database
    is never half old, half restored, and the WAL and shared-memory files stay right (nothing to delete by hand). A
    backup from an older version of the app is then brought up to the current schema.
    """
    if not os.path.isfile(source):
        raise RuntimeError(f"there is no backup at {source}")
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        try:
            check = src.execute("PRAGMA integrity_check").fetchone()[0]
            tables = {r[0] for r in src.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise RuntimeError(f"{source} is not an SQLite database: {exc}") from None
        if check != "ok":
            raise RuntimeError(f"the backup failed its integrity check: {check}")
        if not {"games", "hands", "_sqlite_migrations"} <= tables:
            raise RuntimeError(f"{source} is not a scorekeeper database")
        db = connect(target)
        try:
            with queued(db):  # the app's writers queue behind the lock file while the pages go in
                src.backup(db.conn)  # takes SQLite's own locks on the database; one step, all pages
                db.conn.execute("PRAGMA journal_mode=WAL")  # the backup's DELETE journal mode came in with its pages
                if "live_versions" in tables:  # at once, not after the migrations: the backup's epoch may be today's
                    db.conn.execute(EPOCH)
                    db.conn.commit()
                flush(db)
        finally:
            close(db)
    finally:
        src.close()
    applied = migrate(target)
    new_epoch(target)
    return applied


def new_epoch(target: str) -> None:
    """A new `epoch` in the live versions (server/live_door.py): a backup put back may hold the versions a watching
    phone's page was kept at over other rows, so every kept poll goes to Flask once, every page's tag and kept sheet
    is another, and the LIVE_TAGS folder is emptied (issue 43). Made as the pages go in, and again after the
    migrations (a backup from before the live versions had none)."""
    db = connect(target)
    try:
        with writing(db):
            db.execute(EPOCH)
    finally:
        close(db)
