"""The whist drive's pages: the organiser's (new drive, the drive page, corrections with their effect shown before they
are saved, people, prizes, table cards), the tables' own pages from their cards' QR codes, the hall's screen, and the
paper. Thin: drives/service.py does the work and present.py turns the replayed drive into words and numbers.

A table's page is /d/<id>/t/<table>/<token>, the token an HMAC of the table under the drive's edit key
(drives.service.table_token): it lets that table enter its own results and nothing else. Its form needs no CSRF
token (the address is the credential, not a cookie), and sending it again is harmless: the service replaces a
table's result for a hand with the one sent, so a resend of the same taps stores the same result.
"""

from __future__ import annotations

import hashlib

import segno
from flask import Blueprint, Response, abort, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import get_locale
from markupsafe import Markup

from scorekeeper.core.game import TRUMPS
from scorekeeper.core.messages import InputError
from scorekeeper.drives import document as paper_documents
from scorekeeper.drives import forms, present, service
from scorekeeper.drives.rules import DEFAULT_HANDS, DEFAULT_TRUMPS, MAX_PRIZES, OutOfTurn, SeatingChanged
from scorekeeper.drives.rules import seated_names as core_seated_names
from scorekeeper.games import cache
from scorekeeper.games.sheets import kept_name, kept_pdf, kept_state, pdf_download
from scorekeeper.server import guard
from scorekeeper.server.db import get_db
from scorekeeper.server.proxy import external_url
from scorekeeper.web import live, phone
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import language
from scorekeeper.web.inputs import link_args, whole_number
from scorekeeper.web.messages import translate, with_field

bp = Blueprint("drives", __name__)
REFRESH = 15  # the meta refresh of a waiting page without scripts (with them, static/live.js updates it in place)
SCREEN_SECONDS = 8  # each page of the hall screen
NOTICE = "drive"  # the flash category the drive's pages show where the reader is looking (not at the page's top)
ORGANISER_KEY = "the organiser's edit key; {what}, bounded by the drive's size"


def _load(drive_id: str) -> service.ScoredDrive:
    try:
        return service.load(get_db(), drive_id)
    except service.NotFound:
        abort(404)


def _is_organiser(scored_drive: service.ScoredDrive) -> bool:
    return service.may_edit(scored_drive, phone.drive_key(scored_drive.id))


def _organised(drive_id: str) -> service.ScoredDrive:
    """The drive, if this phone holds its edit key; otherwise 403."""
    scored_drive = _load(drive_id)
    if not _is_organiser(scored_drive):
        abort(403)
    return scored_drive


def _key(drive_id: str) -> str | None:
    return phone.drive_key(drive_id)


def _no_store(page, status: int = 200):
    return page, status, {"Cache-Control": "no-store"}


def _bounds() -> tuple[int, int]:
    """The most tables and hands a new drive takes (config DRIVE_MAX_TABLES, DRIVE_MAX_HANDS)."""
    return current_app.config["DRIVE_MAX_TABLES"], current_app.config["DRIVE_MAX_HANDS"]


def _shown(scored_drive: service.ScoredDrive, table_hand) -> list[str]:
    """The four names a table's form sends back (hidden fields `seated`, first pair then second, lady then gent; an
    empty seat as ""): the seating the page showed, so that a result for players who no longer sit there is refused
    (SeatingChanged)."""
    return [name or "" for pair in core_seated_names(scored_drive.setup, table_hand) for name in pair]


def _pairs_sent() -> list[list[str | None]] | None:
    """The pairs a form showed, from its `seated` fields; None from a page without them (sent before they existed)."""
    names: list[str | None] = [n or None for n in request.form.getlist("seated")]
    if not names:
        return None
    return [names[0:2], names[2:4]] if len(names) == 4 else [names]  # four names, or refused as not two pairs


def _seating_changed() -> str:
    return _("The seating changed — reload. Nothing was saved; the players at this table now are shown here.")


def _messages(exc: InputError) -> str:
    return " ".join(translate(m) for m in exc.errors.values())


def _put_errors(form, errors: dict, general: list[str], rows: dict[int, int] | None = None) -> None:
    """A service's field errors next to their fields (the prize rows by their row), the rest above the form."""
    for name, message in errors.items():
        field = forms.field_of(name, rows or {})
        if field is not None and field.startswith("trumps"):
            field = "trump0"
        if field and field in form and field != "csrf_token":
            form[field].errors = list(form[field].errors or []) + [translate(message)]
        else:
            general.append(with_field(name, message))


