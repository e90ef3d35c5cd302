"""What the web layer asks of a variant: the presentation half of "a variant is a plug-in".

Each `web/variants/<name>.py` module provides every member below; the pages, sheets, clubs and describe code ask
these members instead of testing a variant's name. The rules half is the core's (core/contract.py: VariantRules);
what the rules already say (ZERO_SUM: played for money at a club; sits_out, OPTIONS, sides) the pages read from there, not from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

# A CSV column: its header and how it reads the cell from a hand's input.
CsvColumn = tuple[str, Callable[[Mapping[str, Any]], Any]]


@runtime_checkable
class VariantView(Protocol):
    NAME: str  # the core variant's NAME
    HAND_TEMPLATE: str  # the hand entry page, "games/hand_<name>.html"
    HandForm: type  # the hand form: to_input(), data_from(input), submitted(formdata)
    OPTION_LABELS: Mapping[str, str]  # a label for each of the core's OPTIONS (new-game form)
    CHOICE_LABELS: Mapping[str, str]  # labels for values of its "choice" options (others show as they are)
    BLANK_ROWS: int  # rows of a blank sheet that fill one A4 page under the head
    PLAYERS_BY_SEAT: bool  # a sheet's head names the seats in order, not side against side
    TARIFF_PRESETS: Mapping[str, Mapping]  # named sets of tariff options a table or club can pick ({} if none)
    PRESET_LABELS: Mapping[str, str]  # a label for each preset: TARIFF_PRESETS and the choices of a "preset" option
    CLUB_STATS: bool  # a club playing it has a statistics page (bids made)
    tariff_matrix: Callable[[Mapping], dict] | None  # bid × tricks table in words and numbers; None: no tariff

    def tricks_total(self, options: Mapping) -> int:
        """How many tricks the trick buttons share out (13, or 26 in German whist counting all)."""

    def buttons(self, form, ctx, players: list[str], side_names: list[str]) -> dict:
        """Fill the hand form's choices for hand `ctx` (SelectChoice lists); answer what its template needs more,
        and under "hidden" the fields the page leaves out this hand (their errors then show at the top)."""

    def fixed_trump(self, number: int, options: Mapping) -> str | None:
        """The trump of deal `number` when the house rules fix it, else None."""

    def hand_words(self, inp: Mapping, players: list[str], sides, trump: str | None) -> str:
        """A hand in a few words for the protokoll and the edit log: "Bo 9 gode ♣, partner Dina, 10 tricks"."""

    def house_rules(self, options: Mapping) -> list[tuple[str, str]]:
        """The variant's own house rules as (label, value) for a sheet's head (target, deals, stake are shared)."""

    def blank_columns(self, options: Mapping) -> list[tuple[str, str]]:
        """(key, label) of what a player writes down per hand on a blank sheet."""

    def csv_columns(self, options: Mapping, players: list[str], side_names: list[str]) -> list[CsvColumn]:
        """The entered fields as CSV columns: lists per side get a column per side, seats are written as names."""


def members() -> list[str]:
    """Every member of the contract, in the order above."""
    data = list(VariantView.__annotations__)
    functions = [name for name, value in vars(VariantView).items() if callable(value) and not name.startswith("_")]
    return data + functions


def missing(view) -> list[str]:
    """The contract members a view module lacks."""
    return [name for name in members() if not hasattr(view, name)]
