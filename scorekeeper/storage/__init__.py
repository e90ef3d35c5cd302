"""Storage: the SQLite file through sqlite-utils 4. `store` is the only module that knows the tables; `connection`,
`writes` and `migrations` are how it is opened, written and shaped; `backup` copies it; `health` says whether the file
is sound and the disk has room."""

from __future__ import annotations

from scorekeeper.storage.connection import Database, close, connect, file_of
from scorekeeper.storage.health import (
    Damaged,
    Unusable,
    Unwritable,
    check,
    ensure_sound,
    ensure_writable,
    full,
    test_write,
    trouble,
)
from scorekeeper.storage.migrations import migrations
from scorekeeper.storage.writes import probe, reading, writing

__all__ = [
    "Damaged",
    "Database",
    "check",
    "close",
    "connect",
    "ensure_sound",
    "ensure_writable",
    "file_of",
    "full",
    "migrate",
    "migrations",
    "probe",
    "reading",
    "test_write",
    "trouble",
    "Unusable",
    "Unwritable",
    "writing",
]


def migrate(path: str, *, checkpoints: bool = True) -> list[str]:
    """Check the folder (one that cannot be written raises Unwritable) and the file (PRAGMA quick_check: a damaged one
    raises Damaged), then create or upgrade the schema; answer the names of the migrations applied."""
    ensure_writable(path)
    ensure_sound(path)
    db = connect(path, checkpoints=checkpoints)
    try:
        with writing(db):  # one process at a time: workers starting together must not both apply a migration
            pending = [m.name for m in migrations.pending(db)]
            migrations.apply(db)
        return pending
    finally:
        close(db)
