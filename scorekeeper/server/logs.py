"""One log line per request (method, path with edit keys redacted, status, duration), at the level LOG_LEVEL.

The process decides where lines go and their format (`scorekeeper serve`: stderr, server/serve.LOG_FORMAT); the app only
says what to log. A line reads `GET /g/4f3a/k/[redacted] 200 3.1ms`.
"""

from __future__ import annotations

import logging
import time

from flask import g, request

from scorekeeper.server.security import redact

log = logging.getLogger("scorekeeper.request")


def _start() -> None:
    g.request_started = time.perf_counter()


def _log(response):
    """The line, made once: redact() takes a quick look first (a path without a "k" or "t" segment, a backslash, a
    percent sign or a query holds no secret), and the message carries no arguments left for the handlers' filter to
    format and redact again."""
    if log.isEnabledFor(logging.INFO):
        started = g.get("request_started")
        took = f"{(time.perf_counter() - started) * 1000:.1f}ms" if started is not None else "-"
        path = redact(request.full_path if request.query_string else request.path)
        log.info(f"{request.method} {path} {response.status_code} {took}")  # no args: not formatted again
    return response


def init_app(app) -> None:
    logging.getLogger("scorekeeper").setLevel(str(app.config["LOG_LEVEL"]).upper())
    app.before_request_funcs.setdefault(None, []).insert(0, _start)  # before the rate limiter may answer
    app.after_request(_log)
