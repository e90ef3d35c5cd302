"""Error pages: JSON under /api, a page a player understands elsewhere; never a bare 500."""

from __future__ import annotations

from flask import jsonify, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException


def _messages():
    return {
        400: (_("Something in the request was wrong"), _("Please go back and try again.")),
        403: (_("Not allowed"), _("Only the phone with the game's edit link can change the score.")),
        404: (_("Not found"), _("There is no such game or hand.")),
        405: (_("Not allowed"), _("That cannot be done here.")),
        413: (_("Too much"), _("The request was too large.")),
        429: (_("Too many at once"), _("Too many new games or logins from this address. Wait a minute and try again.")),
        503: (_("Busy"), _("The server is busy. Wait a few seconds and try again.")),
        507: (
            _("Storage full"),
            _(
                "The server's storage is full: no new games can be started. Games already "
                "started can go on. Tell whoever runs the server."
            ),
        ),
    }


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
    @app.errorhandler(HTTPException)
    def http_error(exc):
        code = exc.code or 500
        if request.path.startswith("/api/"):
            field = "body" if code == 413 else "request"
            message = "is too large (at most 64 KiB)" if code == 413 else (exc.description or exc.name)
            return jsonify({"errors": {field: message}}), code
        title, message = _messages().get(code, (exc.name, exc.description))
        if isinstance(exc, CSRFError):
            message = _("The form expired or came from elsewhere; please reload the page and try again.")
        return render_template(
            "errors/error.html",
            code=code,
            title=title,
            message=message,
            back=_back() if code in (400, 403, 405) else None,
        ), code
