"""The club itself and who may change it: the clubs a phone knows, a new club, its settings, its page, the
admin's login and logout, members."""

from __future__ import annotations

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from scorekeeper.core import VARIANTS, InputError
from scorekeeper.services import clubs as club_service
from scorekeeper.web import guard, phone
from scorekeeper.web.clubs import common
from scorekeeper.web.clubs import forms as club_forms
from scorekeeper.web.clubs import present as club_present
from scorekeeper.web.clubs.common import bp
from scorekeeper.web.db import get_db
from scorekeeper.web.inputs import safe_next
from scorekeeper.web.messages import translate
from scorekeeper.web.proxy import external_url
from scorekeeper.web.variants import CLUB_VARIANT, VIEWS, option_labels


@bp.get("/clubs")
def index():
    clubs = club_service.clubs(get_db(), phone.recent_clubs())
    return render_template("clubs/index.html", clubs=clubs, admin={c.id for c in clubs if common.is_admin(c)})


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
            general = common.form_errors(form, errors)
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
                general = common.form_errors(form, exc.errors)
            else:
                common.log_in(club_service.get_club(get_db(), club_id))
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
                general = common.form_errors(form, exc.errors)
    module = VARIANTS[variant]
    fields = [(name, module.OPTIONS[name], form[f"opt_{name}"]) for name in club_forms.shown_options(variant)]
    values = {name: club_forms.option_value(opt, f, current, name) for name, opt, f in fields}
    return common.page(
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
    club, refused = common.admin_or_refuse(club_id)
    if refused:
        return refused
    return _club_form_page(request.args.get("variant", club.variant), club)


@bp.get("/c/<club_id>")
def club(club_id):
    return _club_page(common.club_or_404(club_id), more=request.args.get("more") == "1")


def _club_page(club, member_form=None, member_errors=(), more=False, status=200):
    """The club's page; `more`: the names box has the focus (members were just added, or refused)."""
    club_id = club.id
    db = get_db()
    phone.remember_club(club_id)
    members = list(club_service.members(db, club_id).values())
    evenings = club_service.evening_records(db, club_id)
    admin = common.is_admin(club)
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
    club = common.club_or_404(club_id)
    form = club_forms.LoginForm()
    target = safe_next(request.values.get("next"), url_for("clubs.club", club_id=club_id))
    status = 200
    retry = None
    if request.method == "POST":
        if not form.validate_on_submit():
            status = 400
        elif common.is_admin(club):  # already logged in on this phone: no password to check, and no lock concerns it
            return redirect(target)
        else:
            try:
                ok = club_service.login(get_db(), club_id, form.password.data, common.now(), request.remote_addr)
            except club_service.LockedOut as exc:
                ok, retry, status = False, exc.retry_after, 429
                form.password.errors = [_("Too many wrong passwords. Try again in %(n)d seconds.", n=exc.retry_after)]
            else:
                if ok:
                    common.log_in(club_service.get_club(get_db(), club_id))
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
    common.club_or_404(club_id)
    if not club_forms.ButtonForm().validate_on_submit():
        abort(400)
    phone.log_out(club_id)
    return redirect(url_for("clubs.club", club_id=club_id))


@bp.post("/c/<club_id>/members")
@guard.writes("members")
def add_member(club_id):
    club, refused = common.admin_or_refuse(club_id)
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
    club, refused = common.admin_or_refuse(club_id)
    if refused:
        return refused
    found = club_service.members(get_db(), club_id).get(member_id)
    if found is None:
        abort(404)
    form = club_forms.MemberForm(data={"name": found.name})
    if request.method == "GET":
        return common.page("member.html", club=club, member=found, form=form, general=[])
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
            general = common.form_errors(form, exc.errors)
        else:
            return redirect(url_for("clubs.club", club_id=club_id, _anchor="members"))
    elif "csrf_token" in form.errors:
        general = [_("The form expired; please try again.")]
    return common.page("member.html", 400, club=club, member=found, form=form, general=general)
