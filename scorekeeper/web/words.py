"""Words and symbols every variant's pages share: suits, no trump, sides, trick counts. Spelled once, here."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from scorekeeper.core.game import NO_TRUMP, SUITS
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import ngettext

SUIT_SYMBOLS = dict(zip(SUITS, "♥♦♣♠"))  # in the core's order: hearts, diamonds, clubs, spades


def no_trump_short() -> str:
    """No trump in one short word, the same on a button, in a hand's words and on paper: sans, grand, sang, NT."""
    return _("NT")


def suit(trump: str | None) -> str:
    """A trump in a hand's words or a sheet's cell: ♥ ♦ ♣ ♠, the short word for no trump, or nothing."""
    if trump == NO_TRUMP:
        return no_trump_short()
    return SUIT_SYMBOLS.get(trump or "", "")


def suit_button(trump: str) -> str:
    """A trump on a button: ♥ ♦ ♣ ♠ or the short word for no trump."""
    return no_trump_short() if trump == NO_TRUMP else SUIT_SYMBOLS[trump]


def suit_words(trump: str) -> str:
    """A trump in a sentence: ♥ ♦ ♣ ♠ or "no trump", translated."""
    return _("no trump") if trump == NO_TRUMP else SUIT_SYMBOLS[trump]


def side_names(players, sides) -> list[str]:
    return [" & ".join(players[s] for s in seats) for seats in sides]


def score(pair) -> str:
    """Tricks or honours of the two sides: 8–5."""
    return "–".join(map(str, pair))


def tricks_words(n: int) -> str:
    return ngettext("%(num)d trick", "%(num)d tricks", n)


def yes_no(value) -> str:
    return _("yes") if value else _("no")


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


def field_words(key: str) -> str:
    """A field's name in words: an input ("tricks" → "Stik"), a house rule ("options.target" → its label), else as
    the API spells it."""
    from scorekeeper.web.variants import VIEWS, shared

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
