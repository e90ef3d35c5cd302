"""A Danish club's card as it is printed (columns of suffixes, a row per bid, a value per square, one rule for how a
made, an overtrick and a lost bid follow from a square) and the house of RULES.md it is: levels, suffixes, overrides.

`house_parts(grid)` gives the house's levels, suffixes and overrides; `grid_of(house, names)` gives the grid a stored
house opens as (the club's own column layout from option `card_names` when it fits the house), and whether it says the
house exactly. Pure; no words here: a heading left empty is named by the page from its suffixes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

from scorekeeper.core.messages import Msg
from scorekeeper.variants.danish import house as model

# How a made bid follows from a square's value v (w: the value an overtrick or a missing trick is counted in):
# made, over.
MADE_RULES = ("over", "flat", "half_over", "times_bid")
# How a lost bid follows: lost, short.
LOST_RULES = ("per_trick", "double", "double_per_trick", "plus_per_trick", "value", "times_bid")
# Overtricks and missing tricks in the square's own value, or in the first column's (a suffix that raises the bid
# only, not its tricks).
PER_TRICK = ("column", "first")
COLUMNS_MAX = len(model.SUFFIX_NAMES)
NAME_MAX = 60


@dataclass(frozen=True)
class Column:
    heading: str
    suffixes: tuple[str, ...]


@dataclass(frozen=True)
class Grid:
    columns: tuple[Column, ...]
    levels: tuple[int, ...]
    values: Mapping[int, tuple[Fraction, ...]]  # per bid, one value per column
    made: str = "over"
    lost: str = "double"
    per_trick: str = "column"


def level_of(made: str, lost: str, n: int, v: Fraction, w: Fraction) -> tuple[Fraction, ...]:
    """(made, over, lost, short) of a bid of n from its square's value v and its per-trick value w."""
    v, w = Fraction(v), Fraction(w)
    made_part = {"over": (v, w), "flat": (v, Fraction(0)), "half_over": (v, w / 2), "times_bid": (n * v, w)}[made]
    lost_part = {
        "per_trick": (Fraction(0), w),
        "double": (2 * v, Fraction(0)),
        "double_per_trick": (Fraction(0), 2 * w),
        "plus_per_trick": (v, w),
        "value": (v, Fraction(0)),
        "times_bid": (n * v, Fraction(0)),
    }[lost]
    return made_part + lost_part


def _base(grid: Grid) -> int:
    """The column the levels are written from: the one with the plain bid, else the first."""
    return next((i for i, c in enumerate(grid.columns) if "plain" in c.suffixes), 0)


def _fields(values: tuple[Fraction, ...]) -> dict[str, Any]:
    return {f: model.shown(v) for f, v in zip(model.LEVEL_FIELDS, values)}


def house_parts(grid: Grid) -> dict[str, Any]:
    """The house's levels, suffixes and overrides the grid is: the base column gives the levels; another column is a
    suffix factor where its squares are one multiple of the base column's, overrides bid by bid where they are not."""
    b = _base(grid)
    values = {n: tuple(Fraction(v) for v in row) for n, row in grid.values.items()}
    levels: dict[str, Any] = {}
    suffixes: dict[str, Any] = {}
    overrides: dict[str, Any] = {}
    for n in grid.levels:
        v = values[n][b]
        levels[str(n)] = _fields(level_of(grid.made, grid.lost, n, v, v))
    for i, column in enumerate(grid.columns):
        ratios = {values[n][i] / values[n][b] if values[n][b] else None for n in grid.levels}
        ratio = next(iter(ratios)) if len(ratios) == 1 else None
        for s in column.suffixes:
            if i == b:
                suffixes[s] = {"base": 1, "trick": 1}
            elif ratio is not None and 0 < ratio <= model.FACTOR_MAX:
                trick = ratio if grid.per_trick == "column" else Fraction(1)
                suffixes[s] = {"base": model.shown(ratio), "trick": model.shown(trick)}
            else:
                suffixes[s] = {"base": 1, "trick": 1}
                for n in grid.levels:
                    v = values[n][i]
                    w = v if grid.per_trick == "column" else values[n][b]
                    overrides[f"{n}/{s}"] = _fields(level_of(grid.made, grid.lost, n, v, w))
    return {"levels": levels, "suffixes": suffixes, "overrides": overrides}


