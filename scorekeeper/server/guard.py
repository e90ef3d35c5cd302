"""What keeps one stranger from taking the server from everyone: rate limits and the storage guard on every write that
makes rows, decided here in one place (`writes`), and the purge of old idempotency keys.

Every route that takes a POST, PUT, PATCH or DELETE says what guards it: `@guard.writes(kind)` (the kind's rate limit
and, for a kind that makes rows, the storage guard), or `@guard.exempt(reason)`; tests/integration/test_write_guards.py
walks the URL map and fails on a write route that says neither.

Rate limits are Flask-Limiter's, counted per client (`client`: the address, or an IPv6 client's /64; the real one
behind a trusted proxy, see proxy.py) in one file every server process shares (limits_file.py, LIMITS_FILE), so a
limit is what it says however many workers answer (issue 43: counted in each process's memory, a client had it once
per worker). A file that cannot be used is not a 500: Flask-Limiter counts in the process's memory meanwhile (its
in-memory fallback) and goes back to the file once it answers. Writes that carry a game's edit key (hands) are not
limited: a table must never be refused its next hand, and the limiter is not even asked about them (`_skipped`, its
request filter: its checks cost a hand entry more than the write's own statements).
"""

from __future__ import annotations

import functools
import os
import shutil
import sqlite3
import threading
import time
from datetime import timedelta

from flask import current_app, request
from flask_limiter import Limiter
from flask_limiter.constants import ConfigVars
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter

from scorekeeper.clubs.service import client_key
from scorekeeper.server import limits_file
from scorekeeper.server.db import get_db
from scorekeeper.storage import store, writing


def client() -> str:
    """Whom a rate limit counts: the client's IPv4 address, or its IPv6 /64 (one home or phone line may take any address
    in its /64, as the club login throttle counts too); request.remote_addr is the client the trusted proxy saw."""
    return client_key(request.remote_addr)


def address() -> str:
    """As `client`, but an IPv6 address whole: each phone on a club's IPv6 Wi-Fi (issue 34, F-A2)."""
    return client_key(request.remote_addr, whole=True)


limiter = Limiter(key_func=client, strategy="moving-window", headers_enabled=True, in_memory_fallback_enabled=True)

# The limits and thresholds (LIMIT_*, MAX_DATABASE_BYTES, MIN_FREE_DISK_BYTES, IDEMPOTENCY_*, RATELIMIT_ENABLED) are
# configuration keys with their defaults in scorekeeper/config.py.

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

# kind: (its limit's configuration key, whether the storage guard applies). The limit is one budget per client and
# kind, shared by every route of the kind: a club's table is a new game, as /api/games and /new/<variant> are.
KINDS = {
    "new-game": ("LIMIT_NEW_GAMES", True),
    "import": ("LIMIT_IMPORTS", True),
    "new-club": ("LIMIT_NEW_CLUBS", True),
    "evening": ("LIMIT_NEW_EVENINGS", True),
    "members": ("LIMIT_NEW_MEMBERS", True),
    "drive": ("LIMIT_NEW_DRIVES", True),
    # A login keeps one throttle row per club and address, and an admin must still get in on a full disk.
    "login": ("LIMIT_LOGINS", False),
}


def _limit(name: str):
    return lambda: current_app.config[name]


def _not_a_write() -> bool:
    return request.method not in WRITE_METHODS


def writes(kind: str, unless=None, cost=1):
    """The one guard of a write route: the kind's rate limit (Flask-Limiter, before the view runs; not when `unless()`
    says so), then, for a kind that makes rows, the storage guard (507). A GET of the same route (its form) is
    neither. `cost` (or `cost()`, asked before the view runs) is what one write takes from the budget: the rows of
    the kind it makes (a drawn half's tables are that many new games)."""
    setting, storage = KINDS[kind]
    exempt = _not_a_write if unless is None else (lambda: _not_a_write() or unless())
    limit = limiter.shared_limit(_limit(setting), scope=kind, exempt_when=exempt, cost=cost)

    def decorate(view):
        @functools.wraps(view)
        def guarded(*args, **kwargs):
            if storage and request.method in WRITE_METHODS:
                check_storage()
            return view(*args, **kwargs)

        guarded.guard = kind  # type: ignore[attr-defined]  # a mark on the view function, read by declared()
        return limit(guarded)

    return decorate


def _wrong(response) -> bool:
    return response.status_code in (400, 404)


def limited(setting: str, scope: str):
    """A rate limit of its own on a route that makes no row but must not be tried without end, whatever the method
    (a club table's code, scanned or typed: a right code gives a table's edit right). Only wrong tries (400, 404) are
    counted, per `address` (an IPv6 phone by itself) and, under `setting`_NETWORK, per `client` (its /64): a hall's
    phones scan the right codes as often as they like, and a stranger's wrong ones use up the stranger's budget."""
    per_address = limiter.shared_limit(_limit(setting), scope=scope, key_func=address, deduct_when=_wrong)
    per_network = limiter.shared_limit(
        _limit(f"{setting}_NETWORK"), scope=f"{scope}-network", key_func=client, deduct_when=_wrong
    )

    def decorate(view):
        out = per_network(per_address(view))
        out.limited = scope
        return out

    return decorate


