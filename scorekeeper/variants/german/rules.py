"""German whist (tvåmanswhist): two players; only the 13 tricks of the second phase count."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core.fields import require_fields, trick_pair
from scorekeeper.core.game import HandContext
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
        ("phase2", "all26"),
        Msg(
            "phase2: tricks over six of the last 13 score; all26: the player with more of all 26 tricks wins the deal and scores 1."
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
    return (max(a - 6, 0), max(b - 6, 0))
