"""The LIVE_TAGS folder within its bound (server/live_tags.py keeps its files): every file and folder counted before it
is made, the oldest games' files going first when it is full, files past their age swept.

**Bounded by construction** (issue 43: one stranger's games with big pages filled 64 MiB of /run in a minute, and
the files stayed until a restart). Every file and folder the app makes here is counted, across the workers, in the
folder's `.lock` (read and written under its flock, which every change to the folder holds): a file's bytes in whole
4 KiB pages, as tmpfs keeps them, and 1 KiB for the file itself (an empty tag, a folder: 1 KiB). A file is counted
before it is made and uncounted after it is gone, so the count is never less than what the folder holds (a process
killed between the two leaves it higher, never lower), and nothing is made that would take it past
LIVE_TAGS_MAX_BYTES: the files of the games written to longest ago go first, down to three quarters of the bound, and
what still does not fit (or is larger than a sixteenth of it) is not kept. Files older than LIVE_TAGS_MAX_AGE go at
the next sweep (one process looks every SWEEP seconds, or a quarter of the age if that is shorter). A file that is
not there only sends its poll to the app, which answers it from the rows: no bound here can make an answer stale.

Paths are plain strings and the calls os's own (issue 47): a hand's look at the changes moves its page's files and
removes the generation before, some ten files, and pathlib's objects cost more CPU than the calls themselves.
"""

from __future__ import annotations

import fcntl
import itertools
import logging
import os
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from scorekeeper.server.live_door import VERSIONS

WAS = "was"  # the folder of the tags of each page's state before its last change
LOCK = ".lock"  # the folder's lock between the workers, and its record (State)
MAX_BYTES = 64 * 1024 * 1024  # config LIVE_TAGS_MAX_BYTES
MAX_AGE = 3600  # config LIVE_TAGS_MAX_AGE, seconds
FILE = 1024  # what a file or folder is counted as besides its bytes (an inode, a name): an empty tag
PAGE = 4096  # tmpfs keeps a file's bytes in whole pages
LOW = 0.75  # a full folder is taken down to this share of its bound: one look at its games per quarter written
LARGEST = 16  # a file larger than this fraction of the bound is never kept (one page must not empty the folder)
SWEEP = 60.0  # seconds between two looks for files older than MAX_AGE (one process looks, the others skip)
WARN_EVERY = 60.0  # seconds between two warnings of a full folder, per process

log = logging.getLogger("scorekeeper.server.live_tags")

FOLDER = object()  # a plan's folder to make (Folder.plan)
_written = itertools.count()  # the names of the files being written, with the process and thread


