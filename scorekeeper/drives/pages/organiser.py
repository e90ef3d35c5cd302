"""The organiser's pages: the drives on this phone, a new drive, the drive page, corrections, people, prizes."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for

from scorekeeper.core.messages import InputError
from scorekeeper.drives import forms, present, service
from scorekeeper.drives.pages.common import (
    NOTICE,
    ORGANISER_KEY,
    bounds,
    bp,
    edit_key,
    is_organiser,
    load,
    messages,
    no_store,
    organised,
    pairs_sent,
    put_errors,
    seating_changed,
    shown_names,
)
from scorekeeper.drives.rules import MAX_PRIZES, OutOfTurn, SeatingChanged
from scorekeeper.server import guard
from scorekeeper.server.db import get_db
from scorekeeper.server.proxy import external_url
from scorekeeper.web import phone
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import language
from scorekeeper.web.inputs import whole_number

# ---------------------------------------------------------------- the drives on this phone, a new drive


@bp.get("/drives")
def index():
    drives = []
    for drive_id in phone.recent_drives():
        try:
            scored_drive = service.load(get_db(), drive_id)
        except service.NotFound:
            continue
        drives.append({"head": present.drive_head(scored_drive), "organiser": is_organiser(scored_drive)})
    return render_template("drives/index.html", drives=drives)


@bp.route("/drives/new", methods=["GET", "POST"])
@guard.writes("drive")
def new_drive():
    rows = min(whole_number(request.form.get("rows")) or forms.PRIZE_ROWS, MAX_PRIZES)
    if request.method == "POST" and request.form.get("more"):  # more prize rows: the form again, as it was filled
        rows = min(rows + 4, MAX_PRIZES)
    form = forms.new_drive_form(request.form if request.method == "POST" else None, language(), rows)
    general: list[str] = []
    if request.method == "POST" and not request.form.get("more"):
        if not form.validate_on_submit():
            general.append(_("The form expired; please try again."))
        else:
            max_tables, max_hands = bounds()
            prize_rows: dict[int, int] = {}
            try:
                data, money, prize_rows = forms.drive_input(form)
                drive_id, key = service.create_drive(
                    get_db(), data, money, max_tables=max_tables, max_hands=max_hands, language=language()
                )
            except InputError as exc:
                put_errors(form, exc.errors, general, prize_rows)
            else:
                phone.remember_drive(drive_id, key)
                return redirect(url_for("drives.drive", drive_id=drive_id))
    first = forms.first_error(form, forms.NEW_DRIVE_ORDER)
    status = 400 if (general or first) else 200
    max_tables, max_hands = bounds()
    page = render_template(
        "drives/new.html",
        form=form,
        general=general,
        first=first,
        trump_slots=range(forms.TRUMP_SLOTS),
        rows=rows,
        prize_rows=range(rows),
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
            "tables": [
                {**present.table_view(scored_drive, t), "shown": shown_names(scored_drive, t)} for t in r.tables
            ],
        }
        for r in hands
    ]


@bp.get("/d/<drive_id>")
def drive(drive_id):
    scored_drive = load(drive_id)
    organiser = is_organiser(scored_drive)
    phone.remember_drive(drive_id)
    head = present.drive_head(scored_drive)
    money = service.money(get_db(), drive_id, scored_drive.setup)
    countback = scored_drive.setup.tie_break == "countback"
    prizes = present.prizes(scored_drive, money, organiser=organiser)
    replaced = present.replaced(scored_drive) if organiser else []
    return no_store(
        render_template(
            "drives/drive.html",
            head=head,
            organiser=organiser,
            results=_results_of(scored_drive) if organiser and not scored_drive.final else [],
            replaced=replaced,
            replaced_at={(r["hand"], r["table"]) for r in replaced},
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
            edit_url=external_url("drives.claim", drive_id=drive_id, key=edit_key(drive_id)) if organiser else None,
        )
    )


@bp.get("/d/<drive_id>/k/<key>")
def claim(drive_id, key):
    """The drive's edit link: remembers the key on this phone (a second organiser's, too), then shows the drive."""
    scored_drive = load(drive_id)
    if not service.may_edit(scored_drive, key):
        abort(403)
    phone.remember_drive(drive_id, key)
    return redirect(url_for("drives.drive", drive_id=drive_id))


def _back(drive_id: str, anchor: str = "notice"):
    return redirect(url_for("drives.drive", drive_id=drive_id, _anchor=anchor))


def _act(drive_id: str, action, *args, done: str, anchor: str = "notice"):
    """The organiser's `action(db, *args, key)` on the drive: its refusal, or `done`, said in the notice; then back to
    the drive's page at `anchor`."""
    try:
        action(get_db(), *args, edit_key(drive_id))
    except InputError as exc:
        flash(messages(exc), NOTICE)
    else:
        flash(done, NOTICE)
    return _back(drive_id, anchor)


