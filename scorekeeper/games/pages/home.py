"""Home, the new-game page with its house rules and card, the tariff preview, the language links."""

from __future__ import annotations

import json

from flask import abort, redirect, render_template, request, url_for

from scorekeeper.clubs import service as club_service
from scorekeeper.clubs.pages import tables as club_tables
from scorekeeper.core import (
    VARIANTS,
    InputError,
    player_counts,
    variant_options,
)
from scorekeeper.games import forms, service
from scorekeeper.games.pages.common import bp
from scorekeeper.games.paper import tariff_view
from scorekeeper.server import guard
from scorekeeper.server.db import get_db
from scorekeeper.server.proxy import is_secure
from scorekeeper.variants.views import VIEWS, option_labels
from scorekeeper.web import editors, phone
from scorekeeper.web.i18n import LANGUAGES, language
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import number_or_raw, safe_next
from scorekeeper.web.messages import translate
from scorekeeper.web.present import protokoll_context

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
    club = _card_from(variant)
    card = club.options if club is not None else None
    found = editors.states(variant, request.form if posted else None, request.files, card)
    if card is not None:  # the rest of the club's rules (its stake, jernhånd …) in the page's own fields
        forms.show_options(variant, form, {k: v for k, v in card.items() if k not in editors.covered(variant)})
    drawn = posted and any(e.posted(request.form) for e in editors.editors(variant).values())
    skip = editors.covered(variant) if drawn else set()
    previewing = preview or bool(request.form.get("preview")) or editors.acts(variant, request.form)
    resolved = (card or editors.defaults(variant)) if not posted else None  # a club's card: its table beside it
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
        card_name=club.name if club is not None else None,  # the folded card's name: the club's
    ), 400 if posted and (errors or editor_errors) else 200


def _card_from(variant: str):
    """A club whose card to start from (`?card=<club id>`, the card page's "Start a game with this card")."""
    club_id = request.args.get("card")
    if request.method != "GET" or not club_id:
        return None
    try:
        club = club_service.get_club(get_db(), club_id)
    except club_service.ClubNotFound:
        return None
    return club if club.variant == variant else None


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


@bp.get("/lang/<code>")
def set_language(code):
    response = redirect(safe_next(request.args.get("next"), url_for("games.home")))
    if code in LANGUAGES:
        response.set_cookie("lang", code, max_age=3600 * 24 * 365, samesite="Lax", secure=is_secure())
    return response
