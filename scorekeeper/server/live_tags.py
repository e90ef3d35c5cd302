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

A tag is the page's own state (web/live.py: its rows' versions, whether the phone may edit, the language, the address,
the build): a file says only "this page, as one phone saw it, is still as it was", and a phone that sends another's
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
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import shutil
import sqlite3
import tempfile
import threading
import time
from contextlib import contextmanager
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
CLUB_GAMES = "SELECT t.game_id FROM club_tables t JOIN club_evenings e ON e.id = t.evening_id WHERE e.club_id = ?"

log = logging.getLogger("scorekeeper.server.live_tags")


class Publisher:
    def __init__(self, folder: str, database: str, tick: float = TICK):
        self.folder = Path(folder)
        self.database = database
        self.every = tick
        self.lock = threading.Lock()  # one look at the changes at a time, on this process's own connection
        self.conn: sqlite3.Connection | None = None
        self.pid = 0
        self.last: int | None = None  # the last change seen (None: not looked yet: every file goes)
        self.epoch = None
        self.thread: threading.Thread | None = None
        self.thread_pid = 0

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
            self._folder(path.parent)
            path.touch()
            os.chmod(path, 0o644)
            if mark is not None and page is not None and not (mark.exists() and mark.stat().st_size):
                self._write(mark, page)  # the app's own mark: nginx never answers with it
            elif mark is not None and not mark.exists():
                mark.touch()
            if self.versions(db, kind, ident) != before:
                path.unlink(missing_ok=True)  # a change came between: it may have been taken away before this file
        except sqlite3.Error as exc:  # the versions could not be read again: the file is not kept
            log.warning("the live tag %s could not be checked: %s", path, exc)
            self._forget(path)
        except OSError as exc:
            log.warning("the live tag %s could not be kept: %s", path, exc)
            self._forget(path)

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
            if path.exists():
                return
            self._folder(path.parent)
            self._write(path, body)
            if self.versions(db, kind, ident) != before:
                path.unlink(missing_ok=True)
        except sqlite3.Error as exc:
            log.warning("the live answer %s could not be checked: %s", path, exc)
            self._forget(path)
        except OSError as exc:
            log.warning("the live answer %s could not be kept: %s", path, exc)
            self._forget(path)

    @staticmethod
    def _write(path: Path, body) -> None:
        """`body` as the file `path`, whole or not at all (written beside it, then moved in), readable by nginx."""
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(body.encode() if isinstance(body, str) else body)
                os.fchmod(out.fileno(), 0o644)
            os.replace(temporary, path)
        except OSError:
            Path(temporary).unlink(missing_ok=True)
            raise

    @staticmethod
    def _folder(folder: Path) -> None:
        if not folder.is_dir():
            for each in (folder.parent, folder):  # readable by nginx whatever the umask
                each.mkdir(exist_ok=True)
                os.chmod(each, 0o755)

    @staticmethod
    def _forget(path: Path) -> None:
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass  # then the next look at the changes takes it away, or it stands for what it was written for

    # ------------------------------------------------------------ taking them away

    def tick(self) -> None:
        """Remove the files of every page changed since the last look."""
        with self.lock:
            try:
                conn = self._connection()
                epoch = conn.execute("SELECT version FROM live_versions WHERE scope = 'epoch'").fetchone()
                if self.last is None or epoch != self.epoch:
                    self.last = conn.execute("SELECT coalesce(max(seq), 0) FROM live_versions").fetchone()[0]
                    self.epoch = epoch
                    self._clear()
                    return
                changed = conn.execute(
                    "SELECT scope, seq FROM live_versions WHERE seq > ? ORDER BY seq", (self.last,)
                ).fetchall()
                for scope, seq in changed:
                    self.last = max(self.last, seq)
                    kind, _, ident = scope.partition(":")
                    if kind == "c":
                        for (game_id,) in conn.execute(CLUB_GAMES, (ident,)).fetchall():
                            self._remove("g", game_id, seq)
                    elif kind in VERSIONS:
                        self._remove(kind, ident, seq)
            except sqlite3.Error as exc:
                log.warning("the live tags could not be brought up to date: %s; all are taken away", exc)
                self.last = None
                self._clear()

    def _connection(self) -> sqlite3.Connection:
        if self.conn is None or self.pid != os.getpid():  # a forked worker opens its own
            self.conn = sqlite3.connect(self.database, isolation_level=None, check_same_thread=False, timeout=5)
            self.pid = os.getpid()
        return self.conn

    def _remove(self, kind: str, ident: str, seq: int) -> None:
        """A page changed (change `seq`): its files leave nginx's sight, kept aside as the tags of its state before
        (keep_answer). Every worker sees every change: the first moves the files (under the folder's lock), the others
        find the change's mark and leave alone what was told since."""
        if not IDENT.fullmatch(ident):
            return
        current, was = self.folder / kind / ident, self.folder / WAS / kind / ident
        with self._locked():
            if (was / f".{seq}").exists():
                return
            shutil.rmtree(was, ignore_errors=True)
            try:
                was.parent.mkdir(parents=True, exist_ok=True)
                os.rename(current, was)
            except FileNotFoundError:
                pass  # no file was told since the last change
            except OSError:  # the folder is in trouble: the files go, without their marks
                shutil.rmtree(current, ignore_errors=True)
            try:
                was.mkdir(exist_ok=True)
                (was / f".{seq}").touch()
            except OSError:
                pass

    @contextmanager
    def _locked(self):
        """The folder's lock, between the workers (flock on `.lock`)."""
        with open(self.folder / ".lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield

    def _clear(self) -> None:
        for kind in (*VERSIONS, WAS):
            shutil.rmtree(self.folder / kind, ignore_errors=True)

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


def init_app(app) -> None:
    """With LIVE_TAGS (a folder), the publisher, and every write request's look at the changes before its answer."""
    folder = app.config.get("LIVE_TAGS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o755)
    publisher = app.extensions["live_tags"] = Publisher(folder, app.config["DATABASE"])

    @app.after_request
    def _changed(response):
        from flask import request

        if request.method not in ("GET", "HEAD", "OPTIONS"):
            publisher.tick()
        return response


def publisher(app) -> Publisher | None:
    return app.extensions.get("live_tags")
