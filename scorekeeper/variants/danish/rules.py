"""Danish es-makker whist: bids 7–13 with suffixes, four sol bids, a called ace for a partner; zero-sum points.

The hand checked and scored here; the sol bids and who goes with one are sol.py's, the house a game's options make
(tariff, preset, a house given whole) tariff.py's, both read through this module as the registry loads it."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from scorekeeper.core.fields import is_int, passed_out, require_fields, seat, trick_count
from scorekeeper.core.game import NO_TRUMP, SUITS, TRUMPS, BidResult, HandContext, TableContext
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.core.numbers import exact
from scorekeeper.core.options import Option, bool_option, choice_option, currency_option, int_option, rate_option
from scorekeeper.variants.danish import grid as danish_grid
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish.house import EXTRA_SUFFIXES, House
from scorekeeper.variants.danish.presets import PRESETS as PRESETS
from scorekeeper.variants.danish.sol import DEFAULT_SOLO_VALUES as DEFAULT_SOLO_VALUES
from scorekeeper.variants.danish.sol import SOLO_AFTER as SOLO_AFTER
from scorekeeper.variants.danish.sol import SOLO_ALIASES, SOLO_NAMES, check_joined, check_solo_values, check_with
from scorekeeper.variants.danish.sol import SOLO_BIDS as SOLO_BIDS
from scorekeeper.variants.danish.sol import SOLO_MAX_TRICKS as SOLO_MAX_TRICKS
from scorekeeper.variants.danish.sol import is_solo as is_solo
from scorekeeper.variants.danish.tariff import DEFAULT_TARIFF as DEFAULT_TARIFF
from scorekeeper.variants.danish.tariff import TARIFF_PRESETS as TARIFF_PRESETS
from scorekeeper.variants.danish.tariff import build_house as build_house
from scorekeeper.variants.danish.tariff import check_options as check_options
from scorekeeper.variants.danish.tariff import check_preset, check_tariff
from scorekeeper.variants.danish.tariff import house_dict as house_dict
from scorekeeper.variants.danish.tariff import preset_house as preset_house
from scorekeeper.variants.danish.tariff import preset_of_house as preset_of_house
from scorekeeper.variants.danish.tariff import resolve_options as resolve_options
from scorekeeper.variants.danish.tariff import shorthands_of as shorthands_of

NAME = "danish"
ORDER = 30
TITLE = Msg("Danish whist")
DESCRIPTION = Msg("Es-makker whist: bid 7–13 or a sol, call an ace for a partner; points add up to zero.")
PLAYER_COUNTS = (4, 5)
ZERO_SUM = True
FOR_MONEY = True
BID_FIELDS = ("bidder", "bid", "suffix", "trump", "ace", "partner", "with")
INPUT_FIELDS = ("passed", "iron_hand", "bidder", "bid", "suffix", "trump", "partner", "tricks", "with", "ace")

SUFFIXES = ("plain", "vip", "gode", "sans", "halve")
# The trump a suffix fixes (None: the bidder or partner chooses a suit; vip: the widow, a suit or none).
SUFFIX_TRUMP = {"gode": "clubs", "sans": NO_TRUMP, "staerke": "spades"}
VIP_SUFFIXES = ("vip", "vip2", "vip3")

OPTIONS = {
    "tariff": Option(
        list(DEFAULT_TARIFF),
        check_tariff,
        Msg("Base value of a made bid of 7, 8 … 13; each trick over the bid adds it again."),
        "int_list",
    ),
    "lost": choice_option(
        "flat",
        ("flat", "per_trick"),
        Msg("A lost bid pays twice the tariff (once), or twice the tariff for each missing trick."),
    ),
    "solo_values": Option(
        dict(DEFAULT_SOLO_VALUES),
        check_solo_values,
        Msg("What each of the three others pays for a made sol bid (twice that when it is lost)."),
        "int_map",
        SOLO_BIDS,
    ),
    "preset": Option(
        None,
        check_preset,
        Msg(
            "A named tariff; the tariff, lost bid and sol values above (when given) and the table's own tariff go over it."
        ),
        "preset",
        tuple(PRESETS),
    ),
    "house": Option(
        None,
        lambda value: None if value is None else model.check_house(value),
        Msg(
            "A tariff of the table's own as data (RULES.md); what it gives replaces what the preset and the options "
            "above build."
        ),
        "json",
    ),
    "card_names": Option(
        None,
        lambda value: danish_grid.check_names(value),  # late: grid.py may be the module being imported
        Msg(
            "The club's own words on its card: its columns (a heading and the suffixes each covers) and the names of "
            "its sol bids; every page, button and sheet uses them."
        ),
        "json",
    ),
    "iron_hand": bool_option(
        False, Msg("Jernhånd: a player with no picture cards, aces or jokers may ask for a new deal (0 for all).")
    ),
    "rate": rate_option(0.05, Msg("Money per point (kroner per point) for the settlement.")),
    "currency": currency_option("DKK", home=True),
    "deals": int_option(
        None,
        1,
        1000,
        Msg("End the evening after this many hands, or none (a multiple of the players lets all deal equally often)."),
        allow_none=True,
    ),
}


# The houses parsed last, by the identity of the options they were parsed from: a game's options are one mapping for
# as long as its protokoll is kept (Setup → every TableContext and HandContext), so a hand checked and scored takes its
# house from here instead of serialising it again (a sorted json.dumps, half the Danish scoring of a hand). Options are
# never changed in place; a new mapping (another game, another version read from the file) is parsed anew. The entry
# holds the mapping, so its id cannot be reused while it is kept; at most HOUSES_KEPT, then they start over.
HOUSES_KEPT = 512
_houses: dict[int, tuple[Mapping[str, Any], Any, House]] = {}


def house_of(options: Mapping[str, Any]) -> House:
    """The house a game scores by, also for options stored before `house` existed; parsed once per options mapping."""
    given = options.get("house")
    kept = _houses.get(id(options))
    if kept is not None and kept[0] is options and kept[1] is given:
        return kept[2]
    house = model.parse(house_dict(options))
    if len(_houses) >= HOUSES_KEPT:
        _houses.clear()
    _houses[id(options)] = (options, given, house)
    return house


def ladder(house: House | None = None) -> list[tuple]:
    """Every bid from lowest to highest as (bid, suffix); sol bids have suffix None. With a house: only what it lets
    a table bid, the club suffixes it has (vip2, vip3, staerke) after halve."""
    suffixes = [s for s in SUFFIXES + EXTRA_SUFFIXES if s in (house.suffixes if house else SUFFIXES)]
    bids: list[tuple] = []
    for n in range(7, 14):
        if house is None or n in house.levels:
            bids += [(n, "plain")] if "plain" in suffixes else []
        bids += [(s, None) for s, after in SOLO_AFTER.items() if after == n and (house is None or s in house.sol)]
        if house is None or n in house.levels:
            bids += [(n, suffix) for suffix in suffixes if suffix != "plain"]
    return bids


def bid_value(inp, options) -> tuple[int | Fraction, bool]:
    """The value of a hand's bid for the bidder's side (per player: a sol's V, a trick bid's X as a size) and whether
    it was made."""
    house = house_of(options)
    bid, tricks = inp["bid"], inp["tricks"]
    if is_solo(bid):
        return house.sol_value(bid, tricks)
    value = house.trick_value(bid, inp.get("suffix") or "plain", tricks)
    return (-value if value < 0 else value), tricks >= bid


def _iron_hand(data: dict, ctx: HandContext) -> dict[str, Any]:
    errors: dict = {}
    if not ctx.options.get("iron_hand"):
        raise InputError({"iron_hand": Msg("this game is played without jernhånd (option iron_hand)")})
    extra = [k for k in data if k != "iron_hand"]
    if extra:
        raise InputError({k: Msg("a jernhånd is a new deal with no bid: leave it out") for k in extra})
    asker = seat(data["iron_hand"], ctx.n_players, "iron_hand", errors)
    if asker is not None and asker == ctx.sitting_out:
        errors["iron_hand"] = Msg("the dealer sits out this hand and holds no cards")
    if errors:
        raise InputError(errors)
    return {"iron_hand": asker}


def _contract(data: dict, ctx: HandContext, errors: dict, played: bool) -> dict[str, Any]:
    """The bidder, the bid and what goes with it (suffix, trump, the called ace, the partner or the gå med players),
    checked in the hand's place; errors by field. Before the play (`played` false) the trump and the partner may be
    missing and the gå med players have no tricks yet."""
    n, sitting_out = ctx.n_players, ctx.sitting_out
    playing = list(ctx.playing)
    house = house_of(ctx.options)
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
    elif (is_solo(bid) and bid not in house.sol) or (not is_solo(bid) and bid not in house.levels):
        errors["bid"] = Msg("this house's tariff has no bid %(bid)s", bid=SOLO_NAMES[bid] if is_solo(bid) else str(bid))
        bid = None

    out: dict = {"bidder": bidder, "bid": bid}
    ace = data.get("ace")
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
        if ace is not None:
            errors["ace"] = Msg("a %(bid)s calls no ace: leave it out", bid=SOLO_NAMES[bid])
        if data.get("with") is not None:
            if played:
                joined = check_with(data["with"], house, bid, bidder, data.get("tricks"), playing, n, errors)
            else:
                joined = check_joined(data["with"], house, bid, bidder, playing, n, errors)
            if joined:
                out["with"] = joined
    elif bid is not None:
        if data.get("with") is not None:
            errors["with"] = Msg("only a sol bid can be played by several (gå med): leave it out")
        suffix = data.get("suffix")
        suffix = "plain" if suffix is None else suffix  # left out (or null): plain, as API.md says; "" is no suffix
        if suffix not in SUFFIXES + EXTRA_SUFFIXES or suffix not in house.suffixes:
            errors["suffix"] = Msg(
                "must be one of %(choices)s",
                choices=", ".join(s for s in SUFFIXES + EXTRA_SUFFIXES if s in house.suffixes),
            )
            suffix = None
        trump = data.get("trump")
        if suffix in SUFFIX_TRUMP:
            trump = SUFFIX_TRUMP[suffix] if trump is None else trump
            if trump != SUFFIX_TRUMP[suffix]:
                errors["trump"] = {
                    "gode": Msg("in a gode bid clubs are trump"),
                    "sans": Msg("a sans bid is played without trump"),
                    "staerke": Msg("in a stærke bid spades are trump"),
                }[suffix]
        elif suffix in ("plain", "halve"):
            if trump is None:
                if played:
                    errors["trump"] = Msg("is missing: choose the trump suit")
            elif trump not in SUITS:
                errors["trump"] = (
                    Msg("only a vip or sans bid is played without trump")
                    if trump == NO_TRUMP
                    else Msg("must be a suit: %(choices)s", choices=", ".join(SUITS))
                )
        elif suffix in VIP_SUFFIXES:
            if trump is None:
                if played:
                    errors["trump"] = Msg("is missing: the suit the widow turned up, or none for a joker")
            elif trump not in TRUMPS:
                errors["trump"] = Msg("must be one of %(choices)s", choices=", ".join(TRUMPS))
        if ace is not None and ace not in SUITS:
            errors["ace"] = Msg("must be the suit of the called ace: %(choices)s", choices=", ".join(SUITS))
        partner = data.get("partner")
        if partner is None:
            if played:
                errors["partner"] = Msg("is missing: who held the called ace (the bidder itself when selvmakker)")
        else:
            partner = seat(partner, n, "partner", errors)
            if partner is not None and partner == sitting_out:
                errors["partner"] = Msg("the dealer sits out this hand and cannot be partner")
        out.update(suffix=suffix, trump=trump, partner=partner)
        if ace is not None:
            out["ace"] = ace
        if not played:  # what is not known yet is left out
            out = {k: v for k, v in out.items() if v is not None}
    return out


def check_hand(raw: Any, ctx: HandContext) -> dict[str, Any]:
    data = require_fields(raw, INPUT_FIELDS)
    if passed_out(data):
        return {"passed": True}
    if "iron_hand" in data:
        return _iron_hand(data, ctx)
    errors: dict = {}
    out = _contract(data, ctx, errors, played=True)
    tricks = trick_count(
        data.get("tricks"),
        errors,
        lambda: (
            Msg("is missing: how many tricks the bidder took")
            if is_solo(out["bid"])
            else Msg("is missing: how many tricks bidder and partner took together")
        ),
        lambda: Msg("must be a whole number from 0 to 13"),
    )
    if errors:
        raise InputError(errors)
    out["tricks"] = tricks
    return out


def check_bids(raw: Any, ctx: HandContext) -> dict[str, Any]:
    """The contract before the play, checked as the hand's fields are; the trump and the partner may still be missing.
    A passed-out deal and a jernhånd have no play: they are entered as hands."""
    if isinstance(raw, Mapping):
        for key, message in (
            ("passed", Msg("a passed-out deal has no play: it is entered as a hand, not as bids first")),
            ("iron_hand", Msg("a jernhånd is a new deal with no play: it is entered as a hand, not as bids first")),
            ("tricks", Msg("the tricks are entered with the hand, once the deal is played")),
        ):
            if key in raw:
                raise InputError({key: message})
    data = require_fields(raw, BID_FIELDS)
    errors: dict = {}
    out = _contract(data, ctx, errors, played=False)
    if errors:
        raise InputError(errors)
    return out


def hand_points(inp: Mapping[str, Any], ctx: HandContext) -> tuple[int | Fraction, ...]:
    n = ctx.n_players
    points: list[int | Fraction] = [0] * n
    if inp.get("passed") or "iron_hand" in inp:
        return tuple(points)
    playing = list(ctx.playing)
    house = house_of(ctx.options)
    bidder = inp["bidder"]
    if is_solo(inp["bid"]):
        players = [(bidder, inp["tricks"])] + [(w["seat"], w["tricks"]) for w in inp.get("with", ())]
        return tuple(model.sol_points(house, inp["bid"], players, playing, n))
    value = house.trick_value(inp["bid"], inp["suffix"], inp["tricks"])
    if inp["partner"] == bidder:
        value = house.selvmakker(value)
        team = {bidder}
    else:
        team = {bidder, inp["partner"]}
    for s in playing:
        points[s] = value if s in team else -value
    if len(team) == 1:
        points[bidder] = value * (len(playing) - 1)
    return tuple(map(exact, points))


def bid_result(inp: Mapping[str, Any], table: TableContext) -> BidResult | None:
    if not inp or inp.get("passed") or "iron_hand" in inp:
        return None
    made = bid_value(inp, table.options)[1]
    if is_solo(inp["bid"]):
        return BidResult(inp["bidder"], made, alone=True)
    return BidResult(inp["bidder"], made, partner=inp["partner"])


def sits_out(number: int, table: TableContext) -> int | None:
    """Five at the table: the dealer sits out."""
    return table.dealer_of(number) if table.n_players == 5 else None


def tariff_matrix(options) -> dict:
    """The bid × tricks table a table keeps score by on paper, computed by the same rule as every hand.

    `bids` maps each bid of the house to 14 values, one per number of tricks 0..13, for a plain bid: what bidder and
    partner each receive (made) or pay (negative, lost). `rows` holds (bid, suffix, the 14 values) for every bid of
    the house's ladder. `sol` maps each sol bid to (V made with max_tricks, V lost with one trick more); `sol_rows`
    holds (sol bid, 14 values of V: positive made, negative lost). `selvmakker` maps each X to Q where the factor is
    not 1. `gaa_med` is the house's gå med rule, `sol_gaa_med` each sol bid's (its own, else the house's).
    """
    house = house_of(options)
    rows = [
        (bid, suffix, tuple(house.trick_value(bid, suffix, t) for t in range(14)))
        for bid, suffix in ladder(house)
        if suffix is not None
    ]
    sol_rows = []
    for bid in SOLO_BIDS:
        if bid in house.sol:
            values = (house.sol_value(bid, t) for t in range(14))
            sol_rows.append((bid, tuple(v if made else -v for v, made in values)))
    return {
        "bids": {bid: values for bid, suffix, values in rows if suffix == "plain"},
        "rows": rows,
        "sol": {
            bid: (
                house.sol_value(bid, house.sol[bid].max_tricks)[0],
                house.sol_value(bid, house.sol[bid].max_tricks + 1)[0],
            )
            for bid in SOLO_BIDS
            if bid in house.sol
        },
        "sol_rows": sol_rows,
        "gaa_med": house.gaa_med,
        "sol_gaa_med": {bid: house.gaa_med_of(bid) for bid in SOLO_BIDS if bid in house.sol},
    }
