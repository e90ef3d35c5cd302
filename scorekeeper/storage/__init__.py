"""Storage: the SQLite file through sqlite-utils 4. `store` is the only module that knows the tables; `connection`,
`writes` and `migrations` are how it is opened, written and shaped; `backup` copies it."""

from __future__ import annotations

from scorekeeper.storage.connection import Database, close, connect, file_of
from scorekeeper.storage.migrations import migrations
from scorekeeper.storage.writes import probe, reading, writing

__all__ = ["Database", "close", "connect", "file_of", "migrate", "migrations", "probe", "reading", "writing"]


def migrate(path: str, *, checkpoints: bool = True) -> list[str]:
    """Create or upgrade the schema; answer the names of the migrations applied."""
    db = connect(path, checkpoints=checkpoints)
    try:
        with writing(db):  # one process at a time: workers starting together must not both apply a migration
            pending = [m.name for m in migrations.pending(db)]
            migrations.apply(db)
        return pending
    finally:
        close(db)
