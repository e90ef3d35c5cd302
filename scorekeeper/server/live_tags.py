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
writes nothing), in that reader's language (`<tag>.<language>` marks them; any worker answers what changed from the
tag alone, games/pages/protokoll.py), and only over the versions read before the answer's state, as the tags
themselves; they go with the page's next change.

**Bounded by construction** (issue 43): every file and folder made here is counted in the folder's `.lock` before it
is made, and nothing is made past LIVE_TAGS_MAX_BYTES (server/live_tags_folder.py says how).

**A hand's cost** (issue 47): its write's look at the changes reads them in one statement, and moves its page's files
aside by one rename of the page's folder; what it removes is the generation before (a handful of files), by plain
os calls on string paths.

**At start and after a restore.** The folder outlives the app (/run lives as long as the machine). `.lock` also holds
the epoch the files are of (live_versions, made anew by every restore) and the last change whose pages' files have
been taken away: a process that starts (every worker, the heavy reads' drawing process, the command line) looks before
its first request, takes away the files of what changed since, and empties the folder if the epoch is another (a
restore) or the changes went backwards (a file put back some other way). A running worker does the same at its next
look (every write request, and every TICK), and `scorekeeper restore` before it returns.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import threading
import time

from scorekeeper.server.live_door import VERSIONS
from scorekeeper.server.live_tags_folder import (
    FILE,
    FOLDER,
    LARGEST,
    LOCK,
    MAX_AGE,
    MAX_BYTES,
    WAS,
    Folder,
    State,
    cost,
)

__all__ = ["LARGEST", "LOCK", "MAX_AGE", "MAX_BYTES", "Publisher", "init_app", "publisher"]

# seconds between two looks at the changes for another program's writes (the CLI's, sqlite3's): every write of the
# app's own, in any worker, looks at once, before its answer (py-spy at 300 tables: five looks a second were 7 % of
# a worker's CPU)
TICK = 1.0
TAG = re.compile(r"[0-9a-f]{16}")
IDENT = re.compile(r"[A-Za-z0-9_-]{1,64}")
LANGUAGE = re.compile(r"[a-z]{2,3}(?:_[A-Z]{2})?")
CLUB_GAMES = "SELECT t.game_id FROM club_tables t JOIN club_evenings e ON e.id = t.evening_id WHERE e.club_id = ?"
LOOK = (
    "SELECT (SELECT version FROM live_versions WHERE scope = 'epoch'),"
    " (SELECT coalesce(max(seq), 0) FROM live_versions)"
)
# One read of a look: its first row (0, the epoch, the last change), then (1, scope, seq) of each change since.
CHANGES = (
    "SELECT 0, (SELECT version FROM live_versions WHERE scope = 'epoch'),"
    " (SELECT coalesce(max(seq), 0) FROM live_versions)"
    " UNION ALL SELECT 1, scope, seq FROM live_versions WHERE seq > ? ORDER BY 1, 3"
)

log = logging.getLogger("scorekeeper.server.live_tags")


def _size(path: str) -> int | None:
    try:
        return os.stat(path).st_size
    except FileNotFoundError:
        return None


class Publisher(Folder):
    def __init__(
        self,
        folder: str,
        database: str,
        tick: float = TICK,
        max_bytes: int = MAX_BYTES,
        max_age: float | None = MAX_AGE,
    ):
        super().__init__(folder, max_bytes, max_age)
        self.database = database
        self.every = tick
        self.lock = threading.Lock()  # one look at the changes at a time, on this process's own connection
        self.conn: sqlite3.Connection | None = None
        self.pid = 0
        self.last: int | None = None  # the last change seen (None: not looked yet: the folder's record decides)
        self.epoch = None
        self.thread: threading.Thread | None = None
        self.thread_pid = 0
        self.next_sweep = 0.0  # this process's next look at the record's time for a sweep

    # ------------------------------------------------------------ a tag told to a phone

    def versions(self, db, kind: str, ident: str):
        """What a page's state is made of, as the live door reads it (`db`: the request's connection)."""
        return tuple(db.execute(VERSIONS[kind], {"id": ident}).fetchone())

    def publish(self, db, kind: str, ident: str, tag: str, before, reader: str | None = None, page=None) -> None:
        """`tag` is the page's current state, worked out from rows read after `versions` gave `before`: keep its file
        while those versions stand. `reader`: the language of a plain reader (one who may not edit), whose answer
        to this tag, once the page has changed, may be kept for the other phones (`keep_answer`); `page`: a body kept
        with the mark (the protokoll keeps none since issue 47: the changed poll needs only the tag; the folder's bound
        is tested with it)."""
        if not (TAG.fullmatch(tag) and IDENT.fullmatch(ident)) or kind not in VERSIONS:
            return
        if reader is not None and not LANGUAGE.fullmatch(reader):
            reader = None
        self._watch()
        path = f"{self.base}/{kind}/{ident}/{tag}"
        mark = f"{path}.{reader}" if reader is not None else None
        try:
            if _size(path) is not None and (
                mark is None or ((size := _size(mark)) is not None and (page is None or size))
            ):
                return
            body = None if page is None else _bytes(page)
            if body is not None and cost(len(body)) > self.max_bytes // LARGEST:
                body = None  # too large to keep: the tag still is, and a worker that did not draw it answers the page
            wanted: list[tuple[str, bytes | None]] = [(path, None)]
            if mark is not None:  # the app's own mark: nginx never answers with it
                wanted.append((mark, body))
            if not self.keep(wanted):
                return  # the folder is full: this page's polls come to the app
            if self.versions(db, kind, ident) != before:
                self.drop(path)  # a change came between: it may have been taken away before this file
        except sqlite3.Error as exc:  # the versions could not be read again: the file is not kept
            log.warning("the live tag %s could not be checked: %s", path, exc)
            self.drop(path)
        except OSError as exc:
            log.warning("the live tag %s could not be kept: %s", path, exc)
            self.drop(path)

    def keep_answer(self, db, kind: str, ident: str, asked: str, reader: str, parts: bool, body, before) -> None:
        """A plain reader in `reader`'s language asked with `asked`, a tag of the page before its last change, and was
        answered `body` (what changed if `parts`, else the page), worked out from rows read after `versions` gave
        `before`: keep it for nginx to give the other phones that ask the same, while those versions stand."""
        if not (TAG.fullmatch(asked) and IDENT.fullmatch(ident) and LANGUAGE.fullmatch(reader)) or kind not in VERSIONS:
            return
        if _size(f"{self.base}/{WAS}/{kind}/{ident}/{asked}.{reader}") is None:
            return  # not a tag the app told a reader in this language just before: a made-up one writes nothing
        path = f"{self.base}/{kind}/{ident}/{asked}.{'parts' if parts else 'page'}"
        try:
            if _size(path) is not None or not self.keep([(path, _bytes(body))]):
                return
            if self.versions(db, kind, ident) != before:
                self.drop(path)
        except sqlite3.Error as exc:
            log.warning("the live answer %s could not be checked: %s", path, exc)
            self.drop(path)
        except OSError as exc:
            log.warning("the live answer %s could not be kept: %s", path, exc)
            self.drop(path)

    # ------------------------------------------------------------ taking them away

    def tick(self) -> None:
        """Remove the files of every page changed since the last look (and every file, at a new epoch)."""
        with self.lock:
            try:
                conn = self._connection()
                if self.last is None:
                    self._resync(*conn.execute(LOOK).fetchone())
                rows = conn.execute(CHANGES, (self.last,)).fetchall()
                _, epoch, top = rows[0]
                if epoch != self.epoch or top < self.last:
                    self._resync(epoch, top)
                    rows = conn.execute(CHANGES, (self.last,)).fetchall()
                changed = rows[1:]
                if not changed:
                    return
                pages = []
                for _, scope, seq in changed:
                    kind, _, ident = scope.partition(":")
                    if kind == "c":
                        pages += [("g", game_id, seq) for (game_id,) in conn.execute(CLUB_GAMES, (ident,)).fetchall()]
                    elif kind in VERSIONS:
                        pages.append((kind, ident, seq))
                with self.locked() as state:
                    for kind, ident, seq in pages:
                        if IDENT.fullmatch(str(ident)):
                            self._remove(state, kind, ident, seq)
                    self.last = max(self.last, changed[-1][2])
                    if state.known and state.epoch == self.epoch:
                        state.seq = max(state.seq, self.last)
            except sqlite3.Error as exc:
                log.warning("the live tags could not be brought up to date: %s; all are taken away", exc)
                self.last = None
                try:
                    with self.locked() as state:
                        self.clear(state)
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
        with self.locked() as state:
            if state.known and state.epoch == epoch and state.seq <= top:
                self.last = state.seq  # what changed since is taken away by this look
            else:
                self.clear(state)
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
        (keep_answer): its folder renamed into `was`, in place of the generation before, which goes. Every worker
        sees every change: the first moves the files and marks the change (`was/…/.<seq>`), the others find the
        mark and leave alone what was told since. Called with the folder's lock held."""
        current, was = f"{self.base}/{kind}/{ident}", f"{self.base}/{WAS}/{kind}/{ident}"
        mark = f"{was}/.{seq}"
        if os.path.exists(mark):
            return
        state.total -= self.gone(was)
        try:
            moved = self._moved(state, current, was, kind)
        except OSError:  # the folder is in trouble: the files go, without their marks
            state.total -= self.gone(current)
            return
        need = FILE if moved else 2 * FILE  # the mark, and its folder where nothing was moved
        if state.total + need > self.max_bytes:
            return  # no mark: another worker moves what was told since (a cost)
        state.total += need  # counted first, as every file
        state.save()
        try:
            if not moved:
                os.mkdir(was)
            need -= FILE if not moved else 0
            os.close(os.open(mark, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o644))  # the app's own: nginx reads none
            need -= FILE
        except OSError:
            state.total -= need

    def _moved(self, state: State, current: str, was: str, kind: str) -> bool:
        """The page's folder renamed to `was` (its count goes with it); False if there is none."""
        try:
            os.rename(current, was)
            return True
        except FileNotFoundError:
            pass
        for folder in (f"{self.base}/{WAS}", f"{self.base}/{WAS}/{kind}"):  # two folders, made once
            if not os.path.isdir(folder):
                self.make(state, [(folder, FOLDER, 0, FILE)], FILE)  # counted first, as every file
        if not os.path.isdir(current):
            return False
        os.rename(current, was)
        return True

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
            with self.locked() as state:
                if state.sweep > now:
                    return False
                state.sweep = now + self.sweep_every
                return True
        except OSError:
            return False


def _bytes(body) -> bytes:
    return body.encode() if isinstance(body, str) else body


def init_app(app) -> None:
    """With LIVE_TAGS (a folder), the publisher, its look at the folder before the first request (files of another
    epoch, or of changes since, taken away), and every write request's look at the changes before its answer."""
    folder = app.config.get("LIVE_TAGS")
    if not folder:
        return
    os.makedirs(folder, exist_ok=True)
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
