"""Error pages: JSON under /api, a page a player understands elsewhere; never a bare 500."""

from __future__ import annotations

import sqlite3
import time

from flask import current_app, jsonify, render_template, request
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from scorekeeper import storage
from scorekeeper.server import health
from scorekeeper.server.guard import limiter


def _messages():
    return {
        400: (_("Something in the request was wrong"), _("Please go back and try again.")),
        403: (_("Not allowed"), _("Only the phone with the game's edit link can change the score.")),
        404: (_("Not found"), _("There is no such game or hand.")),
        405: (_("Not allowed"), _("That cannot be done here.")),
        413: (_("Too much"), _("The request was too large.")),
        429: (
            _("Too many at once"),
            _(
                "Too many new games, tables, evenings, members, drives or logins from this address. "
                "Wait a minute and try again."
            ),
        ),
        503: (_("Busy"), _("The server is busy. Wait a few seconds and try again.")),
        507: (
            _("Storage full"),
            _(
                "The server's storage is full: nothing new can be made (games, tables, evenings, members, clubs, "
                "drives). Games already started can go on. Tell whoever runs the server."
            ),
        ),
    }


def _wait_words() -> str:
    """How long a rate-limited client waits, in words that match the Retry-After header (the hour's budget is not "a
    minute")."""
    try:
        limit = limiter.current_limit
        wait = max(1, int(limit.reset_at - time.time())) if limit is not None else 60
    except Exception:  # an error page never fails for want of the limiter's window
        wait = 60
    if wait < 90:
        return ngettext("Try again in %(num)d second.", "Try again in %(num)d seconds.", wait)
    minutes = round(wait / 60)
    return ngettext("Try again in %(num)d minute.", "Try again in %(num)d minutes.", minutes)


def _disk_full(exc: Exception):
    """The disk is full (SQLite's "database or disk is full", ENOSPC): 507, and in words that nothing was saved, in the
    reader's language; JSON under /api/ like the API's other errors. The write was rolled back whole."""
    current_app.logger.error("storage full: %s %s: %s", request.method, request.path, exc)
    hand = "hand" in (request.endpoint or "")
    if request.path.startswith("/api/"):
        message = (
            _("the server's storage is full: this hand was not saved")
            if hand
            else _("the server's storage is full: this was not saved")
        )
        return jsonify({"errors": {"storage": message}}), 507
    message = (
        _("This hand was not saved: the server's storage is full. Tell whoever runs the server.")
        if hand
        else _("This was not saved: the server's storage is full. Tell whoever runs the server.")
    )
    return render_template("errors/error.html", code=507, title=_("Storage full"), message=message, back=_back()), 507


BUSY_RETRY_AFTER = 5  # seconds, for a write refused while another program holds SQLite's write lock


def _storage_error(exc: Exception):
    """A storage error as what it is (storage.trouble): full (507), read-only or permission denied, busy, damaged
    (503, each in words; a damaged file is marked for /healthz at once); any other: Flask's own 500, with its
    traceback in the log."""
    found = storage.trouble(exc, current_app.config.get("DATABASE"))
    if found == storage.health.FULL:
        return _disk_full(exc)
    if found is None:
        raise exc
    current_app.logger.error("storage %s: %s %s: %s", found, request.method, request.path, exc)
    hand = "hand" in (request.endpoint or "")
    headers = {"Cache-Control": "no-store"}
    if found == storage.health.BUSY:
        headers["Retry-After"] = str(BUSY_RETRY_AFTER)
        title = _("Busy, not saved")
        page = (
            _("This hand was not saved: the database is busy (another program holds it). Try again in a few seconds.")
            if hand
            else _("Not saved: the database is busy (another program holds it). Try again in a few seconds.")
        )
        api = _("the database is busy (another program holds it): not saved; try again in a few seconds")
    elif found == storage.health.DAMAGED:
        health.damaged(current_app._get_current_object(), str(exc))  # type: ignore[attr-defined]  # flask types current_app as the Flask app it proxies
        title = _("Database damaged")
        page = (
            _("This hand was not saved: the server's database file is damaged. Tell whoever runs the server.")
            if hand
            else _(
                "The server's database file is damaged: nothing can be read or saved now. Tell whoever runs the server."
            )
        )
        api = _("the server's database file is damaged: not saved; tell whoever runs the server")
    else:
        why = _("its folder is read-only") if found == storage.health.READ_ONLY else _("permission denied")
        title = _("Cannot save")
        page = (
            _(
                "This hand was not saved: the server cannot write its database (%(why)s). Tell whoever runs the server.",
                why=why,
            )
            if hand
            else _(
                "The server cannot write its database (%(why)s): nothing was saved. Tell whoever runs the server.",
                why=why,
            )
        )
        api = _("the server cannot write its database (%(why)s): not saved", why=why)
    if request.path.startswith("/api/"):
        return jsonify({"errors": {"storage": api}}), 503, headers
    return render_template("errors/error.html", code=503, title=title, message=page, back=_back()), 503, headers


def _back() -> tuple[str, str] | None:
    """Where a refused reader came from: back to the game's sheet or the club's page (link, words), if there is one."""
    from flask import url_for

    args = request.view_args or {}
    try:
        if "game_id" in args:
            return url_for("games.protokoll", game_id=args["game_id"]), _("Back to the score sheet")
        if "club_id" in args:
            return url_for("clubs.club", club_id=args["club_id"]), _("Back to the club")
    except Exception:  # an error page never fails for want of a link
        return None
    return None


def init_app(app):
    app.register_error_handler(sqlite3.DatabaseError, _storage_error)  # OperationalError too: full, busy, read-only
    app.register_error_handler(OSError, _storage_error)

    @app.errorhandler(HTTPException)
    def http_error(exc):
        code = exc.code or 500
        if request.path.startswith("/api/"):
            field = "body" if code == 413 else "request"
            message = "is too large (at most 64 KiB)" if code == 413 else (exc.description or exc.name)
            return jsonify({"errors": {field: message}}), code
        title, message = _messages().get(code, (exc.name, exc.description))
        if code == 429:
            message = _("Too many new games, tables, evenings, members, drives or logins from this address.")
            message += " " + _wait_words()
        if code == 413 and request.max_content_length:  # the bound the page was over, named (nothing is cut to fit)
            message = _(
                "What was sent is more than this page takes (at most %(kib)d KiB): nothing was saved.",
                kib=request.max_content_length // 1024,
            )
        if isinstance(exc, CSRFError):
            message = _("The form expired or came from elsewhere; please reload the page and try again.")
        return render_template(
            "errors/error.html",
            code=code,
            title=title,
            message=message,
            back=_back() if code in (400, 403, 405) else None,
        ), code
