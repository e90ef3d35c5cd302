"""Solo whist: four players alone, alliances change every hand; seven contracts from prop and cop to abundance
declared, each worth so many units; points add up to zero (RULES.md "solo")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core.fields import contract_first, is_int, passed_out, require_fields, seat, trick_count
from scorekeeper.core.game import BidResult, HandContext, TableContext
from scorekeeper.core.messages import Choices, InputError, Msg
from scorekeeper.core.options import Option, choice_option, currency_option, int_option, rate_option
from scorekeeper.core.value_maps import check_value_map

NAME = "solo"
ORDER = 60
TITLE = Msg("Solo whist")
DESCRIPTION = Msg("Four players alone: prop and cop, solo, misère, abundance; every hand adds up to zero.")
PLAYER_COUNTS = (4,)
ZERO_SUM = True
FOR_MONEY = True
# The auction's outcome (the contract, who bid it, a prop's partner): a table may enter it before the play (a deal in
# progress, every phone's protokoll shows it) and the tricks after.
BID_FIELDS = ("bid", "bidder", "partner")
INPUT_FIELDS = ("passed", *BID_FIELDS, "tricks")

# The contracts, lowest to highest: the ladder the form lists.
BIDS = ("prop", "solo", "misere", "abundance", "royal_abundance", "misere_ouverte", "abundance_declared")
# The tricks the declaring side must take; a misère is made only with none.
NEEDS = {
    "prop": 8,
    "solo": 5,
    "misere": 0,
    "abundance": 9,
    "royal_abundance": 9,
    "misere_ouverte": 0,
    "abundance_declared": 13,
}
MISERES = ("misere", "misere_ouverte")
# Over- and undertricks count only in these.
WITH_OVERTRICKS = ("prop", "solo", "abundance", "royal_abundance")
DEFAULT_VALUES = {
    "prop": 1,
    "solo": 1,
    "misere": 2,
    "abundance": 3,
    "royal_abundance": 3,
    "misere_ouverte": 4,
    "abundance_declared": 6,
}
VALUE_MAX = 1000
TRICK_MAX = 100


def _check_values(value: Any) -> dict[str, int]:
    """A mapping of some of the seven bids to units; the bids left out keep their defaults."""
    return check_value_map(
        value,
        DEFAULT_VALUES,
        1,
        VALUE_MAX,
        lambda: Msg("must be an object with the values of %(bids)s", bids=", ".join(BIDS)),
        lambda unknown: Msg("unknown contract %(bid)s (known: %(known)s)", bid=unknown, known=", ".join(BIDS)),
        lambda bid: Msg("%(bid)s must be a whole number from 1 to %(high)d", bid=bid, high=VALUE_MAX),
    )


def _trick_rate(allow_none: bool):
    """Units per over- or undertrick: one whole number for every contract that counts them, or a mapping of prop, solo,
    abundance and royal abundance to their own (those left out: 0); for undertricks also none (as overtricks)."""

    def check(value: Any) -> Any:
        if value is None and allow_none:
            return None
        if is_int(value):
            if not 0 <= value <= TRICK_MAX:
                raise ValueError(
                    Msg("must be from %(low)d to %(high)d, not %(value)d", low=0, high=TRICK_MAX, value=value)
                )
            return value
        if not isinstance(value, Mapping):
            raise ValueError(
                Msg(
                    "must be a whole number from 0 to %(high)d, or one for each of %(bids)s",
                    high=TRICK_MAX,
                    bids=Choices(WITH_OVERTRICKS, NAME),
                )
            )
        unknown = [str(k) for k in value if k not in WITH_OVERTRICKS]
        if unknown:
            raise ValueError(
                Msg(
                    "over- and undertricks count only in %(known)s, not %(bid)s",
                    known=Choices(WITH_OVERTRICKS, NAME),
                    bid=Choices(tuple(unknown), NAME),
                )
            )
        for key, v in value.items():
            if not is_int(v) or not 0 <= v <= TRICK_MAX:
                raise ValueError(
                    Msg(
                        "%(bid)s must be a whole number from 0 to %(high)d",
                        bid=Choices((key,), NAME),
                        high=TRICK_MAX,
                    )
                )
        return {bid: value.get(bid, 0) for bid in WITH_OVERTRICKS}

    return check


def per_trick(rate: Any, bid: str) -> int:
    """The units a trick over or under is worth in `bid`: the number, or the contract's own in a mapping."""
    if isinstance(rate, Mapping):
        return rate.get(bid, 0)
    return rate or 0


