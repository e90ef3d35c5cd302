"""The club's tariff card as a form shaped like the printed card: its columns (a heading and the suffixes each
covers), a row per bid the club plays, a value in each square, and once for the card how a made bid, an overtrick and
a lost bid follow from a square; the sol bids by the club's own names beside it. No brace, no exception rows: the grid
is translated into the house of RULES.md (variants/danish/grid.py) and back, so a stored house opens as its grid.

The editor of option `house` (OPTION_EDITORS in variants/danish/view.py): `blank(options)` fills the fields from a
rule set, `read(formdata, files)` turns posted fields into the options they set (a complete house, the club's words in
option `card_names`, the preset it is if it is one, the shorthands that say the same), with each error keyed by the field
it belongs to; `view(state, …)` is the template's context (templates/variants/danish/card.html). The fields are the
truth: a preset only fills them when the treasurer asks (the "Fill in" button), and shows in them at once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from babel import numbers
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l

from scorekeeper.core.messages import Msg, OptionError, message_of
from scorekeeper.core.numbers import TEXT_MAX, NumberError
from scorekeeper.variants.danish import grid as danish_grid
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish import rules
from scorekeeper.variants.danish.words import PRESET_LABELS, solo_name, suffix_name
from scorekeeper.web import cards
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import say as translate
from scorekeeper.web.inputs import JSONRefused, read_json

MARK = "card"  # a form that carries the card's fields says so (an unticked switch is then "off", not "not sent")
BOX = "opt_house"  # the data box: the house as JSON
SHOWN = "shown_house"  # what the data box showed when the page was drawn
FILL, START = "card.fill", "card.start"  # "Fill in the fields from this preset"
IMPORT, FILE = "card.import", "card.file"  # "Import a card file"
SENT = "sent:"  # an error about the house a script sent as data, by its path there
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
    """A typed number (a decimal comma or point, or "1/2") through the core's strict reader; None if wrong (said).
    Spaces are the reader's to judge ("1 1/4" is one and a quarter, never 11/4)."""
    raw = " ".join(text.split())
    if "/" not in raw:
        raw = raw.replace(",", ".")
    try:
        return model.number(raw, path, high)
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
    out[name("selvmakker", "rounding")] = house["selvmakker"]["rounding"]
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


def _count(text: str, low: int, high: int, default: int) -> int:
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
    count = _count(texts.get(name("columns"), ""), 1, COLUMNS, 1)
    low = _count(texts.get(name("low"), ""), 7, 13, 7)
    high = _count(texts.get(name("high"), ""), low, 13, 13)
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
        return None, {}, {_field_of_path(exc.path, grid): message_of(exc)}
    return checked, danish_grid.names_of(grid, sol_names), {}


def _choice_int(raw: Any, high: int, errors: dict, where: str) -> int:
    text = str(raw or "").strip()
    if not (text.isascii() and text.isdigit() and int(text) <= high):
        errors[where] = Msg("must be a whole number from 0 to %(high)d", high=high)
        return 0
    return int(text)


def _field_of_path(path: str, grid: danish_grid.Grid | None = None) -> str:
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


# ---------------------------------------------------------------- the editor


@dataclass
class State:
    """What the card's fields hold after a request: their texts, the errors by field, the options they set (None while
    there are errors), a notice for the page (a preset filled in, a card imported) and options an import brought for
    the page's other fields (the rate, jernhånd …)."""

    texts: dict[str, str]
    errors: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] | None = None
    notice: str | None = None
    more: dict[str, Any] = field(default_factory=dict)
    box: str = ""
    fields: bool = True  # the form carried the card's fields (False: a script posted the house as data)


