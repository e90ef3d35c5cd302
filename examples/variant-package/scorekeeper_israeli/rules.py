"""Israeli whist: four players, each alone, 13 cards each. An auction for the trump: a number of tricks (from the
`min_bid` option to 13) and a suit or no trump; the highest bidder, the declarer, names the trump and leads. Then each
player says how many tricks they will take, the declarer first (at least the bid) and round to the left; the last to
say may not make the calls add up to 13, so every deal is over (more called than there are tricks) or under.

An exact call scores its square and 10 (a call of nothing: `zero_under` in an under deal, `zero_over` in an over one);
a missed call loses 10 a trick off (a call of nothing that took tricks: −50, and 10 back for each trick after the
first). When all pass the deal is thrown in: it counts for none of the game's `deals`, and (the `thrown_doubles` house
rule) the next deal counts double — twice thrown in, four times. The game ends after `deals` deals that count.

Pure, as every variant's rules: scorekeeper.core only, no Flask (the contract: scorekeeper/core/contract.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from scorekeeper.core.fields import contract_first, is_int, passed_out, require_fields, seat, side_winner
from scorekeeper.core.game import TRUMPS, BidResult, HandContext, ScoredHand, TableContext
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.core.options import bool_option, int_option

NAME = "israeli"
ORDER = 150
TITLE = Msg("Israeli whist")
DESCRIPTION = Msg(
    "A trump auction, then every player's own call: over or under, and a deal thrown in doubles the next."
)
PLAYER_COUNTS = (4,)
CARDS = 13
# The auction and the calls: a table may enter them before the play (every phone's protokoll shows them), the tricks
# after.
BID_FIELDS = ("declarer", "bid", "trump", "predictions")
INPUT_FIELDS = ("passed", *BID_FIELDS, "tricks")
MISSED_NOTHING = 50  # a call of nothing that took tricks: −50, then 10 back a trick after the first

OPTIONS = {
    "deals": int_option(12, 1, 100, Msg("The game's deals; a deal thrown in when all pass counts for none.")),
    "min_bid": int_option(5, 4, 7, Msg("The lowest bid of the trump auction (tricks the declarer will take).")),
    "thrown_doubles": bool_option(
        True, Msg("A deal thrown in when all pass doubles the next deal's points (thrown in twice: four times).")
    ),
    "zero_under": int_option(50, 0, 200, Msg("An exact call of nothing in an under deal scores this.")),
    "zero_over": int_option(25, 0, 200, Msg("An exact call of nothing in an over deal scores this.")),
}


class State(NamedTuple):
    """What the game so far says of the next deal: how many deals counted, and what its points are multiplied by."""

    counted: int
    factor: int


def initial_state(table: TableContext) -> State:
    return State(0, 1)


def fold(state: State, hand: ScoredHand, ctx: HandContext) -> State:
    if hand.input.get("passed"):
        return State(state.counted, state.factor * 2 if ctx.options["thrown_doubles"] else 1)
    return State(state.counted + 1, 1)


def deals_counted(state: Any, played: int, table: TableContext) -> int:
    """Only the deals played count: one thrown in is dealt again."""
    return state.counted if isinstance(state, State) else played


def last_to_say(declarer: int, n: int) -> int:
    """The calls go round from the declarer to the left: the player on the declarer's right says last."""
    return (declarer + n - 1) % n


def over_under(predictions: list[int]) -> str:
    return "over" if sum(predictions) > CARDS else "under"


def _name(ctx: HandContext, s: int) -> str:
    name = ctx.players[s] if s < len(ctx.players) else None
    return name or str(s)


def _counts(value: Any, ctx: HandContext, name: str, errors: dict) -> list[int] | None:
    if value is None:
        errors[name] = Msg("is missing: one number from 0 to 13 for each player")
        return None
    if not isinstance(value, list) or len(value) != ctx.n_players or not all(is_int(v) and 0 <= v <= 13 for v in value):
        errors[name] = Msg("must be one number from 0 to 13 for each player, in seat order")
        return None
    return list(value)


