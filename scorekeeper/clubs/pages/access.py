"""The club itself and who may change it: the clubs a phone knows, a new club, its settings, its page, the
admin's login and logout, members."""

from __future__ import annotations

from typing import Any

from flask import (
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from scorekeeper.clubs import forms as club_forms
from scorekeeper.clubs import present as club_present
from scorekeeper.clubs import service as club_service
from scorekeeper.clubs.pages import card_paper, common
from scorekeeper.clubs.pages.common import bp
from scorekeeper.clubs.service import imports as import_service
from scorekeeper.clubs.service import seasons
from scorekeeper.core import VARIANTS, InputError
from scorekeeper.games import document, sheets
from scorekeeper.games import forms as games_forms
from scorekeeper.games.paper import tariff_view
from scorekeeper.games.sheets import pdf_download
from scorekeeper.server import guard
from scorekeeper.server.db import get_db
from scorekeeper.server.proxy import external_url
from scorekeeper.variants.views import CLUB_VARIANT, VIEWS, option_labels
from scorekeeper.web import cards, editors, phone
from scorekeeper.web.i18n import amount
from scorekeeper.web.inputs import safe_next
from scorekeeper.web.messages import translate
from scorekeeper.web.options import option_text


@bp.get("/clubs")
def index():
    clubs = club_service.clubs(get_db(), phone.recent_clubs())
    return render_template("clubs/index.html", clubs=clubs, admin={c.id for c in clubs if common.is_admin(c)})


EVENING_FIELDS = {"evening.fee": "evening_fee", "evening.settlement": "evening_settlement", "evening": "evening_fee"}


def _card_source(variant: str):
    """Another club whose card a new club or these settings start from (`?card=<club id>`, its card page's "Make a
    club with this card"), on a GET only."""
    source = request.args.get("card")
    if request.method != "GET" or not source:
        return None
    try:
        found = club_service.get_club(get_db(), source)
    except club_service.ClubNotFound:
        return None
    return found if found.variant == variant else None


def _evening_fields(form, defaults: dict) -> None:
    fee = defaults.get("fee_cents") or 0
    form.evening_fee.data = amount(fee) if fee else ""  # 20,00 in Danish: as the reader writes it
    form.evening_settlement.data = defaults.get("settlement") or "pairwise"


def _club_form_page(variant, club=None, preview=False):
    """Create (club None) or change a club: its name, currency, rule set (the tariff card: an option editor, its
    table beside it), the evening's defaults and the password. Preview, or an editor's own button (fill in a preset,
    import a card), shows the form again and saves nothing."""
    if variant not in VARIANTS:
        abort(404)
    posted = request.method == "POST"
    source = _card_source(variant)
    current = club.options if club and club.variant == variant else source.options if source else None
    form = club_forms.club_form(variant, request.form if posted else None, current)
    notice = None
    if not posted and club:
        form.name.data, form.currency.data, form.language.data = club.name, club.currency, club.language or ""
        _evening_fields(form, club_service.evening_defaults(club))
    elif not posted:
        _evening_fields(form, club_service.evening_defaults(source) if source else {})
        if source:
            notice = _("The card of %(club)s is in the fields: change what you like, then save.", club=source.name)
    found = editors.states(variant, request.form if posted else None, request.files, current)
    drawn = posted and any(e.posted(request.form) for e in editors.editors(variant).values())
    skip = editors.covered(variant) if drawn or (not posted and editors.editors(variant)) else set()
    options, errors = club_forms.rules_from_form(variant, form, current, skip)
    editor_ok = True
    if drawn:
        editor_ok = editors.apply(variant, options, found)
        brought = editors.more(found)
        if "evening" in brought:
            _evening_fields(form, brought.pop("evening") or {})
        games_forms.show_options(variant, form, brought)
        options.update({k: v for k, v in brought.items() if k in VARIANTS[variant].OPTIONS})
    elif not posted and editors.editors(variant):
        editors.apply(variant, options, found)  # the card as the editor opens it, for the table beside it
    previewing = preview or bool(request.form.get("preview")) or editors.acts(variant, request.form)
    general, status = [], 200
    if posted and not previewing:
        status = 400
        if not form.validate_on_submit():
            if "csrf_token" in form.errors:
                general = [_("The form expired; please try again.")]
        elif errors:
            general = common.form_errors(form, editors.take_errors(variant, found, errors))
        elif editor_ok:
            data = {
                "name": form.name.data,
                "currency": form.currency.data,
                "language": form.language.data or None,
                "variant": variant,
                "options": options,
                "password": form.password.data or None,
                "evening": {"fee": form.evening_fee.data, "settlement": form.evening_settlement.data or "pairwise"},
            }
            try:
                if club is None:
                    club_id = club_service.create_club(get_db(), data)
                else:
                    club_service.update_club(get_db(), club.id, data)
                    club_id = club.id
            except InputError as exc:
                rest = editors.take_errors(variant, found, exc.errors)
                general = common.form_errors(form, rest, EVENING_FIELDS)
            else:
                common.log_in(club_service.get_club(get_db(), club_id))
                flash(
                    _(
                        "The club is saved. Its card applies to the tables started from now on; the tables already "
                        "started keep the rules they began with (their sheets show them)."
                    )
                    if club
                    else _("The club is made. You are its admin on this phone.")
                )
                return redirect(url_for("clubs.club", club_id=club_id))
    elif posted and not form.validate_on_submit() and "csrf_token" in form.errors:
        general = [_("The form expired; please try again.")]
    elif posted and errors:
        general = common.form_errors(form, editors.take_errors(variant, found, errors))
    if posted and any(state.errors for state in found.values()):
        status = 400
    matrix, tariff = None, None
    has_tariff = VIEWS[variant].tariff_matrix is not None
    if has_tariff and editor_ok and not errors:
        try:
            resolved = club_service.check_rules(variant, options, form.currency.data)
        except InputError as exc:
            rest = editors.take_errors(variant, found, exc.errors)
            if previewing:
                general += common.form_errors(form, rest, EVENING_FIELDS)
        else:
            matrix = club_present.matrix_context(variant, resolved)
            tariff = tariff_view(variant, resolved)
    module = VARIANTS[variant]
    fields = [(name, module.OPTIONS[name], form[f"opt_{name}"]) for name in club_forms.shown_options(variant)]
    values = {name: club_forms.option_value(opt, f, current, name) for name, opt, f in fields}
    preview_url = (
        url_for("clubs.settings", club_id=club.id, variant=variant)
        if club
        else url_for("clubs.new_club_preview", variant=variant)
    )
    editor_views = editors.views(
        variant,
        found,
        tariff=tariff if not any(state.errors for state in found.values()) else None,
        preview_url=preview_url,
        fragment_url=url_for("games.tariff_fragment", variant=variant),
    )
    for view in editor_views.values():
        view["notice"] = view["notice"] or notice
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
        editors=editor_views,
        covered=editors.covered(variant),
        action=url_for("clubs.settings", club_id=club.id, variant=variant)
        if club
        else url_for("clubs.new_club", variant=variant),
    )