# ---------------------------------------------------------------- the drives on this phone, a new drive


@bp.get("/drives")
def index():
    drives = []
    for drive_id in phone.recent_drives():
        try:
            scored_drive = service.load(get_db(), drive_id)
        except service.NotFound:
            continue
        drives.append({"head": present.drive_head(scored_drive), "organiser": _is_organiser(scored_drive)})
    return render_template("drives/index.html", drives=drives)


@bp.route("/drives/new", methods=["GET", "POST"])
@guard.writes("drive")
def new_drive():
    form = forms.new_drive_form(request.form if request.method == "POST" else None, language())
    general: list[str] = []
    if request.method == "POST":
        if not form.validate_on_submit():
            general.append(_("The form expired; please try again."))
        else:
            max_tables, max_hands = _bounds()
            rows: dict[int, int] = {}
            try:
                data, money, rows = forms.drive_input(form)
                drive_id, key = service.create_drive(
                    get_db(), data, money, max_tables=max_tables, max_hands=max_hands, language=language()
                )
            except InputError as exc:
                _put_errors(form, exc.errors, general, rows)
            else:
                phone.remember_drive(drive_id, key)
                return redirect(url_for("drives.drive", drive_id=drive_id))
    first = forms.first_error(form, forms.NEW_DRIVE_ORDER)
    status = 400 if (general or first) else 200
    max_tables, max_hands = _bounds()
    page = render_template(
        "drives/new.html",
        form=form,
        general=general,
        first=first,
        trump_slots=range(forms.TRUMP_SLOTS),
        prize_rows=range(forms.PRIZE_ROWS),
        max_tables=max_tables,
        max_hands=max_hands,
    )
    return page, status


# ---------------------------------------------------------------- the organiser's page


def _results_of(scored_drive: service.ScoredDrive) -> list[dict]:
    """The hands whose tables the organiser's page lists to enter or correct: the one being played, and the one
    before while the one being played has no result (older hands: "Correct an earlier hand")."""
    drive = scored_drive.drive
    current = drive.rounds[drive.current - 1]
    hands = [current]
    if drive.current > 1 and not current.started:
        hands.insert(0, drive.rounds[drive.current - 2])
    return [
        {
            "hand": r.hand,
            "trump": present.trump(r.trump),
            "tables": [{**present.table_view(scored_drive, t), "shown": _shown(scored_drive, t)} for t in r.tables],
        }
        for r in hands
    ]


@bp.get("/d/<drive_id>")
def drive(drive_id):
    scored_drive = _load(drive_id)
    organiser = _is_organiser(scored_drive)
    phone.remember_drive(drive_id)
    head = present.drive_head(scored_drive)
    money = service.money(get_db(), drive_id, scored_drive.setup)
    countback = scored_drive.setup.tie_break == "countback"
    prizes = present.prizes(scored_drive, money, organiser=organiser)
    return _no_store(
        render_template(
            "drives/drive.html",
            head=head,
            organiser=organiser,
            results=_results_of(scored_drive) if organiser and not scored_drive.final else [],
            played=[r.hand for r in scored_drive.drive.rounds],
            tables=range(1, scored_drive.setup.tables + 1),
            tricks_choices=forms.CorrectionForm().tricks.choices,
            moves=present.moves(scored_drive, head["current"]) if head["current"] > 1 and not head["finished"] else [],
            move_again=present.move_again(scored_drive),
            standings=present.standings_view(scored_drive.drive.standings, countback=countback),
            half_time=present.standings_view(scored_drive.drive.half_time, countback=countback),
            prizes=prizes,
            needs_draw=any(p["needs_draw"] for p in prizes),
            money=present.money_view(scored_drive, money) if organiser else None,
            rule=present.sit_out_rule(scored_drive.setup),
            deletable=organiser and not scored_drive.results,
            edit_url=external_url("drives.claim", drive_id=drive_id, key=_key(drive_id)) if organiser else None,
        )
    )


@bp.get("/d/<drive_id>/k/<key>")
def claim(drive_id, key):
    """The drive's edit link: remembers the key on this phone (a second organiser's, too), then shows the drive."""
    scored_drive = _load(drive_id)
    if not service.may_edit(scored_drive, key):
        abort(403)
    phone.remember_drive(drive_id, key)
    return redirect(url_for("drives.drive", drive_id=drive_id))


def _back(drive_id: str, anchor: str = "notice"):
    return redirect(url_for("drives.drive", drive_id=drive_id, _anchor=anchor))


