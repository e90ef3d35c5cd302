"""The default of every optional member of the view contract (variants/view_contract.py), written as a view module
would write it: a view defines only what is its own, `VIEWS[name]` takes the rest from here."""

from __future__ import annotations

from collections.abc import Mapping

from scorekeeper.core import VARIANTS, scores_alone
from scorekeeper.variants import view_shared as shared
from scorekeeper.web import words
from scorekeeper.web.i18n import gettext as _

OPTION_LABELS: dict = {}
FIELD_LABELS: dict = {}
CHOICE_LABELS: dict = {}
PLAYER_HINT = None
BLANK_ROWS = 27
TARIFF_PRESETS: dict = {}
PRESET_LABELS: dict = {}
STATS_WORDS: dict = {}
STYLESHEET = None
SCRIPT = None
tariff_matrix = None
OPTION_EDITORS: dict = {}


def tricks_total(ctx) -> int:
    return ctx.cards


def buttons(form, ctx, side_names) -> dict:
    return {}


def leads_by(form, ctx):
    return None


def cell_words(inp, ctx) -> list[str] | None:
    return None


def bids_words(bids, ctx) -> str:
    return " · ".join(f"{name} {_value(value)}" for name, value in bids.items())


def _value(value) -> str:
    return " ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def bids_cells(bids, ctx) -> list[str] | None:
    return None


def outcome(inp, points, ctx) -> str | None:
    bidder = inp.get("bidder")
    if not isinstance(bidder, int) or isinstance(bidder, bool):
        return None
    side = next((i for i, seats in enumerate(VARIANTS[ctx.variant].sides(ctx)) if bidder in seats), None)
    if side is None:
        return None
    return "made" if points[side] > 0 else "lost"


def outcome_lines(protokoll, side_names) -> list[str]:
    return []


def players_by_seat(table) -> bool:
    return scores_alone(table)


def target_label(table) -> str:
    return _("Target")


def house_rules(table) -> list[tuple[str, str]]:
    return []


def tariff_words(tariff) -> dict:
    said = shared.outcome_words()
    return {"note": "", "sol_head": [said["made"], said["lost"]]}


def blank_side_columns(table) -> list[tuple[str, str]]:
    return []


def blank_cells(number, table) -> Mapping[str, str]:
    fixed = VARIANTS[table.variant].fixed_trump(number, table)
    return {"trump": words.suit(fixed)} if fixed else {}


def csv_columns(table, side_names) -> list:
    return [_column(name) for name in VARIANTS[table.variant].INPUT_FIELDS]


def _column(name):
    def get(inp):
        value = inp.get(name)
        if isinstance(value, (list, tuple)):
            return " ".join(map(str, value))
        return "" if value is None or value is False else shared.cell_words(name, value)

    return shared.heading(name), get


def answer_fields(protokoll) -> dict:
    return {}


def hand_fields(hand, ctx) -> dict:
    return {}


def passed_words(ctx) -> Mapping[str, str]:
    return {
        "button": _("Passed out (all passed)"),
        "ask": _("Replace this hand with a passed-out deal?"),
        "replace": _("Replace hand %(n)d (%(hand)s) with a passed-out deal?"),
        "yes": _("Yes, it was passed out"),
    }
