"""Danish es-makker whist: bids 7–13 with suffixes, four sol bids, a called ace for a partner; zero-sum points."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeGuard

from scorekeeper.core.base import (
    NO_TRUMP,
    SUITS,
    TRUMPS,
    HandContext,
    InputError,
    Msg,
    Option,
    Protokoll,
    Setup,
    choice_option,
    currency_option,
    int_option,
    is_int,
    rate_option,
    replay,
    require_fields,
    seat,
    side_winner,
)

NAME = "danish"
TITLE = Msg("Danish whist")
DESCRIPTION = Msg("Es-makker whist: bid 7–13 or a sol, call an ace for a partner; points add up to zero.")
PLAYER_COUNTS = (4, 5)
ZERO_SUM = True
INPUT_FIELDS = ("passed", "bidder", "bid", "suffix", "trump", "partner", "tricks")

SUFFIXES = ("plain", "vip", "gode", "sans", "halve")
SOLO_BIDS = ("sol", "ren_sol", "bordlaegger", "ren_bordlaegger")
SOLO_MAX_TRICKS = {"sol": 1, "ren_sol": 0, "bordlaegger": 1, "ren_bordlaegger": 0}
SOLO_NAMES = {"sol": "sol", "ren_sol": "ren sol", "bordlaegger": "bordlægger", "ren_bordlaegger": "ren bordlægger"}
SOLO_ALIASES = {
    "ren sol": "ren_sol",
    "bordlægger": "bordlaegger",
    "ren bordlægger": "ren_bordlaegger",
    "ren_bordlægger": "ren_bordlaegger",
}
# Each sol bid sits just above the plain bid of this many tricks in the ladder.
SOLO_AFTER = {"sol": 9, "ren_sol": 10, "bordlaegger": 11, "ren_bordlaegger": 12}

DEFAULT_TARIFF = (10, 20, 40, 80, 160, 320, 640)
DEFAULT_SOLO_VALUES = {"sol": 50, "ren_sol": 100, "bordlaegger": 150, "ren_bordlaegger": 200}

# Presets a table or club can pick; the values are data, not code.
TARIFF_PRESETS = {
    "standard": {"tariff": list(DEFAULT_TARIFF), "lost": "flat", "solo_values": dict(DEFAULT_SOLO_VALUES)},
    "per_trick": {"tariff": list(DEFAULT_TARIFF), "lost": "per_trick", "solo_values": dict(DEFAULT_SOLO_VALUES)},
    "double_sol": {
        "tariff": list(DEFAULT_TARIFF),
        "lost": "flat",
        "solo_values": {"sol": 50, "ren_sol": 100, "bordlaegger": 200, "ren_bordlaegger": 400},
    },
}


def _check_tariff(value):
    if not isinstance(value, (list, tuple)) or len(value) != 7 or not all(is_int(v) for v in value):
        raise ValueError(Msg("must be 7 whole numbers: the base value of bids 7, 8, 9, 10, 11, 12 and 13"))
    if not all(1 <= v <= 1_000_000 for v in value):
        raise ValueError(Msg("each value must be from 1 to 1000000"))
    return list(value)


def _check_solo_values(value):
    if not isinstance(value, Mapping):
        raise ValueError(Msg("must be an object with the values of %(bids)s", bids=", ".join(SOLO_BIDS)))
    unknown = [k for k in value if k not in SOLO_BIDS]
    if unknown:
        raise ValueError(
            Msg(
                "unknown sol bid %(bid)s (known: %(known)s)",
                bid=", ".join(map(str, unknown)),
                known=", ".join(SOLO_BIDS),
            )
        )
    merged = dict(DEFAULT_SOLO_VALUES)
    for key, v in value.items():
        if not is_int(v) or not 1 <= v <= 1_000_000:
            raise ValueError(Msg("%(bid)s must be a whole number from 1 to 1000000", bid=key))
        merged[key] = v
    return merged


OPTIONS = {
    "tariff": Option(
        list(DEFAULT_TARIFF),
        _check_tariff,
        Msg("Base value of a made bid of 7, 8 … 13; each trick over the bid adds it again."),
        "tariff",
    ),
    "lost": choice_option(
        "flat",
        ("flat", "per_trick"),
        Msg("flat: a lost bid pays twice its base value; per_trick: twice the base value per missing trick."),
    ),
    "solo_values": Option(
        dict(DEFAULT_SOLO_VALUES),
        _check_solo_values,
        Msg("What each of the three others pays for a made sol bid (twice that when it is lost)."),
        "solo_values",
    ),
    "rate": rate_option(0.05, Msg("Money per point (kroner per point) for the settlement.")),
    "currency": currency_option("DKK"),
    "deals": int_option(
        None,
        1,
        1000,
        Msg("End the evening after this many hands (a multiple of the players, so all deal equally often), or none."),
        allow_none=True,
    ),
}


def sides(n: int = 4) -> tuple[tuple[int, ...], ...]:
    return tuple((i,) for i in range(n))


def check_options(options: Mapping[str, Any]) -> dict[str, str]:
    return {}


def is_solo(bid: Any) -> TypeGuard[str]:
    return bid in SOLO_BIDS


def ladder() -> list[tuple]:
    """Every bid from lowest to highest as (bid, suffix); sol bids have suffix None."""
    bids: list[tuple] = []
    for n in range(7, 14):
        for suffix in SUFFIXES:
            bids.append((n, suffix))
            if suffix == "plain":
                bids += [(s, None) for s, after in SOLO_AFTER.items() if after == n]
    return bids


def bid_value(inp, options) -> tuple[int, bool]:
    """The value of a hand's bid and whether it was made."""
    bid, tricks = inp["bid"], inp["tricks"]
    if is_solo(bid):
        return options["solo_values"][bid], tricks <= SOLO_MAX_TRICKS[bid]
    base = options["tariff"][bid - 7]
    if tricks >= bid:
        value, made = base * (1 + tricks - bid), True
    elif options["lost"] == "per_trick":
        value, made = 2 * base * (bid - tricks), False
    else:
        value, made = 2 * base, False
    if inp["suffix"] != "plain":
        value *= 2
    return value, made


