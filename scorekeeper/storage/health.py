"""Whether the file is sound and the disk has room: SQLite's quick check, a full disk told apart from other errors,
and a small test write beside the database (what /healthz and the start ask)."""

from __future__ import annotations

import errno
import os
import sqlite3
import tempfile

# The errors of a disk with no room left: ENOSPC, and a user's quota (EDQUOT), where the system has it.
FULL_ERRNOS = frozenset(e for e in (errno.ENOSPC, getattr(errno, "EDQUOT", None)) if e is not None)
RESTORE = (
    "stop the app and restore the last good backup: scorekeeper restore BACKUP (docs/operations.md, Backup and restore)"
)


# What a storage error is (trouble): each is answered in words of its own, and only "damaged" points to a backup.
FULL, READ_ONLY, PERMISSION, BUSY, DAMAGED = "full", "read-only", "permission denied", "busy", "damaged"
MAKE_WRITABLE = (
    "the file is not damaged: do not restore a backup. Make the folder and the database's files writable for the "
    "user the app runs as (a file system mounted read-write, their owner), then start the app again"
)


class Unusable(RuntimeError):
    """The database cannot be used as it is: damaged, or not writable (what a start or init-db says, and stops)."""


class Damaged(Unusable):
    """The database file failed PRAGMA quick_check (or is not a database at all)."""

    def __init__(self, path: str, problems: list[str]):
        self.problems = problems
        super().__init__(f"The database {path} is damaged ({'; '.join(problems[:3])}): {RESTORE}.")


class Unwritable(Unusable):
    """The database's folder or files cannot be written: a read-only file system, or permission denied."""

    def __init__(self, path: str, why: str):
        self.why = why
        super().__init__(f"The database {path} cannot be written ({why}): {MAKE_WRITABLE}.")


def access(path: str) -> str | None:
    """What stops a write to the database now, found by trying: READ_ONLY (EROFS), PERMISSION (EACCES, EPERM), or
    None. A new file in its folder (SQLite makes its -wal and -shm there), then the file and its companions opened for
    writing."""
    if path == ":memory:":
        return None
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=".access-")
        os.close(fd)
        os.unlink(temp)
        for name in (path, path + "-wal", path + "-shm", path + ".lock"):
            if os.path.exists(name):
                os.close(os.open(name, os.O_RDWR | os.O_CLOEXEC))
    except OSError as exc:
        return _errno_trouble(exc)
    return None


def _errno_trouble(exc: OSError) -> str | None:
    if exc.errno == errno.EROFS:
        return READ_ONLY
    if exc.errno in (errno.EACCES, errno.EPERM):
        return PERMISSION
    if exc.errno in FULL_ERRNOS:
        return FULL
    return None


def trouble(exc: BaseException, path: str | None = None) -> str | None:
    """What a storage error is: FULL, READ_ONLY, PERMISSION, BUSY (another program holds SQLite's lock past the busy
    timeout), DAMAGED ("database disk image is malformed", "file is not a database"), or None for anything else.
    SQLite's "unable to open database file" and its I/O errors are told apart by trying the folder (`access`)."""
    if full(exc):
        return FULL
    if isinstance(exc, OSError):
        return _errno_trouble(exc)
    if not isinstance(exc, sqlite3.Error):
        return None
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "database is locked" in str(exc):
        return BUSY
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB) or "malformed" in str(exc):
        return DAMAGED
    if primary in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_PERM):
        found = access(path) if path else None
        if found is not None:
            return found
        return READ_ONLY if primary == sqlite3.SQLITE_READONLY else None
    return None


def full(exc: BaseException) -> bool:
    """Whether an error is the disk being full: SQLite's SQLITE_FULL ("database or disk is full") or ENOSPC."""
    if isinstance(exc, sqlite3.OperationalError):
        return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "database or disk is full" in str(exc)
    return isinstance(exc, OSError) and exc.errno in FULL_ERRNOS


def check(path: str) -> list[str]:
    """PRAGMA quick_check on a fresh connection of its own (no page another connection has cached): the problems it
    finds, [] for a sound file or one that does not exist yet. It reads every page, without the indexes' cross-checks
    of integrity_check: seconds for a file of gigabytes."""
    if path == ":memory:" or not os.path.exists(path):
        return []
    try:
        conn = sqlite3.connect(path, timeout=10)
    except sqlite3.Error as exc:
        return _problem(exc, path)
    try:
        rows = [str(row[0]) for row in conn.execute("PRAGMA quick_check(20)")]
    except sqlite3.DatabaseError as exc:  # "file is not a database", "database disk image is malformed"
        return _problem(exc, path)
    finally:
        conn.close()
    return [] if rows == ["ok"] else [" ".join(row.split()) for row in rows]


def _problem(exc: sqlite3.Error, path: str) -> list[str]:
    """The check could not read the file: damage, unless the folder or file cannot be written (raises Unwritable: a
    read-only folder is no damaged file, and restoring a backup over it would lose the evening's hands) or another
    program holds it (the error as it is, raised)."""
    found = trouble(exc, path)
    if found in (READ_ONLY, PERMISSION):
        raise Unwritable(path, found) from exc
    if found == BUSY:
        raise exc
    return [str(exc)]


def ensure_writable(path: str) -> None:
    """Raise Unwritable, saying what to do (not a backup), if the database's folder or files cannot be written now."""
    found = access(path)
    if found is not None:
        raise Unwritable(path, found)


def ensure_sound(path: str) -> None:
    """Raise Damaged, naming the problems and `scorekeeper restore`, if the file fails the quick check."""
    problems = check(path)
    if problems:
        raise Damaged(path, problems)


def test_write(folder: str, size: int = 4096) -> None:
    """Write `size` bytes to a file of its own in `folder` and remove it: raises OSError (ENOSPC on a full disk) when
    nothing could be written there now. SQLite may still have room inside its own files; the disk has none."""
    fd, temp = tempfile.mkstemp(dir=folder, prefix=".healthz-")
    try:
        written = os.write(fd, b"\0" * size)
        if written < size:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    finally:
        os.close(fd)
        os.unlink(temp)
