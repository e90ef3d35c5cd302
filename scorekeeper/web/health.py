"""GET /healthz for a load balancer, systemd or a monitor: 200 when the database can be written now, else 503 with the
reason. It names no path, key or secret, and no rate limit applies to it."""

from __future__ import annotations

import sqlite3
import time

from flask import Blueprint, current_app, jsonify

from scorekeeper.storage import migrations, probe, reading
from scorekeeper.web.db import get_db
from scorekeeper.web.guard import limiter

bp = Blueprint("health", __name__)
limiter.exempt(bp)


def _reason(exc: Exception) -> str:
    """What went wrong, without the path an OSError would name."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"{type(exc).__name__}: {exc.strerror}"
    return f"{type(exc).__name__}: {exc}"


@bp.get("/healthz")
def healthz():
    started = time.perf_counter()
    try:
        db = get_db()
        probe(db)  # the writers' lock and SQLite's write lock taken and given back: a hand could be stored now
        with reading(db):
            pending = [m.name for m in migrations.pending(db)]
    except (sqlite3.Error, OSError) as exc:
        current_app.logger.warning("healthz: database not writable: %s", exc)
        return jsonify(status="unavailable", reason=_reason(exc)), 503
    if pending:
        return jsonify(status="unavailable", reason=f"schema out of date: {len(pending)} migrations pending"), 503
    response = jsonify(status="ok", database="writable", took_ms=round((time.perf_counter() - started) * 1000, 1))
    response.headers["Cache-Control"] = "no-store"
    return response
