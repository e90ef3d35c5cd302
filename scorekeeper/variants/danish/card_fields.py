"""The card's fields read and written as a treasurer writes them: a field's name, numbers as typed on the card (¾, 1¼,
"1 1/4", 0,75), the fields a house fills and the house the fields make, with each error keyed by its field. The editor
(variants/danish/card.py) draws and answers the form around them."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from babel import numbers
from flask_babel import get_locale

from scorekeeper.core.messages import Msg, OptionError, message_of
from scorekeeper.core.numbers import TEXT_MAX, NumberError
from scorekeeper.variants.danish import grid as danish_grid
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish import rules
from scorekeeper.variants.danish.words import suffix_name
from scorekeeper.web.i18n import gettext as _

MARK = "card"  # a form that carries the card's fields says so (an unticked switch is then "off", not "not sent")
LEVELS = tuple(int(n) for n in model.LEVELS)
TRICKS = tuple(range(14))
CUT = TEXT_MAX + 1  # a field's text kept: one more than a number may be long, so a longer one is refused as too long


def name(*parts: Any) -> str:
    """A field's name: card.cell.8.0 — the card, the part and where in it (a column, a bid)."""
    return ".".join([MARK, *map(str, parts)])


# ---------------------------------------------------------------- numbers as a treasurer writes them


def _decimal_sign() -> str:
    return numbers.get_decimal_symbol(get_locale() or "en")


def number_text(value: Any) -> str:
    """A number of the house as its field shows it: 10, 2,5 (in Danish), 2/3 for a fraction no decimal says."""
    f = model.kept(value)
    if f.denominator == 1:
        return str(f.numerator)
    for places in range(1, 5):
        scaled = f * 10**places
        if scaled.denominator == 1:
            whole, part = divmod(abs(scaled.numerator), 10**places)
            sign = "-" if f < 0 else ""
            return f"{sign}{whole}{_decimal_sign()}{part:0{places}d}"
    return f"{f.numerator}/{f.denominator}"


def _number(text: str, path: str, high: int, errors: dict, where: str) -> Fraction | None:
    """A typed number as written on paper (3, 0,75, 0.75, 3/4, ¾, 1¼, 1 1/4) through the core's strict reader; None if
    wrong (said)."""
    try:
        return model.number(text, path, high, on_paper=True)
    except (OptionError, NumberError) as exc:
        errors[where] = message_of(exc)
        return None


# ---------------------------------------------------------------- the fields of a card