@bp.post("/d/<drive_id>/hands/<int:hand>/tables/<int:table>")
@guard.exempt(ORGANISER_KEY.format(what="enters a table's result"))
def correct(drive_id, hand, table):
    """The organiser enters a table's result (for a table without a phone) by the tables' own rules; a result already
    there is corrected through the correction page, which shows its effect first."""
    scored_drive = _organised(drive_id)
    tricks = whole_number(request.form.get("tricks"))
    raw: dict = {"tricks": None if tricks is None or tricks > 13 else [tricks, 13 - tricks]}
    shown = _pairs_sent()
    if shown is not None:
        raw["pairs"] = shown
    try:
        service.enter_result(get_db(), scored_drive.id, hand, table, raw, _key(drive_id))
    except SeatingChanged:
        flash(_seating_changed(), NOTICE)
    except OutOfTurn as exc:
        flash(_messages(exc) + " " + _("Use “Correct an earlier hand” to correct it."), NOTICE)
    except InputError as exc:
        flash(_messages(exc), NOTICE)
    else:
        flash(
            _("Table %(table)d, hand %(hand)d: %(score)s saved.", table=table, hand=hand, score=_score(tricks)), NOTICE
        )
    return _back(drive_id)


def _score(tricks: int | None) -> str:
    return "" if tricks is None else f"{tricks}–{13 - tricks}"


@bp.route("/d/<drive_id>/correct", methods=["GET", "POST"])
@guard.exempt(ORGANISER_KEY.format(what="corrects a table's result in any hand played"))
def correction(drive_id):
    """Correct any hand played: choose the table's result, see what it does (who moves, whose totals change), then
    save it, re-seating the hand not yet played or keeping its seating."""
    scored_drive = _organised(drive_id)
    args = request.form if request.method == "POST" else request.args
    hand, table = whole_number(args.get("hand")), whole_number(args.get("table"))
    rounds = scored_drive.drive.rounds
    if hand is None or not 1 <= hand <= len(rounds) or table is None or not 1 <= table <= scored_drive.setup.tables:
        flash(_("Choose a hand that has been seated and one of its tables."), NOTICE)
        return _back(drive_id, "earlier")
    here = rounds[hand - 1].tables[table - 1]
    tricks = whole_number(args.get("tricks"))
    raw: dict = {"tricks": [tricks, 13 - tricks]} if tricks is not None and tricks <= 13 else {"tricks": None}
    if args.getlist("seated"):
        raw["pairs"] = _pairs_sent()
    keep = args.get("keep_seating") == "1"
    raw["keep_seating"] = keep
    preview, error, status = None, None, 200
    if scored_drive.final:
        error, status = _("The prizes are given: the results are final."), 409
    elif raw["tricks"] is not None:
        try:
            if request.method == "POST":
                _after, change = service.correct_result(get_db(), drive_id, hand, table, raw, _key(drive_id))
                moved = change.moved_names
                message = _(
                    "Table %(table)d, hand %(hand)d: %(score)s saved.", table=table, hand=hand, score=_score(tricks)
                )
                if moved:
                    message += " " + _("Move again: %(names)s.", names=", ".join(moved))
                elif change.totals:
                    message += " " + _("Totals changed: %(names)s.", names=", ".join(n for n, *_r in change.totals))
                flash(message, NOTICE)
                return _back(drive_id)
            _before, change = service.correct_result(get_db(), drive_id, hand, table, raw, _key(drive_id), dry_run=True)
            preview = present.correction_view(scored_drive, change, hand, table)
            kept_change = None
            if change.moved and not keep:
                _before, kept = service.correct_result(
                    get_db(), drive_id, hand, table, {**raw, "keep_seating": True}, _key(drive_id), dry_run=True
                )
                kept_change = present.correction_view(scored_drive, kept, hand, table)
            preview["if_kept"] = kept_change
        except SeatingChanged:
            error, status = _seating_changed(), 409
        except InputError as exc:
            error, status = _messages(exc), 409 if isinstance(exc, OutOfTurn) else 400
    page = render_template(
        "drives/correct.html",
        head=present.drive_head(scored_drive),
        hand=hand,
        table=table,
        here=present.table_view(scored_drive, here),
        shown=_shown(scored_drive, here),
        tricks=tricks if tricks is not None and tricks <= 13 else (here.tricks[0] if here.tricks else None),
        tricks_choices=forms.CorrectionForm().tricks.choices,
        preview=preview,
        keep=keep,
        error=error,
    )
    return _no_store(page, status)