def _auction(data: dict, ctx: HandContext, errors: dict) -> dict[str, Any]:
    """The auction's outcome and the calls, checked; errors by field."""
    declarer = seat(data.get("declarer"), ctx.n_players, "declarer", errors)
    low = ctx.options["min_bid"]
    bid = data.get("bid")
    if bid is None:
        errors["bid"] = Msg("is missing: the tricks the auction was won with, from %(low)d to 13", low=low)
    elif not is_int(bid) or not low <= bid <= CARDS:
        errors["bid"] = Msg("must be a whole number from %(low)d to 13", low=low)
        bid = None
    trump = data.get("trump")
    if trump is None:
        errors["trump"] = Msg("is missing: the suit the declarer named, or none")
    elif trump not in TRUMPS:
        errors["trump"] = Msg("must be hearts, diamonds, clubs, spades or none")
        trump = None
    predictions = _counts(data.get("predictions"), ctx, "predictions", errors)
    if predictions is not None and declarer is not None:
        if bid is not None and predictions[declarer] < bid:
            errors["predictions"] = Msg(
                "%(player)s won the auction with %(bid)d and must call at least that",
                player=_name(ctx, declarer),
                bid=bid,
            )
        elif sum(predictions) == CARDS:
            errors["predictions"] = Msg(
                "%(player)s calls last and may not make the calls add up to 13: the deal is over or under",
                player=_name(ctx, last_to_say(declarer, ctx.n_players)),
            )
    return {"declarer": declarer, "bid": bid, "trump": trump, "predictions": predictions}


def check_bids(raw: Any, ctx: HandContext) -> dict[str, Any]:
    """The auction and the calls before the play (a deal thrown in is entered as a hand, in one tap)."""
    return contract_first(raw, ctx, BID_FIELDS, _auction)


def check_hand(raw: Any, ctx: HandContext) -> dict[str, Any]:
    data = require_fields(raw, INPUT_FIELDS)
    if passed_out(data):
        return {"passed": True}
    errors: dict[str, str] = {}
    out = _auction(data, ctx, errors)
    tricks = _counts(data.get("tricks"), ctx, "tricks", errors)
    if tricks is not None and sum(tricks) != CARDS:
        errors["tricks"] = Msg("must add up to 13, not %(sum)d", sum=sum(tricks))
    if errors:
        raise InputError(errors)
    return {**out, "tricks": tricks}


def call_points(called: int, took: int, over: bool, options: Mapping[str, Any]) -> int:
    """One player's points for one deal, before the deal's factor."""
    if called == took:
        if called == 0:
            return options["zero_over"] if over else options["zero_under"]
        return called * called + 10
    if called == 0:
        return -MISSED_NOTHING + 10 * (took - 1)
    return -10 * abs(took - called)


def hand_points(inp: Mapping[str, Any], ctx: HandContext) -> tuple[int, ...]:
    if inp.get("passed"):
        return (0,) * ctx.n_players
    factor = ctx.state.factor if isinstance(ctx.state, State) else 1
    over = over_under(inp["predictions"]) == "over"
    return tuple(
        factor * call_points(called, took, over, ctx.options) for called, took in zip(inp["predictions"], inp["tricks"])
    )


def leader(inp: Mapping[str, Any], ctx: HandContext) -> int:
    """The declarer leads; before the auction is known (and in a deal thrown in), the dealer's left."""
    declarer = inp.get("declarer")
    if is_int(declarer) and 0 <= declarer < ctx.n_players:
        return declarer
    return (ctx.dealer + 1) % ctx.n_players


def trump(inp: Mapping[str, Any], ctx: HandContext) -> str | None:
    return inp.get("trump")


def game_end(hand: ScoredHand, ctx: HandContext) -> tuple[bool, int | None]:
    after = fold(ctx.state, hand, ctx)
    if after.counted >= ctx.options["deals"]:
        return True, side_winner(hand.totals)
    return False, None


def bid_result(inp: Mapping[str, Any], table: TableContext) -> BidResult | None:
    if not inp or inp.get("passed") or inp.get("tricks") is None:
        return None
    declarer = inp["declarer"]
    return BidResult(declarer, inp["predictions"][declarer] == inp["tricks"][declarer], alone=True)
