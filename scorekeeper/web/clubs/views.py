"""The club pages: members, card evenings and their tables, results, the season ledger, statistics, CSV.

Anyone with the club's link reads; changes need the club's admin to be logged in on this phone.
Thin: club_service does the work, club_present makes it text.
"""

from __future__ import annotations

import time

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from scorekeeper.core import VARIANTS, InputError, format_cents
from scorekeeper.services import clubs as club_service
from scorekeeper.web import guard, phone
from scorekeeper.web.clubs import forms as club_forms
from scorekeeper.web.clubs import present as club_present
from scorekeeper.web.db import get_db
from scorekeeper.web.inputs import number_or_raw, safe_next
from scorekeeper.web.messages import translate
from scorekeeper.web.proxy import external_url
from scorekeeper.web.variants import CLUB_VARIANT, VIEWS, option_labels

bp = Blueprint("clubs", __name__)


def _now() -> float:
    """The clock of the login throttle; tests put their own in the config as CLUB_CLOCK."""
    return current_app.config.get("CLUB_CLOCK", time.time)()


# ---------------------------------------------------------------- the club, its admin


def _club(club_id):
    try:
        return club_service.get_club(get_db(), club_id)
    except club_service.ClubNotFound:
        abort(404)


def _is_admin(club) -> bool:
    return phone.admin_token(club.id) == club_service.admin_token(club)


def _log_in(club) -> None:
    phone.log_in(club.id, club_service.admin_token(club))


def _refuse():
    return render_template(
        "errors/error.html",
        code=403,
        title=_("Not allowed"),
        message=_("Only the club's admin can change the club. Log in first."),
    ), 403


def _admin(club_id):
    """The club, and None if this phone's admin is logged in; else the club and the refusal to answer."""
    club = _club(club_id)
    if _is_admin(club):
        return club, None
    if request.method == "GET":
        return club, redirect(url_for("clubs.login", club_id=club_id, next=request.full_path.rstrip("?")))
    return club, _refuse()


def _errors(form, errors: dict, names: dict | None = None) -> list[str]:
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
        else:
            general.append(text)
    return general


def _page(template: str, status: int = 200, **ctx):
    return render_template(f"clubs/{template}", **ctx), status


@bp.get("/clubs")
def index():
    clubs = club_service.clubs(get_db(), phone.recent_clubs())
    return render_template("clubs/index.html", clubs=clubs, admin={c.id for c in clubs if _is_admin(c)})


def _club_form_page(variant, club=None):
    """Create (club None) or change a club: its name, currency, rule set and password; Preview shows the matrix."""
    if variant not in VARIANTS:
        abort(404)
    current = club.options if club and club.variant == variant else None
    form = club_forms.club_form(variant, request.form if request.method == "POST" else None, current)
    if request.method == "GET" and club:
        form.name.data, form.currency.data, form.language.data = club.name, club.currency, club.language or ""
    options, errors = club_forms.rules_from_form(variant, form, current)
    general, status = [], 200
    if request.method == "POST" and not request.form.get("preview"):
        status = 400
        if not form.validate_on_submit():
            if "csrf_token" in form.errors:
                general = [_("The form expired; please try again.")]
        elif errors:
            general = _errors(form, errors)
        else:
            data = {
                "name": form.name.data,
                "currency": form.currency.data,
                "language": form.language.data or None,
                "variant": variant,
                "options": options,
                "password": form.password.data or None,
            }
            try:
                if club is None:
                    club_id = club_service.create_club(get_db(), data)
                else:
                    club_service.update_club(get_db(), club.id, data)
                    club_id = club.id
            except InputError as exc:
                general = _errors(form, exc.errors)
            else:
                _log_in(club_service.get_club(get_db(), club_id))
                flash(_("The club is saved.") if club else _("The club is made. You are its admin on this phone."))
                return redirect(url_for("clubs.club", club_id=club_id))
    matrix = None
    has_tariff = VIEWS[variant].tariff_matrix is not None
    if has_tariff:
        try:
            if errors:
                raise InputError(errors)
            matrix = club_present.matrix_context(
                variant, club_service.check_rules(variant, options, form.currency.data)
            )
        except InputError as exc:
            if request.form.get("preview"):
                general = _errors(form, exc.errors)
    module = VARIANTS[variant]
    fields = [(name, module.OPTIONS[name], form[f"opt_{name}"]) for name in club_forms.shown_options(variant)]
    values = {name: club_forms.option_value(opt, f, current, name) for name, opt, f in fields}
    return _page(
        "edit.html",
        status,
        form=form,
        club=club,
        variant=variant,
        module=module,
        variants=VARIANTS,
        fields=fields,
        values=values,
        matrix=matrix,
        general=general,
        tariff_fields=club_forms.preset_fields(variant),
        has_tariff=has_tariff,
        for_money=VARIANTS[variant].FOR_MONEY,
        labels=option_labels(variant),
        choice_labels=VIEWS[variant].CHOICE_LABELS,
    )


