"""What the variants' presentation modules share in words: labels of the options several variants have, the blank
sheet's columns, a bid made or lost, a player's bid and tricks in a cell, CSV column makers (view_parts.py: the hand
page's pieces)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import lazy_gettext as _l

from scorekeeper.web import words as shared_words
from scorekeeper.web.i18n import gettext as _

# Options of more than one variant; a variant's own OPTION_LABELS add to these.
OPTION_LABELS = {
    "target": _l("Play to (points)"),
    "deals": _l("Fixed number of deals"),
    "rate": _l("Money per point"),
    "currency": _l("Currency"),
}


def labels(*names: str, **own) -> dict:
    """The shared labels of `names` and the variant's `own` ones."""
    return {**{name: OPTION_LABELS[name] for name in names}, **own}


# The blank sheet's headings of the entry columns several variants have (blank_columns), a variant's own beside them.
COLUMNS = {
    "bidder": _l("Bidder"),
    "bid": _l("Bid"),
    "trump": _l("Trump"),
    "partner": _l("Partner"),
    "tricks": _l("Tricks"),
    "honours": _l("Honours"),
}


def columns(*keys: str | tuple[str, str]) -> list[tuple[str, str]]:
    """A blank sheet's entry columns as (key, label), in order: a shared column by its key ("bidder"), one of the
    variant's own, or a shared key headed in its own words, as (key, label) ("tricks", "Books")."""
    return [(key, str(COLUMNS[key])) if isinstance(key, str) else (key[0], str(key[1])) for key in keys]


def outcome_words() -> dict[str, str]:
    """A bid "made" or "lost" (a view's outcome()) in words, as a hand's words and a sol table's headings say it."""
    return {"made": _("made"), "lost": _("lost")}


def bid_and_tricks(bids, tricks) -> list[str]:
    """Each player's bid (or call) and tricks taken in their own protokoll cell: "3/3"."""
    return [f"{b}/{t}" for b, t in zip(bids, tricks)]


# The headings of the CSV and spreadsheet columns of the fields several variants have, in the sheet's language and
# lower case as a spreadsheet's column names are; a variant heads its own fields (field's `label`).
HEADINGS = {
    "passed": _l("passed"),
    "bidder": _l("bidder"),
    "bid": _l("bid"),
    "trump": _l("trump"),
    "partner": _l("partner"),
    "tricks": _l("tricks"),
    "honours": _l("honours"),
}


def heading(name: str, label=None) -> str:
    """A column's heading in the sheet's language: the variant's `label`, a shared field's, else the field's name."""
    return str(label or HEADINGS.get(name) or name)


def cell_words(name: str, value: Any) -> Any:
    """An entered value as the sheet prints it: a trump as its suit (♥, or the short word for no trump), True as
    "yes" in the sheet's language; numbers and names as they are."""
    if value is True:
        return _("yes")
    if name == "trump" and isinstance(value, str):
        return shared_words.suit(value) or value
    return value


def field(name: str, players, seat: bool = False, label=None, words: Callable[[Any], Any] | None = None):
    """A CSV column for one entered field, headed in the sheet's language (`label`, else heading()): a `seat` as the
    player's name, a value in `words` (the variant's own: a bid as its card names it) or as cell_words() says it,
    nothing as an empty cell."""

    def get(inp):
        value = inp.get(name)
        if seat and value is not None:
            return players[value]
        if value is None or value is False:
            return ""
        return words(value) if words is not None and value is not True else cell_words(name, value)

    return heading(name, label), get


def per_side(name: str, side_names, label=None) -> list:
    """A CSV column per side for a field entered as a list with one number per side ("tricks Anna & Carl")."""
    title = heading(name, label)
    return [
        (f"{title} {side}", lambda inp, i=i: "" if inp.get(name) is None else inp[name][i])
        for i, side in enumerate(side_names)
    ]
