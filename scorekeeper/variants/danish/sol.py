"""Danish whist's sol bids: their names and places in the ladder, what each is worth by default, and who may play one
along (gå med), checked before the play and with the tricks after it. What a sol scores is the house's
(variants/danish/house.py); the hand around it is checked by variants/danish/rules.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from scorekeeper.core.fields import is_int, seat, trick_count
from scorekeeper.core.messages import Msg
from scorekeeper.core.value_maps import check_value_map
from scorekeeper.variants.danish.house import House

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
DEFAULT_SOLO_VALUES = {"sol": 50, "ren_sol": 100, "bordlaegger": 150, "ren_bordlaegger": 200}


def check_solo_values(value: Any) -> dict[str, int]:
    """The option `solo_values`: some of the sol bids' values, those left out at their defaults."""
    return check_value_map(
        value,
        DEFAULT_SOLO_VALUES,
        1,
        1_000_000,
        lambda: Msg("must be an object with the values of %(bids)s", bids=", ".join(SOLO_BIDS)),
        lambda unknown: Msg("unknown sol bid %(bid)s (known: %(known)s)", bid=unknown, known=", ".join(SOLO_BIDS)),
        lambda bid: Msg("%(bid)s must be a whole number from 1 to 1000000", bid=bid),
    )


def is_solo(bid: Any) -> TypeGuard[str]:
    return bid in SOLO_BIDS


def _no_gaa_med(house: House, bid: str, errors: dict) -> bool:
    """A sol bid nobody may play along (its own rule null, or none of its own and the house's null): said by `with`."""
    if house.gaa_med_of(bid) is not None:
        return False
    if house.any_gaa_med:
        errors["with"] = Msg(
            "this card does not let others play the same %(bid)s (its gaa_med is null): leave it out",
            bid=SOLO_NAMES[bid],
        )
    else:
        errors["with"] = Msg("this house does not let others play the same sol (gaa_med is null): leave it out")
    return True


def check_with(value: Any, house: House, bid: str, bidder: Any, tricks: Any, playing: list[int], n: int, errors: dict):
    """The other players of a sol (gå med): [{"seat", "tricks"}, …], by the bid's own rule or the house's."""
    if _no_gaa_med(house, bid, errors):
        return None
    if not isinstance(value, list) or not value:
        errors["with"] = Msg('must be a list of {"seat": s, "tricks": t} for each other player of the sol')
        return None
    out: list[dict[str, Any]] = []
    seats = {bidder}
    for i, entry in enumerate(value):
        where = f"with.{i}"
        if not isinstance(entry, Mapping) or set(entry) - {"seat", "tricks"}:
            errors[where] = Msg('must be {"seat": s, "tricks": t}')
            continue
        s = seat(entry.get("seat"), n, f"{where}.seat", errors)
        t = trick_count(
            entry.get("tricks"),
            errors,
            lambda: Msg("is missing: how many tricks this other player of the sol took"),
            lambda: Msg("must be a whole number from 0 to 13"),
            f"{where}.tricks",
        )
        if s is None:
            continue
        if s not in playing:
            errors[f"{where}.seat"] = Msg("the dealer sits out this hand and cannot play a sol")
        elif s in seats:
            errors[f"{where}.seat"] = Msg("plays this sol already")
        seats.add(s)
        out.append({"seat": s, "tricks": t})
    if not errors and is_int(tricks) and tricks + sum(int(e["tricks"] or 0) for e in out) > 13:
        errors["with"] = Msg("the sol players took more than 13 tricks together")
    if not errors and house.gaa_med_of(bid) == "winners_pool" and len(seats) >= len(playing):
        errors["with"] = Msg(
            "in the winners' pool someone must play against the sol: at most %(n)d players", n=len(playing) - 1
        )
    return out


def check_joined(value: Any, house: House, bid: str, bidder: Any, playing: list[int], n: int, errors: dict):
    """The other players of a sol entered before the play: [{"seat": s}, …], their tricks to come."""
    if _no_gaa_med(house, bid, errors):
        return None
    if not isinstance(value, list) or not value:
        errors["with"] = Msg('must be a list of {"seat": s} for each other player of the sol')
        return None
    out: list[dict[str, Any]] = []
    seats = {bidder}
    for entry in value:
        if not isinstance(entry, Mapping) or set(entry) - {"seat"}:
            errors["with"] = Msg('must be a list of {"seat": s} before the play: the tricks come with the hand')
            return None
        s = seat(entry.get("seat"), n, "with", errors)
        if s is None:
            return None
        if s not in playing:
            errors["with"] = Msg("the dealer sits out this hand and cannot play a sol")
            return None
        if s in seats:
            errors["with"] = (
                Msg("the bidder plays this sol already: name only the others who go with it")
                if s == bidder
                else Msg("names a player twice: each other sol player once")
            )
            return None
        seats.add(s)
        out.append({"seat": s})
    if house.gaa_med_of(bid) == "winners_pool" and len(seats) >= len(playing):
        errors["with"] = Msg(
            "in the winners' pool someone must play against the sol: at most %(n)d players", n=len(playing) - 1
        )
        return None
    return out
