"""The club's tariff card as a form: every value of the `house` model (variants/danish/house.py) in a field of
its own, laid out as a Danish club prints its card, so that a treasurer never types a brace.

The editor of option `house` (OPTION_EDITORS in variants/danish/view.py): `blank(options)` fills the fields from a
rule set, `read(formdata, files)` turns posted fields into the options they set (a complete house, the preset it is if
it is one, the shorthands that say the same), with each error keyed by the field it belongs to; `view(state, …)` is
the template's context (templates/variants/danish/card.html). The fields are the truth: a preset only fills them when
the treasurer asks (the "Fill in" button), the data box (the house as JSON, for the API's users) only counts when it
was changed, and either shows in the fields at once, so nothing typed is replaced without the page showing it.
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
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish import rules
from scorekeeper.variants.danish.words import PRESET_LABELS, solo_name, suffix_name
from scorekeeper.web import cards
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import point
from scorekeeper.web.i18n import say as translate
from scorekeeper.web.inputs import JSONRefused, read_json

MARK = "card"  # a form that carries the card's fields says so (an unticked switch is then "off", not "not sent")
BOX = "opt_house"  # the data box: the house as JSON
SHOWN = "shown_house"  # what the data box showed when the page was drawn
FILL, START = "card.fill", "card.start"  # "Fill in the fields from this preset"
IMPORT, FILE = "card.import", "card.file"  # "Import a card file"
LEVELS = tuple(int(n) for n in model.LEVELS)
TRICKS = tuple(range(14))
CUT = TEXT_MAX + 1  # a field's text kept: one more than a number may be long, so a longer one is refused as too long
SPARE_ROWS = 2  # empty rows for one more override or cell (a preview adds two more when they are used)
ROWS_MAX = 56  # 7 bids × 8 suffixes: no card needs more exceptions
SUFFIX_DEFAULT = {"plain": (1, 1)}  # a new switch of any other suffix starts at double


def name(*parts: Any) -> str:
    """A field's name: card.levels.7.made — the path inside the house, so the house's own errors find their field."""
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


# ---------------------------------------------------------------- the fields of a house


def texts_of(house: Mapping[str, Any]) -> dict[str, str]:
    """Every field's text for a complete, normalised house."""
    out: dict[str, str] = {}
    levels = house["levels"]
    for n in model.LEVELS:
        for f in model.LEVEL_FIELDS:
            out[name("levels", n, f)] = number_text(levels[n][f]) if n in levels else ""
    suffixes = house["suffixes"]
    for s in model.SUFFIX_NAMES:
        on = s in suffixes
        base, trick = (suffixes[s]["base"], suffixes[s]["trick"]) if on else SUFFIX_DEFAULT.get(s, (2, 2))
        out[name("suffixes", s, "on")] = "y" if on else ""
        out[name("suffixes", s, "base")] = number_text(base)
        out[name("suffixes", s, "trick")] = number_text(trick)
    sol = house["sol"]
    for bid in model.SOL_BIDS:
        entry = sol.get(bid)
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
    for i, (key, level) in enumerate(house["overrides"].items()):
        n, s = key.split("/")
        out |= {name("overrides", i, "bid"): n, name("overrides", i, "suffix"): s}
        out |= {name("overrides", i, f): number_text(level[f]) for f in model.LEVEL_FIELDS}
    for i, (key, value) in enumerate(house["cells"].items()):
        n, s, step = key.split("/")
        tricks = int(n) + int(step)  # "+2": made with 2 over; "-1": one short
        out |= {name("cells", i, "bid"): n, name("cells", i, "suffix"): s, name("cells", i, "tricks"): str(tricks)}
        out[name("cells", i, "value")] = str(value)
    out[name("overrides", "rows")] = str(len(house["overrides"]) + SPARE_ROWS)
    out[name("cells", "rows")] = str(len(house["cells"]) + SPARE_ROWS)
    return out


def _rows(formdata, what: str) -> int:
    raw = str(formdata.get(name(what, "rows"), "") or "")
    count = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 4 else SPARE_ROWS
    return max(SPARE_ROWS, min(count, ROWS_MAX))


def typed(formdata) -> dict[str, str]:
    """The fields' texts as posted (bounded: no field longer than a number may be, no more rows than a card has)."""
    out: dict[str, str] = {key: str(formdata.get(key, "") or "")[:CUT] for key in FIXED_FIELDS}
    for what, fields in (("overrides", ("bid", "suffix", *model.LEVEL_FIELDS)), ("cells", CELL_FIELDS)):
        rows = _rows(formdata, what)
        out[name(what, "rows")] = str(rows)
        for i in range(rows):
            for f in fields:
                out[name(what, i, f)] = str(formdata.get(name(what, i, f), "") or "")[:CUT]
    return out


