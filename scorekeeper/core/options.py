"""House rules: an `Option` per rule a table may switch (its default, its checker, a line of help) and the checks
that build a game's full set of options from what a table chose.

An option's `kind` says how the shell writes it as text and reads it back (web/options.py), so it names a shape,
never a variant: int, int_or_none, bool, choice, rate, preset (a named set of other options), int_list (whole
numbers in order), int_map (a whole number per key of `choices`), int_or_map (one whole number, or one per key of
`choices`; empty is none), json (a structure written as JSON), choice_or_list (one of `choices`, or whole numbers in
order).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from scorekeeper.core.fields import is_int
from scorekeeper.core.messages import Msg, OptionError, message_of
from scorekeeper.core.numbers import read_number

CURRENCIES = ("DKK", "NOK", "SEK", "EUR", "GBP", "USD")
LANGUAGE_CURRENCY = {"da": "DKK", "nb": "NOK", "sv": "SEK", "en": "GBP"}  # what a new game or drive preselects
KINDS = (
    "int",
    "int_or_none",
    "bool",
    "choice",
    "rate",
    "preset",
    "int_list",
    "int_map",
    "int_or_map",
    "json",
    "choice_or_list",
)


@dataclass(frozen=True)
class Option:
    """A house rule: its default, a checker that normalises or refuses a value, and a line of help."""

    default: Any
    check: Callable[[Any], Any]
    help: str
    kind: str = "int"
    choices: tuple = ()
    low: int | None = None
    high: int | None = None
    home: bool = False  # a currency that is the variant's own (Danish whist: DKK), kept whatever a page's language


def int_option(default, low, high, help, allow_none=False):
    def check(value):
        if value is None and allow_none:
            return None
        if not is_int(value):
            raise ValueError(
                Msg("must be a whole number from %(low)d to %(high)d or null", low=low, high=high)
                if allow_none
                else Msg("must be a whole number from %(low)d to %(high)d", low=low, high=high)
            )
        if not low <= value <= high:
            if abs(value) >= 10**12:  # not repeated back: a number of thousands of digits costs its text
                raise ValueError(Msg("must be a whole number from %(low)d to %(high)d", low=low, high=high))
            raise ValueError(Msg("must be from %(low)d to %(high)d, not %(value)d", low=low, high=high, value=value))
        return value

    return Option(default, check, help, "int_or_none" if allow_none else "int", (), low, high)


def bool_option(default, help):
    def check(value):
        if not isinstance(value, bool):
            raise ValueError(Msg("must be true or false"))
        return value

    return Option(default, check, help, "bool")


def choice_option(default, choices, help):
    def check(value):
        if value not in choices:
            raise ValueError(Msg("must be one of %(choices)s", choices=", ".join(choices)))
        return value

    return Option(default, check, help, "choice", tuple(choices))


def choice_or_list_option(default, choices, low, high, most, help):
    """One of `choices` (a name for a list the variant builds), or the list itself: 1 to `most` whole numbers, each
    from `low` to `high`."""

    def check(value):
        if isinstance(value, str) and value in choices:
            return value
        said = Msg(
            "must be one of %(choices)s, or a list of 1 to %(most)d whole numbers from %(low)d to %(high)d",
            choices=", ".join(choices),
            most=most,
            low=low,
            high=high,
        )
        if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= most:
            raise ValueError(said)
        if not all(is_int(v) and low <= v <= high for v in value):
            raise ValueError(said)
        return list(value)

    return Option(default, check, help, "choice_or_list", tuple(choices), low, high)


def rate_option(default, help):
    said = {
        "shape": Msg("must be a number of money per point, for instance 0.05"),
        "range": Msg("must be from 0 to 1000 per point"),
        "places": Msg("may have at most 4 decimals"),
    }

    def check(value):
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError(said["shape"])
        amount = read_number(value, high=1000, places=4, messages=said)
        return float(amount) if isinstance(value, str) else value

    return Option(default, check, help, "rate")


def currency_option(default, home: bool = False):
    """The settlement's currency: `default` for the API; a page preselects its language's unless it is `home`, the
    currency of the country whose game the variant is (Danish, Norwegian, Swedish whist)."""
    return replace(choice_option(default, CURRENCIES, Msg("Currency of the settlement.")), home=home)


def check_options(spec: Mapping[str, Option], given: Any) -> tuple[dict, dict]:
    """Merge `given` over the defaults; answer (options, errors) with errors keyed `options.<name>`."""
    errors: dict[str, str] = {}
    options = {name: opt.default for name, opt in spec.items()}
    if given is None:
        return options, errors
    if not isinstance(given, Mapping):
        return options, {"options": Msg("must be an object of house rules")}
    for name, value in given.items():
        if name not in spec:
            errors[f"options.{name}"] = Msg("unknown option for this variant (known: %(known)s)", known=", ".join(spec))
            continue
        try:
            options[name] = spec[name].check(value)
        except OptionError as exc:
            errors[f"options.{name}.{exc.path}" if exc.path else f"options.{name}"] = message_of(exc)
        except ValueError as exc:
            errors[f"options.{name}"] = message_of(exc)
    return options, errors