OPTIONS = {
    "values": Option(
        dict(DEFAULT_VALUES),
        _check_values,
        Msg(
            "The units each contract is worth (prop 1, solo 1, misère 2, abundance 3, royal abundance 3, "
            "misère ouverte 4, abundance declared 6)."
        ),
        "int_map",
        BIDS,
    ),
    "overtricks": Option(
        0,
        _trick_rate(False),
        Msg(
            "Units per trick over the contract when made, or short of it when lost (prop, solo, abundance): one "
            "number, or four for prop, solo, abundance and royal abundance (Culbertson's Hoyle: 1, 3, 3, 3)."
        ),
        "int_or_map",
        WITH_OVERTRICKS,
        0,
        TRICK_MAX,
    ),
    "undertricks": Option(
        None,
        _trick_rate(True),
        Msg(
            "Units per trick short of the contract, when an undertrick costs other than an overtrick gains (pagat's "
            "Solo Whist: 1): one number, or four as for overtricks; empty: as overtricks."
        ),
        "int_or_map",
        WITH_OVERTRICKS,
        0,
        TRICK_MAX,
    ),
    "prop_slam": choice_option(
        "single",
        ("single", "double"),
        Msg(
            "A prop and cop that takes all thirteen tricks: its overtricks paid once, or twice "
            "(Hoyle's Games Modernized)."
        ),
    ),
    "prop_undertricks": choice_option(
        "all",
        ("all", "first_free"),
        Msg(
            "A lost prop and cop pays every undertrick, or none for the first trick short "
            "(German Wikipedia's Solo Whist)."
        ),
    ),
    "deals": int_option(
        None,
        1,
        200,
        Msg("End the game after this many deals, or none (each deal is settled on its own)."),
        allow_none=True,
    ),
    "rate": rate_option(None, Msg("Money per unit for the settlement, or none.")),
    "currency": currency_option("SEK"),
}


def made(inp: Mapping[str, Any]) -> bool:
    bid, tricks = inp["bid"], inp["tricks"]
    return tricks == 0 if bid in MISERES else tricks >= NEEDS[bid]


def payment(inp: Mapping[str, Any], options: Mapping[str, Any]) -> int:
    """P: the contract's units, and the over- or undertricks where they count (a prop's slam doubled, its first
    undertrick free, by the house rules)."""
    bid, tricks = inp["bid"], inp["tricks"]
    units = options.get("values") or DEFAULT_VALUES
    value = units.get(bid, DEFAULT_VALUES[bid])
    if bid not in WITH_OVERTRICKS:
        return value
    over = per_trick(options.get("overtricks", 0), bid)
    extra = tricks - NEEDS[bid]
    if extra >= 0:
        double = bid == "prop" and tricks == 13 and options.get("prop_slam") == "double"
        return value + over * extra * (2 if double else 1)
    under = options.get("undertricks")
    short = -extra - (1 if bid == "prop" and options.get("prop_undertricks") == "first_free" else 0)
    return value + (over if under is None else per_trick(under, bid)) * short


def _contract(data: dict, ctx: HandContext, errors: dict) -> dict[str, Any]:
    """The contract, the bidder and a prop's partner, checked; errors by field."""
    bid = data.get("bid")
    if bid is None:
        errors["bid"] = Msg("is missing: one of %(bids)s", bids=Choices(BIDS, NAME))
    elif bid not in BIDS:
        errors["bid"] = Msg("must be one of %(bids)s", bids=Choices(BIDS, NAME))
        bid = None
    bidder = seat(data.get("bidder"), ctx.n_players, "bidder", errors)
    out: dict[str, Any] = {"bid": bid, "bidder": bidder}
    partner = data.get("partner")
    if bid == "prop":
        if partner is None:
            errors["partner"] = Msg("is missing: who accepted the proposal (cop)")
        else:
            partner = seat(partner, ctx.n_players, "partner", errors)
            if partner is not None and partner == bidder:
                errors["partner"] = Msg("the bidder cannot accept its own proposal: choose another player")
        out["partner"] = partner
    elif bid is not None and partner is not None:
        errors["partner"] = Msg("only a prop has a partner: leave it out")
    return out


def check_bids(raw: Any, ctx: HandContext) -> dict[str, Any]:
    """The contract before the play (a passed-out deal is entered as a hand)."""
    return contract_first(raw, ctx, BID_FIELDS, _contract)


def check_hand(raw: Any, ctx: HandContext) -> dict[str, Any]:
    data = require_fields(raw, INPUT_FIELDS)
    if passed_out(data):
        return {"passed": True}
    errors: dict[str, str] = {}
    out = _contract(data, ctx, errors)
    bid = out["bid"]
    tricks = trick_count(
        data.get("tricks"),
        errors,
        lambda: (
            Msg("is missing: the tricks bidder and partner took together")
            if bid == "prop"
            else Msg("is missing: the tricks the bidder took")
        ),
        lambda: Msg("must be a whole number from 0 to 13"),
    )
    if errors:
        raise InputError(errors)
    out["tricks"] = tricks
    return out


def hand_points(inp: Mapping[str, Any], ctx: HandContext) -> tuple[int, ...]:
    n = ctx.n_players
    if inp.get("passed"):
        return (0,) * n
    pay = payment(inp, ctx.options) * (1 if made(inp) else -1)
    bidder = inp["bidder"]
    if inp["bid"] == "prop":
        team = {bidder, inp["partner"]}
        return tuple(pay if s in team else -pay for s in range(n))
    return tuple(pay * (n - 1) if s == bidder else -pay for s in range(n))


def leader(inp: Mapping[str, Any], ctx: HandContext) -> int:
    """The dealer's left; the bidder leads an abundance declared."""
    if inp.get("bid") == "abundance_declared":
        return inp["bidder"]
    return (ctx.dealer + 1) % ctx.n_players


def bid_result(inp: Mapping[str, Any], table: TableContext) -> BidResult | None:
    if not inp or inp.get("passed"):
        return None
    if inp["bid"] == "prop":
        return BidResult(inp["bidder"], made(inp), partner=inp["partner"])
    return BidResult(inp["bidder"], made(inp), alone=True)