@bp.route("/clubs/new", methods=["GET", "POST"])
@guard.writes("new-club")
def new_club():
    return _club_form_page(request.args.get("variant", CLUB_VARIANT))


@bp.route("/c/<club_id>/settings", methods=["GET", "POST"])
@guard.exempt("the admin changes the club's own row")
def settings(club_id):
    club, refused = _admin(club_id)
    if refused:
        return refused
    return _club_form_page(request.args.get("variant", club.variant), club)


@bp.get("/c/<club_id>")
def club(club_id):
    return _club_page(_club(club_id), more=request.args.get("more") == "1")


def _club_page(club, member_form=None, member_errors=(), more=False, status=200):
    """The club's page; `more`: the names box has the focus (members were just added, or refused)."""
    club_id = club.id
    db = get_db()
    phone.remember_club(club_id)
    members = list(club_service.members(db, club_id).values())
    evenings = club_service.evening_records(db, club_id)
    admin = _is_admin(club)
    return render_template(
        "clubs/club.html",
        club=club,
        admin=admin,
        members=members,
        active=[m for m in members if not m.retired],
        retired=[m for m in members if m.retired],
        evenings=list(reversed(evenings)),
        member_form=member_form or club_forms.MemberForm(),
        member_errors=list(member_errors),
        more=more or bool(member_errors),
        logout_form=club_forms.ButtonForm(),
        **club_present.rules_context(club),
        share_url=external_url("clubs.club", club_id=club_id),
    ), status


@bp.route("/c/<club_id>/login", methods=["GET", "POST"])
@guard.writes("login")
def login(club_id):
    club = _club(club_id)
    form = club_forms.LoginForm()
    target = safe_next(request.values.get("next"), url_for("clubs.club", club_id=club_id))
    status = 200
    retry = None
    if request.method == "POST":
        if not form.validate_on_submit():
            status = 400
        elif _is_admin(club):  # already logged in on this phone: no password to check, and no lock concerns it
            return redirect(target)
        else:
            try:
                ok = club_service.login(get_db(), club_id, form.password.data, _now(), request.remote_addr)
            except club_service.LockedOut as exc:
                ok, retry, status = False, exc.retry_after, 429
                form.password.errors = [_("Too many wrong passwords. Try again in %(n)d seconds.", n=exc.retry_after)]
            else:
                if ok:
                    _log_in(club_service.get_club(get_db(), club_id))
                    return redirect(target)
                status = 400
                form.password.errors = [_("Wrong password.")]
    form.next.data = target
    response = render_template("clubs/login.html", club=club, form=form), status
    if retry:
        return (*response, {"Retry-After": str(retry)})
    return response


@bp.post("/c/<club_id>/logout")
@guard.exempt("forgets this phone's login; writes no row")
def logout(club_id):
    _club(club_id)
    if not club_forms.ButtonForm().validate_on_submit():
        abort(400)
    phone.log_out(club_id)
    return redirect(url_for("clubs.club", club_id=club_id))


# ---------------------------------------------------------------- members


