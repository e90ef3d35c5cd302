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


class Damaged(RuntimeError):
    """The database file failed PRAGMA quick_check (or is not a database at all)."""

    def __init__(self, path: str, problems: list[str]):
        self.problems = problems
        super().__init__(f"The database {path} is damaged ({'; '.join(problems[:3])}): {RESTORE}.")


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
        return [str(exc)]
    try:
        rows = [str(row[0]) for row in conn.execute("PRAGMA quick_check(20)")]
    except sqlite3.DatabaseError as exc:  # "file is not a database", "database disk image is malformed"
        return [str(exc)]
    finally:
        conn.close()
    return [] if rows == ["ok"] else [" ".join(row.split()) for row in rows]


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
