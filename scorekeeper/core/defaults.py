"""The default of every optional member of the variant contract (core/contract.py), written as a variant module
would write it: a variant module defines only the members whose rule is its own, and core.variant() takes the rest
from here. What these say is what most whist variants do: every player alone, 13 cards, nobody sits out, the player
to the dealer's left leads, the deal passes clockwise, no state of its own, a game to the `target` option or over the `deals` option.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core.fields import side_winner
from scorekeeper.core.game import BidResult, HandContext, Match, ScoredHand, Sides, TableContext, one_seat_a_side
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.core.numbers import Point

ORDER = 100
ZERO_SUM = False
POINTS = True
FOR_MONEY = False
CARDS = 13
BID_FIELDS: tuple[str, ...] = ()


def check_options(table: TableContext) -> dict[str, str]:
    return {}


def resolve_options(given: Mapping[str, Any], table: TableContext) -> tuple[dict[str, Any], dict[str, str]]:
    return dict(table.options), {}


def sides(table: TableContext) -> Sides:
    return one_seat_a_side(table.n_players)


def deals(table: TableContext) -> int | None:
    return table.options.get("deals") or None


def deals_counted(state: Any, played: int, table: TableContext) -> int:
    return played


def initial_state(table: TableContext) -> Any:
    return None


def fold(state: Any, hand: ScoredHand, ctx: HandContext) -> Any:
    return state


def dealer(number: int, state: Any, table: TableContext) -> int | None:
    return table.dealer_of(number)


def next_leader(ctx: HandContext) -> int:
    return (ctx.dealer + 1) % ctx.n_players


def standing(state: Any, totals: tuple[Point, ...], table: TableContext) -> tuple[Any, ...] | None:
    return None


def cards(number: int, table: TableContext) -> int:
    return CARDS


def sits_out(number: int, table: TableContext) -> int | None:
    return None


def fixed_trump(number: int, table: TableContext) -> str | None:
    return None


def leader(inp: Mapping[str, Any], ctx: HandContext) -> int:
    playing = ctx.playing
    return next(s for k in range(1, ctx.n_players + 1) if (s := (ctx.dealer + k) % ctx.n_players) in playing)


def trump(inp: Mapping[str, Any], ctx: HandContext) -> str | None:
    return None


def game_end(hand: ScoredHand, ctx: HandContext) -> tuple[bool, int | None]:
    """Over after the `deals` option's number of deals, else when a side reaches the `target` option."""
    totals, options = hand.totals, ctx.options
    deals = options.get("deals")
    if deals:
        return (hand.number >= deals, side_winner(totals) if hand.number >= deals else None)
    target = options.get("target")
    if target is not None and any(t >= target for t in totals):
        return True, side_winner(totals)
    return False, None


def games_to_win(table: TableContext) -> int:
    return 1


def match_points(match: Match | None, table: TableContext) -> tuple[int, ...] | None:
    return None


def bid_result(inp: Mapping[str, Any], table: TableContext) -> BidResult | None:
    return None


def check_bids(raw: Any, ctx: HandContext) -> dict[str, Any]:
    raise InputError({"input": Msg("this game's bids are not entered before the deal is played")})