@bp.post("/c/<club_id>/members")
@guard.writes("members")
def add_member(club_id):
    club, refused = _admin(club_id)
    if refused:
        return refused
    form = club_forms.MemberForm()
    if not form.validate_on_submit():
        return _club_page(club, form, [_("The form expired; please try again.")], status=400)
    names = form.lines()
    try:
        club_service.add_members(get_db(), club_id, names)
    except InputError as exc:
        errors = [
            f"{names[int(key[6:])].strip()}: {translate(message)}" if key.startswith("names.") else translate(message)
            for key, message in exc.errors.items()
        ]
        return _club_page(club, form, errors, status=400)
    added = [" ".join(name.split()) for name in names]
    if len(added) == 1:
        flash(_("%(name)s is a member.", name=added[0]))
    else:
        flash(_("%(names)s are members.", names=", ".join(added)))
    # No #fragment: a browser skips autofocus when the address points at an element.
    return redirect(url_for("clubs.club", club_id=club_id, more=1))


@bp.route("/c/<club_id>/members/<int:member_id>", methods=["GET", "POST"])
@guard.exempt("the admin renames or retires a member: changes a row, makes none")
def member(club_id, member_id):
    club, refused = _admin(club_id)
    if refused:
        return refused
    found = club_service.members(get_db(), club_id).get(member_id)
    if found is None:
        abort(404)
    form = club_forms.MemberForm(data={"name": found.name})
    if request.method == "GET":
        return _page("member.html", club=club, member=found, form=form, general=[])
    action = request.form.get("action", "rename")
    if action not in ("rename", "retire", "reinstate"):
        abort(400)
    general: list[str] = []
    if form.validate_on_submit():
        try:
            if action == "rename":
                club_service.rename_member(get_db(), club_id, member_id, form.name.data)
            else:
                club_service.set_retired(get_db(), club_id, member_id, action == "retire")
        except InputError as exc:
            general = _errors(form, exc.errors)
        else:
            return redirect(url_for("clubs.club", club_id=club_id, _anchor="members"))
    elif "csrf_token" in form.errors:
        general = [_("The form expired; please try again.")]
    return _page("member.html", 400, club=club, member=found, form=form, general=general)


# ---------------------------------------------------------------- evenings and tables


@bp.route("/c/<club_id>/evenings/new", methods=["GET", "POST"])
@guard.writes("evening")
def new_evening(club_id):
    return _evening_form(club_id)


@bp.route("/c/<club_id>/e/<int:evening_id>/edit", methods=["GET", "POST"])
@guard.exempt("the admin corrects an evening (or deletes an empty one): changes a row, makes none")
def edit_evening(club_id, evening_id):
    """Correct the date, the fee or the way of settling up; an evening without tables can be deleted here too."""
    return _evening_form(club_id, evening_id)


def _evening_form(club_id, evening_id: int | None = None):
    """A new evening (evening_id None), or the one to correct."""
    club, refused = _admin(club_id)
    if refused:
        return refused
    db = get_db()
    record = None
    if evening_id is not None:
        try:
            record = club_service.get_evening(db, club_id, evening_id)
        except club_service.ClubNotFound:
            abort(404)
    form = club_forms.EveningForm()
    general: list[str] = []
    if request.method == "GET":
        form.date.data = record.date if record else time.strftime("%Y-%m-%d")
        if record:
            form.fee.data = format_cents(record.fee_cents) if record.fee_cents else ""
            form.settlement.data = record.settlement
    elif form.validate_on_submit():
        fields = (form.date.data, form.fee.data, form.settlement.data or "pairwise")
        try:
            if record:
                club_service.change_evening(db, club_id, evening_id, *fields)
            else:
                evening_id = club_service.create_evening(db, club_id, *fields)
        except InputError as exc:
            general = _errors(form, exc.errors)
        else:
            if record:
                flash(_("The evening was changed."))
            return redirect(url_for("clubs.evening", club_id=club_id, evening_id=evening_id))
    elif not form.errors:
        general = [_("The form expired; please try again.")]
    editing = (
        {"editing": record, "deletable": not club_service.table_count(db, record.id), "button": club_forms.ButtonForm()}
        if record
        else {}
    )
    return _page(
        "evening_new.html",
        400 if request.method == "POST" else 200,
        club=club,
        form=form,
        general=general,
        rate=record.rate if record else club_service.club_rate(club),
        **editing,
    )