@bp.post("/d/<drive_id>/hands/<int:hand>/tables/<int:table>")
@guard.exempt(ORGANISER_KEY.format(what="enters a table's result"))
def correct(drive_id, hand, table):
    """The organiser enters a table's result (for a table without a phone) by the tables' own rules; a result already
    there is corrected through the correction page, which shows its effect first."""
    scored_drive = organised(drive_id)
    tricks = whole_number(request.form.get("tricks"))
    raw: dict = {"tricks": None if tricks is None or tricks > 13 else [tricks, 13 - tricks]}
    shown = pairs_sent()
    if shown is not None:
        raw["pairs"] = shown
    try:
        service.enter_result(get_db(), scored_drive.id, hand, table, raw, edit_key(drive_id))
    except SeatingChanged:
        flash(seating_changed(), NOTICE)
    except OutOfTurn as exc:
        flash(messages(exc) + " " + _("Use “Correct an earlier hand” to correct it."), NOTICE)
    except InputError as exc:
        flash(messages(exc), NOTICE)
    else:
        flash(
            _("Table %(table)d, hand %(hand)d: %(score)s saved.", table=table, hand=hand, score=score(tricks)), NOTICE
        )
    return _back(drive_id)


@bp.post("/d/<drive_id>/hands/<int:hand>/tables/<int:table>/settle")
@guard.exempt(ORGANISER_KEY.format(what="keeps the stored result a second phone sent"))
def settle(drive_id, hand, table):
    """The organiser keeps the result stored now for a table's hand a second phone replaced (the other one is taken
    through the correction page, which settles it too)."""
    scored_drive = organised(drive_id)
    settled = _("Table %(table)d, hand %(hand)d: settled.", table=table, hand=hand)
    return _act(drive_id, service.settle_replaced, scored_drive.id, hand, table, done=settled)


def score(tricks: int | None) -> str:
    return "" if tricks is None else f"{tricks}–{13 - tricks}"


@bp.route("/d/<drive_id>/correct", methods=["GET", "POST"])
@guard.exempt(ORGANISER_KEY.format(what="corrects a table's result in any hand played"))
def correction(drive_id):
    """Correct any hand played: choose the table's result, see what it does (who moves, whose totals change), then
    save it, re-seating the hand not yet played or keeping its seating."""
    scored_drive = organised(drive_id)
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
        raw["pairs"] = pairs_sent()
    keep = args.get("keep_seating") == "1"
    raw["keep_seating"] = keep
    preview, error, status = None, None, 200
    if scored_drive.final:
        error, status = _("The prizes are given: the results are final."), 409
    elif raw["tricks"] is not None:
        try:
            if request.method == "POST":
                _after, change = service.correct_result(get_db(), drive_id, hand, table, raw, edit_key(drive_id))
                moved = change.moved_names
                message = _(
                    "Table %(table)d, hand %(hand)d: %(score)s saved.", table=table, hand=hand, score=score(tricks)
                )
                if moved:
                    message += " " + _("Move again: %(names)s.", names=", ".join(moved))
                elif change.totals:
                    message += " " + _("Totals changed: %(names)s.", names=", ".join(n for n, *_r in change.totals))
                flash(message, NOTICE)
                return _back(drive_id)
            _before, change = service.correct_result(
                get_db(), drive_id, hand, table, raw, edit_key(drive_id), dry_run=True
            )
            preview = present.correction_view(scored_drive, change, hand, table)
            kept_change = None
            if change.moved and not keep:
                _before, kept = service.correct_result(
                    get_db(), drive_id, hand, table, {**raw, "keep_seating": True}, edit_key(drive_id), dry_run=True
                )
                kept_change = present.correction_view(scored_drive, kept, hand, table)
            preview["if_kept"] = kept_change
        except SeatingChanged:
            error, status = seating_changed(), 409
        except InputError as exc:
            error, status = messages(exc), 409 if isinstance(exc, OutOfTurn) else 400
    page = render_template(
        "drives/correct.html",
        head=present.drive_head(scored_drive),
        hand=hand,
        table=table,
        here=present.table_view(scored_drive, here),
        shown=shown_names(scored_drive, here),
        tricks=tricks if tricks is not None and tricks <= 13 else (here.tricks[0] if here.tricks else None),
        tricks_choices=forms.CorrectionForm().tricks.choices,
        preview=preview,
        keep=keep,
        error=error,
    )
    return no_store(page, status)


