"""Norwegian whist (grand/pass, Minnesota whist): no trump; one bid of grand, or everyone passes (or, with Parlett's
leads, one bid of nullo, played as a pass game)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core.fields import require_fields, seat, trick_pair
from scorekeeper.core.game import HandContext, Sides, TableContext, partnerships
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.core.options import Option, choice_option, currency_option, int_option, rate_option

NAME = "norwegian"
ORDER = 20
TITLE = Msg("Norwegian whist")
DESCRIPTION = Msg("Grand or pass, no trump: grand aims for tricks, pass for as few as possible.")
PLAYER_COUNTS = (4,)
INPUT_FIELDS = ("bid", "bidder", "tricks")
OPTIONS = {
    "target": int_option(13, 1, 100, Msg("Points that win the game (25 for a long game).")),
    "set_bonus": int_option(
        2, 1, 10, Msg("Points per trick over six to the other side when a grand fails (1 in the Minnesota rules).")
    ),
    "grand_value": int_option(1, 1, 100, Msg("A made grand scores this many points per trick over six.")),
    "pass_value": int_option(1, 1, 100, Msg("A pass game scores this many points per trick it counts.")),
    "pass_scoring": choice_option(
        "under_six",
        ("under_six", "under_seven", "majority_loses"),
        Msg(
            "A side with 5 or fewer tricks scores 6 − tricks; or a side with 6 or fewer scores 7 − tricks; "
            "or the side with 7 or more loses a point per trick over six."
        ),
    ),
    "grand_lost": choice_option(
        "opponents",
        ("opponents", "bidder_loses"),
        Msg(
            "A failed grand gives the other side its points (seed 001); or the grand side loses a point per trick "
            "short of seven and the other side scores nothing (South Dakota whist)."
        ),
    ),
    "lead": choice_option(
        "bidder_right",
        ("bidder_right", "bidder_left"),
        Msg(
            "Who leads: the grand bidder's right, the dealer's left when all pass (seed 001, Minnesota whist); or the "
            "grand bidder's left, the dealer's right when all pass, and a player may bid nullo (Parlett, the "
            "Britannica)."
        ),
    ),
    "preset": Option(
        None,
        lambda value: _check_preset(value),
        Msg(
            "A named scale: Minnesota whist (set bonus 1, pass under seven); Parlett's (grand 4, set bonus 2, pass 2 "
            "under seven, to 50, his leads); South Dakota whist (a failed grand loses, the majority loses when all "
            "pass, to 11). Options given go over it."
        ),
        "preset",
        ("standard", "minnesota", "parlett", "south_dakota"),
    ),
    "rate": rate_option(None, Msg("Money per point of difference, or none.")),
    "currency": currency_option("NOK", home=True),
}


def sides(table: TableContext) -> Sides:
    return partnerships(table.n_players)


# Named scales: the options each sets unless they are given; each names every option of the scale, the rest at their
# defaults (`standard` is the defaults).
SCALE = ("target", "set_bonus", "grand_value", "pass_value", "pass_scoring", "grand_lost", "lead")
_NAMED: dict[str, dict[str, Any]] = {
    "standard": {},
    "minnesota": {"set_bonus": 1, "pass_scoring": "under_seven"},
    "parlett": {
        "grand_value": 4,
        "set_bonus": 2,
        "pass_value": 2,
        "pass_scoring": "under_seven",
        "target": 50,
        "lead": "bidder_left",
    },
    "south_dakota": {"grand_lost": "bidder_loses", "pass_scoring": "majority_loses", "target": 11},
}
PRESETS: dict[str, dict[str, Any]] = {
    name: {k: named.get(k, OPTIONS[k].default) for k in SCALE} for name, named in _NAMED.items()
}


def _check_preset(value):
    if value is not None and (not isinstance(value, str) or value not in PRESETS):
        raise ValueError(Msg("must be one of %(choices)s, or null", choices=", ".join(PRESETS)))
    return value


def resolve_options(given: Mapping[str, Any], table: TableContext) -> tuple[dict[str, Any], dict[str, str]]:
    options = dict(table.options)
    if options.get("preset"):
        options.update({k: v for k, v in PRESETS[options["preset"]].items() if k not in given})
    return options, {}


def check_hand(raw: Any, ctx: HandContext) -> dict[str, Any]:
    data = require_fields(raw, INPUT_FIELDS)
    errors: dict[str, str] = {}
    bid = data.get("bid")
    out: dict[str, Any] = {"bid": bid}
    nullo = ctx.options.get("lead") == "bidder_left"
    if bid == "nullo" and not nullo:
        errors["bid"] = Msg("must be grand or pass: nullo is bid only with Parlett's leads")
    elif bid not in ("grand", "pass", "nullo"):
        errors["bid"] = Msg("must be grand, nullo or pass") if nullo else Msg("must be grand or pass")
    elif bid in ("grand", "nullo"):
        bidder = seat(data.get("bidder"), 4, "bidder", errors)
        if "bidder" in errors and data.get("bidder") is None:
            errors["bidder"] = (
                Msg("is missing: who bid grand?") if bid == "grand" else Msg("is missing: who bid nullo?")
            )
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
        value = ctx.options.get("grand_value", 1)
        if tricks[grand] >= 7:
            points[grand] = value * (tricks[grand] - 6)
        elif ctx.options.get("grand_lost") == "bidder_loses":
            points[grand] = -value * (7 - tricks[grand])
        else:
            points[other] = ctx.options["set_bonus"] * value * (tricks[other] - 6)
    else:
        value, scoring = ctx.options.get("pass_value", 1), ctx.options["pass_scoring"]
        for side in (0, 1):
            if scoring == "majority_loses":
                points[side] = -value * (tricks[side] - 6) if tricks[side] >= 7 else 0
            else:
                limit = 6 if scoring == "under_six" else 7
                points[side] = value * (limit - tricks[side]) if tricks[side] < limit else 0
    return tuple(points)


def leader(inp: Mapping[str, Any], ctx: HandContext) -> int:
    """Option `lead`: the grand bidder's right and the dealer's left (seed 001), or the mirror, Parlett's, where a
    nullo is led by the bidder's right."""
    left = ctx.options.get("lead") == "bidder_left"
    if inp["bid"] == "grand":
        return (inp["bidder"] + (1 if left else -1)) % 4
    if inp["bid"] == "nullo":
        return (inp["bidder"] - 1) % 4
    return (ctx.dealer + (-1 if left else 1)) % 4


def next_leader(ctx: HandContext) -> int:
    """Before the bids are known, the leader of a pass game."""
    return leader({"bid": "pass"}, ctx)
