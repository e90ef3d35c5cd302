"""Norwegian whist (grand/pass, Minnesota whist): no trump; one bid of grand, or everyone passes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scorekeeper.core.base import (
    PARTNERSHIP_SIDES,
    HandContext,
    InputError,
    Msg,
    Protokoll,
    Setup,
    choice_option,
    currency_option,
    int_option,
    nobody_sits_out,
    rate_option,
    replay,
    require_fields,
    seat,
    target_or_deals,
    trick_pair,
)

NAME = "norwegian"
TITLE = Msg("Norwegian whist")
DESCRIPTION = Msg("Grand or pass, no trump: grand aims for tricks, pass for as few as possible.")
PLAYER_COUNTS = (4,)
ZERO_SUM = False
INPUT_FIELDS = ("bid", "bidder", "tricks")
OPTIONS = {
    "target": int_option(13, 1, 100, Msg("Points that win the game (25 for a long game).")),
    "set_bonus": int_option(
        2, 1, 10, Msg("Points per trick over six to the other side when a grand fails (1 in the Minnesota rules).")
    ),
    "pass_scoring": choice_option(
        "under_six",
        ("under_six", "under_seven"),
        Msg("under_six: a side with 5 or fewer tricks scores 6 − tricks; under_seven: 6 or fewer scores 7 − tricks."),
    ),
    "rate": rate_option(None, Msg("Money per point of difference, or none.")),
    "currency": currency_option("NOK"),
}


def sides(n: int = 4) -> tuple[tuple[int, ...], ...]:
    return PARTNERSHIP_SIDES


def check_options(options: Mapping[str, Any]) -> dict[str, str]:
    return {}


def check_hand(raw: Any, ctx: HandContext) -> dict[str, Any]:
    data = require_fields(raw, INPUT_FIELDS)
    errors: dict[str, str] = {}
    bid = data.get("bid")
    out: dict[str, Any] = {"bid": bid}
    if bid not in ("grand", "pass"):
        errors["bid"] = Msg("must be grand or pass")
    elif bid == "grand":
        bidder = seat(data.get("bidder"), 4, "bidder", errors)
        if "bidder" in errors and data.get("bidder") is None:
            errors["bidder"] = Msg("is missing: who bid grand?")
        out["bidder"] = bidder
    elif data.get("bidder") is not None:
        errors["bidder"] = Msg("nobody bids in a pass game: leave it out")
    out["tricks"] = trick_pair(data.get("tricks"), 13, errors)
    if errors:
        raise InputError(errors)
    out["tricks"] = list(out["tricks"])
    return out


def hand_points(inp: Mapping[str, Any], ctx: HandContext) -> tuple[int, ...]:
    tricks = inp["tricks"]
    points = [0, 0]
    if inp["bid"] == "grand":
        grand = inp["bidder"] % 2
        other = 1 - grand
        if tricks[grand] >= 7:
            points[grand] = tricks[grand] - 6
        else:
            points[other] = ctx.options["set_bonus"] * (tricks[other] - 6)
    else:
        limit = 6 if ctx.options["pass_scoring"] == "under_six" else 7
        for side in (0, 1):
            if tricks[side] < limit:
                points[side] = limit - tricks[side]
    return tuple(points)


def leader(inp: Mapping[str, Any], ctx: HandContext) -> int:
    if inp["bid"] == "grand":
        return (inp["bidder"] - 1) % 4
    return (ctx.dealer + 1) % 4


game_end = target_or_deals
sits_out = nobody_sits_out


def play(setup: Setup, inputs: Iterable[Any], start: Protokoll | None = None) -> Protokoll:
    return replay(
        setup,
        inputs,
        sides=sides(),
        check_hand=check_hand,
        hand_points=hand_points,
        leader=leader,
        game_end=game_end,
        sits_out=sits_out,
        start=start,
    )