# ---------------------------------------------------------------- people: renames and substitutes


def _people_page(
    scored_drive: service.ScoredDrive, status: int = 200, error: str | None = None, field: str | None = None
):
    setup = scored_drive.setup
    seated = [p for p in setup.people if p.last >= scored_drive.drive.current or p.last == setup.hands]
    return _no_store(
        render_template(
            "drives/people.html",
            head=present.drive_head(scored_drive),
            everyone=sorted(setup.people, key=lambda p: p.number),
            seated=sorted(seated, key=lambda p: p.name.casefold()),
            substitutes=[{"hand": h, "out": o, "in": i} for h, o, i in setup.substitutes],
            current=scored_drive.drive.current,
            hands=setup.hands,
            couples=setup.couples,
            final=scored_drive.final,
            error=error,
            field=field,
            values=request.form,
        ),
        status,
    )


@bp.get("/d/<drive_id>/people")
def people(drive_id):
    return _people_page(_organised(drive_id))


@bp.post("/d/<drive_id>/rename")
@guard.exempt(ORGANISER_KEY.format(what="renames a player in place"))
def rename(drive_id):
    scored_drive = _organised(drive_id)
    old, new = request.form.get("old", ""), request.form.get("new", "")
    try:
        service.rename_player(get_db(), drive_id, {"from": old, "to": new}, _key(drive_id))
    except InputError as exc:
        field = "new" if "to" in exc.errors else "old"
        return _people_page(scored_drive, 400, _messages(exc), field)
    flash(_("%(old)s is %(new)s now.", old=old, new=new.strip()), NOTICE)
    return _back(drive_id)


@bp.post("/d/<drive_id>/substitutes")
@guard.exempt(ORGANISER_KEY.format(what="a substitute takes a seat, at most one per seat and hand"))
def substitute(drive_id):
    scored_drive = _organised(drive_id)
    raw = {
        "out": request.form.get("out", ""),
        "in": request.form.get("newcomer", ""),
        "hand": whole_number(request.form.get("hand")) or request.form.get("hand") or scored_drive.drive.current,
        "lady_as_gent": request.form.get("lady_as_gent") == "y",
    }
    try:
        service.add_substitute(get_db(), drive_id, raw, _key(drive_id))
    except InputError as exc:
        return _people_page(scored_drive, 409 if isinstance(exc, OutOfTurn) else 400, _messages(exc), "newcomer")
    flash(
        _(
            "%(newcomer)s takes %(out)s's seat from hand %(hand)s; the tricks of each hand stay with whoever played it.",
            newcomer=raw["in"].strip(),
            out=raw["out"],
            hand=raw["hand"],
        ),
        NOTICE,
    )
    return _back(drive_id)


@bp.post("/d/<drive_id>/delete")
@guard.exempt(ORGANISER_KEY.format(what="deletes a drive without results, which makes no rows"))
def delete(drive_id):
    _organised(drive_id)
    try:
        service.delete_drive(get_db(), drive_id, _key(drive_id))
    except InputError as exc:
        flash(_messages(exc), NOTICE)
        return _back(drive_id)
    phone.forget_drive(drive_id)
    flash(_("The drive was deleted."))
    return redirect(url_for("drives.index"))


# ---------------------------------------------------------------- prizes: written, drawn, given


@bp.route("/d/<drive_id>/prizes", methods=["GET", "POST"])
@guard.exempt(ORGANISER_KEY.format(what="writes the fee and the prizes anew, at most 60"))
def prizes_page(drive_id):
    scored_drive = _organised(drive_id)
    money = service.money(get_db(), drive_id, scored_drive.setup)
    rows = whole_number(request.values.get("rows")) or max(len((money or {}).get("prizes", [])) + 2, forms.PRIZE_ROWS)
    rows = min(rows, MAX_PRIZES)
    form = forms.prizes_form(rows, request.form if request.method == "POST" else None, money)
    general: list[str] = []
    if request.method == "POST" and request.form.get("more"):
        rows = min(rows + 4, MAX_PRIZES)
        form = forms.prizes_form(rows, request.form)
    elif request.method == "POST":
        data, prize_rows = forms.money_input(form)
        try:
            service.put_money(get_db(), drive_id, data, _key(drive_id), language())
        except InputError as exc:
            _put_errors(form, exc.errors, general, prize_rows)
        else:
            flash(_("The prizes are saved."), NOTICE)
            return _back(drive_id, "prizes")
    first = forms.first_error(form, ())
    return _no_store(
        render_template(
            "drives/prizes.html",
            head=present.drive_head(scored_drive),
            form=form,
            rows=rows,
            prize_rows=range(rows),
            general=general,
            first=first,
            final=scored_drive.final,
            couples=scored_drive.setup.couples,
        ),
        400 if general or first else 200,
    )


