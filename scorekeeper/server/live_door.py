"""The live pages' door: a watching phone's repeated poll answered before Flask (issues 27 and 37).

A live page's twin (`…/live`, web/live.py) is asked every few seconds by every watching phone, and nearly always
answers "nothing changed" (`304 Not Modified` to an If-None-Match; to live.js, which says its tag in X-Live-Tag, a
`200` with Content-Length 0, so that waitress keeps the connection). Its answer is a function of the request and of the rows its page shows: the same request
(path, query, every header, the address) over the same rows gets the same answer. So the door, the outermost layer
of the WSGI app, keeps the last `304` Flask gave to each such request together with the version of those rows read
*before* Flask saw it, and answers the same request again with the same `304`, its headers as Flask made them,
without entering Flask (no request context, no session, no routing, no view) while that version has not moved.

The version is the page's own where its view says which page it is (`mark(environ, scope)`): a game's protokoll is
its game's and its club's rows in the table `live_versions`, which triggers in the database keep (migration m170:
any change to the game, its hands, deal, log, club table, or its club, by this process, another worker or another
program), read with one indexed SELECT on the door's own connection; a hand entered at another table moves nothing
this phone's page shows, and its poll stays before Flask. A view that says no scope is held to the whole file's
`PRAGMA data_version` (SQLite changes it whenever any other connection commits). A `304` that sets a cookie is never
kept, nor anything but a "nothing changed", nor an answer whose view did not mark it. A restore makes a new `epoch`, which every
scoped version includes.

Each answer still writes its request's log line, redacted as Flask's are. LIVE_DOOR (config) turns the door off.

What Flask's answer could depend on besides the request and the rows is fixed for the process (the build, the
config, the secret key), with one exception: a session cookie older than Flask's signed-cookie limit (31 days) would
read as no session; the door answers such a phone as before until its page changes.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import sqlite3
import threading
import time

from cachetools import LRUCache

from scorekeeper.server.logs import log
from scorekeeper.server.security import redact

MARK = "scorekeeper.live_door"  # set in the environ by a view whose 304 depends on the request and the database only
KEPT = 8192  # requests kept per process (a phone watching a page is one; the oldest goes first)
# The live addresses whose view names its scope: a game's protokoll, a drive's screen and table pages.
SCOPED = re.compile(r"^/(g)/([^/]+)/live$|^/(d)/([^/]+)/(?:screen|t/\d+/[^/]+)/live$")
EPOCH = "(SELECT version FROM live_versions WHERE scope = 'epoch')"
VERSIONS = {
    "g": "SELECT (SELECT version FROM live_versions WHERE scope = 'g:' || :id), (SELECT v.version FROM club_tables t"
    " JOIN club_evenings e ON e.id = t.evening_id JOIN live_versions v ON v.scope = 'c:' || e.club_id"
    f" WHERE t.game_id = :id), {EPOCH}",
    "d": f"SELECT (SELECT version FROM live_versions WHERE scope = 'd:' || :id), {EPOCH}",
}


def mark(environ, scope: tuple[str, str] | None = None) -> None:
    """Said by a live twin's `304`: its answer depends on the request and the database only, and where `scope` says
    which page it is (("g", game id) or ("d", drive id)), on that page's rows only (web/live.unchanged)."""
    environ[MARK] = scope or True


def scope_of(path: str) -> tuple[str, str] | None:
    """The page a live address is of, by its path, as its view will say it (None: not one the door knows)."""
    found = SCOPED.match(path)
    if found is None:
        return None
    kind, ident = (found.group(1), found.group(2)) if found.group(1) else (found.group(3), found.group(4))
    return kind, ident