def check_hand(raw: Any, ctx: HandContext) -> dict[str, Any]:
    data = require_fields(raw, INPUT_FIELDS)
    n, dealer = ctx.n_players, ctx.dealer
    sitting_out = dealer if n == 5 else None
    errors: dict = {}
    passed = data.get("passed", False)
    if not isinstance(passed, bool):
        raise InputError({"passed": Msg("must be true or false")})
    if passed:
        extra = [k for k in data if k != "passed"]
        if extra:
            raise InputError({k: Msg("a passed-out deal has no bid: leave it out") for k in extra})
        return {"passed": True}

    bidder = seat(data.get("bidder"), n, "bidder", errors)
    if bidder is not None and bidder == sitting_out:
        errors["bidder"] = Msg("the dealer sits out this hand and cannot bid")

    bid = data.get("bid")
    if isinstance(bid, str):
        bid = SOLO_ALIASES.get(bid, bid)
    if bid is None:
        errors["bid"] = Msg("is missing: a number of tricks from 7 to 13, or a sol bid")
    elif not ((is_int(bid) and 7 <= bid <= 13) or bid in SOLO_BIDS):
        errors["bid"] = Msg("must be 7 to 13 tricks or one of %(bids)s", bids=", ".join(SOLO_BIDS))
        bid = None

    tricks = data.get("tricks")
    if tricks is None:
        errors["tricks"] = (
            Msg("is missing: how many tricks the bidder took")
            if is_solo(bid)
            else Msg("is missing: how many tricks bidder and partner took together")
        )
    elif not is_int(tricks) or not 0 <= tricks <= 13:
        errors["tricks"] = Msg("must be a whole number from 0 to 13")

    out: dict = {"bidder": bidder, "bid": bid}
    if bid is not None and is_solo(bid):
        for key in ("suffix", "partner"):
            if data.get(key) is not None:
                errors[key] = (
                    Msg("a %(bid)s is played alone with no partner: leave it out", bid=SOLO_NAMES[bid])
                    if key == "partner"
                    else Msg("a %(bid)s has no suffix: leave it out", bid=SOLO_NAMES[bid])
                )
        if data.get("trump") not in (None, NO_TRUMP):
            errors["trump"] = Msg("a %(bid)s is played without trump", bid=SOLO_NAMES[bid])
    elif bid is not None:
        suffix = data.get("suffix", "plain") or "plain"
        if suffix not in SUFFIXES:
            errors["suffix"] = Msg("must be one of %(choices)s", choices=", ".join(SUFFIXES))
            suffix = None
        trump = data.get("trump")
        if suffix == "gode":
            trump = "clubs" if trump is None else trump
            if trump != "clubs":
                errors["trump"] = Msg("in a gode bid clubs are trump")
        elif suffix == "sans":
            trump = NO_TRUMP if trump is None else trump
            if trump != NO_TRUMP:
                errors["trump"] = Msg("a sans bid is played without trump")
        elif suffix in ("plain", "halve"):
            if trump is None:
                errors["trump"] = Msg("is missing: choose the trump suit")
            elif trump not in SUITS:
                errors["trump"] = (
                    Msg("only a vip or sans bid is played without trump")
                    if trump == NO_TRUMP
                    else Msg("must be a suit: %(choices)s", choices=", ".join(SUITS))
                )
        elif suffix == "vip":
            if trump is None:
                errors["trump"] = Msg("is missing: the suit the widow turned up, or none for a joker")
            elif trump not in TRUMPS:
                errors["trump"] = Msg("must be one of %(choices)s", choices=", ".join(TRUMPS))
        partner = data.get("partner")
        if partner is None:
            errors["partner"] = Msg("is missing: who held the called ace (the bidder itself when selvmakker)")
        else:
            partner = seat(partner, n, "partner", errors)
            if partner is not None and partner == sitting_out:
                errors["partner"] = Msg("the dealer sits out this hand and cannot be partner")
        out.update(suffix=suffix, trump=trump, partner=partner)
    if errors:
        raise InputError(errors)
    out["tricks"] = tricks
    return out


