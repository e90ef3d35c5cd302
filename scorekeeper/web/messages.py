"""A core Msg in the reader's words: its template translated with its values, and the field it is about named in
words (an input field, a house rule by its label). The one way a scorer's message becomes text: pages, forms,
flashes and the API's errors all come here.

Apart from web/i18n.py (languages, catalogues, formats; `say`, a Msg in words without naming its fields) so that
i18n needs neither words.py nor the variants' views: the field names come from the views, which need i18n.
"""

from __future__ import annotations

from functools import partial

from flask_babel import lazy_gettext as _l

from scorekeeper.core.messages import Choices
from scorekeeper.variants import view_shared as shared
from scorekeeper.variants.views import VIEWS
from scorekeeper.web.i18n import gettext, say


def translate(message, codes: bool = False) -> str:
    """A message in the request's language: a scorer's Msg by its template and values (nested ones too), the fields
    it is about named in words, the choices it lists in words (with `codes`, as the API spells them: the API's
    errors); else as is. The one way a Msg becomes words: pages, forms, flashes and the API's errors all come here."""
    return say(message, partial(with_field, codes=codes), None if codes else choice_words)


def with_field(field: str, message, codes: bool = False, variant: str | None = None) -> str:
    """A message about one field, the field named in words ("Play to (points): must be …", by `variant`'s own labels
    first); a field that needs no name (the hand itself) is left out."""
    name = field_words(field, variant)
    said = translate(message, codes)
    return gettext("%(field)s: %(message)s", field=name, message=said) if name else said


def translate_errors(errors: dict, codes: bool = False) -> dict:
    return {field: translate(message, codes) for field, message in errors.items()}


def choice_words(choices: Choices) -> str:
    """The values a message lists as a page's buttons name them: each by its variant's CHOICE_LABELS (any variant's
    when the message names none), else as the API spells it."""
    views = [VIEWS[choices.variant]] if choices.variant in VIEWS else list(VIEWS.values())
    return ", ".join(
        str(next((view.CHOICE_LABELS[code] for view in views if code in view.CHOICE_LABELS), code))
        for code in choices.codes
    )


# What a form or the API calls a field, in the reader's words; "hand" needs no name (the message says it). A variant's
# own input fields are named by its view (FIELD_LABELS), its options by OPTION_LABELS.
FIELD_WORDS = {
    "hand": "",
    "hands": _l("Hands"),
    "bidder": _l("Bidder"),
    "bid": _l("Bid"),
    "trump": _l("Trump"),
    "partner": _l("Partner"),
    "tricks": _l("Tricks"),
    "players": _l("Players"),
    "player": _l("Players"),
    "seats": _l("Players"),
    "dealer": _l("Dealer"),
    "variant": _l("Variant"),
    "options": _l("House rules"),
    "name": _l("Name"),
    "date": _l("Date"),
    "fee": _l("Fee"),
    "currency": _l("Currency"),
    "settlement": _l("Settling up"),
    "password": _l("Password"),
}


def field_words(key: str, variant: str | None = None) -> str:
    """A field's name in words: an input ("tricks" → "Stik"; `variant`'s own label first), a house rule
    ("options.target" → its label), else as the API spells it."""
    own = VIEWS[variant].FIELD_LABELS if variant in VIEWS else {}
    if key in own:
        return str(own[key])
    if key in FIELD_WORDS:
        return str(FIELD_WORDS[key])
    name, _dot, where = key.removeprefix("options.").removeprefix("opt_").partition(".")
    for view in VIEWS.values():
        if key in view.FIELD_LABELS:
            return str(view.FIELD_LABELS[key])
    labels = {**shared.OPTION_LABELS, **{k: v for view in VIEWS.values() for k, v in view.OPTION_LABELS.items()}}
    if name in labels:
        return f"{labels[name]} ({where})" if where else str(labels[name])
    return key