@bp.route("/clubs/new", methods=["GET", "POST"])
@guard.writes("new-club")
def new_club():
    return _club_form_page(request.args.get("variant", CLUB_VARIANT))


@bp.post("/clubs/new/preview")
@guard.exempt("a preview of a new club's card (the Preview button without JavaScript): writes nothing")
def new_club_preview():
    return _club_form_page(request.args.get("variant", CLUB_VARIANT), preview=True)


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
        imported=import_service.evening_files(db, [e.id for e in evenings]),
        member_form=member_form or club_forms.MemberForm(),
        member_errors=list(member_errors),
        more=more or bool(member_errors),
        logout_form=club_forms.ButtonForm(),
        **club_present.rules_context(club),
        share_url=external_url("clubs.club", club_id=club_id),
        **club_present.format_context(club_service.club_format(club)),
    ), status


@bp.get("/c/<club_id>/card")
def card(club_id):
    """The club's card to print or share: its tariff as the card editor lays it out (as text), the table it gives, the
    stake and the evenings' defaults; a file to download, and links that start another club or a game from it. In the
    club's print language, as its printed card is: what the club hands round."""
    club = common.club_or_404(club_id)
    common.in_print_language(club)
    found = editors.states(club.variant, current=club.options)
    tariff = tariff_view(club.variant, club.options)
    return render_template(
        "clubs/card.html",
        club=club,
        editors=editors.views(club.variant, found, tariff=tariff, readonly=True),
        evening=club_service.evening_defaults(club),
        admin=common.is_admin(club),
        card_url=external_url("clubs.card", club_id=club_id),
        **club_present.rules_context(club),
    )


