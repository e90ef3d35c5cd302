"""Classic (English) whist: fixed partners, trump from the dealer's last card, the book of six."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core.fields import is_int, require_fields, trick_pair
from scorekeeper.core.game import NO_TRUMP, SUITS, HandContext, Match, Sides, TableContext, partnerships
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.core.options import bool_option, currency_option, int_option, rate_option

NAME = "classic"
ORDER = 10
TITLE = Msg("Classic whist")
DESCRIPTION = Msg("English whist: fixed partners, trump from the last card, every trick over six scores.")
PLAYER_COUNTS = (4,)
INPUT_FIELDS = ("trump", "tricks", "honours", "revoke")
PENALTIES = ("tricks", "add", "deduct")
ROTATION = ("hearts", "diamonds", "spades", "clubs")

OPTIONS = {
    "target": int_option(5, 1, 30, Msg("Points that win a game: 5 (English), 7 (American), 10 (long whist).")),
    "honours": bool_option(False, Msg("Score honours: all four trump honours 4, three of them 2.")),
    "rubber": bool_option(False, Msg("Play a rubber: best of three games.")),
    "revoke_penalty": int_option(3, 1, 13, Msg("Tricks or points a revoke costs (2 in older books).")),
    "deals": int_option(
        None, 1, 500, Msg("Tournament: play this many deals, no target; the larger total wins."), allow_none=True
    ),
    "trump_rotation": bool_option(
        False, Msg("Tournament: trump follows hearts, diamonds, spades, clubs deal by deal.")
    ),
    "no_trump_every": int_option(
        None, 2, 52, Msg("With trump rotation: every n-th deal is played without trump."), allow_none=True
    ),
    "rate": rate_option(None, Msg("Money per point of difference, or none.")),
    "currency": currency_option("SEK"),
}


def sides(table: TableContext) -> Sides:
    return partnerships(table.n_players)


def check_options(table: TableContext) -> dict[str, str]:
    options = table.options
    errors: dict[str, str] = {}
    if options["deals"] and options["rubber"]:
        errors["options.rubber"] = Msg("a rubber is played to a target, not for a fixed number of deals")
    if options["deals"] and options["honours"]:
        errors["options.honours"] = Msg("tournament deals are played without honours")
    if options["no_trump_every"] and not options["trump_rotation"]:
        errors["options.no_trump_every"] = Msg("needs trump_rotation on")
    return errors


def fixed_trump(number: int, table: TableContext) -> str | None:
    """The trump of deal `number` when the rotation fixes it: no-trump deals are inserted into the suit cycle."""
    options = table.options
    if not options["trump_rotation"]:
        return None
    every = options["no_trump_every"]
    if every and number % every == 0:
        return NO_TRUMP
    trump_deals = number - (number // every if every else 0)
    return ROTATION[(trump_deals - 1) % 4]


def check_hand(raw: Any, ctx: HandContext) -> dict[str, Any]:
    data = require_fields(raw, INPUT_FIELDS)
    opts = ctx.options
    errors: dict[str, str] = {}
    out: dict[str, Any] = {}
    fixed = fixed_trump(ctx.number, ctx)
    trump = data.get("trump")
    if fixed:
        if trump is not None and trump != fixed:
            errors["trump"] = Msg("the rotation fixes the trump of deal %(n)d: %(trump)s", n=ctx.number, trump=fixed)
    elif trump is None:
        errors["trump"] = Msg("is missing: the suit of the dealer's last card")
    elif trump not in SUITS:
        errors["trump"] = (
            Msg("no-trump deals come only with the tournament trump rotation")
            if trump == NO_TRUMP
            else Msg("must be one of %(choices)s", choices=", ".join(SUITS))
        )
    else:
        out["trump"] = trump
    tricks = trick_pair(data.get("tricks"), 13, errors)
    honours = data.get("honours")
    if honours is not None:
        if not opts["honours"]:
            errors["honours"] = Msg("honours are not scored in this game (the option is off)")
        elif (fixed or trump) == NO_TRUMP:
            errors["honours"] = Msg("there are no honours in a deal without trump")
        else:
            honours = trick_pair(honours, 4, errors, "honours")
            if honours is None:
                errors["honours"] = Msg(
                    "must be two numbers, the trump honours (A K Q J) each side held, adding up to 4"
                )
            else:
                out["honours"] = list(honours)
    revoke = data.get("revoke")
    if revoke is not None:
        if not isinstance(revoke, dict) or set(revoke) - {"side", "penalty"}:
            errors["revoke"] = Msg('must be {"side": 0 or 1, "penalty": "tricks", "add" or "deduct"}')
        else:
            side = revoke.get("side")
            penalty = revoke.get("penalty", "tricks")
            if not is_int(side) or side not in (0, 1):
                errors["revoke.side"] = Msg("must be the side that revoked: 0 or 1")
            if penalty not in PENALTIES:
                errors["revoke.penalty"] = Msg("must be tricks, add or deduct")
            out["revoke"] = {"side": side, "penalty": penalty}
    if errors or tricks is None:
        raise InputError(errors)
    out["tricks"] = list(tricks)
    return out


def trump(inp: Mapping[str, Any], ctx: HandContext) -> str | None:
    """The hand's trump: the rotation's when it fixes it (the input then leaves it out), else the one entered."""
    return fixed_trump(ctx.number, ctx) or inp["trump"]


def hand_points(inp: Mapping[str, Any], ctx: HandContext) -> tuple[int, ...]:
    """Revoke first, then tricks, then honours unless the tricks ended the game; a revoking side stops short of the target."""
    before, opts = ctx.totals, ctx.options
    tricks = list(inp["tricks"])
    points = [0, 0]
    target = None if opts["deals"] else opts["target"]
    revoke = inp.get("revoke")
    penalty = opts["revoke_penalty"]
    if revoke:
        guilty, other = revoke["side"], 1 - revoke["side"]
        if revoke["penalty"] == "tricks":
            moved = min(penalty, tricks[guilty])
            tricks[guilty] -= moved
            tricks[other] += moved
        elif revoke["penalty"] == "add":
            points[other] += penalty
        else:
            points[guilty] -= penalty

    def cap() -> None:
        if revoke and target is not None:
            g = revoke["side"]
            points[g] = min(points[g], target - 1 - before[g])

    for side in (0, 1):
        if tricks[side] >= 7:
            points[side] += tricks[side] - 6
    cap()
    honours = inp.get("honours")
    if honours and opts["honours"] and trump(inp, ctx) != NO_TRUMP:
        ended = target is not None and any(before[s] + points[s] >= target for s in (0, 1))
        if not ended:
            for side in (0, 1):
                bonus = {4: 4, 3: 2}.get(honours[side], 0)
                if bonus and (target is None or before[side] != target - 1):
                    points[side] += bonus
        cap()
    return tuple(points)


def game_value(loser_total: int) -> int:
    """A short-whist game's worth in a rubber: treble, double or single by the losers' score."""
    if loser_total <= 0:
        return 3
    if loser_total <= 2:
        return 2
    return 1


def games_to_win(table: TableContext) -> int:
    return 2 if table.options["rubber"] else 1


RUBBER_BONUS = 2  # for winning the rubber


def match_parts(match: Match | None, table: TableContext) -> tuple[tuple[tuple[int | None, int], ...], ...] | None:
    """What a finished short-whist rubber's points are made of, per side: (game number, its worth) for each game the
    side won, then (None, RUBBER_BONUS) for the rubber's winner; None when the rubber is not scored in points."""
    options = table.options
    if match is None or not match.over or options["target"] != 5:
        return None
    parts: list[list[tuple[int | None, int]]] = [[], []]
    for number, (side, totals) in enumerate(match.results, 1):
        parts[side].append((number, game_value(totals[1 - side])))
    parts[match.games_won.index(match.to_win)].append((None, RUBBER_BONUS))
    return tuple(tuple(side) for side in parts)


def match_points(match: Match | None, table: TableContext) -> tuple[int, ...] | None:
    """A finished short-whist rubber in points: each game by the losers' score, and 2 for winning the rubber."""
    parts = match_parts(match, table)
    return None if parts is None else tuple(sum(worth for _game, worth in side) for side in parts)
