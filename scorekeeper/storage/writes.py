"""Write and read transactions: writers queue on the lock file, commit, and flush the WAL before they answer."""

from __future__ import annotations

import os
from contextlib import contextmanager

from scorekeeper.storage.connection import GROUP_FLUSH, Database


@contextmanager
def writing(db: Database):
    """One write transaction that takes the write lock at once (BEGIN IMMEDIATE), so two phones queue instead of deadlocking.

    Writers first queue on a lock file beside the database (flock): the kernel wakes the next one the moment the
    last one commits. SQLite's own busy handler sleeps instead (1, 2, 5, 10, 15, 20, 25 … ms between tries), which
    with a few workers writing at once made most of a hand entry's time. The busy timeout still covers writers that
    do not take the lock file (another program on the same database).
    """
    with queued(db):
        db.conn.execute("BEGIN IMMEDIATE")  # sqlite-utils sees the open transaction: its writes neither commit nor nest
        try:
            yield db
        except BaseException:
            db.rollback()
            raise
        db.commit()
    flush(db)


@contextmanager
def queued(db: Database):
    """Hold the writers' lock file of the connection's database (nothing to hold where there is no fcntl)."""
    lock = db.lock
    if lock is not None:
        lock.hold()
    try:
        yield
    finally:
        if lock is not None:
            lock.release()


def flush(db: Database) -> None:
    """Put what was committed on the disk (fsync of the WAL file): after it, not even a power cut loses it.

    Called by writing() after each commit, before the answer goes out; see connect() for why not synchronous=FULL.
    """
    path = db.file
    if not GROUP_FLUSH or path is None:
        return  # synchronous=FULL flushed inside the commit
    try:
        fd = os.open(path + "-wal", os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:  # not in WAL mode (yet): the commit went to the database file itself
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
        # A WAL file made since this connection last flushed (SQLite deletes it when the last connection closes, and
        # makes a new one) needs its directory entry on the disk too, or a power cut could lose the whole file.
        made = os.fstat(fd).st_ino
        if db.wal_inode != made:
            directory = os.open(os.path.dirname(path), os.O_RDONLY | os.O_CLOEXEC)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
            db.wal_inode = made
    finally:
        os.close(fd)


def probe(db: Database) -> None:
    """Take the writers' lock and SQLite's write lock, then let both go, writing nothing: the file can be written now
    (raises sqlite3.Error or OSError if not). What /healthz asks."""
    with queued(db):
        db.conn.execute("BEGIN IMMEDIATE")
        db.conn.execute("ROLLBACK")


@contextmanager
def reading(db: Database):
    """Several reads from one snapshot of the database (a deferred transaction), or those of the transaction open now."""
    if db.conn.in_transaction:
        yield db
        return
    db.conn.execute("BEGIN")
    try:
        yield db
    finally:
        db.conn.execute("COMMIT")  # nothing written: ends the snapshot