def hand_points(inp: Mapping[str, Any], ctx: HandContext) -> tuple[int, ...]:
    n = ctx.n_players
    points = [0] * n
    if inp.get("passed"):
        return tuple(points)
    playing = [s for s in range(n) if not (n == 5 and s == ctx.dealer)]
    value, made = bid_value(inp, ctx.options)
    bidder = inp["bidder"]
    if is_solo(inp["bid"]):
        per_opponent = value if made else -2 * value
        team = {bidder}
    else:
        per_opponent = value if made else -value
        team = {bidder, inp["partner"]}
    for s in playing:
        if s not in team:
            points[s] = -per_opponent
    # The bidder's side takes what the opponents pay, shared equally (selvmakker and sol: the bidder alone).
    paid = per_opponent * (len(playing) - len(team))
    for s in team:
        points[s] = paid // len(team)
    return tuple(points)


def leader(inp: Mapping[str, Any], ctx: HandContext) -> int:
    return (ctx.dealer + 1) % ctx.n_players


def sits_out(ctx: HandContext) -> int | None:
    return ctx.dealer if ctx.n_players == 5 else None


def game_end(totals: tuple[int, ...], number: int, options: Mapping[str, Any]) -> tuple[bool, int | None]:
    deals = options.get("deals")
    if deals and number >= deals:
        return True, side_winner(totals)
    return False, None


def play(setup: Setup, inputs: Iterable[Any], start: Protokoll | None = None) -> Protokoll:
    return replay(
        setup,
        inputs,
        sides=sides(setup.n),
        check_hand=check_hand,
        hand_points=hand_points,
        leader=leader,
        game_end=game_end,
        sits_out=sits_out,
        start=start,
    )


def tariff_matrix(options) -> dict:
    """The bid × tricks table a table keeps score by on paper, computed by the same rule as every hand.

    `bids` maps each bid 7..13 to 14 values, one per number of tricks 0..13, for a plain bid: what bidder and
    partner each receive (made) or pay (negative, lost); any suffix doubles them. `sol` maps each sol bid to
    (what each of the three others pays when it is made, what the bidder pays each of them when it is lost).
    """
    bids = {
        bid: tuple(
            value if made else -value
            for value, made in (bid_value({"bid": bid, "suffix": "plain", "tricks": t}, options) for t in range(14))
        )
        for bid in range(7, 14)
    }
    sol = {bid: (options["solo_values"][bid], 2 * options["solo_values"][bid]) for bid in SOLO_BIDS}
    return {"bids": bids, "sol": sol}