@bp.post("/d/<drive_id>/prizes/draw")
@guard.exempt(ORGANISER_KEY.format(what="draws the cuts and lucky numbers the prizes wait for, one per prize"))
def draw(drive_id):
    _organised(drive_id)
    try:
        service.draw_prizes(get_db(), drive_id, _key(drive_id))
    except InputError as exc:
        flash(_messages(exc), NOTICE)
    else:
        flash(_("Drawn: the cuts and lucky numbers are recorded below."), NOTICE)
    return _back(drive_id, "prizes")


@bp.post("/d/<drive_id>/prizes/given")
@guard.exempt(ORGANISER_KEY.format(what="the prizes are given: the results are final"))
def give(drive_id):
    _organised(drive_id)
    if request.form.get("sure") != "y":
        flash(_("Tick “The results are final” to give the prizes."), NOTICE)
        return _back(drive_id, "prizes")
    try:
        service.give_prizes(get_db(), drive_id, _key(drive_id))
    except InputError as exc:
        flash(_messages(exc), NOTICE)
    else:
        flash(_("The prizes are given; the results are final."), NOTICE)
    return _back(drive_id, "prizes")


# ---------------------------------------------------------------- a table's page, from its card


@bp.route("/d/<drive_id>/t/<int:table>/<token>", methods=["GET", "POST"])
@guard.exempt("the table's token; replaces its own result, bounded by the drive's size")
def table(drive_id, table, token):
    scored_drive = _load(drive_id)
    if not 1 <= table <= scored_drive.setup.tables:
        abort(404)
    if not service.table_token_matches(scored_drive, table, token):
        abort(403)
    form = forms.TableForm(request.form if request.method == "POST" else None)
    error, status, other = None, 200, None
    here_url = url_for("drives.table", drive_id=drive_id, table=table, token=token)
    sent_by_me = whole_number(request.args.get("sent"))
    if request.method == "POST":
        hand = whole_number(form.hand.data)
        tricks = whole_number(form.tricks.data)
        raw: dict = {"tricks": None if tricks is None or tricks > 13 else [tricks, 13 - tricks]}
        shown = _pairs_sent()
        if shown is not None:
            raw["pairs"] = shown
        if form.was.data is not None and request.form.get("replace") != "1":
            was = whole_number(form.was.data)
            raw["was"] = None if was is None or was > 13 else [was, 13 - was]
        try:
            scored_drive = service.enter_table_result(get_db(), drive_id, hand, table, raw, token)
        except SeatingChanged:
            # Seated anew after the page showed it: `scored_drive`, read before this post, shows who plays here now.
            form.tricks.data = None
            error, status = _seating_changed(), 409
        except service.OtherPhone as exc:
            other = {"stored": _score(exc.stored[0]), "mine": _score(tricks), "tricks": tricks}
            error, status = _messages(exc), 409
        except OutOfTurn as exc:
            if _already_stored(scored_drive, hand, table, raw["tricks"]):  # a resend of what is stored: done already
                return redirect(here_url + f"?sent={tricks}")
            error, status = _messages(exc), 409
        except InputError as exc:
            error, status = _messages(exc), 400
        except service.Forbidden:
            abort(403)
        else:
            return redirect(here_url + f"?sent={tricks}")
    drive = scored_drive.drive
    current = drive.rounds[drive.current - 1]
    here = current.tables[table - 1]
    stored = None if here.tricks is None else here.tricks[0]
    if request.method == "GET" or form.tricks.data is None:
        form.tricks.data = None if stored is None else str(stored)
    form.hand.data = str(drive.current)
    form.was.data = "" if stored is None else str(stored)
    replaced = (
        {"mine": _score(sent_by_me), "stored": _score(stored)}
        if request.method == "GET" and sent_by_me is not None and stored is not None and sent_by_me != stored
        else None
    )
    sent = here.tricks is not None
    before = drive.rounds[drive.current - 2] if drive.current > 1 else None
    again = scored_drive.move_again()
    leaving = present.leaving(scored_drive, table) if before is not None and not current.started else []
    for person in leaving:
        person["again"] = person["name"] in again
    here_view = present.table_view(scored_drive, here)
    affected = [m for m in present.move_again(scored_drive) if m["was"]["table"] == table or m["now"]["table"] == table]
    live_query = f"?sent={sent_by_me}" if sent_by_me is not None and request.method == "GET" else ""
    live_url = url_for("drives.table_live", drive_id=drive_id, table=table, token=token) + live_query
    g.live_tag = _live_state(scored_drive.record, "table", table, sent_by_me)
    page = render_template(
        "drives/table.html",
        live_url=None if drive.finished else live_url,
        live_tag=g.live_tag,
        head=present.drive_head(scored_drive),
        table=table,
        here=here_view,
        shown=_shown(scored_drive, here),
        form=form,
        error=error,
        other=other,
        replaced=replaced,
        sent=sent,
        stored=stored,
        refresh=REFRESH if not drive.finished else None,
        refresh_url=here_url + (f"?sent={sent_by_me}" if sent_by_me is not None and request.method == "GET" else ""),
        leaving=leaving,
        move_again=affected,
        before_hand=before.hand if before is not None else None,
        before_score=present.table_view(scored_drive, before.tables[table - 1])["score"]
        if before is not None
        else None,
    )
    return _no_store(page, status)


