"""A Danish table's own tariff as data (option `house`): one model for every tariff found in use, exact arithmetic.

The house arrives as JSON (numbers as integers, decimals or fraction strings "1/2"); `check_house` refuses what does
not fit, naming the path inside it, and answers it normalised (whole numbers as ints, others as "p/q"). `parse` turns
a normalised house into Fractions (kept, as the same house scores every hand); the scoring functions follow RULES.md.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from scorekeeper.core.messages import Msg, OptionError
from scorekeeper.core.numbers import ascii_written, exact, read_number

LEVELS = tuple(str(n) for n in range(7, 14))
BASE_SUFFIXES = ("plain", "vip", "gode", "sans", "halve")
EXTRA_SUFFIXES = ("vip2", "vip3", "staerke")  # club rules: vip on the 2nd/3rd card turned; stærke, spades trump
SUFFIX_NAMES = BASE_SUFFIXES + EXTRA_SUFFIXES
SOL_BIDS = ("sol", "ren_sol", "bordlaegger", "ren_bordlaegger")
ROUNDINGS = ("half_away", "ceil", "floor", "trunc", "away", "none")  # none: exact points (RULES.md "Exact points")
GAA_MED = ("independent", "vs_non_participants", "winners_pool")
LEVEL_FIELDS = ("made", "over", "lost", "short")
SOL_FIELDS = ("max_tricks", "won", "lost", "won_per_under", "lost_per_over")
KEYS = ("levels", "suffixes", "overrides", "cells", "slam", "rounding", "selvmakker", "sol", "gaa_med")
SLAM_KEYS = ("made_factor", "lost_factor", "made_extra")
MONEY_MAX = 1_000_000
FACTOR_MAX = 100


# ---------------------------------------------------------------- numbers


def number(value: Any, path: str, high: int = MONEY_MAX, *, on_paper: bool = False) -> Fraction:
    """A number from 0 to `high` as a table writes it: an integer, a decimal, a fraction "p/q" or a mixed number
    "1 1/4"; exact, read by the one strict reader (ASCII digits, bounded before any arithmetic). `on_paper` (the
    pages) also reads what a card prints: "0,75", "¾", "1¼"."""
    if on_paper:
        wrong = Msg(
            "must be a number from 0 to %(high)d, written as on the card: 3, 0,75, 3/4, ¾, 1¼ or 1 1/4", high=high
        )
        if isinstance(value, str):
            value = ascii_written(value)
    else:
        wrong = Msg('must be a number from 0 to %(high)d (a whole number, a decimal or a fraction "1/2")', high=high)
    return read_number(value, path, high=high, fraction=True, messages={"shape": wrong})


def kept(value: Any) -> Fraction:
    """A number of a house that was checked and normalised (an int or "p/q"), as the house keeps it: no checks, so
    a game stored under older, looser rules still scores as it did."""
    if isinstance(value, str):
        top, _sep, bottom = value.partition("/")
        return Fraction(int(top), int(bottom or 1))
    return Fraction(value)


def shown(value: Fraction) -> int | str:
    """A number as the normalised house keeps it: an int when whole, else "p/q"."""
    return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def whole(value: Any, path: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OptionError(Msg("must be a whole number from %(low)d to %(high)d", low=low, high=high), path)
    return value


def rounded(value: Fraction, mode: str) -> int | Fraction:
    """`value` rounded by a house's rounding mode: half_away, ceil, floor, trunc (toward 0) or away (from 0); none
    keeps it exact (an int when whole)."""
    if mode == "none":
        return exact(value)
    if mode == "ceil":
        return math.ceil(value)
    if mode == "floor":
        return math.floor(value)
    if mode == "trunc":
        return math.trunc(value)
    sign = -1 if value < 0 else 1
    size = abs(value)
    return sign * (math.floor(size + Fraction(1, 2)) if mode == "half_away" else math.ceil(size))


# ---------------------------------------------------------------- checking


def _object(value: Any, path: str, allowed: tuple[str, ...] | None = None) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise OptionError(Msg("must be an object"), path)
    if allowed is not None:
        for key in value:
            if key not in allowed:
                raise OptionError(
                    Msg("unknown field (known: %(known)s)", known=", ".join(allowed)),
                    f"{path}.{key}" if path else str(key),
                )
    return value


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _fields(value: Any, path: str, names: tuple[str, ...], optional: Mapping[str, int], high: int) -> dict:
    given = _object(value, path, names)
    out: dict[str, Any] = {}
    for name in names:
        if name not in given:
            if name in optional:
                out[name] = optional[name]
                continue
            raise OptionError(Msg("is missing"), _join(path, name))
        out[name] = shown(number(given[name], _join(path, name), high))
    return out


def _level_key(key: str, path: str) -> str:
    if key not in LEVELS:
        raise OptionError(Msg("must be a bid from 7 to 13"), path)
    return key


def _bid_key(key: str, path: str) -> tuple[int, str]:
    level, _sep, suffix = key.partition("/")
    if level not in LEVELS or suffix not in SUFFIX_NAMES:
        raise OptionError(Msg('must be "bid/suffix", for instance "7/halve"'), path)
    return int(level), suffix


def _cell_key(key: str, path: str) -> str:
    level, suffix, step = (key.split("/") + ["", "", ""])[:3]
    wrong = OptionError(Msg('must be "bid/suffix/+d" (made with d over) or "bid/suffix/-d" (lost by d)'), path)
    if level not in LEVELS or suffix not in SUFFIX_NAMES or key.count("/") != 2 or len(step) < 2:
        raise wrong
    sign, digits = step[0], step[1:]
    if sign not in "+-" or not digits.isascii() or not digits.isdigit():
        raise wrong
    n, d = int(level), int(digits)
    if (sign == "+" and d > 13 - n) or (sign == "-" and not 1 <= d <= n):
        raise OptionError(
            Msg("a bid of %(n)d can be made with 0 to %(over)d over or lost by 1 to %(n)d", n=n, over=13 - n), path
        )
    return f"{n}/{suffix}/{sign}{d}"


def _tricks_map(value: Any, path: str, high: int, positive: bool) -> dict:
    given = _object(value, path)
    out: dict[str, Any] = {}
    for key, v in given.items():
        if key not in tuple(str(t) for t in range(14)):
            raise OptionError(Msg("must be a number of tricks from 0 to 13"), _join(path, str(key)))
        f = number(v, _join(path, key), high)
        if positive and f == 0:
            raise OptionError(Msg("a factor must be more than 0"), _join(path, key))
        out[str(int(key))] = shown(f)
    return out


def _choice(value: Any, path: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise OptionError(Msg("must be one of %(choices)s", choices=", ".join(choices)), path)
    return value


def check_house(value: Any, path: str = "") -> dict[str, Any]:
    """A house as given, checked and normalised; raises OptionError naming the path inside it. Keys left out are
    filled in later from the preset and the shorthands (`merged`)."""
    given = _object(value, path, KEYS)
    out: dict[str, Any] = {}
    if "levels" in given:
        p = _join(path, "levels")
        out["levels"] = {
            _level_key(k, _join(p, k)): _fields(v, _join(p, k), LEVEL_FIELDS, {"short": 0}, MONEY_MAX)
            for k, v in _object(given["levels"], p).items()
        }
    if "suffixes" in given:
        p = _join(path, "suffixes")
        out["suffixes"] = {
            k: _fields(v, _join(p, k), ("base", "trick"), {}, FACTOR_MAX)
            for k, v in _object(given["suffixes"], p, SUFFIX_NAMES).items()
        }
    if "overrides" in given:
        p = _join(path, "overrides")
        out["overrides"] = {}
        for k, v in _object(given["overrides"], p).items():
            n, s = _bid_key(k, _join(p, k))
            out["overrides"][f"{n}/{s}"] = _fields(v, _join(p, k), LEVEL_FIELDS, {"short": 0}, MONEY_MAX)
    if "cells" in given:
        p = _join(path, "cells")
        out["cells"] = {  # a square's size, written as any number of the house (a matrix card's ¾ and 1¼ too)
            _cell_key(k, _join(p, k)): shown(number(v, _join(p, k), MONEY_MAX))
            for k, v in _object(given["cells"], p).items()
        }
    if "slam" in given:
        p = _join(path, "slam")
        slam = _object(given["slam"], p, SLAM_KEYS)
        out["slam"] = {
            key: _tricks_map(slam[key], _join(p, key), FACTOR_MAX if key != "made_extra" else 13, key != "made_extra")
            for key in SLAM_KEYS
            if key in slam
        }
    if "rounding" in given:
        out["rounding"] = _choice(given["rounding"], _join(path, "rounding"), ROUNDINGS)
    if "selvmakker" in given:
        p = _join(path, "selvmakker")
        selv = _object(given["selvmakker"], p, ("factor", "rounding"))
        unsaid = "none" if given.get("rounding") == "none" else "half_away"  # follows an exact house
        out["selvmakker"] = {
            "factor": shown(number(selv.get("factor", 1), _join(p, "factor"), FACTOR_MAX)),
            "rounding": _choice(selv.get("rounding", unsaid), _join(p, "rounding"), ROUNDINGS),
        }
    if "sol" in given:
        p = _join(path, "sol")
        out["sol"] = {}
        for k, v in _object(given["sol"], p, SOL_BIDS).items():
            q = _join(p, k)
            entry = _object(v, q, SOL_FIELDS + ("gaa_med",))
            if "max_tricks" not in entry:
                raise OptionError(Msg("is missing"), _join(q, "max_tricks"))
            out["sol"][k] = {"max_tricks": whole(entry["max_tricks"], _join(q, "max_tricks"), 0, 13)}
            out["sol"][k].update(
                _fields(
                    {f: x for f, x in entry.items() if f not in ("max_tricks", "gaa_med")},
                    q,
                    SOL_FIELDS[1:],
                    {"won_per_under": 0, "lost_per_over": 0},
                    MONEY_MAX,
                )
            )
            if "gaa_med" in entry:  # this bid's own rule (null: never played along); left out, the house's
                own = entry["gaa_med"]
                out["sol"][k]["gaa_med"] = None if own is None else _gaa_med(own, _join(q, "gaa_med"))
    if "gaa_med" in given:
        value = given["gaa_med"]
        out["gaa_med"] = None if value is None else _gaa_med(value, _join(path, "gaa_med"))
    return out


def _gaa_med(value: Any, path: str) -> str:
    if not isinstance(value, str) or value not in GAA_MED:
        raise OptionError(Msg("must be one of %(choices)s, or null", choices=", ".join(GAA_MED)), path)
    return value


HOUSE_RULE = "house"  # own_gaa_med's answer for a sol bid without a rule of its own: it follows the house's


def own_gaa_med(house: Mapping[str, Any], bid: str) -> str | None:
    """A sol bid's own gå med rule as a (normalised) house holds it, `house["sol"][bid]["gaa_med"]`: one of GAA_MED,
    None (never played along), or HOUSE_RULE when the entry has no "gaa_med" key (the house's `gaa_med` holds)."""
    entry = (house.get("sol") or {}).get(bid) or {}
    return entry.get("gaa_med", HOUSE_RULE)


def sol_gaa_med(house: Mapping[str, Any], bid: str) -> str | None:
    """The gå med rule a sol bid is played by (RULES.md "Gå med"): its own where it has one, else the house's."""
    own = own_gaa_med(house, bid)
    return house.get("gaa_med") if own == HOUSE_RULE else own


def check_playable(house: Mapping[str, Any]) -> None:
    """A complete house must let a table bid something: at least one bid 7–13 with at least one suffix. (A house of
    sol bids only would make every hand a pass or a sol.)"""
    if not house["levels"]:
        raise OptionError(
            Msg("no bid can be made with this tariff: give at least one bid from 7 to 13 its values"), "levels"
        )
    if not house["suffixes"]:
        raise OptionError(
            Msg("no bid can be made with this tariff: play at least one suffix (plain, vip …)"), "suffixes"
        )


POOL_SHARES = 6  # a winners' pool shares among 1, 2 or 3 players: exact shares are sixths of what the sols give


def _numbers(house: Mapping[str, Any]) -> list[tuple[str, str, Any]]:
    """Every number of a complete house that a point can be a multiple of, as (group, path, number), in the card's
    order (bids low to high, suffixes and sol bids as the ladder has them): the values (levels, overrides, sol bids),
    the suffixes' factors, the slam's extra tricks, the slam's factors, the selvmakker factor."""
    out: list[tuple[str, str, Any]] = []
    levels, overrides, sol, suffixes = house["levels"], house["overrides"], house["sol"], house["suffixes"]
    for n in (n for n in LEVELS if n in levels):
        out += [("values", f"levels.{n}.{f}", levels[n][f]) for f in LEVEL_FIELDS]
    bids = [f"{n}/{s}" for n in LEVELS for s in SUFFIX_NAMES]
    for key in sorted(overrides, key=lambda key: bids.index(key) if key in bids else len(bids)):
        out += [("values", f"overrides.{key}.{f}", overrides[key][f]) for f in LEVEL_FIELDS]
    for bid in (bid for bid in SOL_BIDS if bid in sol):
        out += [("values", f"sol.{bid}.{f}", sol[bid][f]) for f in SOL_FIELDS[1:]]
    for suffix in (s for s in SUFFIX_NAMES if s in suffixes):
        out += [("suffixes", f"suffixes.{suffix}.{f}", suffixes[suffix][f]) for f in ("base", "trick")]
    for key in SLAM_KEYS:
        group = "extra" if key == "made_extra" else "factors"
        entries = house["slam"].get(key, {})
        out += [(group, f"slam.{key}.{t}", entries[t]) for t in sorted(entries, key=int)]
    out.append(("selvmakker", "selvmakker.factor", house["selvmakker"]["factor"]))
    for key in sorted(house.get("cells") or {}, key=_cell_order):  # a square's own size is never rounded
        out.append(("cells", f"cells.{key}", house["cells"][key]))
    return out


def _cell_order(key: str) -> tuple[int, int, int]:
    n, suffix, step = key.split("/")
    return int(n), SUFFIX_NAMES.index(suffix) if suffix in SUFFIX_NAMES else len(SUFFIX_NAMES), int(step)


def points_denominator(house: Mapping[str, Any], bound: int | None = None) -> int:
    """D: every point a complete, normalised house can score, and so every total, is a whole number of 1/D.

    Under `rounding: none` a point is a whole multiple of X, Q, V or a winners' pool's share, and X = (made × base +
    over × trick × (k + extra)) × factor (an override's made and over, a lost bid's lost and short alike), V = won +
    won_per_under × k, Q = selvmakker factor × X, a share a sum of V over 1, 2 or 3: so D is POOL_SHARES × the least
    common multiple of the values' denominators × that of the suffixes' factors × that of the slam's extra tricks ×
    that of its factors × the selvmakker factor's × that of the squares of their own (`cells`, never rounded, so
    counted under any rounding). Under another rounding X, V and the shares are whole and D is the
    selvmakker factor's denominator when its own rounding is `none`, else 1. With `bound`, an OptionError names the
    number at which D first passes it."""
    exact, share = house["rounding"] == "none", house["selvmakker"]["rounding"] == "none"
    groups = {"values": 1, "suffixes": 1, "extra": 1, "factors": 1, "selvmakker": 1, "cells": 1}
    pool = POOL_SHARES if exact else 1
    for group, path, value in _numbers(house):
        if not (exact or (share and group == "selvmakker") or group == "cells"):
            continue
        groups[group] = math.lcm(groups[group], kept(value).denominator)
        if bound is not None and pool * math.prod(groups.values()) > bound:
            raise OptionError(
                Msg(
                    "with the house's other fractions this number makes points finer than 1/%(max)d, more than a game "
                    "keeps exactly: use simpler fractions (halves, thirds, quarters …) or round the points",
                    max=bound,
                ),
                path,
            )
    return pool * math.prod(groups.values())


def merged(base: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """A complete house: each top-level key given replaces the one the preset and shorthands built."""
    out = {key: base[key] for key in KEYS}
    out.update(given)
    if given.get("rounding") == "none" and "selvmakker" not in given:
        out["selvmakker"] = dict(out["selvmakker"]) | {"rounding": "none"}  # RULES.md: the share follows
    return out


# ---------------------------------------------------------------- building


def standard(tariff: Any, lost: str, solo_values: Mapping[str, int], max_tricks: Mapping[str, int]) -> dict[str, Any]:
    """The house the shorthands describe: tariff(n) made and per trick over; a lost bid 2 × tariff(n) (flat) or per
    missing trick; vip, gode, sans, halve double; a sol's value from each other player, twice that when lost."""
    levels = {}
    for n, value in zip(LEVELS, tariff):
        flat = lost != "per_trick"
        levels[n] = {"made": value, "over": value, "lost": 2 * value if flat else 0, "short": 0 if flat else 2 * value}
    return {
        "levels": levels,
        "suffixes": {"plain": {"base": 1, "trick": 1}} | {s: {"base": 2, "trick": 2} for s in BASE_SUFFIXES[1:]},
        "overrides": {},
        "cells": {},
        "slam": {},
        "rounding": "half_away",
        "selvmakker": {"factor": 1, "rounding": "half_away"},
        "sol": {
            bid: {"max_tricks": max_tricks[bid], "won": v, "lost": 2 * v, "won_per_under": 0, "lost_per_over": 0}
            for bid, v in solo_values.items()
        },
        "gaa_med": None,
    }


# ---------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Level:
    made: Fraction
    over: Fraction
    lost: Fraction
    short: Fraction


@dataclass(frozen=True)
class Sol:
    max_tricks: int
    won: Fraction
    lost: Fraction
    won_per_under: Fraction
    lost_per_over: Fraction
    gaa_med: str | None = None  # the rule this bid is played along by: its own, else the house's (sol_gaa_med)


@dataclass(frozen=True)
class House:
    """A normalised house in Fractions, for scoring."""

    levels: dict[int, Level]
    suffixes: dict[str, tuple[Fraction, Fraction]]
    overrides: dict[tuple[int, str], Level]
    cells: dict[str, int | Fraction]  # a square's size, exact
    made_factor: dict[int, Fraction]
    lost_factor: dict[int, Fraction]
    made_extra: dict[int, Fraction]
    rounding: str
    selv_factor: Fraction
    selv_rounding: str
    sol: dict[str, Sol]
    gaa_med: str | None
    # X by (bid, suffix, tricks), as trick_value found it: a house is a card's, and a night's hands score the same few
    # squares again and again (at most 13 × its suffixes × 14 entries; not compared, not part of the house's value)
    _values: dict[tuple[int, str, int], int | Fraction] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    def can_bid(self, n: int, suffix: str) -> bool:
        return n in self.levels and suffix in self.suffixes

    def level(self, n: int, suffix: str) -> Level:
        if (n, suffix) in self.overrides:
            return self.overrides[(n, suffix)]
        level, (base, trick) = self.levels[n], self.suffixes[suffix]
        return Level(level.made * base, level.over * trick, level.lost * base, level.short * trick)

    def cell_key(self, n: int, suffix: str, tricks: int) -> str:
        """The key of the square of a bid of n with `tricks` tricks: made with d over, or lost by d."""
        return f"{n}/{suffix}/+{tricks - n}" if tricks >= n else f"{n}/{suffix}/-{n - tricks}"

    def rule_value(self, n: int, suffix: str, tricks: int) -> int | Fraction:
        """X as the card's rule gives it (levels, suffixes, overrides, slam, rounding), before any square of its own."""
        lv = self.level(n, suffix)
        if tricks >= n:
            extra = self.made_extra.get(tricks, Fraction(0))
            value = (lv.made + lv.over * (tricks - n + extra)) * self.made_factor.get(tricks, Fraction(1))
        else:
            value = -(lv.lost + lv.short * (n - tricks)) * self.lost_factor.get(tricks, Fraction(1))
        return rounded(value, self.rounding)

    def trick_value(self, n: int, suffix: str, tricks: int) -> int | Fraction:
        """X: what bidder and partner each receive (negative: pay) for a trick bid of n with `tricks` tricks."""
        key = (n, suffix, tricks)
        value = self._values.get(key)
        if value is None:
            cell = self.cells.get(self.cell_key(n, suffix, tricks))
            value = self.rule_value(n, suffix, tricks) if cell is None else exact(cell if tricks >= n else -cell)
            self._values[key] = value
        return value

    def own_squares(self, n: int, suffix: str) -> set[int]:
        """The numbers of tricks at which a bid of n has a square of its own that differs from what the rule gives."""
        return {
            t
            for t in range(14)
            if self.cell_key(n, suffix, t) in self.cells
            and self.trick_value(n, suffix, t) != self.rule_value(n, suffix, t)
        }

    def gaa_med_of(self, bid: str) -> str | None:
        """The gå med rule of a sol bid: its own, else the house's; None: it is played alone."""
        return self.sol[bid].gaa_med

    @property
    def any_gaa_med(self) -> bool:
        """Whether some sol bid of the house may be played along."""
        return any(sol.gaa_med for sol in self.sol.values())

    def selvmakker(self, value: int | Fraction) -> int | Fraction:
        """Q: what each of the other three pays a selvmakker (the bidder receives 3Q)."""
        return rounded(self.selv_factor * value, self.selv_rounding)

    def sol_value(self, bid: str, tricks: int) -> tuple[int | Fraction, bool]:
        """V and whether the sol was made: made, each other pays V; lost, the bidder pays V to each."""
        sol = self.sol[bid]
        if tricks <= sol.max_tricks:
            return rounded(sol.won + sol.won_per_under * (sol.max_tricks - tricks), self.rounding), True
        return rounded(sol.lost + sol.lost_per_over * (tricks - sol.max_tricks), self.rounding), False


def _level(entry: Mapping[str, Any]) -> Level:
    return Level(*(kept(entry[f]) for f in LEVEL_FIELDS))


def _fractions(entries: Mapping[str, Any]) -> dict[int, Fraction]:
    return {int(k): kept(v) for k, v in entries.items()}


@lru_cache(maxsize=256)
def _parse(text: str) -> House:
    h = json.loads(text)
    slam = h["slam"]
    return House(
        levels={int(k): _level(v) for k, v in h["levels"].items()},
        suffixes={k: (kept(v["base"]), kept(v["trick"])) for k, v in h["suffixes"].items()},
        overrides={(int(k.split("/")[0]), k.split("/")[1]): _level(v) for k, v in h["overrides"].items()},
        cells={k: kept(v) for k, v in h["cells"].items()},
        made_factor=_fractions(slam.get("made_factor", {})),
        lost_factor=_fractions(slam.get("lost_factor", {})),
        made_extra=_fractions(slam.get("made_extra", {})),
        rounding=h["rounding"],
        selv_factor=kept(h["selvmakker"]["factor"]),
        selv_rounding=h["selvmakker"]["rounding"],
        sol={
            k: Sol(
                v["max_tricks"],
                kept(v["won"]),
                kept(v["lost"]),
                kept(v["won_per_under"]),
                kept(v["lost_per_over"]),
                sol_gaa_med(h, k),
            )
            for k, v in h["sol"].items()
        },
        gaa_med=h["gaa_med"],
    )


def parse(house: Mapping[str, Any]) -> House:
    """A complete, normalised house in Fractions (kept: the same house scores every hand of a game)."""
    return _parse(json.dumps(house, sort_keys=True))


# ---------------------------------------------------------------- the sol bids of one hand


def sol_points(
    house: House, bid: str, players: list[tuple[int, int]], playing: list[int], n: int
) -> list[int | Fraction]:
    """Points per seat for a sol hand: `players` are (seat, tricks) of everyone playing the sol (the bidder first),
    `playing` the seats dealt in; by the bid's gå med rule, its own or the house's (RULES.md; under `none` the pool's
    shares are exact)."""
    points: list[int | Fraction] = [0] * n
    values = [(s, *house.sol_value(bid, t)) for s, t in players]
    sol_seats = {s for s, _t in players}
    rule = house.gaa_med_of(bid)
    if rule == "winners_pool":
        won = [(s, v) for s, v, made in values if made]
        others = (
            [s for s in playing if s not in {s for s, _v in won}] if won else [s for s in playing if s not in sol_seats]
        )
        if won:
            share = Fraction(sum(v for _s, v in won), len(others)) if others else Fraction(0)
            each = exact(share) if house.rounding == "none" else math.ceil(share)
            for s, v in won:
                points[s] += v
        else:
            share = Fraction(sum(v for _s, v, _m in values), len(others)) if others else Fraction(0)
            each = -(exact(share) if house.rounding == "none" else math.floor(share))
            for s, v, _m in values:
                points[s] -= v
        for s in others:
            points[s] -= each
        return [exact(p) for p in points]
    for s, v, made in values:
        signed = v if made else -v
        payers = [o for o in playing if o != s and (rule != "vs_non_participants" or o not in sol_seats)]
        for o in payers:
            points[o] -= signed
        points[s] += signed * len(payers)
    return [exact(p) for p in points]


Builder = Callable[[dict[str, Any]], dict[str, Any]]