def _button_post(club_id: str, change) -> bool:
    """A post that is only a button (the admin's, with its CSRF token): does `change(db)`; False if it was refused
    (its messages flashed)."""
    _, refused = _admin(club_id)
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


@bp.post("/c/<club_id>/e/<int:evening_id>/delete")
@guard.exempt("the admin deletes an evening without tables")
def delete_evening(club_id, evening_id):
    if not _button_post(club_id, lambda db: club_service.delete_evening(db, club_id, evening_id)):
        return redirect(url_for("clubs.edit_evening", club_id=club_id, evening_id=evening_id))
    flash(_("The evening was deleted."))
    return redirect(url_for("clubs.club", club_id=club_id))


def _evening(club_id, evening_id, settlement=None):
    try:
        return club_service.evening(get_db(), club_id, evening_id, settlement)
    except club_service.ClubNotFound:
        abort(404)


def _evening_page(club, evening_id, form=None, general=(), status=200):
    db = get_db()
    data = _evening(club.id, evening_id)
    members = club_service.members(db, club.id)
    admin = _is_admin(club)
    ctx = club_present.evening_context(data, members, club.currency)
    for table in ctx["tables"]:
        key = phone.game_key(table["game_id"]) if admin else None
        table["edit_url"] = external_url("games.claim", game_id=table["game_id"], key=key) if key else None
        table["removable"] = admin and table["hands"] == 0
    if form is None and admin:
        seated = {m for t in data.tables for m in t.record.members}
        form = club_forms.table_form(club.variant, [m for m in members.values() if not m.retired], seated=seated)
    return render_template(
        "clubs/evening.html",
        club=club,
        evening=ctx,
        admin=admin,
        form=form,
        general=list(general),
        button=club_forms.ButtonForm(),
        seats=form.seat_fields() if form else [],
    ), status


@bp.get("/c/<club_id>/e/<int:evening_id>")
def evening(club_id, evening_id):
    return _evening_page(_club(club_id), evening_id)


@bp.post("/c/<club_id>/e/<int:evening_id>/tables")
@guard.writes("new-game")
def new_table(club_id, evening_id):
    club, refused = _admin(club_id)
    if refused:
        return refused
    _evening(club_id, evening_id)
    members = club_service.members(get_db(), club_id)
    form = club_forms.table_form(club.variant, [m for m in members.values() if not m.retired], request.form)
    if not form.validate_on_submit():
        return _evening_page(club, evening_id, form, [_("The form expired; please try again.")], 400)
    try:
        game_id, key, number = club_service.add_table(
            get_db(),
            club_id,
            evening_id,
            form.member_ids(),
            number_or_raw(form.dealer.data, negative=True) or 0,
            form.variant.data or None,
        )
    except InputError as exc:
        return _evening_page(club, evening_id, form, _errors(form, exc.errors, {"players": "seat0"}), 400)
    phone.remember_game(game_id, key)
    flash(_("Table %(n)d is ready. Hand its edit link to the table's scorer.", n=number))
    return redirect(url_for("clubs.evening", club_id=club_id, evening_id=evening_id, _anchor=f"table-{number}"))


@bp.post("/c/<club_id>/e/<int:evening_id>/tables/<game_id>/remove")
@guard.exempt("the admin removes a table without hands")
def remove_table(club_id, evening_id, game_id):
    _button_post(club_id, lambda db: club_service.remove_table(db, club_id, evening_id, game_id))
    return redirect(url_for("clubs.evening", club_id=club_id, evening_id=evening_id))


