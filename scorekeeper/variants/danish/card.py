"""The club's tariff card as a form shaped like the printed card: its columns (a heading and the suffixes each
covers), a row per bid the club plays, a value in each square, and once for the card how a made bid, an overtrick and
a lost bid follow from a square; the sol bids by the club's own names beside it. No brace, no exception rows: the grid
is translated into the house of RULES.md (variants/danish/grid.py) and back, so a stored house opens as its grid.

The editor of option `house` (OPTION_EDITORS in variants/danish/view.py): `blank(options)` fills the fields from a
rule set, `read(formdata, files)` turns posted fields into the options they set (a complete house, the club's words in
option `card_names`, the preset it is if it is one, the shorthands that say the same), with each error keyed by the field
it belongs to; `view(state, …)` is the template's context (variants/danish/templates/card.html). The fields are the
truth: a preset only fills them when the treasurer asks (the "Fill in" button), and shows in them at once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext as _l

from scorekeeper.core.messages import Msg, OptionError, message_of
from scorekeeper.core.numbers import DENOMINATOR_MAX, NumberError
from scorekeeper.variants.danish import card_fields, rules
from scorekeeper.variants.danish import grid as danish_grid
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish.card_fields import (
    COLUMNS,
    LEVELS,
    MARK,
    TRICKS,
    count_of,
    field_of_path,
    house_of,
    name,
    suffix_label,
    texts_of,
    typed,
)
from scorekeeper.variants.danish.words import PRESET_LABELS, solo_name
from scorekeeper.web import cards
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import point
from scorekeeper.web.i18n import say as translate
from scorekeeper.web.inputs import JSONRefused, read_json

BOX = "opt_house"  # the data box: the house as JSON
SHOWN = "shown_house"  # what the data box showed when the page was drawn
FILL, START = "card.fill", "card.start"  # "Fill in the fields from this preset"
IMPORT, FILE = "card.import", "card.file"  # "Import a card file"
SENT = "sent:"  # an error about the house a script sent as data, by its path there


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
        """A preset to fill in, a card to import, the matrix's squares filled, emptied or read from a paste: the page shows
        the fields and saves nothing."""
        return self.posted(formdata) and bool(
            formdata.get(FILL) or formdata.get(IMPORT) or formdata.get(card_fields.SQUARES)
        )

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
        notice = card_fields.squares_notice(texts)  # the squares filled from the rule or a paste, or emptied
        if house is None:
            return State(texts, errors, box=box or shown, notice=notice)
        return State(texts, options=options_of(house, names), box=box_text(house), notice=notice)

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
        fields_house, names, _errors = house_of(texts)
        house = model.check_house(model.merged(fields_house or rules.build_house({}), given))
        try:
            model.check_playable(house)
        except OptionError as exc:
            return State(texts, {BOX: message_of(exc)}, box=box)
        try:
            model.points_denominator(house, DENOMINATOR_MAX)
        except OptionError as exc:
            where = path_words(exc.path)
            return State(texts, {BOX: Msg("%(where)s: %(message)s", where=where, message=message_of(exc))}, box=box)
        words = names or None  # the club's words typed in the fields stay: the box holds the house only
        state = State(texts_of(house, words), options=options_of(house, words), box=box_text(house))
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
            model.points_denominator(house, DENOMINATOR_MAX)
        except (UnicodeDecodeError, cards.NotACard):
            return State(texts, {FILE: wrong})
        except (JSONRefused, OptionError) as exc:
            return State(texts, {FILE: Msg("%(reason)s: %(detail)s", reason=wrong, detail=message_of(exc))})
        notice = _("The card “%(name)s” is in the fields. Nothing is saved yet.", name=card["name"] or "?")
        try:  # the club's words come whole or the file is refused: never dropped without a word
            names = danish_grid.check_names(card["options"].get("card_names"))
        except ValueError as exc:
            detail = Msg("%(where)s: %(message)s", where="card_names", message=message_of(exc))
            return State(texts, {FILE: Msg("%(reason)s: %(detail)s", reason=wrong, detail=detail)})
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
            return field_of_path(path.removeprefix("house."))
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


def column_heading(heading: str, suffixes) -> str:
    """A column's heading as the club wrote it, or its suffixes' names."""
    return heading or ", ".join(suffix_label(s) for s in suffixes)


def card_view(state: State, *, tariff=None, preview_url="", method="post", readonly=False) -> dict:
    texts, errors = state.texts, state.errors
    count = count_of(texts.get(name("columns"), ""), 1, COLUMNS, 1)
    low = count_of(texts.get(name("low"), ""), 7, 13, 7)
    high = count_of(texts.get(name("high"), ""), low, 13, 13)
    columns: list[dict[str, Any]] = []
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
    rows: list[dict[str, Any]] = [
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
    sol: list[dict[str, Any]] = []
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
    slam: list[dict[str, Any]] = [
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
    matrix = card_fields.matrix_view(texts, errors, method=method)
    sol_gaa_med = card_fields.sol_gaa_med_view(texts, errors)
    known |= matrix["names"] | {c["name"] for c in sol_gaa_med.values()}
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
        "matrix": matrix,
        "sol_gaa_med": sol_gaa_med,
        "sol_own": card_fields.SOL_OWN,
        "sol": sol,
        "slam": slam,
        "slam_open": any(c["value"] or c["error"] for row in slam for c in row["cells"]),
        "selvmakker": _cell(texts, errors, name("selvmakker", "factor"), label=_("each other pays the value times")),
        "selvmakker_rounding": _cell(texts, errors, name("selvmakker", "rounding"), kind="select"),
        "rounding": _cell(texts, errors, name("rounding"), kind="select"),
        "gaa_med": _cell(texts, errors, name("gaa_med"), kind="choice"),
        "roundings": [(k, str(ROUNDING_WORDS[k])) for k in model.ROUNDINGS if k in ROUNDING_WORDS],
        "selv_roundings": [("", _("as the points round"))]
        + [(k, str(ROUNDING_WORDS[k])) for k in model.ROUNDINGS if k in ROUNDING_WORDS],
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
