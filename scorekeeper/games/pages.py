"""The phone pages: home, new game, hand entry, the protokoll, editing and sharing. Thin: service does the work."""

from __future__ import annotations

import hashlib
import io
import json
import secrets

import segno
from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from wtforms.fields import SelectChoice

from scorekeeper.clubs import service as club_service
from scorekeeper.clubs.pages import tables as club_tables
from scorekeeper.core import (
    VARIANTS,
    GameOver,
    HandContext,
    InputError,
    hand_context,
    player_counts,
    table_context,
    variant_options,
)
from scorekeeper.games import forms, service
from scorekeeper.games import live as live_service
from scorekeeper.games.paper import sheet_head, tariff_view
from scorekeeper.server import guard
from scorekeeper.server.db import get_db
from scorekeeper.server.proxy import external_url, is_secure
from scorekeeper.variants.views import VIEWS, option_labels
from scorekeeper.web import editors, live, phone, words
from scorekeeper.web.i18n import LANGUAGES, language, one_catalogue
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import number_or_raw, safe_next, whole_number
from scorekeeper.web.messages import translate
from scorekeeper.web.present import chart_view, edit_log_view, protokoll_context

bp = Blueprint("games", __name__)


def _load(game_id):
    try:
        return service.load(get_db(), game_id)
    except service.NotFound:
        abort(404)


def _editable(game_id):
    """The sheet, if this phone holds the game's edit key; otherwise 403."""
    scored_game = _load(game_id)
    if not service.key_matches(scored_game.game, phone.game_key(game_id)):
        abort(403)
    return scored_game


# ---------------------------------------------------------------- home and new game


@bp.get("/")
def home():
    db = get_db()
    games, keys = [], phone.game_keys()
    for gid in phone.recent_games():
        try:
            scored_game = club_tables.titled(service.load(db, gid))
        except service.NotFound:
            continue
        ctx = protokoll_context(scored_game)
        games.append({"ctx": ctx, "editable": gid in keys})
    return render_template("home.html", games=games, variants=VARIANTS)


@bp.get("/new")
def choose_variant():
    return render_template("games/choose.html", variants=VARIANTS)


@bp.route("/new/<variant>", methods=["GET", "POST"])
@guard.writes("new-game")
def new_game(variant):
    return _new_game_page(variant)


@bp.post("/new/<variant>/preview")
@guard.exempt("a preview of the new game's house rules (the Preview button without JavaScript): writes nothing")
def new_game_preview(variant):
    return _new_game_page(variant, preview=True)