def names_of(grid: Grid, sol: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Option `card_names`: the card's columns as the club lays them out, and its own names of its sol bids."""
    return {
        "columns": [{"heading": c.heading, "suffixes": list(c.suffixes)} for c in grid.columns],
        "sol": {k: v for k, v in (sol or {}).items() if v},
    }


def _fits(house: model.House, levels, suffixes, made: str, lost: str, per_trick: str) -> dict | None:
    """Each (bid, suffix)'s square value, if every level of the house follows from it by these rules; else None."""
    base = "plain" if "plain" in suffixes else suffixes[0]
    out: dict[tuple[int, str], Fraction] = {}
    for s in [base] + [s for s in suffixes if s != base]:
        for n in levels:
            lv = house.level(n, s)
            v = lv.made / n if made == "times_bid" else lv.made
            w = v if per_trick == "column" or s == base else out[(n, base)]
            if level_of(made, lost, n, v, w) != (lv.made, lv.over, lv.lost, lv.short):
                return None
            out[(n, s)] = v
    return out


def _layout(names: Mapping[str, Any] | None, vectors: Mapping[str, tuple], suffixes: list[str]) -> list[Column]:
    """The club's columns when they fit the house (each holds suffixes of equal squares, together every suffix played
    once); else one column per set of equal squares, in the suffixes' order, headings left to the page."""
    given = (names or {}).get("columns") or []
    layout = [Column(str(c.get("heading") or ""), tuple(c.get("suffixes") or ())) for c in given]
    flat = [s for c in layout for s in c.suffixes]
    if (
        layout
        and sorted(flat) == sorted(suffixes)
        and all(c.suffixes and len({vectors[s] for s in c.suffixes}) == 1 for c in layout)
    ):
        return layout
    groups: dict[tuple, list[str]] = {}
    for s in suffixes:
        groups.setdefault(vectors[s], []).append(s)
    return [Column("", tuple(g)) for g in groups.values()]


def grid_of(house: Mapping[str, Any], names: Mapping[str, Any] | None = None) -> tuple[Grid, bool]:
    """The grid a complete, normalised house opens as, and whether it says the house exactly (False: a house made
    elsewhere that no one rule of the grid gives; the grid then holds each square's made value, the usual rules)."""
    parsed = model.parse(house)
    levels = tuple(sorted(parsed.levels))
    suffixes = [s for s in model.SUFFIX_NAMES if s in parsed.suffixes]
    values = None
    rules = ("over", "double", "column")
    if levels and suffixes:
        for rules in product(MADE_RULES, LOST_RULES, PER_TRICK):
            values = _fits(parsed, levels, suffixes, *rules)
            if values is not None:
                break
    exact = values is not None and levels == tuple(range(levels[0], levels[-1] + 1))
    if values is None:
        rules = ("over", "double", "column")
        values = {(n, s): parsed.level(n, s).made for n in levels for s in suffixes}
    vectors = {s: tuple(values[(n, s)] for n in levels) for s in suffixes}
    columns = _layout(names, vectors, suffixes)
    grid = Grid(
        columns=tuple(columns),
        levels=levels,
        values={n: tuple(values[(n, c.suffixes[0])] for c in columns) for n in levels},
        made=rules[0],
        lost=rules[1],
        per_trick=rules[2],
    )
    return grid, exact


def check_names(value: Any) -> dict[str, Any] | None:
    """Option `card_names`: {"columns": [{"heading", "suffixes"}], "sol": {bid: name}}; raises ValueError(Msg)."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) - {"columns", "sol"}:
        raise ValueError(Msg('must be an object with "columns" and "sol"'))
    columns = value.get("columns") or []
    if not isinstance(columns, list) or len(columns) > COLUMNS_MAX:
        raise ValueError(Msg("columns: at most %(n)d columns, each with a heading and its suffixes", n=COLUMNS_MAX))
    out_columns: list[dict[str, Any]] = []
    seen: set[str] = set()
    for column in columns:
        if not isinstance(column, Mapping) or set(column) - {"heading", "suffixes"}:
            raise ValueError(Msg('columns: each is {"heading": text, "suffixes": [suffix, …]}'))
        heading = _name(column.get("heading", ""))
        suffixes = column.get("suffixes")
        if not isinstance(suffixes, list) or not suffixes or any(s not in model.SUFFIX_NAMES for s in suffixes):
            raise ValueError(Msg("columns: suffixes must be some of %(known)s", known=", ".join(model.SUFFIX_NAMES)))
        if seen & set(suffixes) or len(set(suffixes)) != len(suffixes):
            raise ValueError(Msg("columns: a suffix belongs to one column only"))
        seen |= set(suffixes)
        out_columns.append({"heading": heading, "suffixes": list(suffixes)})
    sol = value.get("sol") or {}
    if not isinstance(sol, Mapping) or set(sol) - set(model.SOL_BIDS):
        raise ValueError(Msg("sol: names of %(known)s", known=", ".join(model.SOL_BIDS)))
    return {"columns": out_columns, "sol": {k: _name(v) for k, v in sol.items() if _name(v)}}


def _name(value: Any) -> str:
    if not isinstance(value, str) or len(value) > NAME_MAX or not all(c.isprintable() for c in value):
        raise ValueError(Msg("a name must be text of at most %(n)d characters", n=NAME_MAX))
    return " ".join(value.split())