class LiveDoor:
    def __init__(self, wsgi_app, database: str, kept: int = KEPT):
        self.wsgi_app = wsgi_app
        self.database = database
        self.kept: LRUCache = LRUCache(maxsize=kept)  # request key: (scope, version, status, headers)
        self.lock = threading.Lock()  # the kept answers and the one connection, shared by the server's threads
        self.conn: sqlite3.Connection | None = None
        self.pid = 0

    def version(self, scope: tuple[str, str] | None):
        """The version of a page's rows (scope) or of the whole file (None: its data_version) on this process's own
        connection; None if it cannot be read (then the door stays out of the way). Called with the lock held."""
        try:
            if self.conn is None or self.pid != os.getpid():  # a forked worker opens its own
                self.conn = sqlite3.connect(self.database, isolation_level=None, check_same_thread=False, timeout=1)
                self.pid = os.getpid()
        except sqlite3.Error:
            self.conn = None
            return None
        try:
            if scope is None:
                return self.conn.execute("PRAGMA data_version").fetchone()[0]
            return self.conn.execute(VERSIONS[scope[0]], {"id": scope[1]}).fetchone()
        except sqlite3.Error:
            return None

    def __call__(self, environ, start_response):
        if (
            environ.get("REQUEST_METHOD") != "GET"
            or ("HTTP_IF_NONE_MATCH" not in environ and "HTTP_X_LIVE_TAG" not in environ)
            or not environ.get("PATH_INFO", "").endswith("/live")
        ):
            return self.wsgi_app(environ, start_response)
        started = time.perf_counter()
        key = request_key(environ)
        scope = scope_of(environ.get("PATH_INFO", ""))
        read = {}
        with self.lock:
            kept = self.kept.get(key)
            if kept is not None and self.version(kept[0]) != kept[1]:
                kept = None
            if kept is None:  # what Flask's answer will be kept against, read before Flask reads the rows
                read = {None: self.version(None)} | ({scope: self.version(scope)} if scope else {})
        if kept is not None:
            _, _, status, headers = kept
            start_response(status, list(headers))
            if log.isEnabledFor(logging.INFO):
                query = environ.get("QUERY_STRING")
                path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "") + (f"?{query}" if query else "")
                log.info(f"GET {redact(path)} 304 {(time.perf_counter() - started) * 1000:.1f}ms")
            return [b""]
        answered = {}

        def keep_start(status, headers, exc_info=None):
            answered["status"], answered["headers"] = status, headers
            return start_response(status, headers, exc_info)

        body = self.wsgi_app(environ, keep_start)
        status, headers = answered.get("status", ""), answered.get("headers") or []
        marked = environ.get(MARK)
        said = None if marked is True else marked  # the scope its view said, or the whole file
        if (
            marked
            and read.get(said) is not None
            and nothing_changed(status, headers)
            and not any(name.lower() == "set-cookie" for name, _ in headers)
        ):
            with self.lock:
                self.kept[key] = (said, read[said], status, tuple(headers))  # the least recently used goes past KEPT
        return body


def nothing_changed(status: str, headers) -> bool:
    """Whether an answer says "nothing changed": a `304`, or live.js's `200` with Content-Length 0 (web/live.py)."""
    if status.startswith("304"):
        return True
    return status.startswith("200") and any(
        name.lower() == "content-length" and value.strip() == "0" for name, value in headers
    )


def request_key(environ) -> bytes:
    """What a request is, for the door: its method, path and query, every header it carries, the scheme and the
    address it came from (what Flask, the proxy fix and the views could read), as one digest. The headers in the
    order they came (a phone sends its own in the same order each time; another order only misses the door)."""
    parts = [
        environ.get("SCRIPT_NAME", ""),
        environ.get("PATH_INFO", ""),
        environ.get("QUERY_STRING", ""),
        environ.get("wsgi.url_scheme", ""),
        environ.get("REMOTE_ADDR", ""),
        environ.get("SERVER_NAME", ""),
        str(environ.get("SERVER_PORT", "")),
        environ.get("CONTENT_TYPE", ""),
        environ.get("CONTENT_LENGTH", ""),
    ]
    parts.extend(f"{k}={v}" for k, v in environ.items() if k.startswith("HTTP_"))
    return hashlib.blake2b("\0".join(parts).encode("utf-8", "surrogateescape"), digest_size=16).digest()


def init_app(app) -> None:
    """The door as the outermost layer of the app's WSGI stack (after the proxy fix and the prefix), unless LIVE_DOOR
    is off."""
    if app.config.get("LIVE_DOOR", True):
        app.wsgi_app = LiveDoor(app.wsgi_app, app.config["DATABASE"])