def _new_game_page(variant: str, preview: bool = False):
    """The new-game form: players, title, the house rules (an option's editor, web/editors.py, in its place); a
    preview (or an editor's own button: a preset filled in, a card imported) shows the form again with the tariff it
    gives, and saves nothing."""
    module = VARIANTS.get(variant)
    if module is None:
        abort(404)
    posted = request.method == "POST"
    form = forms.new_game_form(variant, request.form if posted else None, language())
    player_fields = forms.player_field_names(variant)
    errors: dict = {}
    card = _card_from(variant)
    found = editors.states(variant, request.form if posted else None, request.files, card)
    if card is not None:  # the rest of the club's rules (its stake, jernhånd …) in the page's own fields
        forms.show_options(variant, form, {k: v for k, v in card.items() if k not in editors.covered(variant)})
    drawn = posted and any(e.posted(request.form) for e in editors.editors(variant).values())
    skip = editors.covered(variant) if drawn else set()
    previewing = preview or bool(request.form.get("preview")) or editors.acts(variant, request.form)
    resolved = editors.defaults(variant) if not posted else None
    old_preview = None
    if posted and form.validate_on_submit():
        players = [form[f].data.strip() for f in player_fields if (form[f].data or "").strip()]
        options, errors = forms.chosen_options(variant, form, _shown(variant), skip)
        ok = True
        if drawn:
            forms.show_options(variant, form, editors.more(found))
            ok = editors.apply(variant, options, found)
        if not errors and ok:
            table = len(players) if len(players) in module.PLAYER_COUNTS else None  # the table as typed
            resolved, found_errors = variant_options(module, options, table)
            for name, message in editors.take_errors(variant, found, found_errors).items():
                errors.update(forms.option_error(form, name, translate(message)))
            if found_errors:
                resolved = None
        if not editors.editors(variant) and previewing and not errors:
            old_preview, errors = _tariff_preview(variant, options)
        elif not previewing and not errors and ok and resolved is not None:
            try:
                game_id, key = service.start_game(
                    get_db(),
                    {
                        "variant": variant,
                        "players": players,
                        "dealer": number_or_raw(form.dealer.data, negative=True) or 0,
                        "title": form.title.data or None,
                        "options": options,
                        "language": request.form.get("language") or None,
                    },
                )
            except InputError as exc:
                for name, message in editors.take_errors(variant, found, exc.errors).items():
                    errors.update(forms.option_error(form, name, translate(message)))
            else:
                phone.remember_game(game_id, key)
                return redirect(url_for("games.protokoll", game_id=game_id))
    elif posted:
        errors["form"] = _("The form expired; please try again.")
    errors = editors.take_errors(variant, found, errors) if editors.editors(variant) else errors
    option_values = {name: forms.option_text(opt, form[f"opt_{name}"]) for name, opt in module.OPTIONS.items()}
    if not editors.editors(variant) and old_preview is None and not errors:
        old_preview = _tariff_preview(variant, {})[0]
    if old_preview:
        option_values.update(old_preview["built"])
    view = VIEWS[variant]
    editor_errors = any(state.errors for state in found.values())
    editor_views = editors.views(
        variant,
        found,
        tariff=tariff_view(variant, resolved) if resolved is not None and not editor_errors else None,
        preview_url=url_for("games.new_game_preview", variant=variant),
        fragment_url=url_for("games.tariff_fragment", variant=variant),
    )
    return render_template(
        "games/new.html",
        preview=old_preview,
        has_preview=view.tariff_matrix is not None,
        presets=view.PRESET_LABELS,
        form=form,
        module=module,
        variant=variant,
        option_values=option_values,
        labels=option_labels(variant),
        choice_labels=view.CHOICE_LABELS,
        player_fields=player_fields,
        required_players=min(module.PLAYER_COUNTS),
        player_hint=view.PLAYER_HINT or _("%(counts)s players.", counts=translate(player_counts(module.PLAYER_COUNTS))),
        errors=errors,
        editors=editor_views,
        covered=editors.covered(variant),
    ), 400 if posted and (errors or editor_errors) else 200


def _card_from(variant: str):
    """A club's card to start from (`?card=<club id>`, the card page's "Start a game with this card"), as options."""
    club_id = request.args.get("card")
    if request.method != "GET" or not club_id:
        return None
    try:
        club = club_service.get_club(get_db(), club_id)
    except club_service.ClubNotFound:
        return None
    return club.options if club.variant == variant else None


def _shown(variant: str) -> dict:
    """What the built options' boxes showed when the form was drawn (the hidden shown_<option> fields)."""
    return {name: request.form.get(f"shown_{name}") for name in forms.built_options(variant)}


def _tariff_preview(variant: str, options: dict) -> tuple[dict | None, dict]:
    """The bid × tricks matrix of the options chosen, as the sheet prints them, and what the built options (kind
    `json`: the Danish house) came to, as text for their boxes (None for a variant without a tariff); errors keyed
    by form field."""
    module = VARIANTS[variant]
    if VIEWS[variant].tariff_matrix is None:
        return None, {}
    resolved, errors = variant_options(module, options)
    if errors:
        out: dict = {}
        for name, message in errors.items():
            option, _sep, path = name[8:].partition(".")
            out[f"opt_{option}"] = f"{path}: {translate(message)}" if path else translate(message)
        return None, out
    built = {
        name: json.dumps(resolved[name], ensure_ascii=False, indent=1)
        for name in forms.built_options(variant)
        if resolved.get(name) is not None
    }
    return {"tariff": tariff_view(variant, resolved), "built": built}, {}


