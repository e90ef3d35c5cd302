"""The rate limits' counts in one small SQLite file every worker process shares (issue 43), so that a client's budget
is one budget however many workers answer it: a storage backend of the `limits` package (Flask-Limiter's), written
as its documentation says one is ("Custom storage backends": a `Storage` subclass with a `STORAGE_SCHEME`, and
`MovingWindowSupport` for the moving window guard.py counts with), found by `storage_from_string` by its scheme.

Why a file: the limits count only the rare writes that make rows (a hand entry is never limited, and the door's guard
counts the reads in memory), so a write transaction of a few rows per limited request is cheap, and a file needs
nothing else to run (Redis or memcached would), serves gunicorn's workers as well as `scorekeeper serve`'s, and
outlives a worker that dies and a restart, so neither gives a client a fresh budget. Not the database itself: the
counts would wait for the writers' lock, grow the backups and Litestream's replica, and count against
MAX_DATABASE_BYTES.

Each process opens its own connection (a connection made before a fork is never used after it). The file is bounded
by construction: a moving window keeps one row per hit it let through (a refused one writes nothing); a client's rows
older than its window go at its next hit, every client's expired rows every PURGE_EVERY seconds, and whatever the
clients do, only the newest `max_entries` hits taken (LIMITS_MAX_ENTRIES; rowids grow with each, so the older ones go
by a range of rowids at every hit) are kept: some 200 bytes each, about 20 MiB at the default, and the WAL
checkpointed at SQLite's 1,000 pages (4 MiB) and cut back to 1 MiB. A stranger with addresses enough to take more hits
than that within an hour can make the limits forget the oldest hits, never the file grow.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
import urllib.parse

from limits.storage import MovingWindowSupport, Storage

SCHEME = "scorekeeper-sqlite"
PURGE_EVERY = 60.0  # seconds between purges of every key's expired rows, per process
MAX_ENTRIES = 100_000  # LIMITS_MAX_ENTRIES

SCHEMA = """
CREATE TABLE IF NOT EXISTS hits (key TEXT NOT NULL, at REAL NOT NULL, expires REAL NOT NULL);
CREATE INDEX IF NOT EXISTS hits_by_key ON hits (key, at);
CREATE INDEX IF NOT EXISTS hits_by_expiry ON hits (expires);
CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires REAL NOT NULL);
"""


def uri(path: str) -> str:
    """The storage URI Flask-Limiter is given for the file at `path`."""
    return f"{SCHEME}://{urllib.parse.quote(os.path.abspath(path))}"


class LimitsFile(Storage, MovingWindowSupport):
    """Moving windows (and fixed-window counters) in an SQLite file, for `limits`' strategies. `clock` is time.time,
    replaceable in tests."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(
        self,
        uri: str,
        wrap_exceptions: bool = False,
        max_entries: int = MAX_ENTRIES,
        timeout: float = 5.0,
        **options,
    ):
        self.path = urllib.parse.unquote(urllib.parse.urlparse(uri).path)
        self.max_entries = int(max_entries)
        self.timeout = float(timeout)
        self.clock = time.time
        self._pid: int | None = None
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._purged = float("-inf")
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return (sqlite3.Error, OSError)

    def _connection(self) -> sqlite3.Connection:
        """This process's connection (under self._lock), made at its first use: one inherited through a fork is left
        alone."""
        if self._db is None or self._pid != os.getpid():
            db = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # a power cut may forget the last hits, never damage the file
            db.execute("PRAGMA journal_size_limit=1048576")  # the WAL kept at 1 MiB once checkpointed
            db.executescript(SCHEMA)
            self._db, self._pid = db, os.getpid()
        return self._db

    def _write(self, work):
        """`work(db, now)` in one write transaction of this process's connection."""
        with self._lock:
            db = self._connection()
            db.execute("BEGIN IMMEDIATE")
            try:
                result = work(db, self.clock())
            except BaseException:
                if db.in_transaction:  # SQLite has rolled back itself after some errors (a full disk)
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return result

    def _read(self, query: str, args: tuple):
        with self._lock:
            return self._connection().execute(query, args).fetchone()

    def _bound(self, db, now: float) -> None:
        """Every key's expired rows, now and then; those older than the newest max_entries taken, always."""
        if now - self._purged >= PURGE_EVERY or now < self._purged:
            self._purged = now
            db.execute("DELETE FROM hits WHERE expires <= ?", (now,))
            db.execute("DELETE FROM counters WHERE expires <= ?", (now,))
        for table in ("hits", "counters"):
            db.execute(f"DELETE FROM {table} WHERE rowid <= (SELECT max(rowid) FROM {table}) - ?", (self.max_entries,))

    # ---------------------------------------------------------------- the moving window

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        """Take `amount` hits of `key`'s window of `expiry` seconds if it holds at most `limit` with them."""
        if amount > limit:
            return False

        def acquire(db, now):
            db.execute("DELETE FROM hits WHERE key = ? AND at <= ?", (key, now - expiry))
            (taken,) = db.execute("SELECT count(*) FROM hits WHERE key = ?", (key,)).fetchone()
            if taken + amount > limit:
                return False
            db.executemany("INSERT INTO hits VALUES (?, ?, ?)", [(key, now, now + expiry)] * amount)
            self._bound(db, now)
            return True

        return self._write(acquire)

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        """(the oldest hit in the window, or now; the hits in it)."""
        now = self.clock()
        oldest, count = self._read("SELECT min(at), count(*) FROM hits WHERE key = ? AND at > ?", (key, now - expiry))
        return (oldest if count else now), count

    # ---------------------------------------------------------------- fixed windows, for the other strategies

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        def increment(db, now):
            row = db.execute("SELECT count FROM counters WHERE key = ? AND expires > ?", (key, now)).fetchone()
            if row is None:
                db.execute("INSERT OR REPLACE INTO counters VALUES (?, ?, ?)", (key, amount, now + expiry))
                self._bound(db, now)
                return amount
            db.execute("UPDATE counters SET count = count + ? WHERE key = ?", (amount, key))
            return row[0] + amount

        return self._write(increment)

    def get(self, key: str) -> int:
        row = self._read("SELECT count FROM counters WHERE key = ? AND expires > ?", (key, self.clock()))
        return row[0] if row else 0

    def get_expiry(self, key: str) -> float:
        now = self.clock()
        row = self._read("SELECT expires FROM counters WHERE key = ? AND expires > ?", (key, now))
        return row[0] if row else now

    # ---------------------------------------------------------------- upkeep

    def check(self) -> bool:
        """Whether the file answers (Flask-Limiter asks, while it counts in memory instead, whether to come back)."""
        try:
            self._read("SELECT count(*) FROM counters", ())
        except (sqlite3.Error, OSError):
            return False
        return True

    def clear(self, key: str) -> None:
        def forget(db, now):
            db.execute("DELETE FROM hits WHERE key = ?", (key,))
            db.execute("DELETE FROM counters WHERE key = ?", (key,))

        self._write(forget)

    def reset(self) -> int | None:
        def forget_all(db, now):
            keys = db.execute("SELECT count(DISTINCT key) FROM hits").fetchone()[0]
            keys += db.execute("DELETE FROM counters").rowcount
            db.execute("DELETE FROM hits")
            return keys

        return self._write(forget_all)

    def entries(self) -> int:
        """The rows the file holds (max_entries bounds each table; the counters are the fixed windows', unused by
        guard.py's moving windows)."""
        return self._read("SELECT (SELECT count(*) FROM hits) + (SELECT count(*) FROM counters)", ())[0]
