"""What keeps one stranger from taking the server from everyone: rate limits on the writes that need no key, a storage
guard on new games, and the purge of old idempotency keys.

Rate limits are Flask-Limiter's, counted per client address (the real one behind a trusted proxy: see proxy.py) in
the memory of each server process: with `make run`'s one process that is exact; with N worker processes a client gets
up to N times the limit, which still bounds it. Writes that carry a game's edit key (hands) are not limited: a table
must never be refused its next hand.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from datetime import UTC, datetime, timedelta

from flask import current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter

from scorekeeper.storage import store, writing
from scorekeeper.web.db import get_db

limiter = Limiter(key_func=get_remote_address, storage_uri="memory://", strategy="moving-window", headers_enabled=True)

# The limits and thresholds (LIMIT_*, MAX_DATABASE_BYTES, MIN_FREE_DISK_BYTES, IDEMPOTENCY_*, RATELIMIT_ENABLED) are
# configuration keys with their defaults in scorekeeper/config.py.


def _limit(name: str):
    return lambda: current_app.config[name]


def _only_posts() -> bool:
    return request.method != "POST"


# Decorators for the views; the limits themselves come from the app's configuration when a request is made.
new_game = limiter.shared_limit(_limit("LIMIT_NEW_GAMES"), scope="new-game", exempt_when=_only_posts)
new_import = limiter.shared_limit(_limit("LIMIT_IMPORTS"), scope="import", exempt_when=_only_posts)
new_club = limiter.shared_limit(_limit("LIMIT_NEW_CLUBS"), scope="new-club", exempt_when=_only_posts)
login = limiter.shared_limit(_limit("LIMIT_LOGINS"), scope="login", exempt_when=_only_posts)


class StorageFull(HTTPException):
    code = 507
    description = "the server's storage is full"


def check_storage() -> None:
    """Refuse (507) what would make the database grow without a game's key: past MAX_DATABASE_BYTES, or with less
    than MIN_FREE_DISK_BYTES left on its disk."""
    path = current_app.config["DATABASE"]
    size = sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))
    free = shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free
    if size > current_app.config["MAX_DATABASE_BYTES"] or free < current_app.config["MIN_FREE_DISK_BYTES"]:
        raise StorageFull()


class AsciiInteger(IntegerConverter):
    """<int:…> in a route, ASCII digits only: werkzeug's own also matches "١٢" and turns it into 12."""

    regex = r"[0-9]{1,9}"


# ---------------------------------------------------------------- idempotency keys

_purging = threading.Lock()


def purge_keys_now(app) -> int:
    """Forget the idempotency keys older than IDEMPOTENCY_MAX_AGE; answers how many."""
    with app.app_context():
        cutoff = datetime.now(UTC) - timedelta(seconds=app.config["IDEMPOTENCY_MAX_AGE"])
        db = get_db()
        with writing(db):
            return store.purge_idempotency(db, cutoff.isoformat(timespec="seconds"))


def _purge_now_and_then() -> None:
    """The first request of every IDEMPOTENCY_PURGE_EVERY seconds purges, in each process: no cron job to set up."""
    app = current_app._get_current_object()
    now = time.monotonic()
    if now - app.extensions["scorekeeper.keys_purged"] < app.config["IDEMPOTENCY_PURGE_EVERY"]:
        return
    if not _purging.acquire(blocking=False):
        return
    try:
        app.extensions["scorekeeper.keys_purged"] = now
        purge_keys_now(app)
    finally:
        _purging.release()


def init_app(app) -> None:
    app.url_map.converters["int"] = AsciiInteger
    limiter.init_app(app)
    app.extensions["scorekeeper.keys_purged"] = float("-inf")
    app.before_request(_purge_now_and_then)