_table_page = table  # for table_live, whose `table` is the table's number


@bp.get("/d/<drive_id>/t/<int:table>/<token>/live")
@guard.polled
def table_live(drive_id, table, token):
    """The table page's light twin (web/live.py): 304 while the page shows the drive as it is (its row read, not
    replayed), else the page, fresh. The same token as the page's."""
    try:
        record = service.head(get_db(), drive_id)
    except service.NotFound:
        abort(404)
    if not service.table_token_matches(record, table, token):  # a token is made for a table of the drive only
        abort(403)
    sent_by_me = whole_number(request.args.get("sent"))
    unchanged = live.unchanged(_live_state(record, "table", table, sent_by_me))
    if unchanged is not None:
        return unchanged
    page, status, _headers = _table_page(drive_id, table, token)
    return live.fresh(page, g.live_tag, status)


def _live_state(record, page: str, *more) -> str:
    """The tag of what a live drive page shows: the drive's version (up with every result, rename and substitute:
    the setup is not read again), what of its row changes without it (the draws, the prizes given, the money), and
    what else the page is for (the table, the ?sent= it says)."""
    money = service.money(get_db(), record.id)
    return live.tag([record.version, record.title, list(record.draws), record.prizes_given, money, page, *more])


def _already_stored(scored_drive: service.ScoredDrive, hand, table: int, tricks) -> bool:
    if not isinstance(hand, int) or not 1 <= hand <= len(scored_drive.drive.rounds) or tricks is None:
        return False
    stored = scored_drive.drive.rounds[hand - 1].tables[table - 1].tricks
    return stored is not None and list(stored) == list(tricks)


# ---------------------------------------------------------------- the hall's screen


@bp.get("/d/<drive_id>/screen")
def screen(drive_id):
    return _no_store(_screen_page(drive_id)[0])


@bp.get("/d/<drive_id>/screen/live")
@guard.polled
def screen_live(drive_id):
    """The hall screen's light twin (web/live.py): 304 while the screen shows the drive as it is, else the screen,
    fresh (the screen puts it in place at the end of its cycle: drives.js)."""
    try:
        record = service.head(get_db(), drive_id)
    except service.NotFound:
        abort(404)
    unchanged = live.unchanged(_live_state(record, "screen", _screen_seconds()))
    if unchanged is not None:
        return unchanged
    return live.fresh(*_screen_page(drive_id))


def _screen_seconds() -> int:
    seconds = whole_number(request.args.get("seconds"))
    return seconds if seconds and 1 <= seconds <= 60 else SCREEN_SECONDS


def _screen_page(drive_id: str) -> tuple[str, str]:
    """The hall screen and the tag of its state, from the same read."""
    scored_drive = _load(drive_id)
    head = present.drive_head(scored_drive)
    seconds = _screen_seconds()
    state = _live_state(scored_drive.record, "screen", seconds)
    page = render_template(
        "drives/screen.html",
        head=head,
        refresh=REFRESH,
        seconds=seconds,
        pages=present.screen_pages(scored_drive, service.money(get_db(), drive_id, scored_drive.setup)),
        move_again=present.move_again(scored_drive),
        live_url=url_for("drives.screen_live", drive_id=drive_id, seconds=request.args.get("seconds")),
        live_tag=state,
    )
    return page, state