@bp.get("/c/<club_id>/e/<int:evening_id>/result")
def result(club_id, evening_id):
    club = _club(club_id)
    settlement = request.args.get("settlement")
    data = _evening(club_id, evening_id, settlement)
    ctx = club_present.evening_context(data, club_service.members(get_db(), club_id), club.currency)
    admin = _is_admin(club)
    form = club_forms.SettleForm(data={"settlement": ctx["settlement"]}) if admin else None
    ways = []
    if admin and not ctx["settled"]:
        for choice in form.settlement.choices:  # each way with its payments, to choose between them on the page
            way = ctx if choice.value == ctx["settlement"] else None
            if way is None:
                way = club_present.evening_context(
                    _evening(club_id, evening_id, choice.value), club_service.members(get_db(), club_id), club.currency
                )
            ways.append({"value": choice.value, "label": choice.label, "payments": way["payments"]})
    return render_template("clubs/result.html", club=club, evening=ctx, admin=admin, form=form, ways=ways)


@bp.post("/c/<club_id>/e/<int:evening_id>/settle")
@guard.exempt("the admin marks an evening settled: changes a row")
def settle(club_id, evening_id):
    club, refused = _admin(club_id)
    if refused:
        return refused
    _evening(club_id, evening_id)
    form = club_forms.SettleForm()
    if not form.validate_on_submit():
        abort(400)
    action = form.action.data or request.form.get("action")
    try:
        club_service.set_settled(get_db(), club_id, evening_id, form.settlement.data, action == "settle")
    except InputError as exc:
        for message in exc.errors.values():
            flash(translate(message))
    else:
        flash(_("The evening is marked settled.") if action == "settle" else _("The evening is not settled."))
    return redirect(url_for("clubs.result", club_id=club_id, evening_id=evening_id))


def _csv(text: str, filename: str) -> Response:
    return Response(
        "\ufeff" + text, mimetype="text/csv", headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )


@bp.get("/c/<club_id>/e/<int:evening_id>/result.csv")
def result_csv(club_id, evening_id):
    _club(club_id)
    data = _evening(club_id, evening_id, request.args.get("settlement"))
    return _csv(
        club_present.evening_csv(data, club_service.members(get_db(), club_id)), f"evening-{data.record.date}.csv"
    )


# ---------------------------------------------------------------- the season


def _range():
    """The ledger's date filter from the query string; a bad date is shown and ignored."""
    try:
        return club_service.date_range(request.args.get("from"), request.args.get("to")), []
    except InputError as exc:
        return (None, None), [translate(m) for m in exc.errors.values()]


@bp.get("/c/<club_id>/ledger")
def ledger(club_id):
    club = _club(club_id)
    (start, end), general = _range()
    db = get_db()
    season = club_service.season(db, club_id, start, end)
    ctx = club_present.ledger_context(season, club_service.members(db, club_id), club.currency)
    return render_template(
        "clubs/ledger.html",
        club=club,
        ledger=None if general else ctx,
        start=start or (request.args.get("from", "")[:10] if general else ""),
        end=end or (request.args.get("to", "")[:10] if general else ""),
        general=general,
        args={k: v for k, v in (("from", start), ("to", end)) if v},
    ), 400 if general else 200


@bp.get("/c/<club_id>/ledger.csv")
def ledger_csv(club_id):
    club = _club(club_id)
    (start, end), general = _range()
    if general:
        abort(400)
    db = get_db()
    season = club_service.season(db, club_id, start, end)
    return _csv(club_present.ledger_csv(season, club_service.members(db, club_id), club.currency), "ledger.csv")


@bp.get("/c/<club_id>/stats")
def stats(club_id):
    club = _club(club_id)
    (start, end), general = _range()
    db = get_db()
    rows = club_present.stats_context(club_service.stats(db, club_id, start, end), club_service.members(db, club_id))
    return render_template(
        "clubs/stats.html",
        club=club,
        rows=rows,
        start=start or "",
        end=end or "",
        general=general,
        variant_title=VARIANTS[club.variant].TITLE,
    ), 400 if general else 200
