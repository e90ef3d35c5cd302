"""GET /healthz for a load balancer, systemd or a monitor: 200 when a hand could be stored now, else 503 with the
reason. It names no path, key or secret, and no rate limit applies to it.

What it asks, cheapest first: the writers' lock and SQLite's write lock (storage.probe), no migration pending, a small
test write beside the database (a full disk fails it, though SQLite may still have room in its own files), the free
space against MIN_FREE_DISK_BYTES ("low" is still 200: games go on), and the file's PRAGMA quick_check — the start's
result (create_app checks when it migrates), run again by a probe once INTEGRITY_CHECK_EVERY seconds have passed,
one probe at a time, so a probe does not read the whole file each time. A request that meets damage (SQLite's
"database disk image is malformed") marks it, and the next probe says "damaged" at once (web/errors.py). A folder
or file that cannot be written is "read-only" or "permission denied", never "damaged": restoring a backup over it
would lose the hands since.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
import time
from datetime import UTC, datetime

from flask import Blueprint, current_app, jsonify

from scorekeeper import storage
from scorekeeper.server.db import get_db
from scorekeeper.server.guard import limiter
from scorekeeper.storage import migrations, probe, reading

bp = Blueprint("health", __name__)
limiter.exempt(bp)
INTEGRITY = "scorekeeper.integrity"
_checking = threading.Lock()


def _reason(exc: Exception) -> str:
    """What went wrong, without the path an OSError would name."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"{type(exc).__name__}: {exc.strerror}"
    return f"{type(exc).__name__}: {exc}"


def _trouble_reason(found: str | None, exc: Exception) -> str:
    """Why the database cannot be written, in words an operator acts on (no path): a read-only folder or permission
    denied is no damaged file; a busy one is another program's lock."""
    if found in (storage.health.READ_ONLY, storage.health.PERMISSION):
        return f"the database cannot be written ({found}): {storage.health.MAKE_WRITABLE}"
    if found == storage.health.BUSY:
        return "the database is busy: another program holds SQLite's write lock"
    return _reason(exc)


def record(app, problems: list[str], source: str = "PRAGMA quick_check") -> None:
    """Keep the result of a quick check of the app's database (the start's, or a probe's), or damage a request met."""
    before = app.extensions.get(INTEGRITY)
    app.extensions[INTEGRITY] = {
        "problems": problems,
        "source": source,
        "at": time.monotonic(),
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "checks": (before["checks"] if before else 0) + 1,
    }


def damaged(app, problem: str) -> None:
    """A request met damage (SQLite: "database disk image is malformed"): /healthz says so at once, until a quick
    check finds the file sound again (a restart, or INTEGRITY_CHECK_EVERY later)."""
    record(app, [problem], source="a request met it")


def _integrity(app) -> dict:
    """The last quick check, first run again if it is older than INTEGRITY_CHECK_EVERY (or there is none)."""
    last = app.extensions.get(INTEGRITY)
    every = app.config.get("INTEGRITY_CHECK_EVERY")
    due = last is None or (every is not None and time.monotonic() - last["at"] >= every)
    if due and _checking.acquire(blocking=last is None):  # others meanwhile answer with the last result
        try:
            record(app, storage.check(app.config["DATABASE"]))
        finally:
            _checking.release()
    return app.extensions[INTEGRITY]


def _unavailable(reason: str, **more):
    response = jsonify(status="unavailable", reason=reason, **more)
    response.headers["Cache-Control"] = "no-store"
    return response, 503


def _integrity_answer(app):
    """503: the file is damaged, as the last quick check (or a request that met the damage) found it."""
    integrity = app.extensions[INTEGRITY]
    checked = {"checked_at": integrity["checked_at"], "checks": integrity["checks"]}
    app.logger.error("healthz: the database is damaged: %s", "; ".join(integrity["problems"]))
    return _unavailable(
        f"{integrity['source']}: {'; '.join(integrity['problems'][:3])}; {storage.health.RESTORE}",
        database="damaged",
        integrity={"result": "damaged", **checked},
    )


@bp.get("/healthz")
def healthz():
    started = time.perf_counter()
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # flask types current_app as the Flask app it proxies
    folder = os.path.dirname(os.path.abspath(app.config["DATABASE"]))
    try:
        db = get_db()
        probe(db)  # the writers' lock and SQLite's write lock taken and given back: a hand could be stored now
        with reading(db):
            pending = [m.name for m in migrations.pending(db)]
    except (sqlite3.Error, OSError) as exc:
        app.logger.warning("healthz: database not writable: %s", exc)
        found = storage.trouble(exc, app.config["DATABASE"])
        if found == storage.health.DAMAGED:
            damaged(app, str(exc))
            return _integrity_answer(app)
        return _unavailable(_trouble_reason(found, exc), **({"database": found} if found else {}))
    if pending:
        return _unavailable(f"schema out of date: {len(pending)} migrations pending")
    try:
        storage.test_write(folder)
    except OSError as exc:
        app.logger.warning("healthz: test write beside the database failed: %s", exc)
        return _unavailable(_reason(exc), storage="full" if storage.full(exc) else "unwritable")
    free = shutil.disk_usage(folder).free
    try:
        integrity = _integrity(app)
    except storage.Unwritable as exc:
        return _unavailable(_trouble_reason(exc.why, exc), database=exc.why)
    except sqlite3.Error as exc:  # another program holds the file past the busy timeout
        found = storage.trouble(exc)
        return _unavailable(_trouble_reason(found, exc), **({"database": found} if found else {}))
    checked = {"checked_at": integrity["checked_at"], "checks": integrity["checks"]}
    if integrity["problems"]:
        return _integrity_answer(app)
    response = jsonify(
        status="ok",
        database="writable",
        storage="low" if free < app.config["MIN_FREE_DISK_BYTES"] else "ok",
        free_bytes=free,
        integrity={"result": "ok", **checked},
        took_ms=round((time.perf_counter() - started) * 1000, 1),
    )
    response.headers["Cache-Control"] = "no-store"
    return response
