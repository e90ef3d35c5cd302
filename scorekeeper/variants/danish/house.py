"""A Danish table's own tariff as data (option `house`): one model for every tariff found in use, exact arithmetic.

The house arrives as JSON (numbers as integers, decimals or fraction strings "1/2"); `check_house` refuses what does
not fit, naming the path inside it, and answers it normalised (whole numbers as ints, others as "p/q"). `parse` turns
a normalised house into Fractions (kept, as the same house scores every hand); the scoring functions follow RULES.md.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from scorekeeper.core.messages import Msg, OptionError
from scorekeeper.core.numbers import read_number

LEVELS = tuple(str(n) for n in range(7, 14))
BASE_SUFFIXES = ("plain", "vip", "gode", "sans", "halve")
EXTRA_SUFFIXES = ("vip2", "vip3", "staerke")  # club rules: vip on the 2nd/3rd card turned; stærke, spades trump
SUFFIX_NAMES = BASE_SUFFIXES + EXTRA_SUFFIXES
SOL_BIDS = ("sol", "ren_sol", "bordlaegger", "ren_bordlaegger")
ROUNDINGS = ("half_away", "ceil", "floor", "trunc", "away")
GAA_MED = ("independent", "vs_non_participants", "winners_pool")
LEVEL_FIELDS = ("made", "over", "lost", "short")
SOL_FIELDS = ("max_tricks", "won", "lost", "won_per_under", "lost_per_over")
KEYS = ("levels", "suffixes", "overrides", "cells", "slam", "rounding", "selvmakker", "sol", "gaa_med")
SLAM_KEYS = ("made_factor", "lost_factor", "made_extra")
MONEY_MAX = 1_000_000
FACTOR_MAX = 100


# ---------------------------------------------------------------- numbers


def number(value: Any, path: str, high: int = MONEY_MAX) -> Fraction:
    """A number from 0 to `high` as a table writes it: an integer, a decimal, or a fraction "p/q"; exact, read by
    the one strict reader (ASCII digits, bounded before any arithmetic)."""
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


def rounded(value: Fraction, mode: str) -> int:
    """`value` rounded by a house's rounding mode: half_away, ceil, floor, trunc (toward 0) or away (from 0)."""
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
        out["cells"] = {
            _cell_key(k, _join(p, k)): whole(v, _join(p, k), 0, MONEY_MAX)
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
        out["selvmakker"] = {
            "factor": shown(number(selv.get("factor", 1), _join(p, "factor"), FACTOR_MAX)),
            "rounding": _choice(selv.get("rounding", "half_away"), _join(p, "rounding"), ROUNDINGS),
        }
    if "sol" in given:
        p = _join(path, "sol")
        out["sol"] = {}
        for k, v in _object(given["sol"], p, SOL_BIDS).items():
            q = _join(p, k)
            entry = _object(v, q, SOL_FIELDS)
            if "max_tricks" not in entry:
                raise OptionError(Msg("is missing"), _join(q, "max_tricks"))
            out["sol"][k] = {"max_tricks": whole(entry["max_tricks"], _join(q, "max_tricks"), 0, 13)}
            out["sol"][k].update(
                _fields(
                    {f: x for f, x in entry.items() if f != "max_tricks"},
                    q,
                    SOL_FIELDS[1:],
                    {"won_per_under": 0, "lost_per_over": 0},
                    MONEY_MAX,
                )
            )
    if "gaa_med" in given:
        value = given["gaa_med"]
        out["gaa_med"] = None if value is None else _choice(value, _join(path, "gaa_med"), GAA_MED)
    return out


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


def merged(base: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """A complete house: each top-level key given replaces the one the preset and shorthands built."""
    out = {key: base[key] for key in KEYS}
    out.update(given)
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


@dataclass(frozen=True)
class House:
    """A normalised house in Fractions, for scoring."""

    levels: dict[int, Level]
    suffixes: dict[str, tuple[Fraction, Fraction]]
    overrides: dict[tuple[int, str], Level]
    cells: dict[str, int]
    made_factor: dict[int, Fraction]
    lost_factor: dict[int, Fraction]
    made_extra: dict[int, Fraction]
    rounding: str
    selv_factor: Fraction
    selv_rounding: str
    sol: dict[str, Sol]
    gaa_med: str | None

    def can_bid(self, n: int, suffix: str) -> bool:
        return n in self.levels and suffix in self.suffixes

    def level(self, n: int, suffix: str) -> Level:
        if (n, suffix) in self.overrides:
            return self.overrides[(n, suffix)]
        level, (base, trick) = self.levels[n], self.suffixes[suffix]
        return Level(level.made * base, level.over * trick, level.lost * base, level.short * trick)

    def trick_value(self, n: int, suffix: str, tricks: int) -> int:
        """X: what bidder and partner each receive (negative: pay) for a trick bid of n with `tricks` tricks."""
        lv = self.level(n, suffix)
        if tricks >= n:
            extra = self.made_extra.get(tricks, Fraction(0))
            value = (lv.made + lv.over * (tricks - n + extra)) * self.made_factor.get(tricks, Fraction(1))
            cell = self.cells.get(f"{n}/{suffix}/+{tricks - n}")
            return cell if cell is not None else rounded(value, self.rounding)
        value = -(lv.lost + lv.short * (n - tricks)) * self.lost_factor.get(tricks, Fraction(1))
        cell = self.cells.get(f"{n}/{suffix}/-{n - tricks}")
        return -cell if cell is not None else rounded(value, self.rounding)

    def selvmakker(self, value: int) -> int:
        """Q: what each of the other three pays a selvmakker (the bidder receives 3Q)."""
        return rounded(self.selv_factor * value, self.selv_rounding)

    def sol_value(self, bid: str, tricks: int) -> tuple[int, bool]:
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
        cells=dict(h["cells"]),
        made_factor=_fractions(slam.get("made_factor", {})),
        lost_factor=_fractions(slam.get("lost_factor", {})),
        made_extra=_fractions(slam.get("made_extra", {})),
        rounding=h["rounding"],
        selv_factor=kept(h["selvmakker"]["factor"]),
        selv_rounding=h["selvmakker"]["rounding"],
        sol={k: Sol(v["max_tricks"], *(kept(v[f]) for f in SOL_FIELDS[1:])) for k, v in h["sol"].items()},
        gaa_med=h["gaa_med"],
    )


def parse(house: Mapping[str, Any]) -> House:
    """A complete, normalised house in Fractions (kept: the same house scores every hand of a game)."""
    return _parse(json.dumps(house, sort_keys=True))


# ---------------------------------------------------------------- the sol bids of one hand


def sol_points(house: House, bid: str, players: list[tuple[int, int]], playing: list[int], n: int) -> list[int]:
    """Points per seat for a sol hand: `players` are (seat, tricks) of everyone playing the sol (the bidder first),
    `playing` the seats dealt in; by the house's gå med rule (RULES.md)."""
    points = [0] * n
    values = [(s, *house.sol_value(bid, t)) for s, t in players]
    sol_seats = {s for s, _t in players}
    if house.gaa_med == "winners_pool":
        won = [(s, v) for s, v, made in values if made]
        others = (
            [s for s in playing if s not in {s for s, _v in won}] if won else [s for s in playing if s not in sol_seats]
        )
        if won:
            each = math.ceil(Fraction(sum(v for _s, v in won), len(others))) if others else 0
            for s, v in won:
                points[s] += v
        else:
            each = -math.floor(Fraction(sum(v for _s, v, _m in values), len(others))) if others else 0
            for s, v, _m in values:
                points[s] -= v
        for s in others:
            points[s] -= each
        return points
    for s, v, made in values:
        signed = v if made else -v
        payers = [o for o in playing if o != s and (house.gaa_med != "vs_non_participants" or o not in sol_seats)]
        for o in payers:
            points[o] -= signed
        points[s] += signed * len(payers)
    return points


Builder = Callable[[dict[str, Any]], dict[str, Any]]
