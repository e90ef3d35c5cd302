"""A number in a cell as a treasurer's sheet holds it: a spreadsheet's number (12, −3.5, a formula's last value), or
a text — "12", "−12,5", "1.250,50 kr", "50,-", "¾", "10 1/4" — with a decimal comma or point (a CSV file's separator
says which: semicolons go with decimal commas). Points are exact (a Fraction: a quarter point stays a quarter);
money is whole øre/cents; a count (hands, a table's number) is a whole number from 0."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from scorekeeper.core.messages import Msg
from scorekeeper.core.numbers import NumberError, ascii_written, read_number

POINTS_MAX = 10**9
MONEY_MAX = 10**8  # a member's money for one evening, in whole currency (a hundred million)
COUNT_MAX = 10_000
EMPTY = {"-", "–", "—", "−", "/", "x", "n/a"}  # what a sheet writes for "did not play"
_CURRENCY = re.compile(r"(?i)(?:kr\.?|dkk|nok|sek|eur|gbp|usd|€|£|\$|,-|\.-)")


class AmountProblem(ValueError):
    """A cell that is no number of its kind: its Msg says what it holds and what was wanted."""


def is_empty(value: Any) -> bool:
    """A cell that says nothing: empty, or a dash a sheet writes for an evening not played."""
    return value is None or (isinstance(value, str) and value.strip().casefold() in EMPTY)


def _text(value: str, decimal: str) -> str:
    """A written number in the reader's ASCII form: currency and spaces between digits gone, the thousands' separator
    dropped and the decimal sign a point."""
    text = _CURRENCY.sub("", value.replace("\u2212", "-").replace("\u2013", "-")).strip()
    if "/" in text or any(c in text for c in "¼½¾⅓⅔⅛⅜⅝⅞"):
        return ascii_written(text)  # a fraction: "¾", "10 1/4" (its space is the mixed number's)
    text = re.sub(r"(?<=\d)[\s\u00a0\u202f'](?=\d)", "", text)
    if "," in text and "." in text:
        decimal_sign = "," if text.rfind(",") > text.rfind(".") else "."
        other = "." if decimal_sign == "," else ","
        text = text.replace(other, "").replace(decimal_sign, ".")
    elif "," in text:
        grouped = re.fullmatch(r"-?\d{1,3}(,\d{3})+", text)
        text = text.replace(",", "") if grouped and (decimal == "." or text.count(",") > 1) else text.replace(",", ".")
    elif "." in text:
        grouped = re.fullmatch(r"-?\d{1,3}(\.\d{3})+", text)
        if grouped and (decimal == "," or text.count(".") > 1):
            text = text.replace(".", "")
    return text


def _number(value: Any, decimal: str, high: int, places: int | None, wanted: Msg) -> Fraction:
    if isinstance(value, bool):
        raise AmountProblem(wanted)
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) > high:
            raise AmountProblem(wanted)
        exact = Fraction(repr(value))
        if places is not None and (exact * 10**places).denominator != 1:
            near = Fraction(round(value * 10**places), 10**places)
            if abs(float(near) - value) >= 1e-6:  # not a formula's 12.350000000000001: more decimals than money has
                raise AmountProblem(wanted)
            return near
        if places is None and exact.denominator > 10**6:
            near = exact.limit_denominator(1000)
            if abs(float(near) - value) >= 1e-9:
                raise AmountProblem(wanted)
            return near
        return exact
    if isinstance(value, int):
        value = str(value)
    if not isinstance(value, str):
        raise AmountProblem(wanted)
    text = _text(value, decimal)
    try:
        return read_number(text, low=-high, high=high, places=places, fraction=places is None, exponent=False)
    except NumberError:
        raise AmountProblem(wanted) from None


def read_points(value: Any, decimal: str = "") -> Fraction:
    return _number(value, decimal, POINTS_MAX, None, Msg("“%(text)s” is no number of points", text=_shown(value)))


def read_money(value: Any, decimal: str = "") -> int:
    """An amount in whole øre/cents."""
    wanted = Msg("“%(text)s” is no amount of money (at most two decimals)", text=_shown(value))
    return int(_number(value, decimal, MONEY_MAX, 2, wanted) * 100)


def read_count(value: Any) -> int:
    wanted = Msg("“%(text)s” is no whole number from 0", text=_shown(value))
    number = _number(value, "", COUNT_MAX, 0, wanted)
    if number < 0:
        raise AmountProblem(wanted)
    return int(number)


def _shown(value: Any) -> str:
    return str(value)[:40]
