"""The house a Danish game's options make, and back: the shorthands (the tariff of bids 7–13, the lost bid's rule, the
sol bids' values), a named preset changing what they build, and a house given whole over both; and from a complete
house, the shorthands and the preset that say exactly what it does (RULES.md "danish"). The house itself, parsed and
scored, is variants/danish/house.py's; the options are variants/danish/rules.py's."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from scorekeeper.core.fields import is_int
from scorekeeper.core.game import TableContext
from scorekeeper.core.messages import Msg, OptionError
from scorekeeper.core.numbers import DENOMINATOR_MAX
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish.presets import PRESETS
from scorekeeper.variants.danish.sol import DEFAULT_SOLO_VALUES, SOLO_BIDS, SOLO_MAX_TRICKS

DEFAULT_TARIFF = (10, 20, 40, 80, 160, 320, 640)

SHORTHANDS = ("tariff", "lost", "solo_values")
STANDARD_SHORTHANDS = {"tariff": list(DEFAULT_TARIFF), "lost": "flat", "solo_values": dict(DEFAULT_SOLO_VALUES)}

# Each preset as the options it sets, for the forms, the club and the blank sheet.
TARIFF_PRESETS = {
    name: {"preset": name} | STANDARD_SHORTHANDS | shorthands for name, (shorthands, _build) in PRESETS.items()
}


def check_tariff(value):
    """The option `tariff`: the base values of bids 7 to 13."""
    if not isinstance(value, (list, tuple)) or len(value) != 7 or not all(is_int(v) for v in value):
        raise ValueError(Msg("must be 7 whole numbers: the base value of bids 7, 8, 9, 10, 11, 12 and 13"))
    if not all(1 <= v <= 1_000_000 for v in value):
        raise ValueError(Msg("each value must be from 1 to 1000000"))
    return list(value)


def check_preset(value):
    """The option `preset`: one of PRESETS, or None."""
    if value is not None and (not isinstance(value, str) or value not in PRESETS):
        raise ValueError(Msg("must be one of %(choices)s, or null", choices=", ".join(PRESETS)))
    return value


def build_house(options: Mapping[str, Any]) -> dict[str, Any]:
    """The complete house of a game's options: the shorthands' house, changed by the preset, then the keys of
    `house` given replace the ones built."""
    base = model.standard(
        options.get("tariff", DEFAULT_TARIFF),
        options.get("lost", "flat"),
        options.get("solo_values", DEFAULT_SOLO_VALUES),
        SOLO_MAX_TRICKS,
    )
    _shorthands, build = PRESETS[options.get("preset") or "standard"]
    if build is not None:
        base = build(base)
    return model.merged(base, model.check_house(options.get("house") or {}))


def preset_house(name: str) -> dict[str, Any]:
    """The complete, normalised house a preset gives (its shorthands and its builder): what a form's fields are filled
    with when a table or club starts from it."""
    return model.check_house(build_house(TARIFF_PRESETS[name]))


def preset_of_house(house: Mapping[str, Any]) -> str | None:
    """The preset whose house this is, exactly (the first, by PRESETS' order), or None: a card of the club's own."""
    wanted = model.check_house(model.merged(build_house({}), house))
    return next((name for name in PRESETS if _preset_houses()[name] == wanted), None)


_PRESET_HOUSES: dict[str, dict] = {}


def _preset_houses() -> dict[str, dict]:
    if not _PRESET_HOUSES:
        _PRESET_HOUSES.update({name: preset_house(name) for name in PRESETS})
    return _PRESET_HOUSES


def shorthands_of(house: Mapping[str, Any]) -> dict[str, Any]:
    """The shorthands (tariff, lost, solo_values) that say exactly what a complete house does, those it can say: a
    house given whole keeps its shorthands from contradicting it. A house they cannot describe (fractions, a lost bid
    that is neither flat nor per trick) leaves them out."""
    out: dict[str, Any] = {}
    levels = house.get("levels") or {}
    values = [model.kept(levels[n]["made"]) if n in levels else None for n in model.LEVELS]
    if all(v is not None and v.denominator == 1 and 1 <= v <= 1_000_000 for v in values):
        if all(model.kept(levels[n]["over"]) == values[i] for i, n in enumerate(model.LEVELS)):
            out["tariff"] = [int(v) for v in values if v is not None]
        pairs = [(model.kept(levels[n]["lost"]), model.kept(levels[n]["short"])) for n in model.LEVELS]
        if all(pair == (2 * v, Fraction(0)) for pair, v in zip(pairs, values) if v is not None):
            out["lost"] = "flat"
        elif all(pair == (Fraction(0), 2 * v) for pair, v in zip(pairs, values) if v is not None):
            out["lost"] = "per_trick"
    sol = house.get("sol") or {}
    if set(sol) == set(SOLO_BIDS):
        won = {bid: model.kept(sol[bid]["won"]) for bid in SOLO_BIDS}
        if all(
            v.denominator == 1
            and 1 <= v <= 1_000_000
            and model.kept(sol[bid]["lost"]) == 2 * v
            and sol[bid]["max_tricks"] == SOLO_MAX_TRICKS[bid]
            and model.kept(sol[bid]["won_per_under"]) == model.kept(sol[bid]["lost_per_over"]) == 0
            for bid, v in won.items()
        ):
            out["solo_values"] = {bid: int(v) for bid, v in won.items()}
    return out


def resolve_options(given: Mapping[str, Any], table: TableContext) -> tuple[dict[str, Any], dict[str, str]]:
    options = dict(table.options)
    preset = options.get("preset")
    if preset is not None:
        for key, value in (STANDARD_SHORTHANDS | PRESETS[preset][0]).items():
            if key not in given:
                options[key] = value.copy() if isinstance(value, (dict, list)) else value
    try:
        options["house"] = model.check_house(build_house(options))
        model.check_playable(options["house"])
    except OptionError as exc:  # a preset's numbers over a table's tariff out of range
        return options, {f"options.house.{exc.path}": exc.args[0]}
    # The shorthands only where they say what the house does: never a tariff, lost rule or sol values it contradicts.
    for key in SHORTHANDS:
        options.pop(key, None)
    options.update(shorthands_of(options["house"]))
    return options, {}


def check_options(table: TableContext) -> dict[str, str]:
    """A new game's, club's or card's house keeps its exact points small (docs/operations.md "Input bounds"): its points'
    denominator at most DENOMINATOR_MAX. Not asked of a stored game's options: a house stored before the bound scores
    as it did."""
    try:
        model.points_denominator(table.options["house"], DENOMINATOR_MAX)
    except OptionError as exc:
        return {f"options.house.{exc.path}": exc.args[0]}
    return {}


def house_dict(options: Mapping[str, Any]) -> Mapping[str, Any]:
    """The complete house of a rule set as data: the one it keeps, or (for options stored before `house` existed, or
    a preset's shorthands) the one they build."""
    house = options.get("house")
    if not isinstance(house, Mapping) or any(key not in house for key in model.KEYS):
        house = build_house(options)
    return house
