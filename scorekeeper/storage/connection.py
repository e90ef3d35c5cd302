"""A connection to the SQLite file: foreign keys on, WAL, the busy timeout, and the writers' lock file beside it."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from datetime import UTC, datetime

import sqlite_utils

try:
    import fcntl
except ImportError:  # Windows: writers then wait in SQLite's busy handler, and SQLite flushes each commit
    FLOCK = False
else:
    FLOCK = True
GROUP_FLUSH = FLOCK  # writing() flushes the WAL after the commit, outside the lock (see connect)


class LockFile:
    """The writers' lock file (flock), open as long as its connection: closed with it, or when the connection is
    dropped without close() (a server thread that ends), quietly, so no descriptor leaks."""

    __slots__ = ("fd",)

    def __init__(self, path: str):
        self.fd = -1  # closed, if the open below fails (a read-only folder): __del__ still runs
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)

    def fileno(self) -> int:
        return self.fd

    def hold(self) -> None:
        """Wait for the lock and take it (flock, exclusive)."""
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def release(self) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    __del__ = close


class Database(sqlite_utils.Database):
    """sqlite-utils' Database, with what this app's writes need to know of its file."""

    file: str | None = None  # the database file's real path (None in memory): what kept sheets are kept under
    lock: LockFile | None = None  # the writers' lock file (see writes.writing), None where there is no fcntl or no file
    wal_inode: int | None = None  # the WAL file this connection last flushed (see writes.flush)
    clock: Callable[[], datetime] = staticmethod(lambda: datetime.now(UTC))  # the time written into rows (config CLOCK)


BUSY_TIMEOUT = 10.0  # seconds a write waits for SQLite's lock held by another program (config BUSY_TIMEOUT)


def connect(path: str, *, checkpoints: bool = True, busy_timeout: float = BUSY_TIMEOUT) -> Database:
    """A connection with foreign keys on, WAL, and a busy timeout for concurrent phones.

    `checkpoints=False` when Litestream replicates the file (config LITESTREAM): it must own checkpointing, since it
    copies the WAL's frames before they go into the database, so this connection never checkpoints on its own.
    """
    conn = sqlite3.connect(path, timeout=busy_timeout, check_same_thread=False)
    db = Database(conn)
    db.execute("PRAGMA foreign_keys=ON")
    db.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
    # WAL is kept in the file: set it only once, since switching takes a lock that racing workers may hold.
    if path != ":memory:" and db.conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        for attempt in range(50):  # the switch does not wait in SQLite's busy handler: wait here, up to ~5 s
            try:
                db.enable_wal()
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == 49:
                    raise
                time.sleep(0.1)
    # A write is on disk before its answer goes out, but not by synchronous=FULL: that flushes the WAL inside the
    # commit, while the write lock is held, so every writer would wait for the others' disk flushes one by one. The
    # commit runs with synchronous=NORMAL (just as safe against a crash of the program; only the flush is left out)
    # and writing() then flushes the WAL itself after letting go of the lock: the flushes of several workers overlap,
    # and one flush covers every commit written before it (a group commit).
    db.execute("PRAGMA synchronous=NORMAL" if GROUP_FLUSH and path != ":memory:" else "PRAGMA synchronous=FULL")
    if not checkpoints:
        db.execute("PRAGMA wal_autocheckpoint=0")
    db.file = None if path == ":memory:" else os.path.realpath(path)
    db.lock = None if not FLOCK or db.file is None else LockFile(db.file + ".lock")
    return db


def close(db: Database) -> None:
    """Close a connection made by `connect`, and its lock file."""
    if db.lock is not None:
        db.lock.close()
        db.lock = None
    db.conn.close()


def file_of(db: Database) -> str | None:
    """The database file a connection made by `connect` opened (None in memory): what cached sheets are kept under."""
    return db.file