@bp.post("/new/<variant>/tariff")
@guard.exempt("a preview of the tariff: writes nothing")
def tariff_fragment(variant):
    """The tariff of a form as posted, for the page's script to refresh it in place: an option editor's (the table,
    the fields it fills in, its errors by field) on any page that has one, else the new-game form's boxes."""
    if variant not in VARIANTS:
        abort(404)
    if editors.editors(variant) and any(e.posted(request.form) for e in editors.editors(variant).values()):
        found = editors.states(variant, request.form, request.files)
        options: dict = {}
        resolved = None
        if editors.apply(variant, options, found):
            resolved, errors = variant_options(VARIANTS[variant], options)
            rest = editors.take_errors(variant, found, errors)
            resolved = None if errors else resolved
        else:
            rest = {}
        tariff = tariff_view(variant, resolved) if resolved is not None else None
        updates = editors.updates(variant, found)
        failed = any(state.errors for state in found.values()) or bool(rest)
        return render_template(
            "games/_editor_fragment.html",
            tariff=tariff,
            values=updates["values"],
            field_errors=updates["errors"] | {k: translate(v) for k, v in rest.items()},
            notices=updates["notices"],
        ), 400 if failed else 200
    form = forms.new_game_form(variant, request.form)
    options, errors = forms.chosen_options(variant, form, _shown(variant))
    preview, more = _tariff_preview(variant, options) if not errors else (None, {})
    errors.update(more)
    return render_template("games/_tariff_preview.html", preview=preview, tariff_errors=errors), 400 if errors else 200


# ---------------------------------------------------------------- the protokoll


@bp.get("/g/<game_id>")
def protokoll(game_id):
    return _protokoll_page(game_id)[0]


@bp.get("/g/<game_id>/live")
@guard.polled
def protokoll_live(game_id):
    """The protokoll's light twin (web/live.py): 304 while the page shows the game as it is, else the page, fresh."""
    game = live_service.game_row(get_db(), game_id)
    if game is None:
        abort(404)
    state = _protokoll_state(game, phone.game_key(game_id), club_tables.table_view(game_id))
    unchanged = live.unchanged(state)
    if unchanged is not None:
        return unchanged
    page, state = _protokoll_page(game_id)
    return live.fresh(page, state)


def _protokoll_state(game, key, club_table: dict | None) -> str:
    """The tag of what the protokoll shows: the game's row (its version goes up with every change to its hands and
    its log, its deal's version with the bids), whether this phone may edit it, and what it says of its club."""
    editable = service.key_matches(game, key)
    fields = [game.version, game.deal_version, game.title, game.players, game.dealer, game.options, game.language]
    return live.tag([fields, editable, club_table])


def _protokoll_page(game_id: str) -> tuple[str, str]:
    """The protokoll and the tag of its state, from the same read."""
    club_table = club_tables.table_view(game_id)
    loaded = _load(game_id)
    scored_game = club_tables.titled(loaded, club_table["title"]) if club_table else loaded
    key = phone.game_key(game_id)
    editable = service.key_matches(scored_game.game, key)
    changed = whole_number(request.args.get("changed"))
    ctx = protokoll_context(scored_game, changed, saved=whole_number(request.args.get("saved")))
    if club_table and club_table["kitty"]:
        ctx["settlement"] = club_tables.through_kitty(ctx["settlement"])
    state = _protokoll_state(loaded.game, key, club_table)
    phone.remember_game(game_id)
    page = render_template(
        "games/protokoll.html",
        **ctx,
        head=sheet_head(scored_game),
        chart=chart_view(scored_game),
        editable=editable,
        changes=edit_log_view(scored_game, service.edit_log(get_db(), game_id, changes_only=True)),
        share_url=external_url("games.protokoll", game_id=game_id),
        club_table=club_table,
        live_url=None if ctx["finished"] else url_for("games.protokoll_live", game_id=game_id),
        live_tag=state,
    )
    return page, state


