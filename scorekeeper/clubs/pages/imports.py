"""A club moves in mid-season (issue 45): the admin's pages that import past evenings from the club's own sheet — the
file chosen, the preview (its columns and names changeable, nothing stored), one confirm that stores it all — and the
correction of one imported evening's figures.

The preview stores nothing: the file travels back with the page (base64, in the form) and is read again with the
admin's choices on every post, the confirm's too. These routes take a larger body than the others (IMPORT_MAX_BYTES,
set before the CSRF check reads the form: `init_app`), refused before it is read whole.
"""

from __future__ import annotations

import base64
import binascii
import re
from datetime import UTC, datetime

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import format_datetime, ngettext
from flask_babel import gettext as _

from scorekeeper.clubs import forms as club_forms
from scorekeeper.clubs import service as club_service
from scorekeeper.clubs.pages import common
from scorekeeper.clubs.pages.common import bp
from scorekeeper.clubs.rules import season_import as reader
from scorekeeper.clubs.rules.season_import.book import column_letter
from scorekeeper.clubs.rules.season_import.read import same_name
from scorekeeper.clubs.service import imports as import_service
from scorekeeper.core import InputError
from scorekeeper.core.numbers import as_decimal
from scorekeeper.server import guard, heavy
from scorekeeper.server.db import get_db
from scorekeeper.web.i18n import day, local_day, money, time_zone
from scorekeeper.web.messages import translate
from scorekeeper.web.present import minus

ROUTES = ("clubs.import_preview", "clubs.import_confirm")
FORM_PARTS = 10_000  # a sheet's columns and names, each a field or two
SAMPLES = 3  # values shown under a column's heading
PROBLEMS_SHOWN = 30  # a sheet read the wrong way has one problem a cell: the first ones say what to change


def request_bound(file_bytes: int) -> int:
    """What an import route's request may be: the file base64'd (4/3) and the page's fields."""
    return file_bytes * 4 // 3 + 256 * 1024


def init_app(app) -> None:
    """The import's routes read a larger body (IMPORT_MAX_BYTES) than the others: set before any hook reads the form
    (the CSRF check does), so create_app registers this before it."""
    app.before_request(_bounds)


def _bounds() -> None:
    if request.endpoint not in ROUTES:
        return
    bound = request_bound(current_app.config.get("IMPORT_MAX_BYTES") or import_service.MAX_BYTES)
    request.max_content_length = bound
    request.max_form_memory_size = bound
    request.max_form_parts = FORM_PARTS


def _limit() -> int:
    return current_app.config.get("IMPORT_MAX_BYTES") or import_service.MAX_BYTES


# ---------------------------------------------------------------- words


def role_labels(shape: str) -> list[tuple[str, str]]:
    if shape == "wide":
        return [
            ("member", _("Member's name")),
            ("points", _("An evening's points")),
            ("money", _("An evening's money (net)")),
            ("hands", _("An evening's hands")),
            ("total", _("Total (checked, not imported)")),
            ("ignore", _("Not used")),
        ]
    return [
        ("date", _("Date")),
        ("member", _("Member's name")),
        ("points", _("Points")),
        ("money", _("Money (net, after the fee)")),
        ("before_fee", _("Money before the fee")),
        ("fee", _("Fee")),
        ("hands", _("Hands")),
        ("table", _("Table")),
        ("ignore", _("Not used")),
    ]


def shape_labels() -> list[tuple[str, str]]:
    return [
        ("wide", _("Wide: the members down, an evening a column")),
        ("long", _("Long: a row per member per evening")),
        ("skip", _("Not used")),
    ]


def where_text(where: reader.Where | None) -> str:
    if where is None:
        return ""
    return _(
        "sheet “%(sheet)s”, row %(row)d, column %(column)s",
        sheet=where.sheet,
        row=where.row,
        column=column_letter(where.column),
    )


def note_text(note: reader.Note) -> str:
    """A problem or a note in words, where it is and which evening."""
    said = translate(note.message)
    if note.day is not None:
        said = f"{day(note.day.isoformat())}: {said}"
    where = where_text(note.where)
    return f"{said} ({where})" if where else said


def file_problem(exc: reader.FileProblem) -> str:
    said = translate(exc.message)
    if exc.sheet is None:
        return said
    if exc.row is None:
        return _("Sheet “%(sheet)s”: %(message)s", sheet=exc.sheet, message=said)
    return f"{said} ({where_text(reader.Where(exc.sheet, exc.row, exc.column or 0))})"


