"""Tags nginx answers watching phones from (issue 37, LIVE_TAGS): the unchanged polls of a night's tables answered
outside Python.

A watching phone asks its protokoll's live twin (`/g/<id>/live`) every few seconds with the tag its page shows in
X-Live-Tag, and nearly always the answer is "nothing changed": an empty `200`. The live door (live_door.py) answers
that before Flask, but each poll is still a request through waitress (its loop, its parser, a thread), ten times what
nginx's own answer costs. With LIVE_TAGS set (a folder nginx may read), the app keeps there an empty file for every
tag it has told a phone is the page's current one, `<folder>/g/<game id>/<tag>`, and deploy/nginx.conf answers a
poll whose X-Live-Tag names an existing file with that empty file, itself (`try_files`); any other poll goes to the
app as before. A page's files are taken away as soon as anything its tag is made of changes:

- the triggers of m170/m171 number every change of a game's, club's or drive's rows in `live_versions.seq`, whoever
  wrote (this process, another worker, another program); `Publisher.tick` reads the changes after the last it saw and
  removes the files of every page they touch (a club's change: the files of every game of its evenings; a restore's
  new `epoch`: all of them). Every write request runs it before its answer leaves, and a thread of each worker every
  TICK seconds for the writes of other programs;
- a tag is written only over the versions read before the page's state was: the file is made, the versions read
  again, and the file removed if they moved meanwhile (then a change may have been taken away before the file was
  made). So a file never outlives a change the app made, and one another program made by more than TICK.

A tag is the page's own state (web/live.py: its rows' versions and the file's epoch, whether the phone may edit, the
language, the address, the build): a file says only "this page, as one phone saw it, is still as it was", and a phone that sends another's
tag learns nothing it could not read. Tags are hex digests and ids the app made; anything else is not written.

**Answers kept** (after a hand): the three phones watching a table ask with the same tag, the one their pages showed
before the hand, and each was answered by the app: the page drawn by each worker, the parts worked out for each. A
page's files are not thrown away when it changes but moved aside (`<folder>/was/g/<game id>/`, the one generation
before), and the first plain reader's answer to a tag found there, for its language, is kept beside the new tags:
`g/<game id>/<old tag>.parts` (what changed, for live.js's X-Live-Parts) or `.page` (the page); nginx answers the
other phones with it. Only tags the app itself told a plain reader a moment before are answered so (a made-up tag
writes nothing), in that reader's language (`<tag>.<language>` marks them, and holds the page that reader was told,
so that a worker that never drew it still answers what changed from it), and only over the versions read before the
answer's state, as the tags themselves; they go with the page's next change.

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

**At start and after a restore.** The folder outlives the app (/run lives as long as the machine). `.lock` also holds
the epoch the files are of (live_versions, made anew by every restore) and the last change whose pages' files have
been taken away: a process that starts (every worker, the heavy reads' drawing process, the command line) looks before
its first request, takes away the files of what changed since, and empties the folder if the epoch is another (a
restore) or the changes went backwards (a file put back some other way). A running worker does the same at its next
look (every write request, and every TICK), and `scorekeeper restore` before it returns.
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import sqlite3
import struct
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from scorekeeper.server.live_door import VERSIONS

# seconds between two looks at the changes for another program's writes (the CLI's, sqlite3's): every write of the
# app's own, in any worker, looks at once, before its answer (py-spy at 300 tables: five looks a second were 7 % of
# a worker's CPU)
TICK = 1.0
TAG = re.compile(r"[0-9a-f]{16}")
IDENT = re.compile(r"[A-Za-z0-9_-]{1,64}")
LANGUAGE = re.compile(r"[a-z]{2,3}(?:_[A-Z]{2})?")
WAS = "was"  # the folder of the tags of each page's state before its last change
LOCK = ".lock"  # the folder's lock between the workers, and its record (State)
CLUB_GAMES = "SELECT t.game_id FROM club_tables t JOIN club_evenings e ON e.id = t.evening_id WHERE e.club_id = ?"
LOOK = (
    "SELECT (SELECT version FROM live_versions WHERE scope = 'epoch'),"
    " (SELECT coalesce(max(seq), 0) FROM live_versions)"
)

MAX_BYTES = 64 * 1024 * 1024  # config LIVE_TAGS_MAX_BYTES
MAX_AGE = 3600  # config LIVE_TAGS_MAX_AGE, seconds
FILE = 1024  # what a file or folder is counted as besides its bytes (an inode, a name): an empty tag
PAGE = 4096  # tmpfs keeps a file's bytes in whole pages
LOW = 0.75  # a full folder is taken down to this share of its bound: one look at its games per quarter written
LARGEST = 16  # a file larger than this fraction of the bound is never kept (one page must not empty the folder)
SWEEP = 60.0  # seconds between two looks for files older than MAX_AGE (one process looks, the others skip)
WARN_EVERY = 60.0  # seconds between two warnings of a full folder, per process

log = logging.getLogger("scorekeeper.server.live_tags")


FOLDER = object()  # a plan's folder to make (Publisher._plan)


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


class Publisher:
    def __init__(
        self,
        folder: str,
        database: str,
        tick: float = TICK,
        max_bytes: int = MAX_BYTES,
        max_age: float | None = MAX_AGE,
    ):
        self.folder = Path(folder)
        self.database = database
        self.every = tick
        self.max_bytes = max_bytes
        self.max_age = max_age
        self.sweep_every = SWEEP if not max_age else min(SWEEP, max(1.0, max_age / 4))
        self.lock = threading.Lock()  # one look at the changes at a time, on this process's own connection
        self.conn: sqlite3.Connection | None = None
        self.pid = 0
        self.last: int | None = None  # the last change seen (None: not looked yet: the folder's record decides)
        self.epoch = None
        self.thread: threading.Thread | None = None
        self.thread_pid = 0
        self.next_sweep = 0.0  # this process's next look at the record's time for a sweep
        self.warned = float("-inf")

    # ------------------------------------------------------------ a tag told to a phone

    def versions(self, db, kind: str, ident: str):
        """What a page's state is made of, as the live door reads it (`db`: the request's connection)."""
        return tuple(db.execute(VERSIONS[kind], {"id": ident}).fetchone())

    def publish(self, db, kind: str, ident: str, tag: str, before, reader: str | None = None, page=None) -> None:
        """`tag` is the page's current state, worked out from rows read after `versions` gave `before`: keep its file
        while those versions stand. `reader`: the language of a plain reader (one who may not edit), whose answer
        to this tag, once the page has changed, may be kept for the other phones (`keep_answer`); `page`: the page
        that reader was given, kept with the mark for whichever worker answers after the change (`told_page`)."""
        if not (TAG.fullmatch(tag) and IDENT.fullmatch(ident)) or kind not in VERSIONS:
            return
        if reader is not None and not LANGUAGE.fullmatch(reader):
            reader = None
        self._watch()
        path = self.folder / kind / ident / tag
        mark = path.with_name(f"{tag}.{reader}") if reader is not None else None
        try:
            if path.exists() and (mark is None or (mark.exists() and (page is None or mark.stat().st_size))):
                return
            body = None if page is None else _bytes(page)
            if body is not None and cost(len(body)) > self.max_bytes // LARGEST:
                body = None  # too large to keep: the tag still is, and a worker that did not draw it answers the page
            wanted: list[tuple[Path, bytes | None]] = [(path, None)]
            if mark is not None:  # the app's own mark: nginx never answers with it
                wanted.append((mark, body))
            if not self._keep(wanted):
                return  # the folder is full: this page's polls come to the app
            if self.versions(db, kind, ident) != before:
                self._drop(path)  # a change came between: it may have been taken away before this file
        except sqlite3.Error as exc:  # the versions could not be read again: the file is not kept
            log.warning("the live tag %s could not be checked: %s", path, exc)
            self._drop(path)
        except OSError as exc:
            log.warning("the live tag %s could not be kept: %s", path, exc)
            self._drop(path)

    def told_page(self, kind: str, ident: str, tag: str, reader: str) -> str | None:
        """The page a plain reader in `reader`'s language was given with `tag`, before the page's last change (kept
        with its mark by whichever worker drew it), or None."""
        if not (TAG.fullmatch(tag) and IDENT.fullmatch(ident) and LANGUAGE.fullmatch(reader)) or kind not in VERSIONS:
            return None
        try:
            return (self.folder / WAS / kind / ident / f"{tag}.{reader}").read_text("utf-8") or None
        except (OSError, UnicodeError):
            return None

    def keep_answer(self, db, kind: str, ident: str, asked: str, reader: str, parts: bool, body, before) -> None:
        """A plain reader in `reader`'s language asked with `asked`, a tag of the page before its last change, and was
        answered `body` (what changed if `parts`, else the page), worked out from rows read after `versions` gave
        `before`: keep it for nginx to give the other phones that ask the same, while those versions stand."""
        if not (TAG.fullmatch(asked) and IDENT.fullmatch(ident) and LANGUAGE.fullmatch(reader)) or kind not in VERSIONS:
            return
        if not (self.folder / WAS / kind / ident / f"{asked}.{reader}").exists():
            return  # not a tag the app told a reader in this language just before: a made-up one writes nothing
        path = self.folder / kind / ident / f"{asked}.{'parts' if parts else 'page'}"
        try:
            if path.exists() or not self._keep([(path, _bytes(body))]):
                return
            if self.versions(db, kind, ident) != before:
                self._drop(path)
        except sqlite3.Error as exc:
            log.warning("the live answer %s could not be checked: %s", path, exc)
            self._drop(path)
        except OSError as exc:
            log.warning("the live answer %s could not be kept: %s", path, exc)
            self._drop(path)

    # ------------------------------------------------------------ within the bound

    def _keep(self, wanted: list[tuple[Path, bytes | None]]) -> bool:
        """Make the files `wanted` ((path, body): None for an empty file, made if there is none; a body is written
        where there is no file or an empty one) within the bound, the oldest games' files going first if it must:
        False if they do not fit (then the app answers what they would have)."""
        for attempt in range(2):
            with self._locked() as state:
                if not state.known:
                    return False  # not looked at yet (Publisher.tick): what it holds is not known
                plan = self._plan(wanted)
                if not plan:
                    return True  # all there already (another worker made them)
                need = sum(item[-1] for item in plan)
                if need > self.max_bytes // LARGEST:
                    return False
                if state.total + need <= self.max_bytes:
                    self._make(state, plan, need)
                    return True
            if attempt == 0:
                self._evict(need)
        return False

    @staticmethod
    def _plan(wanted) -> list[tuple]:
        """What making `wanted` takes, each (path, what: FOLDER, None for an empty file or the body, the cost of what
        it takes the place of, its cost)."""
        plan: list[tuple] = []
        looked = set()
        for path, body in wanted:
            if path.parent not in looked:
                looked.add(path.parent)
                if not path.parent.is_dir():  # a page's folder, and its kind's if it is the first
                    plan += [(folder, FOLDER, 0, FILE) for folder in (path.parent.parent,) if not folder.is_dir()]
                    plan.append((path.parent, FOLDER, 0, FILE))
            try:
                size = path.stat().st_size
            except FileNotFoundError:
                size = None
            if body is None and size is None:
                plan.append((path, None, 0, FILE))
            elif body is not None and not size:
                plan.append((path, body, 0 if size is None else cost(size), cost(len(body))))
        return plan

    def _make(self, state: State, plan: list[tuple], need: int) -> None:
        """Make what `plan` says, counted first (a process killed meanwhile leaves the count high, never low); every
        file and folder readable by nginx whatever the umask."""
        state.total += need
        state.save()
        done = 0
        try:
            for path, what, replaced, _cost in plan:
                if what is FOLDER:
                    path.mkdir(exist_ok=True)
                    os.chmod(path, 0o755)
                elif what is None:
                    path.touch()
                    os.chmod(path, 0o644)
                else:
                    self._write(path, what)
                    state.total -= replaced  # the empty file it took the place of
                done += 1
        except OSError:
            state.total -= sum(item[-1] for item in plan[done:])
            raise

    def _drop(self, path: Path) -> None:
        """A file of this process's making taken away again (and uncounted)."""
        try:
            with self._locked() as state:
                try:
                    size = path.stat().st_size
                    path.unlink()
                except FileNotFoundError:
                    return
                state.total -= cost(size)
        except OSError:
            pass  # then the next look at the changes takes it away, or it stands for what it was written for

    def _evict(self, need: int) -> None:
        """The folder is full: take away the files of the games written to longest ago (looked at outside the lock),
        until `need` more fits within three quarters of the bound."""
        ages: dict[tuple[str, str], float] = {}
        for base in (self.folder, self.folder / WAS):
            for kind in VERSIONS:
                for entry in _entries(base / kind):
                    try:
                        written = entry.stat(follow_symlinks=False).st_mtime
                    except OSError:
                        continue
                    ages[kind, entry.name] = max(ages.get((kind, entry.name), written), written)
        target = int(self.max_bytes * LOW) - need
        gone = 0
        with self._locked() as state:
            for kind, ident in sorted(ages, key=ages.__getitem__):
                if state.total <= target:
                    break
                state.total -= self._gone(self.folder / kind / ident) + self._gone(self.folder / WAS / kind / ident)
                gone += 1
            if state.total > target:  # the count above what is there (a process killed while writing): counted again
                state.total = sum(self._measure(self.folder / kind) for kind in (*VERSIONS, WAS))
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
        old: list[tuple[Path, float]] = []
        folders: list[Path] = []
        for base in (self.folder, self.folder / WAS):
            for kind in VERSIONS:
                for game in _entries(base / kind):
                    entries = _entries(game.path)
                    before = len(old)
                    for entry in entries:
                        try:
                            written = entry.stat(follow_symlinks=False).st_mtime
                        except OSError:
                            continue
                        if written < cutoff:
                            old.append((Path(entry.path), written))
                    if len(old) - before == len(entries):  # nothing in it that stays: the folder goes too
                        folders.append(Path(game.path))
        if not old and not folders:
            return
        with self._locked() as state:
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
        with self._locked() as state:
            return state.total

    def _gone(self, folder: Path) -> int:
        """Remove a folder and what is in it: what went, as counted (what could not be removed stays counted)."""
        try:
            entries = _listed(folder)
        except OSError:
            return 0
        gone = 0
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    gone += self._gone(Path(entry.path))
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

    def _measure(self, folder: Path) -> int:
        """What a folder and everything in it is counted as; 0 if there is none."""
        if not folder.is_dir():
            return 0
        total = FILE
        for entry in _entries(folder):
            try:
                if entry.is_dir(follow_symlinks=False):
                    total += self._measure(Path(entry.path))
                else:
                    total += cost(entry.stat(follow_symlinks=False).st_size)
            except OSError:
                continue
        return total

    @staticmethod
    def _write(path: Path, body: bytes) -> None:
        """`body` as the file `path`, whole or not at all (written beside it, then moved in), readable by nginx."""
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(body)
                os.fchmod(out.fileno(), 0o644)
            os.replace(temporary, path)
        except OSError:
            Path(temporary).unlink(missing_ok=True)
            raise

    @contextmanager
    def _locked(self):
        """The folder's lock, between the workers (flock on `.lock`), and its record, written back as it is left."""
        fd = os.open(self.folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
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

    # ------------------------------------------------------------ taking them away

    def tick(self) -> None:
        """Remove the files of every page changed since the last look (and every file, at a new epoch)."""
        with self.lock:
            try:
                conn = self._connection()
                epoch, top = conn.execute(LOOK).fetchone()
                if self.last is None or epoch != self.epoch or top < self.last:
                    self._resync(epoch, top)
                changed = conn.execute(
                    "SELECT scope, seq FROM live_versions WHERE seq > ? ORDER BY seq", (self.last,)
                ).fetchall()
                if not changed:
                    return
                pages = []
                for scope, seq in changed:
                    kind, _, ident = scope.partition(":")
                    if kind == "c":
                        pages += [("g", game_id, seq) for (game_id,) in conn.execute(CLUB_GAMES, (ident,)).fetchall()]
                    elif kind in VERSIONS:
                        pages.append((kind, ident, seq))
                with self._locked() as state:
                    for kind, ident, seq in pages:
                        if IDENT.fullmatch(str(ident)):
                            self._remove(state, kind, ident, seq)
                    self.last = max(self.last, changed[-1][1])
                    if state.known and state.epoch == self.epoch:
                        state.seq = max(state.seq, self.last)
            except sqlite3.Error as exc:
                log.warning("the live tags could not be brought up to date: %s; all are taken away", exc)
                self.last = None
                try:
                    with self._locked() as state:
                        self._clear(state)
                        state.known = False
                        state.save()
                except OSError:
                    pass
            except OSError as exc:
                log.warning("the live tags folder %s could not be brought up to date: %s", self.folder, exc)
                self.last = None

    def _resync(self, epoch, top: int) -> None:
        """This process's first look, a new epoch (a restore) or changes gone backwards: go on from where the folder's
        record says its files are, if it is of this epoch and no further than the file; else empty the folder."""
        with self._locked() as state:
            if state.known and state.epoch == epoch and state.seq <= top:
                self.last = state.seq  # what changed since is taken away by this look
            else:
                self._clear(state)
                state.epoch, state.seq = epoch, top
                state.save()
                self.last = top
            self.epoch = epoch

    def _connection(self) -> sqlite3.Connection:
        if self.conn is None or self.pid != os.getpid():  # a forked worker opens its own
            self.conn = sqlite3.connect(self.database, isolation_level=None, check_same_thread=False, timeout=5)
            self.pid = os.getpid()
        return self.conn

    def _remove(self, state: State, kind: str, ident: str, seq: int) -> None:
        """A page changed (change `seq`): its files leave nginx's sight, kept aside as the tags of its state before
        (keep_answer). Every worker sees every change: the first moves the files, the others find the change's mark
        and leave alone what was told since. Called with the folder's lock held."""
        current, was = self.folder / kind / ident, self.folder / WAS / kind / ident
        if (was / f".{seq}").exists():
            return
        state.total -= self._gone(was)
        try:
            for folder in (self.folder / WAS, self.folder / WAS / kind):  # two folders, made once
                if not folder.is_dir():
                    self._make(state, [(folder, FOLDER, 0, FILE)], FILE)  # counted first, as every file
            if current.is_dir():
                os.rename(current, was)  # its count goes with it
        except OSError:  # the folder is in trouble: the files go, without their marks
            state.total -= self._gone(current)
        plan = self._plan([(was / f".{seq}", None)])
        need = sum(item[-1] for item in plan)
        if state.total + need <= self.max_bytes:  # else no mark: another worker moves what was told since (a cost)
            try:
                self._make(state, plan, need)
            except OSError:
                pass

    def _clear(self, state: State) -> None:
        """Every file goes (called with the lock held); what could not be removed stays counted."""
        for kind in (*VERSIONS, WAS):
            self._gone(self.folder / kind)
        state.total = sum(self._measure(self.folder / kind) for kind in (*VERSIONS, WAS))

    def _watch(self) -> None:
        """This process's thread that looks at the changes every TICK (started with its first tag: after a fork)."""
        if self.thread_pid == os.getpid():
            return
        with self.lock:
            if self.thread_pid == os.getpid():
                return
            self.thread = threading.Thread(target=self._run, name="scorekeeper-live-tags", daemon=True)
            self.thread.start()
            self.thread_pid = os.getpid()
        self.tick()

    def _run(self) -> None:
        while True:
            time.sleep(self.every)
            self.tick()
            if self._sweep_due():
                try:
                    self.sweep()
                except OSError as exc:
                    log.warning("the live tags folder %s could not be swept: %s", self.folder, exc)

    def _sweep_due(self) -> bool:
        """Whether this process sweeps now: the first to find the record's time for it passed takes it."""
        now = time.time()
        if not self.max_age or now < self.next_sweep:
            return False
        self.next_sweep = now + self.sweep_every
        try:
            with self._locked() as state:
                if state.sweep > now:
                    return False
                state.sweep = now + self.sweep_every
                return True
        except OSError:
            return False


def _bytes(body) -> bytes:
    return body.encode() if isinstance(body, str) else body


def _listed(folder) -> list[os.DirEntry]:
    with os.scandir(folder) as entries:
        return list(entries)


def _entries(folder) -> list[os.DirEntry]:
    try:
        return _listed(folder)
    except OSError:
        return []


def init_app(app) -> None:
    """With LIVE_TAGS (a folder), the publisher, its look at the folder before the first request (files of another
    epoch, or of changes since, taken away), and every write request's look at the changes before its answer."""
    folder = app.config.get("LIVE_TAGS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o755)
    publisher = app.extensions["live_tags"] = Publisher(
        folder,
        app.config["DATABASE"],
        max_bytes=app.config.get("LIVE_TAGS_MAX_BYTES", MAX_BYTES) or 0,
        max_age=app.config.get("LIVE_TAGS_MAX_AGE", MAX_AGE),
    )
    publisher.tick()

    @app.after_request
    def _changed(response):
        from flask import request

        if request.method not in ("GET", "HEAD", "OPTIONS"):
            publisher.tick()
        return response


def publisher(app) -> Publisher | None:
    return app.extensions.get("live_tags")