@bp.get("/c/<club_id>/card/print")
def card_print(club_id):
    """The club's card on one A4 page: the whole bid × tricks table and the sol bids, to print and hang up; in the
    club's print language."""
    club = common.club_or_404(club_id)
    common.in_print_language(club)
    pdf_url = url_for("clubs.card_pdf", club_id=club_id)
    ctx = card_paper.card_context(club)
    doc = card_paper.card_document(ctx)
    return render_template("print/card.html", pdf=False, pdf_url=pdf_url, club=club, doc=doc, **ctx)


@bp.get("/c/<club_id>/card.pdf")
def card_pdf(club_id):
    """The same page as a PDF (ReportLab)."""
    club = common.club_or_404(club_id)
    common.in_print_language(club)
    name = "".join(c if c.isascii() and c.isalnum() else "-" for c in club.name).strip("-").lower() or "club"
    return pdf_download(card_paper.card_document, f"card-{name}.pdf", **card_paper.card_context(club))


def blank_args(club) -> dict:
    """The club's rule set as a blank sheet's query string (every option by its name, as text)."""
    spec = VARIANTS[club.variant].OPTIONS
    return {
        name: option_text(spec[name], value)
        for name, value in club.options.items()
        if name in spec and value not in (None, False) and name != "currency"
    }


# What a club's blank sheet takes from its address: the sheet's own fields; the house rules are the club's card.
SHEET_FIELDS = ("player", "title", "seats", "rows", "dealer")


def _club_sheet_args(club) -> MultiDict:
    asked = [(k, v) for k, v in request.args.items(multi=True) if k in SHEET_FIELDS]
    return MultiDict(asked + list(blank_args(club).items()))


@bp.get("/c/<club_id>/blank")
def card_blank(club_id):
    """A blank sheet with the club's card, by the club's address (the card in a query string was some 40 KB for a
    matrix card: past nginx's 8 KB request line); in the club's print language, as its printed card."""
    club = common.club_or_404(club_id)
    common.in_print_language(club)
    args = _club_sheet_args(club)
    ctx = sheets.blank_sheet_context(club.variant, args)
    asked: dict[str, Any] = {k: request.args.getlist(k) for k in SHEET_FIELDS if k in request.args}
    pdf_url = url_for("clubs.card_blank_pdf", club_id=club_id, **asked)
    return render_template("print/blank.html", pdf=False, pdf_url=pdf_url, doc=document.blank_document(ctx), **ctx)


@bp.get("/c/<club_id>/blank.pdf")
def card_blank_pdf(club_id):
    club = common.club_or_404(club_id)
    common.in_print_language(club)
    ctx = sheets.blank_sheet_context(club.variant, _club_sheet_args(club))
    return pdf_download(document.blank_document, f"blank-{club.variant}.pdf", **ctx)


@bp.get("/c/<club_id>/card.json")
def card_file(club_id):
    """The club's card as a file another club or table imports (the card editor's "Import")."""
    club = common.club_or_404(club_id)
    text = cards.card_file(club.name, club.variant, club.options, club_service.evening_defaults(club))
    name = "".join(c if c.isascii() and c.isalnum() else "-" for c in club.name).strip("-").lower() or "club"
    return Response(
        text, mimetype="application/json", headers={"Content-Disposition": f'attachment; filename="card-{name}.json"'}
    )


def _known_phone() -> bool:
    """The login's rate limit per address does not count a phone that has logged in to this club before."""
    return phone.trusted_device((request.view_args or {}).get("club_id", "")) is not None