def stamp(at: str) -> str:
    """A stored moment (UTC) as the reader's language writes it, in the tables' time zone."""
    moment = datetime.fromisoformat(at)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return format_datetime(moment.astimezone(time_zone()), "medium")


def log_context(records) -> list[dict]:
    return [
        {
            "file": r.file_name,
            "at": stamp(r.at),
            "day": local_day(r.at).isoformat(),
            "evenings": r.evenings,
            "members": r.members,
        }
        for r in records
    ]


# ---------------------------------------------------------------- the form's choices


def file_name(text: str) -> str:
    """The file's name as the club's log keeps it: without a folder, control characters or more than 200 characters."""
    name = re.split(r"[\\/]", text)[-1]
    return "".join(c for c in name if c.isprintable()).strip()[:200] or "import"


def _file() -> tuple[str, bytes] | None:
    """The file: chosen now (request.files), or sent back by the preview's page (base64)."""
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        data = upload.stream.read(_limit() + 1)
        upload.close()
        return file_name(upload.filename), data
    text = request.form.get("data")
    if not text:
        return None
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        abort(400)
    return file_name(request.form.get("file_name") or ""), data


def _int(text) -> int | None:
    try:
        return int(str(text))
    except (TypeError, ValueError):
        return None


def choices_from_form(form) -> import_service.Choices:
    """The admin's choices as posted: s<i>-shape, s<i>-head, s<i>-c<j>-role, s<i>-c<j>-date; name<k> (the name as
    written) and who<k> (whom it is); settled."""
    sheets: dict[int, dict] = {}
    names: dict[str, str] = {}
    for key, value in form.items():
        if key.startswith("s") and "-" in key:
            head, _dash, rest = key.partition("-")
            index = _int(head[1:])
            if index is None:
                continue
            sheet = sheets.setdefault(index, {"columns": {}})
            if rest == "shape":
                sheet["shape"] = value
            elif rest == "head":
                sheet["head"] = _int(value)
            elif rest.startswith("c") and "-" in rest:
                column, _dash, what = rest[1:].partition("-")
                c = _int(column)
                if c is not None and what in ("role", "date"):
                    sheet["columns"].setdefault(c, {})[what] = value
        elif key.startswith("name") and _int(key[4:]) is not None:
            chosen = form.get(f"who{key[4:]}")
            if chosen is not None:
                names[same_name(value)] = chosen
    posted = bool(form.get("data")) or "settled" in form
    return import_service.Choices(sheets, names, settled=bool(form.get("settled")) if posted else True)


# ---------------------------------------------------------------- the preview as the page shows it


def _sample(value) -> str:
    if value is None:
        return ""
    if hasattr(value, "isoformat"):
        return day(value.isoformat()[:10])
    return str(value)[:24]


def _shown_points(value) -> str:
    return minus(as_decimal(value))


