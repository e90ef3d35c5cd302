"""What the club pages share: the blueprint, the club or a 404, its admin on this phone, errors next to
their fields, CSV, the date range of a ledger."""

from __future__ import annotations

import time

import flask_babel
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from scorekeeper.clubs import forms as club_forms
from scorekeeper.clubs import service as club_service
from scorekeeper.clubs.service import seasons
from scorekeeper.core import InputError
from scorekeeper.server.db import get_db
from scorekeeper.web import phone
from scorekeeper.web.messages import translate, with_field

bp = Blueprint("clubs", __name__)


def now() -> float:
    """The clock of the login throttle; tests put their own in the config as CLUB_CLOCK."""
    return current_app.config.get("CLUB_CLOCK", time.time)()


def club_or_404(club_id):
    try:
        return club_service.get_club(get_db(), club_id)
    except club_service.ClubNotFound:
        abort(404)


def in_print_language(club) -> None:
    """The club's paper and spreadsheets speak the language it chose for its printed sheets, as its tables' sheets do
    (games/sheets.py); an explicit ?lang= still wins. The club's pages stay in the reader's language."""
    if club.language:
        g.sheet_language = club.language
        flask_babel.refresh()


def is_admin(club) -> bool:
    return phone.admin_token(club.id) == club_service.admin_token(club)


def log_in(club) -> None:
    phone.log_in(club.id, club_service.admin_token(club))


def refuse():
    return render_template(
        "errors/error.html",
        code=403,
        title=_("Not allowed"),
        message=_("Only the club's admin can change the club. Log in first."),
    ), 403


def admin_or_refuse(club_id):
    """The club, and None if this phone's admin is logged in; else the club and the refusal to answer."""
    club = club_or_404(club_id)
    if is_admin(club):
        return club, None
    if request.method == "GET":
        return club, redirect(url_for("clubs.login", club_id=club_id, next=request.full_path.rstrip("?")))
    return club, refuse()


def form_errors(form, errors: dict, names: dict | None = None) -> list[str]:
    """Put the service's messages next to their fields; answer those that belong to no field."""
    general = []
    for key, message in errors.items():
        name = (names or {}).get(key, key)
        text = translate(message)
        if name.startswith("options."):
            option, _sep, path = name[8:].partition(".")
            name = "opt_" + option
            if path:  # a number deep inside the house tariff: its path said beside the house box
                text = f"{path}: {text}"
        if name in form:
            form[name].errors = list(form[name].errors or []) + [text]
        elif key.startswith("options."):  # a house rule this form has no field for (a table's): named in words
            general.append(with_field(key, message))
        else:
            general.append(text)
    return general


def page(template: str, status: int = 200, **ctx):
    return render_template(f"clubs/{template}", **ctx), status


def button_post(club_id: str, change) -> bool:
    """A post that is only a button (the admin's, with its CSRF token): does `change(db)`; False if it was refused
    (its messages flashed)."""
    _, refused = admin_or_refuse(club_id)
    if refused:
        abort(make_response(refused))
    if not club_forms.ButtonForm().validate_on_submit():
        abort(400)
    try:
        change(get_db())
    except club_service.ClubNotFound:
        abort(404)
    except InputError as exc:
        for message in exc.errors.values():
            flash(translate(message))
        return False
    return True


def csv_response(text: str, filename: str) -> Response:
    return Response(
        "\ufeff" + text, mimetype="text/csv", headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )


def csv_dialect() -> str:
    """?sep=semicolon: semicolons and decimal commas, for a Danish, Norwegian or Swedish spreadsheet."""
    return "semicolon" if request.args.get("sep") == "semicolon" else "programs"


def date_range(club_id: str | None = None):
    """The ledger's date filter from the query string; a bad date is shown and ignored. Without one, the club's
    current season when it has named one (`?from=&to=`: every evening)."""
    if club_id is not None and "from" not in request.args and "to" not in request.args:
        return seasons.default_range(get_db(), club_id), []
    try:
        return club_service.date_range(request.args.get("from"), request.args.get("to")), []
    except InputError as exc:
        return (None, None), [translate(m) for m in exc.errors.values()]