@bp.get("/g/<game_id>/edit-link")
def edit_link(game_id):
    """The edit link on a page of its own, never kept: the protokoll is kept on the phone for a lost network, and
    whatever is kept there stays for the next person who picks the phone up, after the session that held the key."""
    scored_game = _editable(game_id)
    page = render_template(
        "games/edit_link.html",
        game=scored_game.game,
        edit_url=external_url("games.claim", game_id=game_id, key=phone.game_key(game_id)),
    )
    return page, {"Cache-Control": "no-store"}


@bp.get("/g/<game_id>/k/<key>")
def claim(game_id, key):
    """The edit link: remembers the key on this phone, then shows the sheet."""
    scored_game = _load(game_id)
    if not service.key_matches(scored_game.game, key):
        abort(403)
    phone.remember_game(game_id, key)
    return redirect(url_for("games.protokoll", game_id=game_id))


@bp.post("/g/<game_id>/again")
@guard.writes("new-game")
def play_again(game_id):
    """A new game with this one's players, variant, house rules, title and language, dealt first by the next dealer;
    this phone holds its edit key. Only for a phone that may edit this game."""
    scored_game = _editable(game_id)
    game = scored_game.game
    earlier = phone.played_again(game_id, game.version)
    if earlier is not None and phone.game_key(earlier):
        return redirect(url_for("games.protokoll", game_id=earlier))  # a second tap: the game the first one started
    at_club = club_tables.play_again(
        game_id, confirmed=request.form.get("confirm") == "1", finished=scored_game.protokoll.finished
    )
    if at_club is not None:  # a club's table: the evening's next table (or first the question), never a stray game
        answer, started = at_club
        if started:
            phone.remember_played_again(game_id, game.version, started)
        return answer
    new_id, key = service.start_game(
        get_db(),
        {
            "variant": game.variant,
            "players": list(game.players),
            "dealer": scored_game.protokoll.next_dealer,
            "title": game.title,
            "options": dict(game.options),
            "language": game.language,
        },
    )
    phone.remember_game(new_id, key)
    phone.remember_played_again(game_id, game.version, new_id)
    return redirect(url_for("games.protokoll", game_id=new_id))


@bp.get("/g/<game_id>/qr.svg")
def qr(game_id):
    _load(game_id)
    url = external_url("games.protokoll", game_id=game_id)
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, dark="#111", light="#fff", xmldecl=False)
    # Without PUBLIC_URL the code holds the Host the phone used: no shared cache may keep it for another Host.
    cache = "public, max-age=86400" if current_app.config.get("PUBLIC_URL") else "private, no-cache"
    response = Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": cache, "Vary": "Host"})
    response.set_etag(hashlib.sha256(url.encode()).hexdigest()[:32])
    return response.make_conditional(request)


# ---------------------------------------------------------------- hand entry


def _hand_context(scored_game, number: int) -> HandContext:
    totals = scored_game.protokoll.hands[number - 2].totals if number > 1 else (0,) * len(scored_game.protokoll.sides)
    return hand_context(VARIANTS[scored_game.game.variant], table_context(scored_game.setup), number, totals)


def _choices(scored_game, form, ctx: HandContext) -> dict:
    """Buttons for the form: names for seats, the other side filled in on trick buttons, the variant's own."""
    with one_catalogue():  # some thirty words to translate
        return _buttons(scored_game, form, ctx)


