"""The live pages' door: a watching phone's repeated poll answered before Flask (issue 27).

A live page's twin (`…/live`, web/live.py) is asked every few seconds by every watching phone, and nearly always
answers `304 Not Modified`. Its answer is a function of the request and of what the database holds: the same
request (path, query, every header, the address) over the same database gets the same answer. So the door, the
outermost layer of the WSGI app, keeps the last `304` Flask gave to each such request together with the database's
`PRAGMA data_version` read *before* Flask saw it: a number SQLite changes whenever any other connection, in this
process or another, commits to the file. The same request again while that number has not moved is answered with
the same `304`, its headers as Flask made them, without entering Flask (no request context, no session, no routing,
no view); anything committed anywhere in between, and the request goes to Flask, which reads the rows and answers
(and the door keeps its new `304`). A `304` that sets a cookie is never kept, nor is anything but a `304`, nor an
answer whose view did not say (by `mark`) that it is such a function.

Each answer still writes its request's log line, redacted as Flask's are. LIVE_DOOR (config) turns the door off.

What Flask's answer could depend on besides the request and the file is fixed for the process (the build, the
config, the secret key), with one exception: a session cookie older than Flask's signed-cookie limit (31 days) would
read as no session; the door answers such a phone as before until the next commit anywhere.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import threading
import time

from cachetools import LRUCache

from scorekeeper.server.logs import log
from scorekeeper.server.security import redact

MARK = "scorekeeper.live_door"  # set in the environ by a view whose 304 depends on the request and the database only
KEPT = 2048  # requests kept per process (a phone watching a page is one; the oldest goes first)


def mark(environ) -> None:
    """Said by a live twin's `304`: its answer depends on the request and the database only (web/live.unchanged)."""
    environ[MARK] = True


class LiveDoor:
    def __init__(self, wsgi_app, database: str, kept: int = KEPT):
        self.wsgi_app = wsgi_app
        self.database = database
        self.kept: LRUCache = LRUCache(maxsize=kept)  # request key: (data_version, status, headers)
        self.lock = threading.Lock()  # the kept answers and the one connection, shared by the server's threads
        self.conn: sqlite3.Connection | None = None
        self.pid = 0

    def data_version(self) -> int | None:
        """The database's data_version on this process's own connection (None if it cannot be read: then the door
        stays out of the way). Called with the lock held."""
        try:
            if self.conn is None or self.pid != os.getpid():  # a forked worker opens its own
                self.conn = sqlite3.connect(self.database, isolation_level=None, check_same_thread=False, timeout=1)
                self.pid = os.getpid()
            return self.conn.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            self.conn = None
            return None

    def __call__(self, environ, start_response):
        if (
            environ.get("REQUEST_METHOD") != "GET"
            or "HTTP_IF_NONE_MATCH" not in environ
            or not environ.get("PATH_INFO", "").endswith("/live")
        ):
            return self.wsgi_app(environ, start_response)
        started = time.perf_counter()
        key = request_key(environ)
        with self.lock:
            version = self.data_version()
            kept = self.kept.get(key)
            if kept is None or version is None or kept[0] != version:
                kept = None
        if kept is not None:
            _, status, headers = kept
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
        if (
            version is not None
            and environ.get(MARK)
            and status.startswith("304")
            and not any(name.lower() == "set-cookie" for name, _ in headers)
        ):
            with self.lock:
                self.kept[key] = (version, status, tuple(headers))  # the least recently used goes past KEPT
        return body


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