# ---------------------------------------------------------------- paper


def _qr(url: str) -> Markup:
    """The QR code as inline SVG: the PDF's renderer loads nothing but the package's static files."""
    return Markup(segno.make(url, error="m").svg_inline(scale=6, dark="#000", light="#fff"))


def _cards(scored_drive: service.ScoredDrive) -> dict:
    cards = []
    for t in range(1, scored_drive.setup.tables + 1):
        url = external_url(
            "drives.table", drive_id=scored_drive.id, table=t, token=service.table_token(scored_drive, t)
        )
        cards.append({"table": t, "url": url, "qr": _qr(url)})
    unreachable = present.unreachable(cards[0]["url"]) if cards else None
    return {"head": present.drive_head(scored_drive), "cards": cards, "unreachable": unreachable}


# Paper whose size is tables × hands (a card per player or table, a row per hand): refused for a drive stored with more
# than today's bounds. The table cards (one per table) and the standings (a row per player) grow with the tables only.
BOUNDED = ("scorecards", "tally")
# The print pages kept in this worker per drive version and language: the score cards of 30 tables of 30 hands are
# about 0.4 MB of HTML and 0.2 s of the worker's CPU; at most 32 MB or 64 pages, the least recently used go first.
PAGES = cache.Kept(max_items=64, max_size=32 * 1024 * 1024)  # sized in bytes


def _context(kind: str, scored_drive: service.ScoredDrive, organiser: bool = False) -> dict:
    """The print page's context: built only when the page or the PDF is drawn, not when it is kept."""
    if kind == "cards":
        return _cards(scored_drive)
    ctx: dict = {"head": present.drive_head(scored_drive)}
    if kind == "scorecards":
        ctx["cards"] = present.score_cards(scored_drive)
    elif kind == "tally":
        ctx["cards"] = present.tally_cards(scored_drive)
    else:
        money = service.money(get_db(), scored_drive.id, scored_drive.setup)
        countback = scored_drive.setup.tie_break == "countback"
        ctx.update(
            standings=present.standings_view(scored_drive.drive.standings, countback=countback),
            half_time=present.standings_view(scored_drive.drive.half_time, countback=countback),
            prizes=present.prizes(scored_drive, money, organiser=organiser),
            money=present.money_view(scored_drive, money) if organiser else None,
            rule=present.sit_out_rule(scored_drive.setup),
        )
    return ctx


def _paper_record(kind: str, drive_id: str, organiser: bool):
    """The drive's row (not replayed), if this phone may see the paper (the cards: an organiser's) and the drive is
    within the bounds its paper is printed for; otherwise 404, 403 or the 413 page that says why."""
    try:
        record = service.head(get_db(), drive_id)
    except service.NotFound:
        abort(404)
    if organiser and not service.may_edit(record, phone.drive_key(drive_id)):
        abort(403)
    if kind in BOUNDED:
        setup = service.stored_setup(record)
        max_tables, max_hands = _bounds()
        if setup.tables > max_tables or setup.hands > max_hands:
            abort(_too_large(setup.tables, setup.hands, max_tables, max_hands))
    return record


def _too_large(tables: int, hands: int, max_tables: int, max_hands: int) -> Response:
    """A drive stored before today's bounds (or under larger ones): a page in words, not minutes of drawing."""
    page = render_template(
        "errors/error.html",
        code=413,
        title=_("Too large to print"),
        message=_(
            "This drive has %(tables)d tables and %(hands)d hands; score cards and tally cards are printed for drives "
            "of at most %(max_tables)d tables and %(max_hands)d hands. The drive's pages, the standings and the table "
            "cards still work.",
            tables=tables,
            hands=hands,
            max_tables=max_tables,
            max_hands=max_hands,
        ),
    )
    return Response(page, 413, headers={"Cache-Control": "no-store"})


def _state(record, kind: str, organiser: bool = False) -> str:
    """What the drive's paper shows besides its version: the setup, the money, the draws; the table cards also the
    address their QR codes carry (only theirs: another Host header must not make the others drawn again); the
    standings whether the organiser's (with the money) or everyone's."""
    address = external_url("drives.index") if kind == "cards" else None
    return kept_state(
        [
            record.setup,
            record.title,
            record.created,
            service.money(get_db(), record.id),
            list(record.draws),
            record.prizes_given,
            address,
            organiser,
        ]
    )