def _buttons(scored_game, form, ctx: HandContext) -> dict:
    players = list(scored_game.game.players)
    side_names = words.side_names(players, scored_game.protokoll.sides)
    deal = service.open_deal(scored_game)
    leader = deal.leader if deal is not None and deal.number == ctx.number else (ctx.dealer + 1) % ctx.n_players
    extra: dict = {
        "side_names": side_names,
        "dealer": players[ctx.dealer],
        "leader": players[leader],
        "shown": {f.name for f in form if f.name not in ("csrf_token", "number", "version", "token")},
    }
    if "tricks" in form:  # two sides' tricks on one button: "8–5"
        total = form.total
        form.tricks.choices = [SelectChoice(str(x), words.score((x, total - x))) for x in range(total + 1)]
    view = VIEWS[scored_game.game.variant]
    extra.update(view.buttons(form, ctx, side_names))
    extra["shown"] -= extra.pop("hidden", set())
    leads = view.leads_by(form, ctx)
    if leads:  # the header follows the taps that decide the lead (static/app.js), and says it for a form filled in
        fields, seats = leads
        fields = (fields,) if isinstance(fields, str) else tuple(fields)
        extra["leads"] = {"field": " ".join(fields), "texts": {value: players[seat] for value, seat in seats.items()}}
        chosen = "|".join("" if form[f].data is None else str(form[f].data) for f in fields)
        if chosen in seats:
            extra["leader"] = players[seats[chosen]]
    return extra


def _apply_errors(form, errors: dict, shown) -> list[str]:
    """Put the scorer's messages next to their fields; answer those that belong to no field on the page."""
    general = []
    for key, message in errors.items():
        name = form.field_for(key)
        message = translate(message)
        if name and name in shown:
            form[name].errors = list(form[name].errors or []) + [message]
        else:
            general.append(message)
    return general


def _hand_view(game_id: str, number: int | None = None):
    """Enter a new hand (number None) or edit hand `number`: one form per variant, the scorer decides what is valid."""
    scored_game = _editable(game_id)
    editing = number is not None
    if editing:
        _number_or_404(scored_game, number)
    else:
        number = len(scored_game.hands) + 1
    view = VIEWS[scored_game.game.variant]
    form_class = view.HandForm
    ctx = _hand_context(scored_game, number)
    deal = None if editing else service.open_deal(scored_game)  # the deal in progress: its bids are in
    if request.method == "GET":
        if not editing and scored_game.protokoll.finished:
            flash(_("The game is over. Edit a hand to reopen it."))
            return redirect(url_for("games.protokoll", game_id=game_id))
        if editing:
            form = form_class(data=form_class.data_from(scored_game.hands[number - 1].input, ctx))
        elif deal is not None:  # the deal in progress: the form opens with its bids filled in
            form = form_class(data=form_class.data_from(deal.input, ctx))
        else:
            form = form_class()
        form.number.data = str(number)
        form.version.data = str(scored_game.game.version)
        form.token.data = secrets.token_urlsafe(16)
    else:
        form = form_class()
    form.total = view.tricks_total(ctx)
    confirm_passed = False
    general, errors, status = [], {}, 200  # errors: the scorer's, put next to their fields with the buttons below
    max_hands = current_app.config.get("MAX_HANDS")
    if not editing and max_hands is not None and number > max_hands:  # said before the players fill in the form
        errors = {"hands": service.hand_limit_message(max_hands)}
    if request.method == "POST":
        if not form.validate_on_submit():
            general, status = [_("The form expired; please try again.")], 400
        else:
            raw = form.submitted(request.form, ctx)
            token = f"form:{form.token.data}" if form.token.data else None
            try:
                if editing and form.asks_first(raw, scored_game.hands[number - 1].input, request.form):
                    raise _AskFirst
                if editing:
                    service.replace_hand(
                        get_db(),
                        game_id,
                        number,
                        raw,
                        phone.game_key(game_id),
                        expected_version=number_or_raw(form.version.data, negative=True),
                        idempotency_key=token,
                    )
                else:
                    scored = service.add_hand(
                        get_db(),
                        game_id,
                        raw,
                        phone.game_key(game_id),
                        expected_number=number_or_raw(form.number.data, negative=True),
                        idempotency_key=token,
                        max_hands=max_hands,
                    )
            except _AskFirst:
                confirm_passed = True
            except service.Stale as exc:
                if editing:
                    flash(_("Someone else changed the sheet meanwhile — here it is; check it and edit again."))
                else:
                    flash(_("Someone else just entered hand %(n)d — here is the sheet.", n=exc.latest))
                return redirect(url_for("games.protokoll", game_id=game_id))
            except service.HandLimit as exc:
                errors, status = exc.errors, 409
            except GameOver as exc:
                if not editing:
                    flash(_("The game is over. Edit a hand to reopen it."))
                    return redirect(url_for("games.protokoll", game_id=game_id))
                errors, status = exc.errors, 409
            except InputError as exc:
                errors, status = exc.errors, 400
            else:
                if editing:
                    return redirect(
                        url_for("games.protokoll", game_id=game_id, changed=number, _anchor=f"hand-{number}")
                    )
                flash(_("Hand %(n)d saved.", n=scored.number))
                return redirect(
                    url_for("games.protokoll", game_id=game_id, saved=scored.number, _anchor=f"hand-{scored.number}")
                )
    extra = _choices(scored_game, form, ctx)  # the buttons' labels: only for a page that shows the form
    general += _apply_errors(form, errors, extra["shown"])
    if not general:  # the page opens at #first-error (the form's action says so): the first field with an error
        for field in form:
            if field.errors:
                field.first_error = True
                break
    page = render_template(
        view.HAND_TEMPLATE,
        form=form,
        game=scored_game.game,
        number=number,
        editing=scored_game.protokoll.hands[number - 1] if editing else None,
        open_deal=deal,
        played=editing and form.played(scored_game.hands[number - 1].input),
        confirm_passed=confirm_passed,
        played_text=_hand_text(scored_game, number) if confirm_passed else None,
        general=general,
        variant_stylesheet=view.STYLESHEET,
        variant_script=view.SCRIPT,
        **extra,
    )
    # Never kept by the browser: Back after a save fetches a fresh form (the next hand, a new token), not the taps.
    return page, status, {"Cache-Control": "no-store"}