def preview_context(preview: import_service.Preview, data: bytes, known) -> dict:
    """The preview's page: the sheets and their columns (each changeable), the names and whom they are, the evenings
    with what each adds and what does not add up, the problems; the file to send back."""
    sheets = []
    for layout in preview.layout.sheets:
        sheet = preview.book.sheets[layout.index]
        columns = []
        for column in layout.columns:
            samples = [
                _sample(sheet.cell(r, column.index))
                for r in range(layout.head + 1, min(len(sheet.rows), layout.head + 1 + 12))
            ]
            columns.append(
                {
                    "index": column.index,
                    "letter": column_letter(column.index),
                    "heading": column.heading,
                    "role": column.role,
                    "date": column.day.isoformat() if column.day else column.written,
                    "day": day(column.day.isoformat()) if column.day else "",
                    "dated": layout.shape == "wide" and column.role in ("points", "money", "hands"),
                    "problem": translate(column.problem) if column.problem else "",
                    "samples": [s for s in samples if s][:SAMPLES],
                }
            )
        dated = [c for c in columns if c["dated"]]
        sheets.append(
            {
                "index": layout.index,
                "name": layout.name,
                "open": any(c["problem"] for c in columns),
                "evening_columns": len(dated),
                "shape_label": dict(shape_labels())[layout.shape],
                "shape": layout.shape,
                "head": layout.head + 1,
                "rows": len(sheet.rows),
                "columns": columns,
                "roles": role_labels(layout.shape),
                "used": layout.shape != "skip",
            }
        )
    others = sorted(known.values(), key=lambda m: m.name.casefold())
    names = []
    for k, n in enumerate(preview.names):
        match = n.match
        offered = [{"value": f"m:{c.member}" if c.member is not None else f"n:{c.name}", "label": c.label}
                   for c in match.near]  # fmt: skip
        offered_values = {o["value"] for o in offered}
        kind = "same" if match.member is not None else "near" if match.near else "new"
        names.append(
            {
                "k": k,
                "name": match.name,
                "kind": kind,
                "choice": n.choice,
                "near": offered,
                "members": [
                    {"value": f"m:{m.id}", "label": m.name + (f" ({_('retired')})" if m.retired else "")}
                    for m in others
                    if f"m:{m.id}" not in offered_values
                ],
                "problem": translate(n.problem) if n.problem else "",
                "ends_as": known[n.member].name if n.member in known else n.new_as or "",
            }
        )
    evenings = []
    for e in preview.evenings:
        points = sum(r.points for r in e.rows)
        money_rows = [r.cents for r in e.rows if r.cents is not None]
        evenings.append(
            {
                "date": e.day.isoformat(),
                "day": day(e.day.isoformat()),
                "state": e.state,
                "members": len(e.rows),
                "points": _shown_points(points),
                "money": money(sum(money_rows) - e.fee * len(money_rows), preview.currency, signed=True)
                if money_rows
                else "",
                "fee": money(e.fee, preview.currency) if e.fee else "",
                "hands": any(r.hands is not None for r in e.rows),
                "notes": [note_text(n) for n in e.notes],
            }
        )
    new = preview.new_evenings
    return {
        "file_name": preview.file_name,
        "data": base64.b64encode(data).decode("ascii"),
        "sheets": sheets,
        "shapes": shape_labels(),
        "names": names,
        "evenings": evenings,
        "new_count": len(new),
        "new_members": list(preview.new_members),
        "problems": [note_text(p) for p in preview.problems[:PROBLEMS_SHOWN]],
        "more_problems": max(0, len(preview.problems) - PROBLEMS_SHOWN),
        "notes": [note_text(n) for n in preview.notes],
        "before": log_context([preview.before])[0] if preview.before else None,
        "settled": preview.settled,
        "ready": preview.ready,
        "rate": preview.rate,
        "currency": preview.currency,
        "first": new[0].day.isoformat() if new else "",
        "last": new[-1].day.isoformat() if new else "",
    }


# ---------------------------------------------------------------- the routes


def _page(club, status=200, **ctx):
    db = get_db()
    return render_template(
        "clubs/import.html",
        club=club,
        button=club_forms.ButtonForm(),
        log=log_context(import_service.imports(db, club.id)),
        limit_kib=_limit() // 1024,
        **{"preview": None, "general": [], **ctx},
    ), status


@bp.get("/c/<club_id>/import")
def import_start(club_id):
    """The admin's page to choose the club's sheet, with the club's log of imports."""
    club, refused = common.admin_or_refuse(club_id)
    if refused:
        return refused
    return _page(club)


