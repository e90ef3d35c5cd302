"""The drive pages' blueprint and what they share: the drive or a 404, the organiser's key, the messages of a refusal."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, request

from scorekeeper.core.messages import InputError
from scorekeeper.drives import forms, service
from scorekeeper.drives.rules import seated_names as core_seated_names
from scorekeeper.server.db import get_db
from scorekeeper.web import phone
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.messages import translate, with_field

bp = Blueprint("drives", __name__)
REFRESH = 15  # the meta refresh of a waiting page without scripts (with them, static/live.js updates it in place)
SCREEN_SECONDS = 8  # each page of the hall screen
NOTICE = "drive"  # the flash category the drive's pages show where the reader is looking (not at the page's top)
ORGANISER_KEY = "the organiser's edit key; {what}, bounded by the drive's size"


def load(drive_id: str) -> service.ScoredDrive:
    try:
        return service.load(get_db(), drive_id)
    except service.NotFound:
        abort(404)


def is_organiser(scored_drive: service.ScoredDrive) -> bool:
    return service.may_edit(scored_drive, phone.drive_key(scored_drive.id))


def organised(drive_id: str) -> service.ScoredDrive:
    """The drive, if this phone holds its edit key; otherwise 403."""
    scored_drive = load(drive_id)
    if not is_organiser(scored_drive):
        abort(403)
    return scored_drive


def edit_key(drive_id: str) -> str | None:
    return phone.drive_key(drive_id)


def no_store(page, status: int = 200):
    return page, status, {"Cache-Control": "no-store"}


def bounds() -> tuple[int, int]:
    """The most tables and hands a new drive takes (config DRIVE_MAX_TABLES, DRIVE_MAX_HANDS)."""
    return current_app.config["DRIVE_MAX_TABLES"], current_app.config["DRIVE_MAX_HANDS"]


def shown_names(scored_drive: service.ScoredDrive, table_hand) -> list[str]:
    """The four names a table's form sends back (hidden fields `seated`, first pair then second, lady then gent; an
    empty seat as ""): the seating the page showed, so that a result for players who no longer sit there is refused
    (SeatingChanged)."""
    return [name or "" for pair in core_seated_names(scored_drive.setup, table_hand) for name in pair]


def pairs_sent() -> list[list[str | None]] | None:
    """The pairs a form showed, from its `seated` fields; None from a page without them (sent before they existed)."""
    names: list[str | None] = [n or None for n in request.form.getlist("seated")]
    if not names:
        return None
    return [names[0:2], names[2:4]] if len(names) == 4 else [names]  # four names, or refused as not two pairs


def seating_changed() -> str:
    return _("The seating changed — reload. Nothing was saved; the players at this table now are shown here.")


def messages(exc: InputError) -> str:
    return " ".join(translate(m) for m in exc.errors.values())


def put_errors(form, errors: dict, general: list[str], rows: dict[int, int] | None = None) -> None:
    """A service's field errors next to their fields (the prize rows by their row), the rest above the form."""
    for name, message in errors.items():
        field = forms.field_of(name, rows or {})
        if field is not None and field.startswith("trumps"):
            field = "trump0"
        if field and field in form and field != "csrf_token":
            form[field].errors = list(form[field].errors or []) + [translate(message)]
        else:
            general.append(with_field(name, message))