def _hand_text(scored_game, number: int) -> str:
    return VIEWS[scored_game.game.variant].hand_words(
        scored_game.protokoll.hands[number - 1].input, _hand_context(scored_game, number)
    )


class _AskFirst(Exception):
    """A one-tap hand of its own (a passed-out deal) would replace a played hand: the page asks first."""


def _number_or_404(scored_game, number: int) -> int:
    if not 1 <= number <= len(scored_game.hands):
        abort(404)
    return number


@bp.route("/g/<game_id>/bids", methods=["GET", "POST"])
@guard.exempt(guard.EDIT_KEY)
def bids(game_id):
    """The bids of the next deal, entered before it is played: the hand page without the rest (the variant's own
    template, told it is `bidding`); every phone's protokoll shows them until the tricks complete the hand."""
    scored_game = _editable(game_id)
    rules, view = VARIANTS[scored_game.game.variant], VIEWS[scored_game.game.variant]
    if not rules.BID_FIELDS:
        abort(404)
    number = len(scored_game.hands) + 1
    ctx = _hand_context(scored_game, number)
    deal = service.open_deal(scored_game)
    form_class = view.HandForm
    if request.method == "GET":
        if scored_game.protokoll.finished:
            flash(_("The game is over. Edit a hand to reopen it."))
            return redirect(url_for("games.protokoll", game_id=game_id))
        form = form_class(data=form_class.data_from(deal.input, ctx)) if deal is not None else form_class()
        form.number.data = str(number)
        form.version.data = str(scored_game.game.deal_version)
        form.token.data = secrets.token_urlsafe(16)
    else:
        form = form_class()
    form.total = view.tricks_total(ctx)
    general, errors, status = [], {}, 200
    if request.method == "POST":
        if not form.validate_on_submit():
            general, status = [_("The form expired; please try again.")], 400
        else:
            try:
                service.put_bids(
                    get_db(),
                    game_id,
                    form.bids_input(ctx, rules.BID_FIELDS),
                    phone.game_key(game_id),
                    expected_number=number_or_raw(form.number.data, negative=True),
                    expected_version=number_or_raw(form.version.data, negative=True),
                    idempotency_key=f"form:{form.token.data}" if form.token.data else None,
                    max_hands=current_app.config.get("MAX_HANDS"),
                )
            except service.Stale:
                flash(_("Someone else changed the sheet meanwhile — here it is; check it and enter the bids again."))
                return redirect(url_for("games.protokoll", game_id=game_id))
            except GameOver as exc:
                errors, status = exc.errors, 409
            except InputError as exc:
                errors, status = exc.errors, 400
            else:
                flash(_("The bids of hand %(n)d are in: every phone's sheet shows them.", n=number))
                return redirect(url_for("games.protokoll", game_id=game_id, _anchor="open-deal"))
    extra = _choices(scored_game, form, ctx)
    general += _apply_errors(form, errors, extra["shown"])
    page = render_template(
        view.HAND_TEMPLATE,
        form=form,
        game=scored_game.game,
        number=number,
        editing=None,
        bidding=True,
        open_deal=deal,
        played=False,
        confirm_passed=False,
        played_text=None,
        general=general,
        variant_stylesheet=view.STYLESHEET,
        variant_script=view.SCRIPT,
        **extra,
    )
    return page, status, {"Cache-Control": "no-store"}


