"""Plump (Oh Hell): two to ten players, each for himself; each deal has its own number of cards (the schedule), every
player bids the tricks he will take, and only an exact bid scores."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core.fields import is_int, require_fields, side_winner
from scorekeeper.core.game import HandContext, ScoredHand, TableContext
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.core.options import bool_option, choice_option, choice_or_list_option, int_option

NAME = "plump"
ORDER = 90
TITLE = Msg("Plump (Oh Hell)")
DESCRIPTION = Msg(
    "Two to ten players, each for himself: a new number of cards each deal, and only an exact bid scores."
)
PLAYER_COUNTS = (2, 3, 4, 5, 6, 7, 8, 9, 10)
INPUT_FIELDS = ("bids", "tricks", "cards")
BID_FIELDS = ("bids",)
DECK = 52
MAX_CARDS = 10
MOST_DEALS = 60
SCHEDULES = ("down_up", "up_down", "down", "up", "up_down_twice", "down_up_twice")
OPTIONS = {
    "schedule": choice_or_list_option(
        "down_up",
        SCHEDULES,
        1,
        DECK,
        MOST_DEALS,
        Msg(
            "The cards per deal: down to one and up again, up and down, only down, only up, up and down with the "
            "largest deal twice (the Oh Hell scorecard's), down and up with the one-card deal twice (sällskapsspel.com), "
            "or the sizes themselves."
        ),
    ),
    "max_cards": int_option(
        None, 1, DECK, Msg("The most cards dealt to each player: 10, or 52 ÷ players when that is fewer."), True
    ),
    "hook": bool_option(True, Msg("The dealer bids last and may not make the bids add up to the cards dealt.")),
    "bonus": int_option(10, 0, 100, Msg("Points for an exact bid, on top of the bid.")),
    "zero_bid": int_option(5, 0, 100, Msg("Points for an exact bid of nothing.")),
    "bonus_round_zero": int_option(
        None,
        0,
        100,
        Msg(
            "Points for an exact bid of nothing in the bonus round, the deal of 51 ÷ players cards (the Oh Hell "
            "scorecard's), or none."
        ),
        allow_none=True,
    ),
    "miss": choice_option(
        "zero",
        ("zero", "tricks", "minus_difference", "minus_made"),
        Msg(
            "What a missed bid scores: nothing, a point per trick taken, minus the difference, or minus what the bid "
            "would have scored (psalaets' Oh Hell)."
        ),
    ),
    "lead": choice_option(
        "left_of_dealer",
        ("left_of_dealer", "highest_bid"),
        Msg(
            "Who leads: the player to the dealer's left, or the highest bidder (ties: the first from the dealer's left)."
        ),
    ),
}


def most_cards(n_players: int) -> int:
    """The most cards each of `n_players` can be dealt from one pack."""
    return DECK // n_players


def schedule_sizes(options: Mapping[str, Any], n_players: int) -> list[int]:
    """Every deal's size, in order: the list itself, or what its name builds from max_cards."""
    schedule = options["schedule"]
    if isinstance(schedule, list):
        return list(schedule)
    top = options.get("max_cards") or min(MAX_CARDS, most_cards(n_players))
    down = list(range(top, 0, -1))
    up = list(range(1, top + 1))
    return {
        "down_up": down + up[1:],
        "up_down": up + down[1:],
        "down": down,
        "up": up,
        "up_down_twice": up + down,
        "down_up_twice": down + up,
    }[schedule]


def bonus_round(cards: int, n_players: int) -> bool:
    """The bonus round: the deal of 51 // n cards, the most each can be dealt with a card left to turn for trumps."""
    return cards == (DECK - 1) // n_players


def resolve_options(given: Mapping[str, Any], table: TableContext) -> tuple[dict[str, Any], dict[str, str]]:
    """max_cards as a number: 10, or 52 ÷ players when that is smaller."""
    options = dict(table.options)
    if options.get("max_cards") is None:
        options["max_cards"] = min(MAX_CARDS, most_cards(table.n_players))
    return options, {}


def check_options(table: TableContext) -> dict[str, str]:
    errors: dict[str, str] = {}
    most = most_cards(table.n_players)
    top = table.options.get("max_cards")
    if top is not None and top > most:
        errors["options.max_cards"] = Msg(
            "%(n)d players can be dealt at most %(most)d cards each, not %(cards)d",
            n=table.n_players,
            most=most,
            cards=top,
        )
    schedule = table.options["schedule"]
    if isinstance(schedule, list) and max(schedule) > most:
        errors["options.schedule"] = Msg(
            "%(n)d players can be dealt at most %(most)d cards each, not %(cards)d",
            n=table.n_players,
            most=most,
            cards=max(schedule),
        )
    return errors


def deals(table: TableContext) -> int | None:
    return len(schedule_sizes(table.options, table.n_players))


def cards(number: int, table: TableContext) -> int:
    """Hand k is played with the schedule's k-th size (past the last deal: the last size, for a page that asks)."""
    sizes = schedule_sizes(table.options, table.n_players)
    return sizes[min(number, len(sizes)) - 1]


