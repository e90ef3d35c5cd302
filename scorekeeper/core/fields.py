"""Checks of a hand's fields that several variants share: known fields only, a seat, a trick count, two trick counts,
a contract entered before the play."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

from scorekeeper.core.messages import InputError, Msg
from scorekeeper.core.numbers import Point


def is_int(value: Any) -> TypeGuard[int]:
    """A whole number, and not a bool (True is an int to Python, never a seat or a count to a card table)."""
    return isinstance(value, int) and not isinstance(value, bool)


def require_fields(raw: Any, allowed: tuple[str, ...]) -> dict:
    """The hand input must be an object with only known fields."""
    if not isinstance(raw, Mapping):
        raise InputError({"input": Msg("a hand must be an object of fields")})
    unknown = [k for k in raw if k not in allowed]
    if unknown:
        raise InputError({str(k): Msg("unknown field (known: %(known)s)", known=", ".join(allowed)) for k in unknown})
    return dict(raw)


def passed_out(data: Mapping) -> bool:
    """Whether a hand's input says the deal was passed out (`"passed": true`), which then has no other field."""
    passed = data.get("passed", False)
    if not isinstance(passed, bool):
        raise InputError({"passed": Msg("must be true or false")})
    if passed:
        extra = [k for k in data if k != "passed"]
        if extra:
            raise InputError({k: Msg("a passed-out deal has no bid: leave it out") for k in extra})
    return passed


def contract_first(raw: Any, ctx: Any, fields: tuple[str, ...], contract: Callable[[dict, Any, dict], dict]) -> dict:
    """A variant's check_bids when its bids are the auction's contract (`fields`, checked by `contract(data, ctx,
    errors)` as its hands check them). A passed-out deal has no play: it is entered as a hand, in one tap."""
    if isinstance(raw, Mapping) and "passed" in raw:
        raise InputError({"passed": Msg("a passed-out deal has no play: it is entered as a hand, not as bids first")})
    data = require_fields(raw, fields)
    errors: dict[str, str] = {}
    out = contract(data, ctx, errors)
    if errors:
        raise InputError(errors)
    return out


def seat(value: Any, n: int, name: str, errors: dict) -> int | None:
    if value is None:
        errors[name] = Msg("is missing: choose a player")
        return None
    if not is_int(value) or not 0 <= value < n:
        errors[name] = Msg("must be a seat from 0 to %(last)d", last=n - 1)
        return None
    return value


def trick_pair(value: Any, total: int, errors: dict, name: str = "tricks") -> tuple[int, int] | None:
    """Two trick counts that add up to the deal's `total`."""
    if value is None:
        errors[name] = Msg("is missing: the tricks each side took, adding up to %(total)d", total=total)
        return None
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(is_int(v) for v in value):
        errors[name] = Msg("must be two whole numbers, one per side, adding up to %(total)d", total=total)
        return None
    a, b = value
    if not (0 <= a <= total and 0 <= b <= total):
        errors[name] = Msg("each side takes from 0 to %(total)d tricks", total=total)
        return None
    if a + b != total:
        errors[name] = Msg("must add up to %(total)d (got %(a)d + %(b)d = %(sum)d)", total=total, a=a, b=b, sum=a + b)
        return None
    return (a, b)


def trick_count(
    value: Any, errors: dict, missing: Callable[[], str], wrong: Callable[[], str], name: str = "tricks"
) -> int | None:
    """One trick count of a deal of 52 cards, from 0 to 13, or None with the variant's own message in `errors[name]`:
    `missing()` when there is none, `wrong()` when it is not a whole number in that range."""
    if value is None:
        errors[name] = missing()
        return None
    if not is_int(value) or not 0 <= value <= 13:
        errors[name] = wrong()
        return None
    return value


def side_winner(totals: tuple[Point, ...]) -> int | None:
    """The side with the single highest total, or None for a draw."""
    best = max(totals)
    leaders = [i for i, t in enumerate(totals) if t == best]
    return leaders[0] if len(leaders) == 1 else None
