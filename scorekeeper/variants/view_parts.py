"""The pieces of a hand page that several variants build theirs from; with view_shared.py's words, the public API for
a variant's view (a package of its own may use them too).

A view still fills each of its fields itself in `buttons()` — `form.bidder.choices = parts.name_choices(players)` —
so that a reader of its view.py sees its own buttons: these only say once how such a row is made.

- number_choices(low, high): a row of number buttons (the tricks a side took, a bid from the lowest to the highest),
  pair_choices(total) one of two sides' counts ("8–5"), suit_choices(suits) a suit's (a trump, a called ace);
- name_choices(names, numbers): a button per player (a bidder, a partner, a declarer) or per side, and
  name_cols(names) how many players' names go across;
- PassedOutForm: a hand form with the one-tap button for a deal nobody played (games/_passed_out.html), PASSED_OUT its
  field in words;
- seat_rows(…), last_filled_in(…), seat_data(…): a row of buttons per player (a bid or call and the tricks each took),
  the last player's tricks filled in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from flask_babel import lazy_gettext as _l
from wtforms.fields import SelectChoice

from scorekeeper.games.forms import HandForm, radio
from scorekeeper.web import words

PASSED_OUT = _l("Passed out (all passed)")  # the passed-out button's field in words: a view's FIELD_LABELS["passed"]


def number_choices(low: int, high: int) -> list[SelectChoice]:
    """A button per whole number from `low` to `high`, each showing its number: tricks 0–13, bids 7–13."""
    return [SelectChoice(str(n), str(n)) for n in range(low, high + 1)]


def pair_choices(total: int) -> list[SelectChoice]:
    """A button per way two sides share `total` (tricks, honours), valued by the first side's count: "8–5"."""
    return [SelectChoice(str(x), words.score((x, total - x))) for x in range(total + 1)]


def suit_choices(suits: Iterable[str]) -> list[SelectChoice]:
    """A button per suit (or no trump: "none"), its symbol on it (web/words.py)."""
    return [SelectChoice(s, words.suit_button(s)) for s in suits]


def name_choices(names: Sequence[str], numbers: Iterable[int] | None = None) -> list[SelectChoice]:
    """A button per name, valued by its number and showing the name: a player's by seat, a side's by its number;
    every one, or those of `numbers` (the players playing this hand)."""
    return [SelectChoice(str(n), names[n]) for n in (range(len(names)) if numbers is None else numbers)]


def name_cols(names: Iterable[str]) -> int:
    """Names four across unless one has a word too long for a quarter of the phone (names break only at - or space)."""
    return 4 if max(len(w) for name in names for w in name.replace("-", " ").split()) <= 11 else 2


class PassedOutForm(HandForm):
    """A hand form whose page has the one-tap button for a deal nobody played (its template includes
    games/_passed_out.html, worded by the view's passed_words): the button is a hand of its own, {"passed": True},
    and replacing a played hand by it asks first. Its `data_from` answers {} for such a hand."""

    def submitted(self, formdata, ctx) -> dict:
        if formdata.get("passed"):
            return {"passed": True}
        return self.to_input(ctx)

    def asks_first(self, raw: dict, before: dict, formdata) -> bool:
        return bool(raw.get("passed")) and not before.get("passed") and formdata.get("passed") != "confirmed"

    @staticmethod
    def played(inp: dict) -> bool:
        return not inp.get("passed")


Form = TypeVar("Form", bound=type[HandForm])


def seat_rows(*prefixes: str, seats: int) -> Callable[[Form], Form]:
    """A hand form's row of buttons per player, as a class decorator: a field per prefix and seat ("b" and "t": b0…b7
    for the bids, t0…t7 for the tricks), the page showing those of the table's seats."""

    def add(form: Form) -> Form:
        for seat in range(seats):
            for prefix in prefixes:
                setattr(form, f"{prefix}{seat}", radio())
        return form

    return add


def last_filled_in(tricks: list, total: int) -> list:
    """Each player's tricks with the last player's filled in, what is left of the deal's `total`: when one player's
    alone was left out and the others' are numbers that leave some."""
    missing = [s for s, t in enumerate(tricks) if t is None]
    if len(missing) == 1 and all(isinstance(t, int) for t in tricks if t is not None):
        left = total - sum(t for t in tricks if t is not None)
        if left >= 0:
            return [left if s == missing[0] else t for s, t in enumerate(tricks)]
    return tricks


def seat_data(inp: Mapping[str, Any], prefixes: Mapping[str, str]) -> dict:
    """A stored hand's lists of one number per player back into the rows' fields: {"bids": "b"} puts bids [2, 0, 1]
    into b0, b1, b2."""
    return {f"{prefix}{s}": value for name, prefix in prefixes.items() for s, value in enumerate(inp.get(name) or [])}