def _per_seat(value: Any, ctx: HandContext, field: str, errors: dict) -> list[int] | None:
    n, total = ctx.n_players, ctx.cards
    if value is None:
        errors[field] = Msg("is missing: one number per player, from 0 to %(cards)d", cards=total)
        return None
    if isinstance(value, list) and len(value) == n and all(v is None or is_int(v) for v in value):
        missing = [s for s, v in enumerate(value) if v is None]
        if missing:
            names = ", ".join(_name(ctx, s) for s in missing)
            errors[field] = (
                Msg("no bid for %(players)s: each bids from 0 to %(cards)d", players=names, cards=total)
                if field == "bids"
                else Msg("no tricks for %(players)s: each took from 0 to %(cards)d", players=names, cards=total)
            )
            return None
    if not isinstance(value, list) or len(value) != n or not all(is_int(v) for v in value):
        errors[field] = Msg("must be %(n)d whole numbers, one per player in seat order", n=n)
        return None
    if not all(0 <= v <= total for v in value):
        errors[field] = Msg("each is from 0 to %(cards)d: %(cards)d cards were dealt", cards=total)
        return None
    return list(value)


def _name(ctx: HandContext, seat: int) -> str:
    """A player by name, or by seat where the table has no names."""
    name = ctx.players[seat] if seat < len(ctx.players) else None
    return name or str(seat + 1)


def _bids(value: Any, ctx: HandContext, errors: dict) -> list[int] | None:
    bids = _per_seat(value, ctx, "bids", errors)
    if bids is not None and ctx.options["hook"] and sum(bids) == ctx.cards:
        errors["bids"] = Msg(
            "add up to %(cards)d, the cards dealt: the dealer (bidding last) may not bid %(bid)d",
            cards=ctx.cards,
            bid=bids[ctx.dealer],
        )
        return None
    return bids


def check_bids(raw: Any, ctx: HandContext) -> dict[str, Any]:
    data = require_fields(raw, BID_FIELDS)
    errors: dict[str, str] = {}
    bids = _bids(data.get("bids"), ctx, errors)
    if errors or bids is None:
        raise InputError(errors)
    return {"bids": bids}


def check_hand(raw: Any, ctx: HandContext) -> dict[str, Any]:
    data = require_fields(raw, INPUT_FIELDS)
    errors: dict[str, str] = {}
    if "cards" in data and not (is_int(data["cards"]) and data["cards"] == ctx.cards):
        errors["cards"] = Msg("hand %(number)d is dealt %(cards)d cards each", number=ctx.number, cards=ctx.cards)
    bids = _bids(data.get("bids"), ctx, errors)
    tricks = _per_seat(data.get("tricks"), ctx, "tricks", errors)
    if tricks is not None and sum(tricks) != ctx.cards:
        errors["tricks"] = Msg(
            "must add up to %(cards)d, the cards dealt (got %(sum)d)", cards=ctx.cards, sum=sum(tricks)
        )
    if errors or bids is None or tricks is None:
        raise InputError(errors)
    return {"bids": bids, "tricks": tricks}


def made_points(bid: int, options: Mapping[str, Any], bonus_deal: bool = False) -> int:
    """What a bid scores made: bonus + bid; a zero `zero_bid`, or `bonus_round_zero` in the bonus round when set."""
    if bid:
        return options["bonus"] + bid
    if bonus_deal and options.get("bonus_round_zero") is not None:
        return options["bonus_round_zero"]
    return options["zero_bid"]


def seat_points(bid: int, tricks: int, options: Mapping[str, Any], bonus_deal: bool = False) -> int:
    """One player's points: an exact bid scores what it was worth (made_points), a miss by the `miss` rule."""
    if bid == tricks:
        return made_points(bid, options, bonus_deal)
    miss = options["miss"]
    if miss == "tricks":
        return tricks
    if miss == "minus_difference":
        return -abs(bid - tricks)
    if miss == "minus_made":
        return -made_points(bid, options, bonus_deal)
    return 0


def hand_points(inp: Mapping[str, Any], ctx: HandContext) -> tuple[int, ...]:
    bonus_deal = bonus_round(ctx.cards, ctx.n_players)
    return tuple(seat_points(b, t, ctx.options, bonus_deal) for b, t in zip(inp["bids"], inp["tricks"]))


def leader(inp: Mapping[str, Any], ctx: HandContext) -> int:
    """The dealer's left, or with `lead: highest_bid` the highest bidder (ties: the first from the dealer's left).
    Asked with the bids alone while the deal is in progress."""
    n = ctx.n_players
    order = [(ctx.dealer + k) % n for k in range(1, n + 1)]
    bids = inp.get("bids")
    if ctx.options["lead"] != "highest_bid" or not bids:
        return order[0]
    return max(order, key=lambda s: (bids[s], -order.index(s)))


def game_end(hand: ScoredHand, ctx: HandContext) -> tuple[bool, int | None]:
    """Over after the schedule's last deal; the highest total wins, equal highest is a draw."""
    if hand.number >= len(schedule_sizes(ctx.options, ctx.n_players)):
        return True, side_winner(hand.totals)
    return False, None
