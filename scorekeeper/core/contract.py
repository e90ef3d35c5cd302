"""What a variant's rules module provides: the one contract the core, the services and the web layer rely on.

A variant is a module in core/variants/ that satisfies `VariantRules` and one line in the VARIANTS registry
(core/__init__.py). mypy checks each registered module against the protocol; tests/unit/test_variant_contract.py
checks it at run time. Shared defaults for the members most variants need no rule for: base.target_or_deals
(game_end), base.nobody_sits_out (sits_out),
base.options_as_checked (resolve_options); base.replay does the scoring loop for `play`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol, runtime_checkable

from scorekeeper.core.base import HandContext, Option, Protokoll, Setup


@runtime_checkable
class VariantRules(Protocol):
    """The rules of one whist variant: data that describes it and pure functions that score it."""

    @property
    def NAME(self) -> str:
        """The key stored with every game and used in URLs, so it never changes once games exist."""

    @property
    def TITLE(self) -> str:
        """The name players know the game by, translatable (a Msg), for headings and menus."""

    @property
    def DESCRIPTION(self) -> str:
        """One line that tells a table choosing a variant how this one differs from the others."""

    @property
    def PLAYER_COUNTS(self) -> tuple[int, ...]:
        """The table sizes the rules are written for, so that a game cannot start with a seat too many or too few."""

    @property
    def ZERO_SUM(self) -> bool:
        """True when each player scores alone and the points add up to zero, so the totals are already what each
        player wins or pays (Danish); otherwise partners each win or lose their side's difference."""

    @property
    def INPUT_FIELDS(self) -> tuple[str, ...]:
        """The fields a hand's input may have, so that a misspelt field is refused rather than ignored."""

    @property
    def OPTIONS(self) -> Mapping[str, Option]:
        """The house rules a table may switch, each with its default, its range or choices and a line of help, so
        that forms, the API and the printed sheet describe them from one place."""

    def check_options(self, options: Mapping[str, Any]) -> dict[str, str]:
        """Errors (keyed `options.<name>`) for house rules that are each valid but do not go together."""

    def resolve_options(
        self, options: dict[str, Any], given: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, str]]:
        """The checked `options` with what a preset and the shorthands stand for filled in (Danish: the `house` tariff
        they build), and errors keyed `options.<name>`; `given` is what the table chose. What scores is then stored
        with the game and shown in its answer. base.options_as_checked for a variant with nothing to resolve."""

    def sides(self, n: int) -> tuple[tuple[int, ...], ...]:
        """The seats that score together for `n` players, because points and totals are kept per side."""

    def check_hand(self, raw: Any, ctx: HandContext) -> dict[str, Any]:
        """The hand as entered, checked in its place and normalised into what is stored; raises InputError, so that
        nothing the rules cannot score reaches the sheet."""

    def hand_points(self, inp: Mapping[str, Any], ctx: HandContext) -> tuple[int, ...]:
        """A checked hand's points per side; the score before it is `ctx.totals`, since some rules depend on it."""

    def leader(self, inp: Mapping[str, Any], ctx: HandContext) -> int:
        """The seat that leads to the first trick, so the sheet can tell the table who plays first."""

    def game_end(self, totals: tuple[int, ...], number: int, options: Mapping[str, Any]) -> tuple[bool, int | None]:
        """Whether the game (or a game of a match) ended after hand `number`, and the winning side (None: a draw),
        because a finished game takes no more hands."""

    def sits_out(self, ctx: HandContext) -> int | None:
        """The seat that does not play this hand (Danish five-handed: the dealer), so that it neither bids nor
        scores."""

    def play(self, setup: Setup, inputs: Iterable[Any], start: Protokoll | None = None) -> Protokoll:
        """The protokoll of a game from its hand inputs, going on from `start` when given, so that adding a hand to a
        long game does not replay it; usually base.replay with the members above."""