@bp.post("/g/<game_id>/bids/clear")
@guard.exempt(guard.EDIT_KEY)
def clear_bids(game_id):
    """The bids of the deal in progress taken back (a misdeal, a new deal): the sheet has no deal in progress."""
    _editable(game_id)
    form = forms.HandForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        service.clear_bids(
            get_db(),
            game_id,
            phone.game_key(game_id),
            expected_version=number_or_raw(form.version.data, negative=True),
            idempotency_key=f"form:{form.token.data}:clear" if form.token.data else None,
        )
    except service.Stale:
        flash(_("Someone else changed the sheet meanwhile — here it is; check it and enter the bids again."))
    except service.NotFound:
        pass  # cleared already (by another phone, or the tricks came in)
    else:
        flash(_("The bids were cleared."))
    return redirect(url_for("games.protokoll", game_id=game_id))


@bp.route("/g/<game_id>/hands/new", methods=["GET", "POST"])
@guard.exempt(guard.EDIT_KEY)
def new_hand(game_id):
    return _hand_view(game_id)


@bp.route("/g/<game_id>/hands/<int:number>", methods=["GET", "POST"])
@guard.exempt(guard.EDIT_KEY)
def edit_hand(game_id, number):
    return _hand_view(game_id, number)


@bp.route("/g/<game_id>/hands/<int:number>/delete", methods=["GET", "POST"])
@guard.exempt(guard.EDIT_KEY)
def delete_hand(game_id, number):
    """Asks first; the form carries the version it saw and a one-time token, so a double tap deletes one hand."""
    scored_game = _editable(game_id)
    _number_or_404(scored_game, number)
    form = forms.HandForm()
    row = protokoll_context(scored_game)["rows"][number - 1]
    errors = []
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        token = f"form:{form.token.data}" if form.token.data else None
        try:
            service.delete_hand(
                get_db(),
                game_id,
                number,
                phone.game_key(game_id),
                expected_version=number_or_raw(form.version.data, negative=True),
                idempotency_key=token,
            )
        except service.Stale:
            flash(_("Someone else changed the sheet meanwhile — here it is; check it and delete again."))
            return redirect(url_for("games.protokoll", game_id=game_id))
        except InputError as exc:
            errors = [translate(message) for message in exc.errors.values()]
        else:
            flash(_("Hand %(n)d was deleted; the hands after it moved up.", n=number))
            return redirect(url_for("games.protokoll", game_id=game_id))
    else:
        form.version.data = str(scored_game.game.version)
        form.token.data = secrets.token_urlsafe(16)
    return render_template(
        "games/delete.html", form=form, row=row, game=scored_game.game, errors=errors
    ), 400 if errors else 200


@bp.get("/lang/<code>")
def set_language(code):
    response = redirect(safe_next(request.args.get("next"), url_for("games.home")))
    if code in LANGUAGES:
        response.set_cookie("lang", code, max_age=3600 * 24 * 365, samesite="Lax", secure=is_secure())
    return response
