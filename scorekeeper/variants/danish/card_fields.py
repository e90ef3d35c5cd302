"""The card's fields read and written as a treasurer writes them: a field's name, numbers as typed on the card (¾, 1¼,
"1 1/4", 0,75), the fields a house fills and the house the fields make, with each error keyed by its field. The editor
(variants/danish/card.py) draws and answers the form around them.

Beside the grid (a value per bid and column, one rule for the card) the card is also a matrix, as many clubs print it: a
row per bid and suffix in the club's words ("8 gode"), a square per number of tricks 0–13, each a field of its own
(`card.sq.8.gode.10`). A square holding a number is the card's own value there (RULES.md's `cells`); an empty one counts
as the grid's rule gives it. The squares are filled one by one, from the rule (a button), or from a block of rows pasted
from the club's spreadsheet (`read_paste`); a card opens with the squares it has, every square where the grid cannot
show it, so that saving a page never changes a square nobody touched.

The matrix's fields are card_matrix.py's, the numbers as a treasurer writes them and the paste's reader card_paste.py's;
the editor (card.py) reads them through this module."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from scorekeeper.core.messages import Msg, OptionError, message_of
from scorekeeper.core.numbers import DENOMINATOR_MAX, TEXT_MAX, NumberError
from scorekeeper.variants.danish import grid as danish_grid
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish import rules
from scorekeeper.variants.danish.card_matrix import (
    ALL_SQUARES,
    COLUMNS,
    INEXACT,
    LEVELS,
    PASTE,
    PASTE_MAX,
    SAID,
    SQUARES,
    card_rows,
    cell_key,
    count_of,
    field_view,
    name,
    paste_into,
    read_squares,
    square_name,
    square_of_cell,
    suffix_label,
)
from scorekeeper.variants.danish.card_matrix import MARK as MARK
from scorekeeper.variants.danish.card_matrix import club_bid_label as club_bid_label
from scorekeeper.variants.danish.card_matrix import matrix_view as matrix_view
from scorekeeper.variants.danish.card_matrix import squares_notice as squares_notice
from scorekeeper.variants.danish.card_paste import (
    TRICKS,
    group_symbol,
    number_text,
    square_text,
    square_value,
    ungrouped,
)
from scorekeeper.variants.danish.card_paste import read_paste as read_paste

CUT = TEXT_MAX + 1  # a field's text kept: one more than a number may be long, so a longer one is refused as too long
SOL_NUMBERS = ("won", "lost", "won_per_under", "lost_per_over")  # a sol bid's numbers (its gå med is a choice)
SOL_OWN = "none"  # a sol bid's own gå med field: never played along (its JSON null); "" follows the card's


# ---------------------------------------------------------------- the fields of a card


def _number(text: str, path: str, high: int, errors: dict, where: str) -> Fraction | None:
    """A typed number as written on paper (3, 0,75, 0.75, 3/4, ¾, 1¼, 1 1/4; 1.280 with the reader's thousands
    separator, as the matrix's squares read it) through the core's strict reader; None if wrong (said)."""
    try:
        return model.number(ungrouped(text.strip(), group_symbol()), path, high, on_paper=True)
    except (OptionError, NumberError) as exc:
        errors[where] = message_of(exc)
        return None


def texts_of(house: Mapping[str, Any], names: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Every field's text for a complete, normalised house: the grid it opens as (variants/danish/grid.py), in
    the club's own column layout and words (option `card_names`) when they fit it; the squares of its own (`cells`) in
    the matrix, and every square there when the grid cannot show the card as it is."""
    out: dict[str, str] = {}
    grid, exact = danish_grid.grid_of(house, names)
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
        for f in SOL_NUMBERS:
            out[name("sol", bid, f)] = number_text(entry[f]) if entry else ""
        own = model.own_gaa_med(house, bid) if entry else model.HOUSE_RULE
        out[name("sol", bid, "gaa_med")] = "" if own == model.HOUSE_RULE else own or SOL_OWN
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
    scored = model.parse(house)
    for n in LEVELS:
        for s in model.SUFFIX_NAMES:
            for t in TRICKS:
                kept = scored.can_bid(n, s) and (not exact or cell_key(n, s, t) in house["cells"])
                out[square_name(n, s, t)] = square_text(scored.trick_value(n, s, t)) if kept else ""
    out[INEXACT] = "" if exact else "y"
    return out


# The fields every card has.
FIXED_FIELDS = tuple(
    [name("columns"), name("low"), name("high"), name("made"), name("lost"), name("per_trick")]
    + [name("col", i, f) for i in range(COLUMNS) for f in ("heading", *model.SUFFIX_NAMES)]
    + [name("cell", n, i) for n in LEVELS for i in range(COLUMNS)]
    + [name("sol", bid, f) for bid in model.SOL_BIDS for f in ("name", "gaa_med", *model.SOL_FIELDS)]
    + [name("selvmakker", "factor"), name("selvmakker", "rounding"), name("rounding"), name("gaa_med")]
    + [name("slam", key, t) for key in model.SLAM_KEYS for t in TRICKS]
    + [PASTE, SQUARES, *ALL_SQUARES]
)
TEXT_FIELDS = {name("col", i, "heading") for i in range(COLUMNS)} | {name("sol", b, "name") for b in model.SOL_BIDS}


def typed(formdata) -> dict[str, str]:
    """The fields' texts as posted, each bounded one character past what it may hold (no field longer than a number,
    a name or a paste may be), so that a longer one is refused in words, never cut to fit."""
    out = {}
    for key in FIXED_FIELDS:
        cut = danish_grid.NAME_MAX + 1 if key in TEXT_FIELDS else PASTE_MAX + 1 if key == PASTE else CUT
        out[key] = str(formdata.get(key, "") or "")[:cut]
    return out


def _choice(text: str, choices: tuple[str, ...], default: str) -> str:
    return text if text in choices else default


def house_of(texts: dict[str, str]) -> tuple[dict[str, Any] | None, dict[str, Any], dict[str, Any]]:
    """The complete, checked house and the names the fields hold, or None and the errors by field name. What the
    matrix's buttons and the paste put in the squares is written into `texts` (the page shows it)."""
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
    rows = card_rows(texts, range(low, high + 1))
    action = texts.get(SQUARES, "")
    texts[SQUARES] = ""
    if action == "clear":
        for r in rows:
            for t in TRICKS:
                texts[square_name(r.n, r.suffix, t)] = ""
        texts[SAID] = "clear"
    paste_into(texts, rows, errors)
    values: dict[int, tuple[Fraction, ...]] = {}
    for n in range(low, high + 1):
        row = []
        for i in range(count):
            where = name("cell", n, i)
            text = texts.get(where, "").strip()
            if not text and columns[i].suffixes and _matrix_holds(texts, n, columns[i].suffixes):
                text = texts[where] = _grid_value_of(texts, n, columns[i].suffixes[0])
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
    entry: dict[str, Any]
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
        for f in SOL_NUMBERS:
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
        own = texts.get(name("sol", bid, "gaa_med"), "")
        if own == SOL_OWN or own in model.GAA_MED:
            entry["gaa_med"] = None if own == SOL_OWN else own  # this bid's own gå med rule; "": the card's
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
    squares = read_squares(texts, rows, errors)
    if errors:
        return None, {}, errors
    house |= danish_grid.house_parts(grid)
    house["cells"] = {}
    try:
        checked = model.check_house(house)
        model.check_playable(checked)
        if action == "rule":  # every square of the card from the rule as it stands, to change one by one
            scored = model.parse(checked)
            for r in rows:
                for t in TRICKS:
                    made = scored.trick_value(r.n, r.suffix, t)
                    texts[square_name(r.n, r.suffix, t)] = square_text(made)
                    squares[(r.n, r.suffix, t)] = Fraction(made)
            texts[SAID] = "rule"
        cells = {cell_key(n, s, t): model.shown(abs(v)) for (n, s, t), v in squares.items()}
        checked = model.check_house(checked | {"cells": cells})
        model.points_denominator(checked, DENOMINATOR_MAX)  # named by its square, as the game's options would
    except OptionError as exc:
        return None, {}, {field_of_path(exc.path, grid): message_of(exc)}
    return checked, danish_grid.names_of(grid, sol_names), {}


def _matrix_holds(texts: Mapping[str, str], n: int, suffixes) -> bool:
    """Every square of a bid's rows for these suffixes has a number: the grid's value there is not needed."""
    return all(texts.get(square_name(n, s, t), "").strip() for s in suffixes for t in TRICKS)


def _grid_value_of(texts: Mapping[str, str], n: int, suffix: str) -> str:
    """The grid's value of a bid whose rows the matrix holds whole: its square made exactly (what the grid's value
    is on a card that follows a rule), 0 if that square is no number (said beside it)."""
    try:
        return number_text(abs(square_value(texts[square_name(n, suffix, n)], "", group_symbol())))
    except (NumberError, OptionError):
        return "0"


def _choice_int(raw: Any, high: int, errors: dict, where: str) -> int:
    text = str(raw or "").strip()
    if not (text.isascii() and text.isdigit() and int(text) <= high):
        errors[where] = Msg("must be a whole number from 0 to %(high)d", high=high)
        return 0
    return int(text)


def field_of_path(path: str, grid: danish_grid.Grid | None = None) -> str:
    """The field an error of the house belongs to: a sol's own field, a level's square in the first column, a
    suffix's column, a square of the matrix."""
    parts = path.split(".")
    square = square_of_cell(parts[1]) if parts[0] == "cells" and len(parts) >= 2 else None
    if square is not None:
        return square_name(*square)
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


def sol_gaa_med_view(texts: Mapping[str, str], errors: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each sol bid's own gå med field by bid: "" as the card's, SOL_OWN never, or one of the house's rules."""
    return {bid: field_view(texts, errors, name("sol", bid, "gaa_med"), "") for bid in model.SOL_BIDS}
