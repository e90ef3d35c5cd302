"""The one reader of a number of money or of a tariff, as a player types it or the API sends it: strict and cheap.

Python reads far more than a card table writes: Decimal() and Fraction() take "１２", "١٢" and "1_0" (so a rate of
"0_05" was 5, a hundred times the stake), and "1e10000000" becomes a number of ten million digits before any range
is checked (seconds of CPU per request). Here the text is held to ASCII digits, an optional sign, a decimal point, an
exponent of at most three digits and, where the caller allows it, a fraction "p/q" (an integer over a positive
integer, as API.md writes it: never "1.5/3", "1/3e2" or "+1/3") or a mixed number "1 1/4" (never 11/4); its length,
the digits it would have written out and the size of the result are bounded *before* any arithmetic, then the range
is checked. Every refusal is an OptionError naming the path, in words the shell translates
(Msg). `ascii_written` turns what a treasurer writes on paper ("0,75", "¾", "1¼") into that ASCII form first (the
pages read it; the API does not), and `exact`/`written` keep and write a point that is not whole (RULES.md "Exact
points", API.md "Points that are not whole").
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from scorekeeper.core.messages import Msg, OptionError

TEXT_MAX = 64  # characters of a number's text, surrounding spaces left out: checked first
DIGITS_MAX = 30  # digits of a number written out without an exponent, before and after the point together
EXPONENT_DIGITS = 3  # "2.5e3" takes an exponent of at most three digits (and DIGITS_MAX still holds)

_DECIMAL = rf"([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]{{1,{EXPONENT_DIGITS}}}))?"
DECIMAL = re.compile(r"([+-]?)" + _DECIMAL, re.ASCII)
FRACTION = re.compile(r"(-?)([0-9]+)/([0-9]+)", re.ASCII)  # API.md's "p/q": an integer over a positive integer
MIXED = re.compile(r"(-?)([0-9]+) +([0-9]+)/([0-9]+)", re.ASCII)  # "1 1/4": whole, spaces, a proper fraction
LOOSE = re.compile(r"[+-]?[0-9]*(?:\.[0-9]*)?[eE][+-]?[0-9]+", re.ASCII)  # a decimal but for its exponent's length
INT_MAX = 10**DIGITS_MAX  # an int at least this large is refused by its size, never turned into text
# Exact points (a Danish house's `rounding: none`): every point a house can score is a whole number of 1/D, D the
# least common multiple of its points' denominators (variants/danish/house.py, `points_denominator`), and a house whose
# D would pass this is refused where it comes in. With points of at most 10**14 (the house's ranges) and MAX_HANDS
# hands, a total is then written in at most 23 digits over 7 (docs/operations.md "Input bounds").
DENOMINATOR_MAX = 10**6


class NumberError(OptionError):
    """A number refused: `kind` says why ("shape", "long", "range", "places" or "mixed"), `path` where."""

    def __init__(self, message: str, path: str = "", kind: str = "shape"):
        super().__init__(message, path)
        self.kind = kind


Point = int | Fraction  # a hand's points or a total: an int, a Fraction only under exact points (never a whole one)


def exact(value: Point) -> Point:
    """A point as the core keeps it: an int when whole (so every game without exact points stays in ints), else the
    Fraction."""
    if type(value) is Fraction and value.denominator == 1:
        return value.numerator
    return value


def written(value: Point) -> int | str:
    """A point or a number of a house as the API writes it: an int when whole, else "p/q" in lowest terms, the sign
    in front ("-21/4")."""
    if isinstance(value, int):
        return value
    return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def small(value: Point) -> bool:
    """A point or total whose numerator and denominator have at most DIGITS_MAX digits each: what a page, an answer
    and a paper write without fail (Python refuses to write an int of more than 4,300 digits), and what the reader
    takes back. Compared, never written out."""
    if isinstance(value, int):
        return -INT_MAX < value < INT_MAX
    return -INT_MAX < value.numerator < INT_MAX and value.denominator < INT_MAX


DECIMALS_MAX = 6  # a point that no decimal writes exactly (a third) is written to this many places in a spreadsheet


def as_decimal(value: Point) -> int | Decimal:
    """A point as a spreadsheet cell's number: an int when whole, else the exact decimal (¾ → 0.75, −10¾ → −10.75);
    a fraction no decimal writes (⅓) to DECIMALS_MAX places."""
    if isinstance(value, int) or value.denominator == 1:
        return int(value)
    for places in range(1, DECIMALS_MAX + 1):
        scaled = value * 10**places
        if scaled.denominator == 1:
            return Decimal(scaled.numerator).scaleb(-places)
    quantum = Decimal(1).scaleb(-DECIMALS_MAX)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(quantum, rounding=ROUND_HALF_UP)


# The vulgar fractions a card prints ("¾", "1¼"), as (numerator, denominator).
# fmt: off
VULGAR = {
    "¼": (1, 4), "½": (1, 2), "¾": (3, 4), "⅓": (1, 3), "⅔": (2, 3), "⅕": (1, 5), "⅖": (2, 5), "⅗": (3, 5),
    "⅘": (4, 5), "⅙": (1, 6), "⅚": (5, 6), "⅛": (1, 8), "⅜": (3, 8), "⅝": (5, 8), "⅞": (7, 8), "⅐": (1, 7),
    "⅑": (1, 9), "⅒": (1, 10),
}
# fmt: on
_WRITTEN = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2044": "/", "\u2215": "/", "\xa0": " ", "\u202f": " "})


def ascii_written(text: str) -> str:
    """A number as written on paper in the reader's ASCII form: "0,75" → "0.75", "¾" → "3/4", "1¼" → "1 1/4", "3 / 4"
    → "3/4", a real minus sign or a fraction slash as ASCII; anything else is left for the strict reader to refuse. A
    text longer than a number may be is left as it is (refused by its length)."""
    text = text.strip()
    if len(text) > TEXT_MAX:
        return text
    text = re.sub(r"\s*/\s*", "/", text.translate(_WRITTEN))  # "3 / 4" as typed; the reader takes "3/4"
    if text and text[-1] in VULGAR:
        top, bottom = VULGAR[text[-1]]
        whole = text[:-1].rstrip()
        text = f"{whole}{top}/{bottom}" if whole in ("", "-", "+") else f"{whole} {top}/{bottom}"
    elif "," in text and "." not in text and "/" not in text:
        text = text.replace(",", ".", 1) if text.count(",") == 1 else text
    return text


def mixed_improper() -> Msg:
    return Msg("the fraction of a mixed number must be less than 1: 1 1/4, not 1 5/4")


def too_long() -> Msg:
    return Msg("has too many digits (at most %(digits)d, written out)", digits=DIGITS_MAX)


def read_number(
    value: Any,
    path: str = "",
    *,
    high: int | Fraction,
    low: int | Fraction = 0,
    places: int | None = None,
    fraction: bool = False,
    exponent: bool = True,
    messages: Mapping[str, str] | None = None,  # Msg for the core; the shell may pass text already translated
) -> Fraction:
    """`value` (an int, a finite float or a text) as an exact Fraction from `low` to `high`; OptionError if not.

    `places`: at most that many decimals; `fraction`: "a/b" and "1 1/4" are allowed; `exponent`: "1e3" is allowed. `messages`
    words a refusal by its kind: "shape" (not a number of this kind), "range", "places", "long" (too many digits);
    "range" and "places" fall back on "shape", which falls back on a plain "must be a number from low to high"."""
    said = dict(messages or {})

    def wrong(kind: str) -> NumberError:
        if kind == "long":
            message = said.get("long") or too_long()
        elif kind == "mixed":
            message = said.get("mixed") or mixed_improper()
        else:
            message = (
                said.get(kind)
                or said.get("shape")
                or Msg("must be a number from %(low)s to %(high)s", low=str(low), high=str(high))
            )
        return NumberError(message, path, kind)

    if isinstance(value, bool):
        raise wrong("shape")
    if isinstance(value, int):
        if not -INT_MAX < value < INT_MAX:
            raise wrong("range" if not low <= value <= high else "long")
        out = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise wrong("shape")
        if not low <= value <= high:
            raise wrong("range")
        out = _text(repr(value), exponent=True, fraction=False, wrong=wrong)  # 0.1 is 1/10, as it was written
    elif isinstance(value, str):
        out = _text(value, exponent=exponent, fraction=fraction, wrong=wrong)
    else:
        raise wrong("shape")
    if not low <= out <= high:
        raise wrong("range")
    if places is not None and (out * 10**places).denominator != 1:
        raise wrong("places")
    if out.numerator >= INT_MAX or out.denominator >= INT_MAX:
        raise wrong("long")  # what is kept ("p/q") can always be read back
    return out


def _text(raw: str, *, exponent: bool, fraction: bool, wrong) -> Fraction:
    text = raw.strip()
    if not text:
        raise wrong("shape")
    if len(text) > TEXT_MAX:
        raise wrong("long" if _looks_numeric(text[:1000]) else "shape")
    match = DECIMAL.fullmatch(text)
    if match is not None:
        sign, parts = match.group(1), match.groups()[1:]
        out = _decimal(*parts, exponent=exponent, wrong=wrong)
    elif fraction and (match := FRACTION.fullmatch(text)) is not None:
        sign, top, bottom = match.groups()
        if max(len(top.lstrip("0")), len(bottom.lstrip("0"))) > DIGITS_MAX:
            raise wrong("long")
        if int(bottom) == 0:
            raise wrong("shape")
        out = Fraction(int(top), int(bottom))
    elif fraction and (match := MIXED.fullmatch(text)) is not None:
        sign, units, numerator, denominator = match.groups()
        if max(len(units.lstrip("0")), len(numerator.lstrip("0")), len(denominator.lstrip("0"))) > DIGITS_MAX:
            raise wrong("long")
        if int(denominator) == 0:
            raise wrong("shape")
        if int(numerator) >= int(denominator):
            raise wrong("mixed")
        out = int(units) + Fraction(int(numerator), int(denominator))
    elif exponent and LOOSE.fullmatch(text):
        raise wrong("long")  # "1e10000000": an exponent of more than EXPONENT_DIGITS digits
    else:
        raise wrong("shape")
    return -out if sign == "-" else out


def _looks_numeric(text: str) -> bool:
    """A long text of a number's characters: too long a number, not something else."""
    return all(c in "0123456789.+-eE/ " for c in text)


def _decimal(whole: str | None, decimals: str | None, power: str | None, *, exponent: bool, wrong) -> Fraction:
    """One decimal number from its parts (digits before and after the point, the exponent): the digits it would have
    written out bounded before anything is computed, so the arithmetic stays on numbers of at most DIGITS_MAX digits."""
    whole, decimals = whole or "", decimals or ""
    if not whole and not decimals:
        raise wrong("shape")
    if power is not None and not exponent:
        raise wrong("shape")
    e = int(power) if power is not None else 0
    whole, decimals = whole.lstrip("0"), decimals.rstrip("0")
    digits = whole + decimals
    if not digits:
        return Fraction(0)
    written = max(0, len(whole) + e) + max(0, len(decimals) - e)
    if written > DIGITS_MAX:
        raise wrong("long")
    scale = e - len(decimals)
    mantissa = int(digits)
    return Fraction(mantissa * 10**scale) if scale >= 0 else Fraction(mantissa, 10**-scale)