def cost(size: int) -> int:
    """What a file of `size` bytes is counted as: its bytes in whole pages, and 1 KiB for itself."""
    return FILE + -(-size // PAGE) * PAGE


_RECORD = struct.Struct("<qqqqd")  # bytes counted, whether an epoch, the epoch, the last change handled, next sweep


@dataclass
class State:
    """The folder's record in `.lock`, shared by every process that keeps files here (read and written under the
    lock's flock)."""

    total: int = 0  # the bytes counted: never less than what the folder holds
    known: bool = False  # False: no record (a new folder, or an older build's): what the folder holds is not known
    epoch: int | None = None  # the file's epoch the files are of
    seq: int = 0  # every change up to this one has had its pages' files taken away
    sweep: float = 0.0  # time.time() of the next look for files past the age
    fd: int = field(default=-1, compare=False, repr=False)
    written: bytes = field(default=b"", compare=False, repr=False)  # the record as it is in the file

    @classmethod
    def read(cls, fd: int) -> State:
        raw = os.pread(fd, _RECORD.size, 0)
        if len(raw) != _RECORD.size:
            return cls(fd=fd, written=raw)
        total, has_epoch, epoch, seq, sweep = _RECORD.unpack(raw)
        return cls(total, True, epoch if has_epoch else None, seq, sweep, fd, raw)

    def packed(self) -> bytes:
        return _RECORD.pack(self.total, self.epoch is not None, self.epoch or 0, self.seq, self.sweep)

    def save(self) -> None:
        """The record written now (else it is as the lock is let go, if it changed)."""
        self.known = True
        self.written = self.packed()
        os.pwrite(self.fd, self.written, 0)


class Folder:
    """The folder's files within the bound, counted in its `.lock` across the processes that keep files there."""

    def __init__(self, folder: str, max_bytes: int = MAX_BYTES, max_age: float | None = MAX_AGE):
        self.folder = Path(folder)
        self.base = str(self.folder)
        self.max_bytes = max_bytes
        self.max_age = max_age
        self.sweep_every = SWEEP if not max_age else min(SWEEP, max(1.0, max_age / 4))
        self.warned = float("-inf")

    def keep(self, wanted: list[tuple[str, bytes | None]]) -> bool:
        """Make the files `wanted` ((path, body): None for an empty file, made if there is none; a body is written
        where there is no file or an empty one) within the bound, the oldest games' files going first if it must:
        False if they do not fit (then the app answers what they would have)."""
        for attempt in range(2):
            with self.locked() as state:
                if not state.known:
                    return False  # not looked at yet (Publisher.tick): what it holds is not known
                plan = self.plan(wanted)
                if not plan:
                    return True  # all there already (another worker made them)
                need = sum(item[-1] for item in plan)
                if need > self.max_bytes // LARGEST:
                    return False
                if state.total + need <= self.max_bytes:
                    self.make(state, plan, need)
                    return True
            if attempt == 0:
                self.evict(need)
        return False

    def plan(self, wanted: list[tuple[str, bytes | None]]) -> list[tuple]:
        """What making `wanted` takes, each (path, what: FOLDER, None for an empty file or the body, the cost of what
        it takes the place of, its cost)."""
        plan: list[tuple] = []
        looked = set()
        for path, body in wanted:
            parent = os.path.dirname(path)
            if parent not in looked:
                looked.add(parent)
                if not os.path.isdir(parent):  # a page's folder, and its kind's if it is the first
                    kind = os.path.dirname(parent)
                    if not os.path.isdir(kind):
                        plan.append((kind, FOLDER, 0, FILE))
                    plan.append((parent, FOLDER, 0, FILE))
            try:
                size: int | None = os.stat(path).st_size
            except FileNotFoundError:
                size = None
            if body is None and size is None:
                plan.append((path, None, 0, FILE))
            elif body is not None and not size:
                plan.append((path, body, 0 if size is None else cost(size), cost(len(body))))
        return plan

    def make(self, state: State, plan: list[tuple], need: int) -> None:
        """Make what `plan` says, counted first (a process killed meanwhile leaves the count high, never low); every
        file and folder readable by nginx whatever the umask."""
        state.total += need
        state.save()
        done = 0
        try:
            for path, what, replaced, _cost in plan:
                if what is FOLDER:
                    try:
                        os.mkdir(path)
                    except FileExistsError:
                        pass
                    os.chmod(path, 0o755)
                elif what is None:
                    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
                    try:
                        os.fchmod(fd, 0o644)
                    finally:
                        os.close(fd)
                else:
                    self.write(path, what)
                    state.total -= replaced  # the empty file it took the place of
                done += 1
        except OSError:
            state.total -= sum(item[-1] for item in plan[done:])
            raise

    def drop(self, path: str) -> None:
        """A file of this process's making taken away again (and uncounted)."""
        try:
            with self.locked() as state:
                try:
                    size = os.stat(path).st_size
                    os.unlink(path)
                except FileNotFoundError:
                    return
                state.total -= cost(size)
        except OSError:
            pass  # then the next look at the changes takes it away, or it stands for what it was written for

    def evict(self, need: int) -> None:
        """The folder is full: take away the files of the games written to longest ago (looked at outside the lock),
        until `need` more fits within three quarters of the bound."""
        ages: dict[tuple[str, str], float] = {}
        for base in (self.base, f"{self.base}/{WAS}"):
            for kind in VERSIONS:
                for entry in entries(f"{base}/{kind}"):
                    try:
                        written = entry.stat(follow_symlinks=False).st_mtime
                    except OSError:
                        continue
                    ages[kind, entry.name] = max(ages.get((kind, entry.name), written), written)
        target = int(self.max_bytes * LOW) - need
        gone = 0
        with self.locked() as state:
            for kind, ident in sorted(ages, key=ages.__getitem__):
                if state.total <= target:
                    break
                state.total -= self.gone(f"{self.base}/{kind}/{ident}") + self.gone(f"{self.base}/{WAS}/{kind}/{ident}")
                gone += 1
            if state.total > target:  # the count above what is there (a process killed while writing): counted again
                state.total = sum(self.measure(f"{self.base}/{kind}") for kind in (*VERSIONS, WAS))
        now = time.monotonic()
        if now - self.warned >= WARN_EVERY:
            self.warned = now
            log.warning(
                "the live tags folder %s reached LIVE_TAGS_MAX_BYTES (%d): the files of its %d oldest games went "
                "(their phones ask the app once more)",
                self.folder,
                self.max_bytes,
                gone,
            )

    def sweep(self, now: float | None = None) -> None:
        """Take away the files older than LIVE_TAGS_MAX_AGE, and the folders left empty (a game no one watches)."""
        if not self.max_age:
            return
        cutoff = (time.time() if now is None else now) - self.max_age
        old: list[tuple[str, float]] = []
        folders: list[str] = []
        for base in (self.base, f"{self.base}/{WAS}"):
            for kind in VERSIONS:
                for game in entries(f"{base}/{kind}"):
                    inside = entries(game.path)
                    before = len(old)
                    for entry in inside:
                        try:
                            written = entry.stat(follow_symlinks=False).st_mtime
                        except OSError:
                            continue
                        if written < cutoff:
                            old.append((entry.path, written))
                    if len(old) - before == len(inside):  # nothing in it that stays: the folder goes too
                        folders.append(game.path)
        if not old and not folders:
            return
        with self.locked() as state:
            for path, written in old:
                try:
                    found = os.lstat(path)
                    if found.st_mtime != written:
                        continue  # made again since
                    os.unlink(path)
                except OSError:
                    continue
                state.total -= cost(found.st_size)
            for folder in folders:
                try:
                    os.rmdir(folder)  # only an empty one
                except OSError:
                    continue
                state.total -= FILE

    def accounted(self) -> int:
        """The bytes the folder's record counts (never less than it holds)."""
        with self.locked() as state:
            return state.total

    def gone(self, folder: str) -> int:
        """Remove a folder and what is in it: what went, as counted (what could not be removed stays counted)."""
        try:
            found = listed(folder)
        except OSError:
            return 0
        gone = 0
        for entry in found:
            try:
                if entry.is_dir(follow_symlinks=False):
                    gone += self.gone(entry.path)
                    continue
                size = entry.stat(follow_symlinks=False).st_size
                os.unlink(entry.path)
            except OSError:
                continue
            gone += cost(size)
        try:
            os.rmdir(folder)
        except OSError:
            return gone
        return gone + FILE

    def measure(self, folder: str) -> int:
        """What a folder and everything in it is counted as; 0 if there is none."""
        if not os.path.isdir(folder):
            return 0
        total = FILE
        for entry in entries(folder):
            try:
                if entry.is_dir(follow_symlinks=False):
                    total += self.measure(entry.path)
                else:
                    total += cost(entry.stat(follow_symlinks=False).st_size)
            except OSError:
                continue
        return total

    def clear(self, state: State) -> None:
        """Every file goes (called with the lock held); what could not be removed stays counted."""
        for kind in (*VERSIONS, WAS):
            self.gone(f"{self.base}/{kind}")
        state.total = sum(self.measure(f"{self.base}/{kind}") for kind in (*VERSIONS, WAS))

    @staticmethod
    def write(path: str, body: bytes) -> None:
        """`body` as the file `path`, whole or not at all (written beside it, then moved in), readable by nginx."""
        temporary = f"{os.path.dirname(path)}/.{os.getpid()}.{threading.get_ident()}.{next(_written)}"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        try:
            try:
                os.fchmod(fd, 0o644)
                view = memoryview(body)
                while view:
                    view = view[os.write(fd, view) :]
            finally:
                os.close(fd)
            os.replace(temporary, path)
        except OSError:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise

    @contextmanager
    def locked(self) -> Iterator[State]:
        """The folder's lock, between the workers (flock on `.lock`), and its record, written back as it is left."""
        fd = os.open(f"{self.base}/{LOCK}", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            state = State.read(fd)
            try:
                yield state
            finally:
                if state.known and state.packed() != state.written:  # an unknown folder stays so until emptied
                    state.save()
        finally:
            os.close(fd)  # lets go of the lock


def listed(folder: str) -> list[os.DirEntry]:
    with os.scandir(folder) as found:
        return list(found)


def entries(folder: str) -> list[os.DirEntry]:
    try:
        return listed(folder)
    except OSError:
        return []