CELL_FIELDS = ("bid", "suffix", "tricks", "value")
# The fields every card has (the rows of overrides and cells come as many as the form says).
FIXED_FIELDS = tuple(
    [name("levels", n, f) for n in model.LEVELS for f in model.LEVEL_FIELDS]
    + [name("suffixes", s, f) for s in model.SUFFIX_NAMES for f in ("on", "base", "trick")]
    + [name("sol", bid, f) for bid in model.SOL_BIDS for f in model.SOL_FIELDS]
    + [name("selvmakker", "factor"), name("selvmakker", "rounding"), name("rounding"), name("gaa_med")]
    + [name("slam", key, t) for key in model.SLAM_KEYS for t in TRICKS]
)


def house_of(texts: Mapping[str, str]) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The complete, checked house the fields hold, or None and the errors by field name (messages the core's, or
    said here)."""
    errors: dict[str, Any] = {}
    missing = Msg("fill in this value, or empty the whole row to leave the bid out")
    house: dict[str, Any] = {"levels": {}, "suffixes": {}, "overrides": {}, "cells": {}, "slam": {}, "sol": {}}

    def read_level(prefix: tuple, path: str) -> dict | None:
        cells = {f: texts.get(name(*prefix, f), "").strip() for f in model.LEVEL_FIELDS}
        if not any(cells.values()):
            return None
        level: dict[str, Any] = {}
        for f, text in cells.items():
            where = name(*prefix, f)
            if not text:
                if f == "short":
                    level[f] = 0
                else:
                    errors[where] = missing
                continue
            value = _number(text, f"{path}.{f}", model.MONEY_MAX, errors, where)
            if value is not None:
                level[f] = model.shown(value)
        return level

    for n in model.LEVELS:
        level = read_level(("levels", n), f"levels.{n}")
        if level is not None:
            house["levels"][n] = level
    for s in model.SUFFIX_NAMES:
        if not texts.get(name("suffixes", s, "on")):
            continue
        entry = {}
        for f in ("base", "trick"):
            where, text = name("suffixes", s, f), texts.get(name("suffixes", s, f), "").strip()
            if not text:
                errors[where] = Msg("fill in the factor, or switch the suffix off")
                continue
            value = _number(text, f"suffixes.{s}.{f}", model.FACTOR_MAX, errors, where)
            if value is not None:
                entry[f] = model.shown(value)
        house["suffixes"][s] = entry
    for bid in model.SOL_BIDS:
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
    house["selvmakker"] = {
        "factor": model.shown(value) if value is not None else 1,
        "rounding": texts.get(name("selvmakker", "rounding")) or "half_away",
    }
    house["rounding"] = texts.get(name("rounding")) or "half_away"
    house["gaa_med"] = texts.get(name("gaa_med")) or None
    for key in model.SLAM_KEYS:
        entries = {}
        for t in TRICKS:
            where, text = name("slam", key, t), texts.get(name("slam", key, t), "").strip()
            if not text:
                continue
            high = 13 if key == "made_extra" else model.FACTOR_MAX
            value = _number(text, f"slam.{key}.{t}", high, errors, where)
            if value is not None:
                if key != "made_extra" and value == 0:
                    errors[where] = Msg("a factor must be more than 0 (1: no change)")
                entries[str(t)] = model.shown(value)
        if entries:
            house["slam"][key] = entries
    rows: dict[str, str] = {}  # a key of the house → the row of fields it came from, for its errors
    for i in range(_rows(texts, "overrides")):
        n, s = texts.get(name("overrides", i, "bid"), ""), texts.get(name("overrides", i, "suffix"), "")
        if not n:
            continue
        key = f"{n}/{s}"
        if n not in model.LEVELS or s not in model.SUFFIX_NAMES:
            errors[name("overrides", i, "bid")] = Msg("choose a bid and a suffix")
            continue
        if key in house["overrides"]:
            errors[name("overrides", i, "bid")] = Msg("this bid and suffix has a row already")
            continue
        level = read_level(("overrides", i), f"overrides.{key}")
        if level is None:
            errors[name("overrides", i, "made")] = missing
            continue
        house["overrides"][key] = level
        rows[f"overrides.{key}"] = name("overrides", i, "bid")
    for i in range(_rows(texts, "cells")):
        n, s = texts.get(name("cells", i, "bid"), ""), texts.get(name("cells", i, "suffix"), "")
        if not n:
            continue
        if n not in model.LEVELS or s not in model.SUFFIX_NAMES:
            errors[name("cells", i, "bid")] = Msg("choose a bid and a suffix")
            continue
        tricks = _choice_int(texts.get(name("cells", i, "tricks")), 13, errors, name("cells", i, "tricks"))
        step = f"+{tricks - int(n)}" if tricks >= int(n) else f"-{int(n) - tricks}"
        key = f"{n}/{s}/{step}"
        if key in house["cells"]:
            errors[name("cells", i, "bid")] = Msg("this bid, suffix and number of tricks has a row already")
            continue
        text = texts.get(name("cells", i, "value"), "").strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 7):
            errors[name("cells", i, "value")] = Msg("must be a whole number of points from 0 to 1000000")
            continue
        house["cells"][key] = int(text)
        rows[f"cells.{key}"] = name("cells", i, "value")
    if errors:
        return None, errors
    try:
        checked = model.check_house(house)
        model.check_playable(checked)
    except OptionError as exc:
        where = rows.get(exc.path) or rows.get(exc.path.rpartition(".")[0]) or name(*exc.path.split("."))
        return None, {where: message_of(exc)}
    return checked, {}


def _choice_int(raw: Any, high: int, errors: dict, where: str) -> int:
    text = str(raw or "").strip()
    if not (text.isascii() and text.isdigit() and int(text) <= high):
        errors[where] = Msg("must be a whole number from 0 to %(high)d", high=high)
        return 0
    return int(text)


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


def options_of(house: dict[str, Any]) -> dict[str, Any]:
    """The options a card sets: the house whole, the preset it is (if one), the shorthands that say the same."""
    return {"house": house, "preset": rules.preset_of_house(house)} | rules.shorthands_of(house)


def box_text(house: Mapping[str, Any]) -> str:
    return json.dumps(house, ensure_ascii=False, indent=1)


class CardEditor:
    """The editor of option `house`; it draws the tariff, the lost rule, the sol values and the preset too."""

    template = "variants/danish/card.html"
    covers = ("tariff", "lost", "solo_values", "preset", "house")
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
        return State(texts_of(house), options=options_of(house), notice=notice, box=box_text(house))

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
        house, errors = house_of(texts)
        if house is None:
            return State(texts, errors, box=box or shown)
        return State(texts, options=options_of(house), box=box_text(house))

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
        fields_house, _errors = house_of(texts)
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
        state = self.blank({"house": house}, notice)
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

    def field_of(self, error_key: str) -> str:
        """The field a scorer's error about the house belongs to ("options.house.levels.7.made"); an error of the
        data box or of a shorthand (a form posted without the card's fields) goes to the data box."""
        path = error_key.removeprefix("options.").removeprefix("opt_")
        if path.startswith("house."):
            return name(*path.removeprefix("house.").split("."))
        return BOX

    def without_fields(self, formdata, options: Mapping[str, Any]) -> State:
        """A form posted without the card's fields (a script, an old page): the card of the rule set, its data box
        as posted, so an error about it shows beside what was sent."""
        state = self.blank(options)
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
# The sol bids as Danish club cards name them, and the app's names (its hand buttons) as their help.
SOL_CARD_NAMES = {
    "sol": (_l("sol"), _l("at most 1 trick")),
    "ren_sol": (_l("ren sol"), _l("no trick")),
    "bordlaegger": (_l("halv bordlægger"), _l("in the app: bordlægger; at most 1 trick, cards on the table")),
    "ren_bordlaegger": (_l("bordlægger"), _l("in the app: ren bordlægger; no trick, cards on the table")),
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
        label = SOL_CARD_NAMES.get(parts[1], (parts[1], ""))[0]
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


def card_text(text: str) -> str:
    """A field's number as the printed card shows it (¾, 1¼, 2½: i18n.point), for the card read, not edited; a text
    that is no number as it is."""
    try:
        return point(model.number(text, "", model.MONEY_MAX, on_paper=True)) if text else text
    except (OptionError, NumberError):
        return text


def _cell(texts, errors, key: str, *, label: Any = "", kind: str = "number") -> dict:
    error = errors.get(key)
    return {
        "name": key,
        "id": key.replace(".", "-"),
        "value": texts.get(key, ""),
        "shown": card_text(texts.get(key, "")) if kind == "number" else texts.get(key, ""),
        "label": str(label),
        "error": translate(error) if error is not None else None,
        "kind": kind,
    }


def card_view(state: State, *, tariff=None, preview_url="", method="post", readonly=False) -> dict:
    texts, errors = state.texts, state.errors
    levels = [
        {
            "n": n,
            "cells": [_cell(texts, errors, name("levels", n, f), label=LEVEL_WORDS[f]) for f in model.LEVEL_FIELDS],
        }
        for n in model.LEVELS
    ]
    suffixes = [
        {
            "key": s,
            "label": suffix_name(s) or _("plain (almindelige)"),
            "extra": s in model.EXTRA_SUFFIXES,
            "on": _cell(texts, errors, name("suffixes", s, "on"), kind="switch"),
            "base": _cell(texts, errors, name("suffixes", s, "base"), label=_("made and lost: times")),
            "trick": _cell(texts, errors, name("suffixes", s, "trick"), label=_("tricks over and short: times")),
        }
        for s in model.SUFFIX_NAMES
    ]
    sol = [
        {
            "key": bid,
            "label": str(SOL_CARD_NAMES[bid][0]),
            "help": str(SOL_CARD_NAMES[bid][1]),
            "app": solo_name(bid),
            "cells": [_cell(texts, errors, name("sol", bid, f), label=SOL_WORDS[f]) for f in model.SOL_FIELDS[1:]],
            "max_tricks": _cell(
                texts, errors, name("sol", bid, "max_tricks"), label=SOL_WORDS["max_tricks"], kind="select"
            ),
        }
        for bid in model.SOL_BIDS
    ]
    slam = [
        {
            "tricks": t,
            "cells": [_cell(texts, errors, name("slam", key, t), label=SLAM_WORDS[key]) for key in model.SLAM_KEYS],
        }
        for t in TRICKS
    ]
    rows = {what: int(texts.get(name(what, "rows"), SPARE_ROWS) or SPARE_ROWS) for what in ("overrides", "cells")}
    overrides = [
        {
            "bid": _cell(texts, errors, name("overrides", i, "bid"), kind="select"),
            "suffix": _cell(texts, errors, name("overrides", i, "suffix"), kind="select"),
            "cells": [_cell(texts, errors, name("overrides", i, f), label=LEVEL_WORDS[f]) for f in model.LEVEL_FIELDS],
        }
        for i in range(rows["overrides"])
    ]
    cells = [
        {
            "bid": _cell(texts, errors, name("cells", i, "bid"), kind="select"),
            "suffix": _cell(texts, errors, name("cells", i, "suffix"), kind="select"),
            "tricks": _cell(texts, errors, name("cells", i, "tricks"), kind="select"),
            "value": _cell(texts, errors, name("cells", i, "value"), label=_("points")),
        }
        for i in range(rows["cells"])
    ]
    known = {c["name"] for group in (levels, slam) for row in group for c in row["cells"]}
    known |= {c["name"] for row in sol for c in row["cells"]} | {row["max_tricks"]["name"] for row in sol}
    known |= {row[k]["name"] for row in suffixes for k in ("on", "base", "trick")}
    known |= {row[k]["name"] for row in overrides for k in ("bid", "suffix")} | {
        c["name"] for row in overrides for c in row["cells"]
    }
    known |= {row[k]["name"] for row in cells for k in ("bid", "suffix", "tricks", "value")}
    known |= {name("selvmakker", "factor"), name("selvmakker", "rounding"), name("rounding"), name("gaa_med")}
    general = [translate(m) for k, m in errors.items() if k not in known and k not in (BOX, FILE)]
    return {
        "mark": MARK,
        "readonly": readonly,
        "method": method,
        "preview_url": preview_url,
        "levels": levels,
        "suffixes": suffixes,
        "sol": sol,
        "slam": slam,
        "slam_open": any(c["value"] or c["error"] for row in slam for c in row["cells"]),
        "overrides": overrides,
        "cells": cells,
        "exceptions_open": any(row["bid"]["value"] or row["bid"]["error"] for row in overrides + cells),
        "overrides_rows": name("overrides", "rows"),
        "cells_rows": name("cells", "rows"),
        "rows_count": dict(rows),
        "selvmakker": _cell(texts, errors, name("selvmakker", "factor"), label=_("each other pays the value times")),
        "selvmakker_rounding": _cell(texts, errors, name("selvmakker", "rounding"), kind="select"),
        "rounding": _cell(texts, errors, name("rounding"), kind="select"),
        "gaa_med": _cell(texts, errors, name("gaa_med"), kind="choice"),
        "roundings": [(k, str(v)) for k, v in ROUNDING_WORDS.items()],
        "gaa_med_choices": [(k, str(v)) for k, v in GAA_MED_WORDS.items()],
        "bid_choices": [("", "–")] + [(n, n) for n in model.LEVELS],
        "suffix_choices": [(s, suffix_name(s) or _("plain")) for s in model.SUFFIX_NAMES],
        "tricks_choices": [(str(t), str(t)) for t in TRICKS],
        "presets": [(p, rules_label(p)) for p in rules.PRESETS],
        "preset": (state.options or {}).get("preset"),
        "fill": FILL,
        "start": START,
        "import": IMPORT,
        "file": FILE,
        "file_error": translate(errors[FILE]) if FILE in errors else None,
        "box_name": BOX,
        "shown_name": SHOWN,
        "box": state.box,
        "box_error": translate(errors[BOX]) if BOX in errors else None,
        "notice": state.notice,
        "general": general,
        "error_count": len(errors),
        "tariff": tariff,
    }
