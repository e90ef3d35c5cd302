"""German whist (tvåmanswhist): two players; only the 13 tricks of the second phase count."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core.fields import require_fields, side_winner, trick_pair
from scorekeeper.core.game import HandContext, ScoredHand, TableContext
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.core.options import choice_option, currency_option, int_option, rate_option

NAME = "german"
ORDER = 40
TITLE = Msg("German whist")
DESCRIPTION = Msg("Two players; only the last 13 tricks count, every trick over six scores a point.")
PLAYER_COUNTS = (2,)
INPUT_FIELDS = ("tricks",)
OPTIONS = {
    "target": int_option(7, 1, 100, Msg("Points (or, counting all 26 tricks, deals won) that win the game.")),
    "count": choice_option(
        "phase2",
        ("phase2", "all26", "phase2_each"),
        Msg(
            "The tricks over six of the last 13 score (seed 003); or the player with more of all 26 tricks wins the "
            "deal and scores 1; or every trick of the last 13 scores a point, and when both pass the target in one "
            "deal it rises by 10 (MeggieSoft's German Whist, game 50)."
        ),
    ),
    "rate": rate_option(None, Msg("Money per point of difference, or none.")),
    "currency": currency_option("SEK"),
}


def check_hand(raw: Any, ctx: HandContext) -> dict[str, Any]:
    data = require_fields(raw, INPUT_FIELDS)
    errors: dict[str, str] = {}
    total = 26 if ctx.options["count"] == "all26" else 13
    tricks = trick_pair(data.get("tricks"), total, errors)
    if errors or tricks is None:
        raise InputError(errors)
    return {"tricks": list(tricks)}


def hand_points(inp: Mapping[str, Any], ctx: HandContext) -> tuple[int, ...]:
    a, b = inp["tricks"]
    if ctx.options["count"] == "all26":
        return (int(a > b), int(b > a))
    if ctx.options["count"] == "phase2_each":
        return (a, b)
    return (max(a - 6, 0), max(b - 6, 0))


STEP = 10  # how far the target rises when both players pass it in one deal (count phase2_each)


def initial_state(table: TableContext) -> Any:
    """Counting every trick, the target the next deal is played to (it rises); otherwise no state."""
    return table.options["target"] if table.options.get("count") == "phase2_each" else None


def risen(target: int, totals: tuple) -> int:
    """The target after a deal: 10 higher while both stand at or over it."""
    while all(t >= target for t in totals):
        target += STEP
    return target


def fold(state: Any, hand: ScoredHand, ctx: HandContext) -> Any:
    return None if state is None else risen(state, hand.totals)


def game_end(hand: ScoredHand, ctx: HandContext) -> tuple[bool, int | None]:
    """The first to the target wins; counting every trick, a target both pass in one deal rises first, so the winner
    is the one at or over it with the other below."""
    if ctx.state is None:
        target = ctx.options["target"]
    else:
        target = risen(ctx.state, hand.totals)
    if not any(t >= target for t in hand.totals):
        return False, None
    return True, side_winner(hand.totals)