def _print_route(kind: str, organiser: bool = False):
    """The print page and PDF of one kind of paper. The standings have two: everyone's, and the organiser's with
    what the prizes cost and what the drive raised."""

    def viewer_is_organiser(record) -> bool:
        return organiser or (kind == "standings" and service.may_edit(record, phone.drive_key(record.id)))

    def page(drive_id):
        record = _paper_record(kind, drive_id, organiser)
        own = viewer_is_organiser(record)
        pdf_url = url_for(f"drives.{kind}_pdf", drive_id=drive_id, lang=request.args.get("lang"))
        state = _state(record, kind, own)
        key = (kind, drive_id, record.version, state, str(get_locale()), request.script_root, pdf_url)
        etag = hashlib.sha256(repr(key).encode()).hexdigest()[:24]
        # The table cards carry the tables' tokens, the organiser's standings the money: never stored by a browser.
        headers = {"Cache-Control": "no-store" if own else "private, no-cache"}
        if not own and request.if_none_match.contains_weak(etag):
            response = Response(status=304, headers=headers)
            response.set_etag(etag)
            return response
        html = PAGES.get(key)
        if html is None:
            scored_drive = _load(drive_id)
            ctx = _context(kind, scored_drive, own)
            html = render_template(f"print/drive_{kind}.html", pdf=False, pdf_url=pdf_url, drive_id=drive_id, **ctx)
            if scored_drive.version == record.version:  # not a result entered in between
                PAGES.put(key, html, len(html))
        response = Response(html, headers=headers, mimetype="text/html")
        if not own:
            response.set_etag(etag)
        return response

    def pdf(drive_id):
        record = _paper_record(kind, drive_id, organiser)
        own = viewer_is_organiser(record)
        owner = f"drive-{kind}{'-money' if own and kind == 'standings' else ''}-{drive_id}"
        name, etag = kept_name(owner, record.version, _state(record, kind, own), kind)
        return kept_pdf(
            name,
            etag,
            f"drive-{drive_id}-{kind}.pdf",
            paper_documents.DOCUMENTS[kind],  # ReportLab draws the whole context in one document
            lambda: {"drive_id": drive_id, **_context(kind, _load(drive_id), own)},
            drive=True,
        )

    bp.add_url_rule(f"/d/<drive_id>/{kind}", f"{kind}_page", page)
    bp.add_url_rule(f"/d/<drive_id>/{kind}.pdf", f"{kind}_pdf", pdf)


_print_route("cards", organiser=True)
_print_route("scorecards")
_print_route("tally")
_print_route("standings")


def _blank_context() -> dict:
    """The blank cards' hands and trumps from the query string, or a 400 page naming what is wrong (as the games'
    blank sheets do): `hands` a whole number from 1 to DRIVE_MAX_HANDS (24 when left out), each `trump` one of the
    trumps (the usual four when none is given)."""
    max_hands = _bounds()[1]
    errors: dict[str, str] = {}
    raw = request.args.get("hands", "").strip()
    hands = whole_number(raw) if raw else min(DEFAULT_HANDS, max_hands)
    if hands is None or not 1 <= hands <= max_hands:
        errors["hands"] = _("must be a whole number from %(low)d to %(high)d", low=1, high=max_hands)
    asked = [t for t in request.args.getlist("trump") if t]
    wrong = [t for t in asked if t not in TRUMPS]
    if wrong:
        errors["trump"] = _(
            "must be one of %(choices)s (not %(wrong)s)", choices=", ".join(TRUMPS), wrong=", ".join(wrong[:3])
        )
    if errors:
        message = "; ".join(with_field(field, text) for field, text in errors.items())
        abort(
            Response(
                render_template("errors/error.html", code=400, title=_("This card cannot be made"), message=message),
                400,
            )
        )
    trumps = tuple(asked) or DEFAULT_TRUMPS
    card = present.blank_card(hands, trumps)
    return {"hands": hands, "card": card, "sheets": present.sheets_of([card, card], 2)}


@bp.get("/drives/blank")
def blank():
    ctx = _blank_context()
    pdf_url = url_for("drives.blank_pdf", **link_args(request.args))
    return render_template("print/drive_blank.html", pdf=False, pdf_url=pdf_url, **ctx)


@bp.get("/drives/blank.pdf")
def blank_pdf():
    return pdf_download(paper_documents.blank_cards_document, "drive-card.pdf", drive=True, **_blank_context())