@bp.route("/c/<club_id>/login", methods=["GET", "POST"])
@guard.writes("login", unless=_known_phone)
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
                ok = club_service.login(
                    get_db(),
                    club_id,
                    form.password.data,
                    common.now(),
                    request.remote_addr,
                    device=phone.trusted_device(club_id),
                )
            except club_service.LockedOut as exc:
                ok, retry, status = False, exc.retry_after, 429
                form.password.errors = [_("Too many wrong passwords. Try again in %(n)d seconds.", n=exc.retry_after)]  # type: ignore[assignment]  # wtforms declares Field.errors a tuple; a form's fields hold lists
            else:
                if ok:
                    common.log_in(club_service.get_club(get_db(), club_id))
                    response = redirect(target)
                    phone.trust_device(response, club_id)
                    return response
                status = 400
                form.password.errors = [_("Wrong password.")]  # type: ignore[assignment]  # wtforms declares Field.errors a tuple; a form's fields hold lists
    form.next.data = target
    page = render_template("clubs/login.html", club=club, form=form), status
    if retry:
        return (*page, {"Retry-After": str(retry)})
    return page


@bp.post("/c/<club_id>/logout")
@guard.exempt("forgets this phone's login; writes no row")
def logout(club_id):
    common.club_or_404(club_id)
    if not club_forms.ButtonForm().validate_on_submit():
        abort(400)
    phone.log_out(club_id)
    return redirect(url_for("clubs.club", club_id=club_id))


@bp.route("/c/<club_id>/members", methods=["GET", "POST"])
@guard.writes("members")
def add_member(club_id):
    """Members added, one name a line, all or none. A refused list comes back in the box, every line as it was typed
    (no autocomplete="off" on it, so that the browser's Back keeps it too), and the refused names named; this
    address opened again (a language link, a reload) is the club's page with its box, not a 405."""
    if request.method == "GET":
        return redirect(url_for("clubs.club", club_id=club_id, more=1))
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
        if len(names) > 1:
            errors.insert(0, _("Nobody was added: correct what is named here in the list below, then add it again."))
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
    """A member's season at a glance (for anyone with the club's link); for the admin also renaming and retiring."""
    club = common.club_or_404(club_id)
    admin = common.is_admin(club)
    if request.method == "POST" and not admin:
        return common.refuse()
    found = club_service.members(get_db(), club_id).get(member_id)
    if found is None:
        abort(404)
    form = club_forms.MemberForm(data={"name": found.name})
    if request.method == "GET":
        return _member_page(club, found, form, [], admin)
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
    return _member_page(club, found, form, general, admin, 400)


def _member_page(club, found, form, general, admin, status=200):
    db = get_db()
    members = club_service.members(db, club.id)
    ledger = club_present.ledger_context(club_service.season(db, club.id, *seasons.default_range(db, club.id)),
                                         members, club.currency)  # fmt: skip
    line = next((entry for entry in ledger["lines"] if entry["id"] == found.id), None)
    return common.page(
        "member.html", status, club=club, member=found, form=form, general=general, admin=admin, line=line,
        ledger=ledger,
    )  # fmt: skip


@bp.route("/c/<club_id>/format", methods=["GET", "POST"])
@guard.exempt("the admin changes how the club plays an evening: the club's own row")
def evening_format(club_id):
    """The evening's format on the club's card: halves, deals per half, places and prizes (its own section)."""
    club, refused = common.admin_or_refuse(club_id)
    if refused:
        return refused
    fmt = club_service.club_format(club)
    form = club_forms.FormatForm()
    general: list[str] = []
    if request.method == "GET":
        form.halves.data, form.places.data = str(fmt.halves), str(fmt.places)
        form.deals.data = str(fmt.deals) if fmt.deals else ""
        form.prizes.data = list(fmt.prizes)
    elif form.validate_on_submit():
        data = {"halves": form.halves.data, "deals": form.deals.data, "places": form.places.data,
                "prizes": form.prizes.data}  # fmt: skip
        try:
            club_service.set_format(get_db(), club_id, data)
        except InputError as exc:
            general = common.form_errors(form, exc.errors)
        else:
            flash(_("The evening's format is saved: new evenings are played so."))
            return redirect(url_for("clubs.club", club_id=club_id, _anchor="format"))
    else:
        general = [_("The form expired; please try again.")]
    return common.page("format.html", 400 if request.method == "POST" else 200, club=club, form=form, general=general)