def _posted_preview(club):
    """The posted file read with the posted choices, for the preview and the import alike: ((its name, its bytes), the
    preview, None), or (None, None, the page saying why it cannot be read)."""
    if not club_forms.ButtonForm().validate_on_submit():
        return None, None, _page(club, 400, general=[_("The form expired; please try again.")])
    found = _file()
    if found is None:
        return None, None, _page(club, 400, general=[_("Choose the club's file first.")])
    file_name, data = found
    if len(data) > _limit():
        return None, None, _page(club, 413, general=[_("The file is larger than %(limit)s KiB, the most an import takes.",
                                                      limit=_limit() // 1024)])  # fmt: skip
    try:
        preview = import_service.preview(get_db(), club.id, file_name, data, choices_from_form(request.form), _limit())
    except reader.FileProblem as exc:
        return None, None, _page(club, 400, general=[file_problem(exc)], file_name=file_name)
    return found, preview, None


def _shown(club, preview, data: bytes, status=200, general=()):
    ctx = preview_context(preview, data, club_service.members(get_db(), club.id))
    return _page(club, status, preview=ctx, general=list(general))


@bp.post("/c/<club_id>/import")
@guard.exempt("the import's preview reads the admin's file and stores nothing")
@heavy.bounded
def import_preview(club_id):
    """The preview: what the file holds as the app reads it, with the admin's choices; stores nothing."""
    club, refused = common.admin_or_refuse(club_id)
    if refused:
        return refused
    found, preview, failed = _posted_preview(club)
    return failed if found is None or preview is None else _shown(club, preview, found[1])


@bp.post("/c/<club_id>/import/confirm")
@guard.writes("import")
@heavy.bounded
def import_confirm(club_id):
    """Store what the preview shows, all or nothing, in one transaction."""
    club, refused = common.admin_or_refuse(club_id)
    if refused:
        return refused
    found, preview, failed = _posted_preview(club)
    if found is None or preview is None:
        return failed
    file_name, data = found
    if preview.problems:
        return _shown(club, preview, data, 400, [_("Nothing was imported: the problems below come first.")])
    try:
        done = import_service.confirm(get_db(), club.id, file_name, data, choices_from_form(request.form), _limit())
    except InputError as exc:
        return _page(club, 400, general=[translate(m) for m in exc.errors.values()])
    if done is None:
        flash(_("Nothing new to import: the club has every evening of this file already."))
        return redirect(url_for("clubs.import_start", club_id=club.id))
    flash(
        ngettext(
            "%(num)d evening imported from %(file)s.",
            "%(num)d evenings imported from %(file)s.",
            len(done.evenings),
            file=done.record.file_name,
        )  # fmt: skip
        + (" " + ngettext("%(num)d new member.", "%(num)d new members.", len(done.members)) if done.members else "")
    )
    return redirect(url_for("clubs.ledger", club_id=club.id))


# ---------------------------------------------------------------- an imported evening corrected

EXTRA_ROWS = 3  # blank rows to add a member who is missing


@bp.route("/c/<club_id>/e/<int:evening_id>/imported", methods=["GET", "POST"])
@guard.exempt("the admin corrects an imported evening's figures: changes its rows, makes no evening")
def imported_evening(club_id, evening_id):
    """An imported evening's figures, member by member, to correct as the admin would a table's hands."""
    club, refused = common.admin_or_refuse(club_id)
    if refused:
        return refused
    db = get_db()
    try:
        record = import_service.imported_record(db, club_id, evening_id)
        data = club_service.evening(db, club_id, evening_id)
    except club_service.ClubNotFound:
        abort(404)
    known = club_service.members(db, club_id)
    form = club_forms.ButtonForm()
    general: list[str] = []
    errors: dict[str, str] = {}
    posted: list[dict] = []
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        for i in range(_int(request.form.get("rows")) or 0):
            posted.append(
                {
                    "member": _int(request.form.get(f"m{i}")),
                    "points": request.form.get(f"p{i}", ""),
                    "money": request.form.get(f"k{i}", ""),
                    "hands": request.form.get(f"h{i}", ""),
                }
            )
        try:
            import_service.correct(db, club_id, evening_id, posted[:1000])
        except InputError as exc:
            errors = {k: translate(v) for k, v in exc.errors.items()}
            general = [_("Nothing was changed: see the rows marked below.")]
        else:
            flash(_("The evening's figures are corrected."))
            return redirect(url_for("clubs.result", club_id=club_id, evening_id=evening_id))
    rows = posted or [
        {
            "member": i.member,
            "points": str(as_decimal(i.points)),
            "money": "" if i.cents is None else f"{i.cents / 100:.2f}",
            "hands": "" if i.hands is None else str(i.hands),
        }
        for i in sorted(data.result.evening.imported, key=lambda i: known[i.member].name.casefold())
    ]
    if not posted:
        rows += [{"member": None, "points": "", "money": "", "hands": ""} for _n in range(EXTRA_ROWS)]
    for i, row in enumerate(rows):
        row["i"] = i
        row["errors"] = [v for k, v in errors.items() if k.startswith(f"rows.{i}.")]
    return render_template(
        "clubs/imported.html",
        club=club,
        evening={"id": evening_id, "date": data.record.date, "currency": data.record.currency or club.currency},
        imported={"file": record.file_name, "at": stamp(record.at)},
        rows=rows,
        members=sorted(known.values(), key=lambda m: m.name.casefold()),
        form=form,
        general=general,
    ), 400 if errors else 200