def options_of(house: dict[str, Any], names: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The options a card sets: the house whole, the club's words, the preset it is (if one), the shorthands that say
    the same (only those: none that contradicts the house)."""
    words = danish_grid.check_names(names) if names else None
    return {"house": house, "card_names": words, "preset": rules.preset_of_house(house)} | rules.shorthands_of(house)


def box_text(house: Mapping[str, Any]) -> str:
    return json.dumps(house, ensure_ascii=False, indent=1)


class CardEditor:
    """The editor of option `house`; it draws the tariff, the lost rule, the sol values and the preset too."""

    template = "variants/danish/card.html"
    covers = ("tariff", "lost", "solo_values", "preset", "house", "card_names")
    mark = MARK
    files = (FILE,)

    def posted(self, formdata) -> bool:
        return MARK in formdata

    def acts(self, formdata) -> bool:
        """A preset to fill in or a card to import: the page shows the fields and saves nothing."""
        return self.posted(formdata) and bool(formdata.get(FILL) or formdata.get(IMPORT))

    def blank(self, options: Mapping[str, Any], notice: str | None = None) -> State:
        """The fields of a rule set (resolved options, as a game or club keeps them)."""
        house = model.check_house(rules.house_dict(options))
        names = options.get("card_names")
        return State(texts_of(house, names), options=options_of(house, names), notice=notice, box=box_text(house))

    def read(self, formdata, files=None) -> State:
        """The posted fields; the data box when it was changed, a preset when "Fill in" was pressed, a card file when
        "Import" was: each replaces the fields, and the page shows them with a notice."""
        if formdata.get(FILL) and formdata.get(START) in rules.PRESETS:
            preset = formdata[START]
            label = rules_label(preset)
            return self.blank(
                rules.TARIFF_PRESETS[preset],
                _(
                    "The fields now hold the preset “%(preset)s”. Change any number; nothing is saved yet.",
                    preset=label,
                ),
            )
        if formdata.get(IMPORT):
            return self.imported(files.get(FILE) if files else None, formdata)
        box, shown = str(formdata.get(BOX, "") or ""), str(formdata.get(SHOWN, "") or "")
        texts = typed(formdata)
        if box.strip() and " ".join(box.split()) != " ".join(shown.split()):
            return self.from_box(box, texts)
        house, names, errors = house_of(texts)
        if house is None:
            return State(texts, errors, box=box or shown)
        return State(texts, options=options_of(house, names), box=box_text(house))

    def from_box(self, box: str, texts: dict[str, str]) -> State:
        """The data box was changed: what it gives goes over the fields' card, and the fields show the result."""
        try:
            given = model.check_house(read_json(box))
        except JSONRefused as exc:
            return State(texts, {BOX: message_of(exc)}, box=box)
        except OptionError as exc:
            return State(
                texts,
                {BOX: Msg("%(where)s: %(message)s", where=path_words(exc.path), message=message_of(exc))},
                box=box,
            )
        except ValueError:
            return State(
                texts, {BOX: Msg("the card as data could not be read: check its brackets and quotes")}, box=box
            )
        fields_house, _names, _errors = house_of(texts)
        house = model.check_house(model.merged(fields_house or rules.build_house({}), given))
        try:
            model.check_playable(house)
        except OptionError as exc:
            return State(texts, {BOX: message_of(exc)}, box=box)
        state = State(texts_of(house), options=options_of(house), box=box_text(house))
        state.notice = _("The fields now show what the card as data holds. Nothing is saved yet.")
        return state

    def imported(self, upload, formdata) -> State:
        """A card file (from a club's card page, "Download the card"): its tariff in the fields, its other house rules
        and the evening's defaults for the page's own fields."""
        texts = typed(formdata)
        raw = upload.read(cards.FILE_MAX + 1) if upload else b""
        if not raw:
            return State(texts, {FILE: Msg("choose a card file first (a .json file from a club's card page)")})
        if len(raw) > cards.FILE_MAX:
            return State(texts, {FILE: Msg("this file is too large to be a card")})
        wrong = Msg("this file is not a card of Danish whist from scorekeeper")
        try:
            card = cards.read_card(raw.decode("utf-8"), rules.NAME)
            given = card["options"].get("house")
            if not isinstance(given, dict):
                raise cards.NotACard("no house")
            house = model.check_house(model.merged(rules.build_house({}), model.check_house(given)))
            model.check_playable(house)
        except (UnicodeDecodeError, cards.NotACard):
            return State(texts, {FILE: wrong})
        except (JSONRefused, OptionError) as exc:
            return State(texts, {FILE: Msg("%(reason)s: %(detail)s", reason=wrong, detail=message_of(exc))})
        notice = _("The card “%(name)s” is in the fields. Nothing is saved yet.", name=card["name"] or "?")
        names = card["options"].get("card_names")
        try:
            names = danish_grid.check_names(names)
        except ValueError:
            names = None
        state = self.blank({"house": house, "card_names": names}, notice)
        state.more = {k: v for k, v in card["options"].items() if k not in self.covers}
        state.more["evening"] = card["evening"]
        return state

    def view(self, state: State, *, tariff=None, preview_url="", fragment_url="", method="post", readonly=False):
        """The template's context: the fields in rows as the card has them, each with its text and error."""
        view = card_view(state, tariff=tariff, preview_url=preview_url, method=method, readonly=readonly)
        return view | {"fragment_url": fragment_url}

    def updates(self, state: State) -> dict[str, str]:
        """The fields a live preview sets: all of them when they were filled in (a preset, the data box, a file), and
        the data box kept in step (what it showed, unless what it holds could not be read)."""
        out = dict(state.texts) if state.notice else {}
        out[BOX] = state.box
        if BOX not in state.errors:
            out[SHOWN] = state.box
        return out

    def messages(self, state: State) -> dict[str, str]:
        return {key: translate(message) for key, message in state.errors.items()}

    def field_of(self, error_key: str, state: State | None = None) -> str:
        """The field a scorer's error about the house belongs to ("options.house.levels.7.made": the square it comes
        from); for a form posted without the card's fields, the error names its path in the house as sent."""
        path = error_key.removeprefix("options.").removeprefix("opt_")
        if state is not None and not state.fields:
            return f"{SENT}{path}"
        if path.startswith("house."):
            return _field_of_path(path.removeprefix("house."))
        if path.startswith("card_names"):
            return name("col", 0, "heading")
        return BOX

    def without_fields(self, formdata, options: Mapping[str, Any]) -> State:
        """A form posted without the card's fields (a script, an old page): the card of the rule set, its data box
        as posted, so an error about it shows beside what was sent."""
        state = self.blank(options)
        state.fields = False
        if formdata.get(BOX):
            state.box = str(formdata[BOX])
        return state


# ---------------------------------------------------------------- words


def rules_label(preset: str) -> str:
    return str(PRESET_LABELS.get(preset, preset))


ROUNDING_WORDS = {
    "half_away": _l("to the nearest; a half away from zero"),
    "ceil": _l("always up"),
    "floor": _l("always down"),
    "trunc": _l("towards zero (drop the fraction)"),
    "away": _l("away from zero (any fraction counts a whole)"),
    "none": _l("not at all: fractions of a point are kept (ingen afrunding)"),
}
GAA_MED_WORDS = {
    "": _l("No: a sol is played by one player"),
    "independent": _l("Yes: each sol player settles with all three others"),
    "vs_non_participants": _l("Yes: each sol player settles with those not playing sol"),
    "winners_pool": _l("Yes: the sol values are totals; the winners share what the others pay"),
}
MADE_WORDS = {
    "over": _l("the value, and the value again for each trick over"),
    "flat": _l("the value; tricks over pay nothing"),
    "half_over": _l("the value, and half the value for each trick over"),
    "times_bid": _l("the value times the tricks bid, and the value for each trick over"),
}
LOST_WORDS = {
    "per_trick": _l("the value for each missing trick"),
    "double": _l("the value doubled"),
    "double_per_trick": _l("the value doubled for each missing trick"),
    "plus_per_trick": _l("the value, and the value again for each missing trick"),
    "value": _l("the value"),
    "times_bid": _l("the value times the tricks bid"),
}
PER_TRICK_WORDS = {
    "column": _l("in each column's own value"),
    "first": _l("in the first column's value (the columns raise the bid only)"),
}
LEVEL_WORDS = {
    "made": _l("made"),
    "over": _l("each trick over"),
    "lost": _l("lost"),
    "short": _l("each trick short"),
}  # a lost bid pays "lost" + "each trick short" × the tricks it was short
SOL_WORDS = {
    "max_tricks": _l("made with at most"),
    "won": _l("made: each other pays"),
    "lost": _l("lost: pays each"),
    "won_per_under": _l("more per trick under"),
    "lost_per_over": _l("more per trick over"),
}
SLAM_WORDS = {
    "made_factor": _l("made: times"),
    "lost_factor": _l("lost: times"),
    "made_extra": _l("made: tricks counted extra"),
}


def path_words(path: str) -> str:
    """A place inside the house in the card's words: "levels.7.made" → "7: made"."""
    parts = path.split(".")
    head = parts[0]
    if head == "levels" and len(parts) >= 2:
        return f"{parts[1]}: {LEVEL_WORDS.get(parts[2], parts[2]) if len(parts) > 2 else _('the row')}"
    if head == "sol" and len(parts) >= 2:
        label = solo_name(parts[1]) if parts[1] in model.SOL_BIDS else parts[1]
        return f"{label}: {SOL_WORDS.get(parts[2], parts[2])}" if len(parts) > 2 else str(label)
    if head == "suffixes":
        return _("Suffixes")
    if head == "gaa_med":
        return _("Gå med")
    if head in ("rounding", "selvmakker"):
        return _("Rounding") if head == "rounding" else _("Selvmakker")
    if head == "slam":
        return _("Slam")
    if head in ("overrides", "cells"):
        return _("Exceptions")
    return _("The card")


def _cell(texts, errors, key: str, *, label: Any = "", kind: str = "number") -> dict:
    error = errors.get(key)
    return {
        "name": key,
        "id": key.replace(".", "-"),
        "value": texts.get(key, ""),
        "label": str(label),
        "error": translate(error) if error is not None else None,
        "kind": kind,
    }


def suffix_label(suffix: str) -> str:
    return suffix_name(suffix) or _("plain")


def column_heading(heading: str, suffixes) -> str:
    """A column's heading as the club wrote it, or its suffixes' names."""
    return heading or ", ".join(suffix_label(s) for s in suffixes)


def card_view(state: State, *, tariff=None, preview_url="", method="post", readonly=False) -> dict:
    texts, errors = state.texts, state.errors
    count = _count(texts.get(name("columns"), ""), 1, COLUMNS, 1)
    low = _count(texts.get(name("low"), ""), 7, 13, 7)
    high = _count(texts.get(name("high"), ""), low, 13, 13)
    columns = []
    for i in range(COLUMNS):
        ticked = [s for s in model.SUFFIX_NAMES if texts.get(name("col", i, s))]
        heading = _cell(texts, errors, name("col", i, "heading"), label=_("Heading of column %(n)d", n=i + 1))
        columns.append(
            {
                "i": i,
                "n": i + 1,
                "hidden": i >= count,
                "heading": heading | {"kind": "text"},
                "title": column_heading(heading["value"], ticked) or _("Column %(n)d", n=i + 1),
                "suffixes": [
                    _cell(texts, errors, name("col", i, s), label=suffix_label(s), kind="switch")
                    for s in model.SUFFIX_NAMES
                ],
            }
        )
    rows = [
        {
            "n": n,
            "hidden": not low <= n <= high,
            "cells": [
                _cell(texts, errors, name("cell", n, i), label=f"{n} · {columns[i]['title']}") | {"i": i}
                for i in range(COLUMNS)
            ],
        }
        for n in LEVELS
    ]
    sol = []
    for bid in model.SOL_BIDS:
        own = _cell(texts, errors, name("sol", bid, "name"), label=_("The club's name for it")) | {"kind": "text"}
        sol.append(
            {
                "key": bid,
                "label": own["value"] or solo_name(bid),
                "default": solo_name(bid),
                "name": own,
                "cells": [_cell(texts, errors, name("sol", bid, f), label=SOL_WORDS[f]) for f in model.SOL_FIELDS[1:]],
                "max_tricks": _cell(
                    texts, errors, name("sol", bid, "max_tricks"), label=SOL_WORDS["max_tricks"], kind="select"
                ),
            }
        )
    slam = [
        {
            "tricks": t,
            "cells": [_cell(texts, errors, name("slam", key, t), label=SLAM_WORDS[key]) for key in model.SLAM_KEYS],
        }
        for t in TRICKS
    ]
    known = {c["name"] for row in rows for c in row["cells"]} | {c["name"] for row in slam for c in row["cells"]}
    known |= {c["name"] for col in columns for c in col["suffixes"]} | {col["heading"]["name"] for col in columns}
    known |= {c["name"] for row in sol for c in row["cells"]} | {row["max_tricks"]["name"] for row in sol}
    known |= {row["name"]["name"] for row in sol}
    known |= {name("selvmakker", "factor"), name("selvmakker", "rounding"), name("rounding"), name("gaa_med")}
    general = [
        f"{k.removeprefix(SENT)}: {translate(m)}" if k.startswith(SENT) else translate(m)
        for k, m in errors.items()
        if k not in known and k not in (BOX, FILE)
    ]
    levels = [(str(n), str(n)) for n in LEVELS]
    return {
        "mark": MARK,
        "readonly": readonly,
        "method": method,
        "preview_url": preview_url,
        "count": _cell(texts, errors, name("columns"), kind="select"),
        "count_choices": [(str(k), str(k)) for k in range(1, COLUMNS + 1)],
        "low": _cell(texts, errors, name("low"), kind="select"),
        "high": _cell(texts, errors, name("high"), kind="select"),
        "level_choices": levels,
        "columns": columns,
        "rows": rows,
        "made": _cell(texts, errors, name("made"), kind="select"),
        "lost": _cell(texts, errors, name("lost"), kind="select"),
        "per_trick": _cell(texts, errors, name("per_trick"), kind="select"),
        "made_choices": [(k, str(v)) for k, v in MADE_WORDS.items()],
        "lost_choices": [(k, str(v)) for k, v in LOST_WORDS.items()],
        "per_trick_choices": [(k, str(v)) for k, v in PER_TRICK_WORDS.items()],
        "cells_name": name("cells"),
        "cells_kept": texts.get(name("cells"), ""),
        "sol": sol,
        "slam": slam,
        "slam_open": any(c["value"] or c["error"] for row in slam for c in row["cells"]),
        "selvmakker": _cell(texts, errors, name("selvmakker", "factor"), label=_("each other pays the value times")),
        "selvmakker_rounding": _cell(texts, errors, name("selvmakker", "rounding"), kind="select"),
        "rounding": _cell(texts, errors, name("rounding"), kind="select"),
        "gaa_med": _cell(texts, errors, name("gaa_med"), kind="choice"),
        "roundings": [(k, str(ROUNDING_WORDS[k])) for k in model.ROUNDINGS if k in ROUNDING_WORDS],
        "gaa_med_choices": [(k, str(v)) for k, v in GAA_MED_WORDS.items()],
        "tricks_choices": [(str(t), str(t)) for t in TRICKS],
        "presets": [(p, rules_label(p)) for p in rules.PRESETS],
        "preset": (state.options or {}).get("preset"),
        "fill": FILL,
        "start": START,
        "import": IMPORT,
        "file": FILE,
        "file_error": translate(errors[FILE]) if FILE in errors else None,
        "box_error": translate(errors[BOX]) if BOX in errors else None,
        "notice": state.notice,
        "general": general,
        "error_count": len(errors),
        "tariff": tariff,
    }