# ---------------------------------------------------------------- people: renames and substitutes


def _people_page(
    scored_drive: service.ScoredDrive, status: int = 200, error: str | None = None, field: str | None = None
):
    setup = scored_drive.setup
    seated = [p for p in setup.people if p.last >= scored_drive.drive.current or p.last == setup.hands]
    return no_store(
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
            substitute_card=setup.substitute_card,
            spare_seats=setup.spare_seats,
            spare=present.spare_seats(setup),
            error=error,
            field=field,
            values=request.form,
        ),
        status,
    )


@bp.get("/d/<drive_id>/people")
def people(drive_id):
    return _people_page(organised(drive_id))


@bp.post("/d/<drive_id>/rename")
@guard.exempt(ORGANISER_KEY.format(what="renames a player in place"))
def rename(drive_id):
    scored_drive = organised(drive_id)
    old, new = request.form.get("old", ""), request.form.get("new", "")
    try:
        service.rename_player(get_db(), drive_id, {"from": old, "to": new}, edit_key(drive_id))
    except InputError as exc:
        field = "new" if "to" in exc.errors else "old"
        return _people_page(scored_drive, 400, messages(exc), field)
    flash(_("%(old)s is %(new)s now.", old=old, new=new.strip()), NOTICE)
    return _back(drive_id)


@bp.post("/d/<drive_id>/rules")
@guard.exempt(ORGANISER_KEY.format(what="the substitute and spare-seat rules"))
def people_rules(drive_id):
    scored_drive = organised(drive_id)
    raw = {k: request.form[k] for k in ("substitute_card", "spare_seats") if k in request.form}
    try:
        service.set_rules(get_db(), drive_id, raw, edit_key(drive_id))
    except InputError as exc:
        return _people_page(scored_drive, 400, messages(exc), next(iter(exc.errors), None))
    flash(_("The rules are saved."), NOTICE)
    return _back(drive_id)


@bp.post("/d/<drive_id>/substitutes")
@guard.exempt(ORGANISER_KEY.format(what="a substitute takes a seat, at most one per seat and hand"))
def substitute(drive_id):
    scored_drive = organised(drive_id)
    raw: dict[str, Any] = {
        "out": request.form.get("out", ""),
        "in": request.form.get("newcomer", ""),
        "hand": whole_number(request.form.get("hand")) or request.form.get("hand") or scored_drive.drive.current,
        "lady_as_gent": request.form.get("lady_as_gent") == "y",
    }
    try:
        service.add_substitute(get_db(), drive_id, raw, edit_key(drive_id))
    except InputError as exc:
        return _people_page(scored_drive, 409 if isinstance(exc, OutOfTurn) else 400, messages(exc), "newcomer")
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
    organised(drive_id)
    try:
        service.delete_drive(get_db(), drive_id, edit_key(drive_id))
    except InputError as exc:
        flash(messages(exc), NOTICE)
        return _back(drive_id)
    phone.forget_drive(drive_id)
    flash(_("The drive was deleted."))
    return redirect(url_for("drives.index"))


# ---------------------------------------------------------------- prizes: written, drawn, given


@bp.route("/d/<drive_id>/prizes", methods=["GET", "POST"])
@guard.exempt(ORGANISER_KEY.format(what="writes the fee and the prizes anew, at most 60"))
def prizes_page(drive_id):
    scored_drive = organised(drive_id)
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
            service.put_money(get_db(), drive_id, data, edit_key(drive_id), language())
        except InputError as exc:
            put_errors(form, exc.errors, general, prize_rows)
        else:
            flash(_("The prizes are saved."), NOTICE)
            return _back(drive_id, "prizes")
    first = forms.first_error(form, ())
    return no_store(
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
    organised(drive_id)
    drawn = _("Drawn: the cuts and lucky numbers are recorded below.")
    return _act(drive_id, service.draw_prizes, drive_id, done=drawn, anchor="prizes")


@bp.post("/d/<drive_id>/prizes/given")
@guard.exempt(ORGANISER_KEY.format(what="the prizes are given: the results are final"))
def give(drive_id):
    organised(drive_id)
    if request.form.get("sure") != "y":
        flash(_("Tick “The results are final” to give the prizes."), NOTICE)
        return _back(drive_id, "prizes")
    given = _("The prizes are given; the results are final.")
    return _act(drive_id, service.give_prizes, drive_id, done=given, anchor="prizes")
