"""Option editors: a variant's own fields for an option (its view's OPTION_EDITORS, variants/view_contract.py) on every
page that sets house rules — the new-game page, a club's card, the blank-sheet form.

What the pages share: which options an editor draws (so they are not drawn again in boxes of their own), the editor's
state from a request (its fields as posted, or filled from a rule set), the options it sets over the form's own, the
scorer's errors put beside its fields, and whether a post only works the editor (fill in a preset, import a card: a
preview, nothing saved). No editor is known here by its variant.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import current_app, request

from scorekeeper.core import VARIANTS, variant_options
from scorekeeper.variants.views import VIEWS

# What a page that carries an option editor may post (docs/operations.md "Input bounds"). The largest Danish tariff
# card is 784 squares beside some 270 other fields: URL-encoded (a browser's form, the live preview) some 30-60 KiB,
# but as multipart/form-data (the card-file import button sends the whole form with the file) each field costs some
# 110 bytes besides its value, and the file may be 64 KiB: about 250 KiB at most, over 1,000 parts. Every other route
# keeps MAX_CONTENT_LENGTH and Flask's 1,000 parts.
FORM_BYTES = 256 * 1024
FORM_PARTS = 1_500
PAGES = (
    "games.new_game",
    "games.new_game_preview",
    "games.tariff_fragment",
    "clubs.new_club",
    "clubs.new_club_preview",
    "clubs.settings",
)


def editors(variant: str) -> dict[str, Any]:
    return dict(VIEWS[variant].OPTION_EDITORS)


def covered(variant: str) -> set[str]:
    """The options the variant's editors draw: no box of their own on the page."""
    return {name for editor in editors(variant).values() for name in editor.covers}


def defaults(variant: str) -> dict[str, Any]:
    """The variant's rule set with nothing chosen, resolved (what a fresh page's editor shows)."""
    return variant_options(VARIANTS[variant], {})[0]


def states(variant: str, formdata=None, files=None, current: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Each editor's state: its posted fields (the form carries them), else filled from `current` (a club's or game's
    options), else from the variant's defaults."""
    out = {}
    for name, editor in editors(variant).items():
        rules = current if current is not None else defaults(variant)
        if formdata is not None and editor.posted(formdata):
            out[name] = editor.read(formdata, files)
        elif formdata is not None:
            out[name] = editor.without_fields(formdata, rules)
        else:
            out[name] = editor.blank(rules)
    return out


def acts(variant: str, formdata) -> bool:
    """The post only works an editor (a preset filled in, a card imported): the page shows it and saves nothing."""
    return formdata is not None and any(editor.acts(formdata) for editor in editors(variant).values())


def apply(variant: str, options: dict[str, Any], found: Mapping[str, Any]) -> bool:
    """The options the editors set, over the form's own (an option they cover is theirs alone); False while one of
    them has errors (they are beside its fields)."""
    ok = True
    for name, editor in editors(variant).items():
        for option in editor.covers:
            options.pop(option, None)
        state = found.get(name)
        if state is None or state.options is None:
            ok = False
        else:
            options.update(state.options)
    return ok


def more(found: Mapping[str, Any]) -> dict[str, Any]:
    """What an editor's import brought for the page's other fields (another club's stake, jernhånd …)."""
    out: dict[str, Any] = {}
    for state in found.values():
        out.update(state.more)
    return out


def take_errors(variant: str, found: Mapping[str, Any], errors: Mapping[str, Any]) -> dict[str, Any]:
    """The scorer's errors about an option an editor draws go beside the editor's field; answers the others."""
    rest = {}
    for key, message in errors.items():
        if not key.startswith(("options.", "opt_")):
            rest[key] = message
            continue
        option = key.removeprefix("options.").removeprefix("opt_").partition(".")[0]
        owner = next((n for n, e in editors(variant).items() if option in e.covers), None)
        if owner is None or owner not in found:
            rest[key] = message
            continue
        found[owner].errors[editors(variant)[owner].field_of(key, found[owner])] = message
        found[owner].options = None
    return rest


def views(variant: str, found: Mapping[str, Any], tariff=None, **how) -> dict[str, dict]:
    """Each editor's template and its context, by option name."""
    out = {}
    for name, editor in editors(variant).items():
        out[name] = editor.view(found[name], tariff=tariff, **how) | {"template": editor.template}
    return out


def updates(variant: str, found: Mapping[str, Any]) -> dict[str, Any]:
    """What a page's script sets after a live preview: field values (when an editor filled them in), errors by field
    name, the notices."""
    values: dict[str, str] = {}
    errors: dict[str, str] = {}
    notices: list[str] = []
    for name, editor in editors(variant).items():
        state = found[name]
        values.update(editor.updates(state))
        errors.update(editor.messages(state))
        if state.notice:
            notices.append(state.notice)
    return {"values": values, "errors": errors, "notices": notices}


def init_app(app) -> None:
    """The pages with an option editor read a larger form (FORM_BYTES, FORM_PARTS) than other routes: set before any
    hook reads the form (the CSRF check does), so create_app registers this first."""
    app.before_request(_form_bounds)


def _form_bounds() -> None:
    if request.endpoint not in PAGES:
        return
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if limit is not None:
        request.max_content_length = max(limit, FORM_BYTES)
    parts = current_app.config.get("MAX_FORM_PARTS")
    if parts is not None:
        request.max_form_parts = max(parts, FORM_PARTS)
