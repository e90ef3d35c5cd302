"""Swedish whist (Firemannswhist): each shows a card; the first red makes a game, all black a pass game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core.fields import require_fields, seat, trick_pair
from scorekeeper.core.game import HandContext, Sides, TableContext, partnerships
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.core.options import currency_option, int_option, rate_option

NAME = "swedish"
ORDER = 50
TITLE = Msg("Swedish whist")
DESCRIPTION = Msg("Firemannswhist: a red card shown makes a game for tricks, all black a pass game.")
PLAYER_COUNTS = (4,)
INPUT_FIELDS = ("red", "tricks")
OPTIONS = {
    "target": int_option(13, 1, 100, Msg("Points that win the game.")),
    "deals": int_option(
        None,
        1,
        100,
        Msg("Play a fixed number of deals instead (4: until all four have dealt once); the larger total wins."),
        allow_none=True,
    ),
    "rate": rate_option(None, Msg("Money per point of difference, or none.")),
    "currency": currency_option("SEK", home=True),
}


def sides(table: TableContext) -> Sides:
    return partnerships(table.n_players)


def check_hand(raw: Any, ctx: HandContext) -> dict[str, Any]:
    data = require_fields(raw, INPUT_FIELDS)
    errors: dict[str, str] = {}
    if "red" not in data:
        errors["red"] = Msg("is missing: the seat that showed the first red card, or null if all four were black")
        red = None
    else:
        red = data["red"]
        if red is not None:
            red = seat(red, 4, "red", errors)
    tricks = trick_pair(data.get("tricks"), 13, errors)
    if errors or tricks is None:
        raise InputError(errors)
    return {"red": red, "tricks": list(tricks)}


def hand_points(inp: Mapping[str, Any], ctx: HandContext) -> tuple[int, ...]:
    tricks = inp["tricks"]
    points = [0, 0]
    if inp["red"] is not None:
        side = inp["red"] % 2
        if tricks[side] >= 7:
            points[side] = tricks[side] - 6
        else:
            points[1 - side] = 2 * (tricks[1 - side] - 6)
    else:
        for side in (0, 1):
            if tricks[side] <= 6:
                points[side] = 7 - tricks[side]
    return tuple(points)


def leader(inp: Mapping[str, Any], ctx: HandContext) -> int:
    if inp["red"] is not None:
        return (inp["red"] - 1) % 4
    return (ctx.dealer + 1) % 4