# The reason of the hand routes: a table must never be refused its next hand (MAX_HANDS bounds a game's rows).
EDIT_KEY = "carries the game's edit key: a table is never refused its next hand (MAX_HANDS bounds a game)"


def exempt(reason: str):
    """A write route that is neither limited nor storage-guarded, and why (the URL map's test reads the reason)."""
    if not reason.strip():
        raise ValueError("an exempt write route says why")

    def decorate(view):
        view.guard_exempt = reason
        return view

    return decorate


def declared(view) -> str | None:
    """What a view says guards it: its kind, "exempt: <reason>", or None."""
    if getattr(view, "guard", None):
        return view.guard
    reason = getattr(view, "guard_exempt", None)
    return f"exempt: {reason}" if reason else None


class StorageFull(HTTPException):
    """The storage guard's refusal: past a threshold, nothing new is made (games already started go on)."""

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
    """Forget the idempotency keys older than IDEMPOTENCY_MAX_AGE by the rows' clock, but not the newest
    IDEMPOTENCY_KEEP of each game (a clock jump purges none of those); answers how many."""
    with app.app_context():
        db = get_db()
        cutoff = db.clock() - timedelta(seconds=app.config["IDEMPOTENCY_MAX_AGE"])
        with writing(db):
            return store.purge_idempotency(
                db, cutoff.isoformat(timespec="seconds"), app.config.get("IDEMPOTENCY_KEEP", 100)
            )


def _purge_now_and_then() -> None:
    """The first request of every IDEMPOTENCY_PURGE_EVERY seconds purges, in each process: no cron job to set up."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # flask types current_app as the Flask app it proxies
    now = time.monotonic()
    if now - app.extensions["scorekeeper.keys_purged"] < app.config["IDEMPOTENCY_PURGE_EVERY"]:
        return
    if not _purging.acquire(blocking=False):
        return
    try:
        app.extensions["scorekeeper.keys_purged"] = now
        purge_keys_now(app)
    except (sqlite3.Error, OSError) as exc:  # the request itself meets the trouble, and says it (or /healthz does)
        app.logger.warning("idempotency keys not purged: %s", exc)
    finally:
        _purging.release()


# The reason of the live pages' light twins (web/live.py): a read of a row or two, asked every few seconds.
POLLED = "a watching page's question whether it changed (…/live): a row or two read, asked every few seconds"


def polled(view):
    """A live page's light twin: a read the limiter never limits, so it is not asked about it (see unlimited)."""
    view.limiter_skip = POLLED
    return view


def unlimited(app) -> frozenset[str]:
    """The endpoints the limiter is not asked about: the keyed hand entry (exempt for EDIT_KEY) and the live pages'
    polls (`polled`), where no limit of their own was put (`limited`). The limiter has no default or application-wide
    limits (tests/integration/test_lean_hand_entry.py holds it so), so nothing it would check there is skipped. Worked
    out at the first request, when every blueprint is registered."""
    found = app.extensions.get("scorekeeper.unlimited")
    if found is None:
        found = frozenset(
            endpoint
            for endpoint, view in app.view_functions.items()
            if (getattr(view, "guard_exempt", None) == EDIT_KEY or getattr(view, "limiter_skip", None) == POLLED)
            and not getattr(view, "limited", None)
        )
        app.extensions["scorekeeper.unlimited"] = found
    return found


@limiter.request_filter
def _skipped() -> bool:
    """Flask-Limiter's public request filter: the keyed hand entry and the live polls are exempt before it resolves any
    limit (the filter is the first thing its before-request hook asks)."""
    return request.endpoint in unlimited(current_app)


def counts_file(config) -> str | None:
    """Where the rate limits are counted: LIMITS_FILE, else beside the database (None: a database in memory, so the
    counts are too)."""
    database = config["DATABASE"]
    return config.get("LIMITS_FILE") or (None if database == ":memory:" else database + ".limits")


def init_app(app) -> None:
    app.url_map.converters["int"] = AsciiInteger
    path = counts_file(app.config)
    # Flask-Limiter's own configuration, made from ours (config.py holds the keys an operator sets).
    app.config[ConfigVars.STORAGE_URI] = limits_file.uri(path) if path else "memory://"
    app.config[ConfigVars.STORAGE_OPTIONS] = {"max_entries": app.config["LIMITS_MAX_ENTRIES"]} if path else {}
    limiter.init_app(app)
    app.extensions["scorekeeper.keys_purged"] = float("-inf")
    app.before_request(_purge_now_and_then)
