"""Blank score sheets for pen and paper: a sheet's context from a query string (players, a title, the house rules by
name), the index of every variant's sheet, and the form that types in the names and house rules of one and sends the
table to its sheet's address (a link to keep or share). games/sheets.py answers the addresses and draws the PDFs."""

from __future__ import annotations

from typing import Any

from flask import Response, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from scorekeeper.core import VARIANTS, InputError, variant_options
from scorekeeper.games import forms as game_forms
from scorekeeper.games import paper
from scorekeeper.variants.views import VIEWS, option_labels
from scorekeeper.web import editors
from scorekeeper.web.inputs import link_args
from scorekeeper.web.messages import translate, with_field
from scorekeeper.web.options import option_text


def blank_sheet_context(variant: str, args):
    """A blank sheet's context from `args` (a query string's: players, title, house rules by name), or the page that
    says what was wrong (400)."""
    if variant not in VARIANTS:
        abort(404)
    try:
        wanted = paper.blank_request(variant, args)
    except InputError as exc:
        message = "; ".join(with_field(field, text) for field, text in exc.errors.items())
        abort(
            Response(
                render_template("errors/error.html", code=400, title=_("This sheet cannot be made"), message=message),
                400,
            )
        )
    return paper.blank_context(
        variant,
        wanted["players"],
        wanted["options"],
        title=wanted["title"],
        dealer=wanted["dealer"],
        rows=wanted["rows"],
    )


def index_page():
    """The blank sheets, and a form that makes one with names: it sends the table to that sheet's page."""
    variant = request.args.get("variant")
    if variant is not None and variant in VARIANTS:
        args: dict[str, Any] = {
            k: [v for v in vs if v]
            for k, vs in link_args(request.args, "variant").items()
            if not (k == "preset" and not VIEWS[variant].TARIFF_PRESETS)
        }
        names = args.get("player", [])
        args["player"] = names + [""] * (min(VARIANTS[variant].PLAYER_COUNTS) - len(names))
        return redirect(url_for("sheets.blank", variant=variant, **{k: v for k, v in args.items() if v}))
    counts = [n for rules in VARIANTS.values() for n in rules.PLAYER_COUNTS]
    return render_template(
        "print/blank_index.html",
        variants=VARIANTS,
        presets=[
            (VARIANTS[name].TITLE, [(p, view.PRESET_LABELS.get(p, p)) for p in view.TARIFF_PRESETS])
            for name, view in VIEWS.items()
            if view.TARIFF_PRESETS
        ],
        seats=max(counts),
        required=min(counts),
    )


def _listed(value) -> list:
    return value if isinstance(value, list) else [value]


def form_page(variant: str):
    """A blank sheet with the names and the house rules typed in: the same fields as the new-game page (a variant's
    option editor too, such as the tariff card). Preview and an editor's own buttons show the form again; "Make the
    sheet" goes to the sheet, its rules in its address (a link to keep or share)."""
    module = VARIANTS.get(variant)
    if module is None:
        abort(404)
    args = request.args
    asked = bool(args.get("make") or args.get("preview") or editors.acts(variant, args))
    form = game_forms.new_game_form(variant, args if asked else None)
    found = editors.states(variant, args if asked else None)
    drawn = asked and any(e.posted(args) for e in editors.editors(variant).values())
    options, errors = game_forms.chosen_options(variant, form, {}, editors.covered(variant) if drawn else ())
    ok = editors.apply(variant, options, found) if drawn else True
    resolved = None
    if ok and not errors:
        resolved, found_errors = variant_options(module, options)
        for key, message in editors.take_errors(variant, found, found_errors).items():
            errors.update(game_forms.option_error(form, key, translate(message)))
        resolved = None if found_errors else resolved
    errors = editors.take_errors(variant, found, errors)
    players = [p.strip() for p in args.getlist("player")][: max(module.PLAYER_COUNTS)]
    if args.get("make") and resolved is not None and not errors:
        query: dict = {"player": players or [""] * min(module.PLAYER_COUNTS)}
        query |= {k: args[k] for k in ("title", "seats", "rows", "dealer") if args.get(k)}
        query |= {
            name: ("1" if value else "0")
            if module.OPTIONS[name].kind == "bool"
            else option_text(module.OPTIONS[name], value)
            for name, value in options.items()
        }
        query = {k: v for k, v in query.items() if v not in ("", None)}
        try:  # the sheet's own checks (two players of one name, a table size) answered here, by the fields typed
            paper.blank_request(variant, MultiDict([(k, v) for k, vs in query.items() for v in _listed(vs)]))
        except InputError as exc:
            for field, message in exc.errors.items():  # a house rule's by its box, the rest above the form
                key = "opt_" + field.removeprefix("options.") if field.startswith("options.") else field
                errors[key] = with_field(field, translate(message))
        else:
            return redirect(url_for("sheets.blank", variant=variant, **query))
    view = VIEWS[variant]
    editor_errors = any(state.errors for state in found.values())
    return render_template(
        "print/blank_form.html",
        variant=variant,
        module=module,
        form=form,
        players=players + [""] * (max(module.PLAYER_COUNTS) - len(players)),
        required=min(module.PLAYER_COUNTS),
        errors=errors,
        editors=editors.views(
            variant,
            found,
            tariff=paper.tariff_view(variant, resolved) if resolved is not None and not editor_errors else None,
            preview_url=url_for("sheets.blank_form", variant=variant),
            fragment_url=url_for("games.tariff_fragment", variant=variant),
            method="get",
        ),
        covered=editors.covered(variant),
        option_values={n: game_forms.option_text(o, form[f"opt_{n}"]) for n, o in module.OPTIONS.items()},
        labels=option_labels(variant),
        choice_labels=view.CHOICE_LABELS,
        presets=view.PRESET_LABELS,
        has_preview=False,
    ), 400 if asked and (errors or editor_errors) else 200
