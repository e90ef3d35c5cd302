"""Bid whist: two fixed partnerships; the winning bidder's side contracts to take six books and its bid, uptown,
downtown or in no trump; a game to `target`, or lost by going to the hole at minus it (RULES.md "bid")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core.fields import contract_first, is_int, passed_out, require_fields, seat, side_winner, trick_pair
from scorekeeper.core.game import BidResult, HandContext, ScoredHand, Sides, TableContext, partnerships
from scorekeeper.core.messages import Choices, InputError, Msg
from scorekeeper.core.options import bool_option, choice_option, currency_option, int_option, rate_option

NAME = "bid"
ORDER = 75
TITLE = Msg("Bid whist")
DESCRIPTION = Msg("Partners bid books over six, uptown, downtown or no trump; the kitty is the first book.")
PLAYER_COUNTS = (4,)
# The auction's outcome (who won it, the bid, uptown, downtown or no trump): a table may enter it before the play (a
# deal in progress, every phone's protokoll shows it and who leads: the bidder) and the books after.
BID_FIELDS = ("bidder", "bid", "direction")
INPUT_FIELDS = ("passed", *BID_FIELDS, "tricks")
DIRECTIONS = ("uptown", "downtown", "no_trump")
BOOK = 6  # the first six books the declaring side takes count nothing
TOP = 7  # the highest bid: all 13 books
BOOKS = 13
OPTIONS = {
    "target": int_option(
        7, 1, 100, Msg("Points that win the game; a side at minus this many loses it (11 and 21 are common).")
    ),
    "min_bid": int_option(3, 1, TOP, Msg("The lowest bid: books over six (some tables open at 4).")),
    "made": choice_option(
        "bid", ("bid", "books"), Msg("A made bid scores the bid, or every book over six the side took.")
    ),
    "set_defenders": bool_option(
        True, Msg("When a bid is set, defenders who took 7 books or more score their books over six.")
    ),
    "no_trump_double": bool_option(True, Msg("Every score of a no-trump hand counts double, made or set.")),
    "boston": choice_option(
        "quadruple",
        ("quadruple", "wins_game", "none"),
        Msg("All 13 books (a Boston): the declarers score four times, win the game at once, or nothing more."),
    ),
    "kitty": bool_option(
        True, Msg("Six cards in the kitty, the declarers' first book (off: 13 books are played, none given).")
    ),
    "rate": rate_option(None, Msg("Money per point of difference, or none.")),
    "currency": currency_option("SEK"),
}


def sides(table: TableContext) -> Sides:
    return partnerships(table.n_players)


def declarers(inp: Mapping[str, Any]) -> int:
    """The bidder's side."""
    return inp["bidder"] % 2


def made(inp: Mapping[str, Any]) -> bool:
    return inp["tricks"][declarers(inp)] >= BOOK + inp["bid"]


def boston(inp: Mapping[str, Any]) -> bool:
    return not inp.get("passed") and inp["tricks"][declarers(inp)] == BOOKS


def _contract(data: dict, ctx: HandContext, errors: dict) -> dict[str, Any]:
    """The bidder, the bid (from the table's `min_bid` to 7) and its direction, checked; errors by field."""
    bidder = seat(data.get("bidder"), ctx.n_players, "bidder", errors)
    low = ctx.options.get("min_bid", 3)
    bid = data.get("bid")
    if bid is None:
        errors["bid"] = Msg("is missing: books over six, from %(low)d to %(high)d", low=low, high=TOP)
    elif not is_int(bid) or not low <= bid <= TOP:
        errors["bid"] = Msg("must be a whole number from %(low)d to %(high)d", low=low, high=TOP)
    direction = data.get("direction")
    if direction is None:
        errors["direction"] = Msg("is missing: one of %(choices)s", choices=Choices(DIRECTIONS, NAME))
    elif direction not in DIRECTIONS:
        errors["direction"] = Msg("must be one of %(choices)s", choices=Choices(DIRECTIONS, NAME))
    return {"bidder": bidder, "bid": bid, "direction": direction}


def check_bids(raw: Any, ctx: HandContext) -> dict[str, Any]:
    """The contract before the play (a passed-out deal is entered as a hand)."""
    return contract_first(raw, ctx, BID_FIELDS, _contract)


def check_hand(raw: Any, ctx: HandContext) -> dict[str, Any]:
    data = require_fields(raw, INPUT_FIELDS)
    if passed_out(data):
        return {"passed": True}
    errors: dict[str, str] = {}
    out = _contract(data, ctx, errors)
    bidder = out["bidder"]
    tricks = trick_pair(data.get("tricks"), BOOKS, errors)
    if tricks is not None and bidder is not None and ctx.options.get("kitty", True) and tricks[bidder % 2] < 1:
        errors["tricks"] = Msg("the declaring side has at least one book: the kitty")
    if errors or tricks is None:
        raise InputError(errors)
    return {**out, "tricks": list(tricks)}


def hand_points(inp: Mapping[str, Any], ctx: HandContext) -> tuple[int, ...]:
    if inp.get("passed"):
        return (0, 0)
    options = ctx.options
    side, bid, tricks = declarers(inp), inp["bid"], inp["tricks"]
    other = 1 - side
    points = [0, 0]
    if made(inp):
        points[side] = tricks[side] - BOOK if options.get("made") == "books" else bid
        if boston(inp) and options.get("boston", "quadruple") == "quadruple":
            points[side] *= 4
    else:
        points[side] = -bid
        if options.get("set_defenders", True) and tricks[other] > BOOK:
            points[other] = tricks[other] - BOOK
    if inp["direction"] == "no_trump" and options.get("no_trump_double", True):
        points = [2 * p for p in points]
    return tuple(points)


def leader(inp: Mapping[str, Any], ctx: HandContext) -> int:
    """The bidder leads; a passed-out deal shows the dealer's left."""
    if inp.get("passed"):
        return (ctx.dealer + 1) % ctx.n_players
    return inp["bidder"]


def game_end(hand: ScoredHand, ctx: HandContext) -> tuple[bool, int | None]:
    """A side at `target` wins; a side at minus `target` or below loses ("going to the hole"), the other wins; with
    `boston` `wins_game` a Boston wins at once."""
    totals, target = hand.totals, ctx.options.get("target", 7)
    if ctx.options.get("boston") == "wins_game" and boston(hand.input):
        return True, declarers(hand.input)
    if any(t >= target for t in totals):
        return True, side_winner(totals)
    down = [s for s, t in enumerate(totals) if t <= -target]
    if down:
        return True, 1 - down[0]
    return False, None


def bid_result(inp: Mapping[str, Any], table: TableContext) -> BidResult | None:
    if not inp or inp.get("passed"):
        return None
    return BidResult(inp["bidder"], made(inp), partner=(inp["bidder"] + 2) % table.n_players)