def texts_of(house: Mapping[str, Any], names: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Every field's text for a complete, normalised house: the grid it opens as (variants/danish/grid.py), in
    the club's own column layout and words (option `card_names`) when they fit it."""
    out: dict[str, str] = {}
    grid, _exact = danish_grid.grid_of(house, names)
    out[name("columns")] = str(len(grid.columns))
    for i in range(COLUMNS):
        column = grid.columns[i] if i < len(grid.columns) else None
        out[name("col", i, "heading")] = column.heading if column else ""
        for s in model.SUFFIX_NAMES:
            out[name("col", i, s)] = "y" if column and s in column.suffixes else ""
    levels = grid.levels or LEVELS
    out[name("low")], out[name("high")] = str(levels[0]), str(levels[-1])
    for n in LEVELS:
        for i in range(COLUMNS):
            value = grid.values[n][i] if n in grid.values and i < len(grid.columns) else None
            out[name("cell", n, i)] = number_text(value) if value is not None else ""
    out[name("made")], out[name("lost")], out[name("per_trick")] = grid.made, grid.lost, grid.per_trick
    sol = house["sol"]
    sol_names = (names or {}).get("sol") or {}
    for bid in model.SOL_BIDS:
        entry = sol.get(bid)
        out[name("sol", bid, "name")] = sol_names.get(bid, "")
        out[name("sol", bid, "max_tricks")] = str(entry["max_tricks"] if entry else rules.SOLO_MAX_TRICKS[bid])
        for f in model.SOL_FIELDS[1:]:
            out[name("sol", bid, f)] = number_text(entry[f]) if entry else ""
    out[name("selvmakker", "factor")] = number_text(house["selvmakker"]["factor"])
    selv = house["selvmakker"]["rounding"]
    out[name("selvmakker", "rounding")] = "" if selv == house["rounding"] else selv  # "": as the points round
    out[name("rounding")] = house["rounding"]
    out[name("gaa_med")] = house["gaa_med"] or ""
    slam = house["slam"]
    for key in model.SLAM_KEYS:
        for t in TRICKS:
            value = slam.get(key, {}).get(str(t))
            out[name("slam", key, t)] = "" if value is None else number_text(value)
    out[name("cells")] = " ".join(f"{k}={v}" for k, v in house["cells"].items())
    return out


COLUMNS = danish_grid.COLUMNS_MAX
# The fields every card has.
FIXED_FIELDS = tuple(
    [name("columns"), name("low"), name("high"), name("made"), name("lost"), name("per_trick"), name("cells")]
    + [name("col", i, f) for i in range(COLUMNS) for f in ("heading", *model.SUFFIX_NAMES)]
    + [name("cell", n, i) for n in LEVELS for i in range(COLUMNS)]
    + [name("sol", bid, f) for bid in model.SOL_BIDS for f in ("name", *model.SOL_FIELDS)]
    + [name("selvmakker", "factor"), name("selvmakker", "rounding"), name("rounding"), name("gaa_med")]
    + [name("slam", key, t) for key in model.SLAM_KEYS for t in TRICKS]
)
TEXT_FIELDS = {name("col", i, "heading") for i in range(COLUMNS)} | {name("sol", b, "name") for b in model.SOL_BIDS}
CELLS_CUT = 4096  # the kept squares of a card made elsewhere: 56 bids and suffixes × 14 tricks at most


def typed(formdata) -> dict[str, str]:
    """The fields' texts as posted (bounded: no field longer than a number or a name may be)."""
    out = {}
    for key in FIXED_FIELDS:
        cut = danish_grid.NAME_MAX + 1 if key in TEXT_FIELDS else CELLS_CUT if key == name("cells") else CUT
        out[key] = str(formdata.get(key, "") or "")[:cut]
    return out


def count_of(text: str, low: int, high: int, default: int) -> int:
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdigit() and low <= int(text) <= high else default


def _choice(text: str, choices: tuple[str, ...], default: str) -> str:
    return text if text in choices else default


def _kept_cells(text: str) -> dict[str, int]:
    """The squares of their own a card made elsewhere holds ("8/vip/+1=60 …", kept through the page unchanged)."""
    out = {}
    for item in text.split():
        key, _sep, value = item.partition("=")
        if value.isascii() and value.isdigit():
            out[key] = int(value)
    return out


def house_of(texts: Mapping[str, str]) -> tuple[dict[str, Any] | None, dict[str, Any], dict[str, Any]]:
    """The complete, checked house and the names the fields hold, or None and the errors by field name."""
    errors: dict[str, Any] = {}
    count = count_of(texts.get(name("columns"), ""), 1, COLUMNS, 1)
    low = count_of(texts.get(name("low"), ""), 7, 13, 7)
    high = count_of(texts.get(name("high"), ""), low, 13, 13)
    columns: list[danish_grid.Column] = []
    seen: dict[str, int] = {}
    for i in range(count):
        heading = " ".join(texts.get(name("col", i, "heading"), "").split())
        if len(heading) > danish_grid.NAME_MAX:
            errors[name("col", i, "heading")] = Msg("at most %(n)d characters", n=danish_grid.NAME_MAX)
        suffixes = tuple(s for s in model.SUFFIX_NAMES if texts.get(name("col", i, s)))
        if not suffixes:
            errors[name("col", i, "plain")] = Msg("tick the suffixes this column covers, or have fewer columns")
        for s in suffixes:
            if s in seen:
                errors[name("col", i, s)] = Msg(
                    "%(suffix)s is in column %(n)d already", suffix=suffix_label(s), n=seen[s] + 1
                )
            seen.setdefault(s, i)
        columns.append(danish_grid.Column(heading, suffixes))
    values: dict[int, tuple[Fraction, ...]] = {}
    for n in range(low, high + 1):
        row = []
        for i in range(count):
            where = name("cell", n, i)
            text = texts.get(where, "").strip()
            if not text:
                errors[where] = Msg("fill in this square, or let the card start at a higher bid")
                row.append(Fraction(0))
                continue
            value = _number(text, f"cell.{n}.{i}", model.MONEY_MAX, errors, where)
            row.append(value if value is not None else Fraction(0))
        values[n] = tuple(row)
    grid = danish_grid.Grid(
        columns=tuple(columns),
        levels=tuple(range(low, high + 1)),
        values=values,
        made=_choice(texts.get(name("made"), ""), danish_grid.MADE_RULES, "over"),
        lost=_choice(texts.get(name("lost"), ""), danish_grid.LOST_RULES, "double"),
        per_trick=_choice(texts.get(name("per_trick"), ""), danish_grid.PER_TRICK, "column"),
    )
    house: dict[str, Any] = {"slam": {}, "sol": {}}
    sol_names: dict[str, str] = {}
    for bid in model.SOL_BIDS:
        sol_names[bid] = " ".join(texts.get(name("sol", bid, "name"), "").split())[: danish_grid.NAME_MAX]
        won, lost = (texts.get(name("sol", bid, f), "").strip() for f in ("won", "lost"))
        if not won and not lost:
            continue
        entry = {
            "max_tricks": _choice_int(
                texts.get(name("sol", bid, "max_tricks")), 13, errors, name("sol", bid, "max_tricks")
            )
        }
        for f in model.SOL_FIELDS[1:]:
            where, text = name("sol", bid, f), texts.get(name("sol", bid, f), "").strip()
            if not text:
                if f in ("won", "lost"):
                    errors[where] = Msg("fill in this value, or empty both to leave the sol bid out")
                else:
                    entry[f] = 0
                continue
            value = _number(text, f"sol.{bid}.{f}", model.MONEY_MAX, errors, where)
            if value is not None:
                entry[f] = model.shown(value)
        house["sol"][bid] = entry
    factor = texts.get(name("selvmakker", "factor"), "").strip() or "1"
    value = _number(factor, "selvmakker.factor", model.FACTOR_MAX, errors, name("selvmakker", "factor"))
    rounding = _choice(texts.get(name("rounding"), ""), model.ROUNDINGS, "half_away")
    house["selvmakker"] = {
        "factor": model.shown(value) if value is not None else 1,
        "rounding": _choice(texts.get(name("selvmakker", "rounding"), ""), model.ROUNDINGS, rounding),
    }
    house["rounding"] = rounding
    house["gaa_med"] = _choice(texts.get(name("gaa_med"), ""), model.GAA_MED, "") or None
    for key in model.SLAM_KEYS:
        entries = {}
        for t in TRICKS:
            where, text = name("slam", key, t), texts.get(name("slam", key, t), "").strip()
            if not text:
                continue
            high_value = 13 if key == "made_extra" else model.FACTOR_MAX
            got = _number(text, f"slam.{key}.{t}", high_value, errors, where)
            if got is not None:
                if key != "made_extra" and got == 0:
                    errors[where] = Msg("a factor must be more than 0 (1: no change)")
                entries[str(t)] = model.shown(got)
        if entries:
            house["slam"][key] = entries
    if errors:
        return None, {}, errors
    house |= danish_grid.house_parts(grid)
    kept_cells = _kept_cells(texts.get(name("cells"), ""))
    try:
        house["cells"] = model.check_house({"cells": kept_cells})["cells"]
    except OptionError:
        house["cells"] = {}
    try:
        checked = model.check_house(house)
        model.check_playable(checked)
    except OptionError as exc:
        return None, {}, {field_of_path(exc.path, grid): message_of(exc)}
    return checked, danish_grid.names_of(grid, sol_names), {}


def _choice_int(raw: Any, high: int, errors: dict, where: str) -> int:
    text = str(raw or "").strip()
    if not (text.isascii() and text.isdigit() and int(text) <= high):
        errors[where] = Msg("must be a whole number from 0 to %(high)d", high=high)
        return 0
    return int(text)


def field_of_path(path: str, grid: danish_grid.Grid | None = None) -> str:
    """The field an error of the house belongs to: a sol's own field, a level's square in the first column, a
    suffix's column."""
    parts = path.split(".")
    if parts[0] == "sol" and len(parts) >= 2:
        return name(*parts)
    if parts[0] in ("selvmakker", "rounding", "gaa_med", "slam"):
        return name(*parts)
    low = grid.levels[0] if grid and grid.levels else 7
    if parts[0] == "levels" and len(parts) >= 2 and parts[1] in model.LEVELS:
        return name("cell", parts[1], 0)
    if parts[0] == "overrides" and len(parts) >= 2:
        n, _sep, s = parts[1].partition("/")
        column = next((i for i, c in enumerate(grid.columns) if s in c.suffixes), 0) if grid else 0
        return name("cell", n if n in model.LEVELS else low, column)
    return name("cell", low, 0)


def suffix_label(suffix: str) -> str:
    return suffix_name(suffix) or _("plain")
