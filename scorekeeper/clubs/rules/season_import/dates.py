"""A date as a treasurer writes it: "12.9.", "12/9", "12-09-2026", "12.9.26", "12. sep.", "12. september 2026",
"Sep 12, 2026", "2026-09-12", or a spreadsheet's own date cell. Day before month, as in the Nordic countries and
Britain. A date without its year takes the year that puts it in the club's season when the club has named one, else
the latest such day that is not after today (an import in January reads "12.9." as last September)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from scorekeeper.clubs.rules.season_import.words import MONTHS
from scorekeeper.core.messages import Msg

_LETTERS = "a-zæøåäöéü"
PATTERNS = (
    ("iso", re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")),
    ("dmy", re.compile(r"(?<![\d.,])(\d{1,2})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{4}|\d{2})(?![\d.,]?\d)")),
    (
        "d month",
        re.compile(rf"(?<![\d.,])(\d{{1,2}})\.?\s*([{_LETTERS}]{{3,10}})\.?(?:\s*(\d{{4}}))?(?![{_LETTERS}\d])"),
    ),
    (
        "month d",
        re.compile(
            rf"(?<![{_LETTERS}])([{_LETTERS}]{{3,10}})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?!\d),?(?:\s*(\d{{4}}))?"
        ),
    ),
    ("dm", re.compile(r"(?<![\d.,])(\d{1,2})\s*[./]\s*(\d{1,2})\.?(?![\d,]|\.\d)")),
)


class DateProblem(ValueError):
    """A text that names a day that does not exist ("31.9."): its Msg says which."""


@dataclass(frozen=True)
class DayContext:
    """What a date without its year is read against: today, and the club's season (from, to) when it has named one."""

    today: date
    season: tuple[date, date] | None = None


@dataclass(frozen=True)
class Written:
    """A date found in a text: its day, month and year (None: not written) and where it stands in the text."""

    day: int
    month: int
    year: int | None
    start: int
    end: int


def month_of(word: str) -> int | None:
    """A month's number from its name or a shortening of at least three letters that only one month starts with."""
    word = word.strip(".").casefold()
    if len(word) < 3:
        return None
    found = {n for n, names in MONTHS.items() if word in names}
    if not found:
        found = {n for n, names in MONTHS.items() if any(name.startswith(word) for name in names)}
    return found.pop() if len(found) == 1 else None


def find_day(text: str) -> Written | None:
    """The first date written in a text, or None."""
    said = text.casefold()
    for kind, pattern in PATTERNS:
        for match in pattern.finditer(said):
            found = _written(kind, match)
            if found is not None:
                return found
    return None


def _written(kind: str, match: re.Match) -> Written | None:
    groups = match.groups()
    year: int | None
    if kind == "iso":
        year, month, day = int(groups[0]), int(groups[1]), int(groups[2])
    elif kind == "dmy":
        day, month, year = int(groups[0]), int(groups[1]), int(groups[2])
    elif kind == "d month":
        found = month_of(groups[1])
        if found is None:
            return None
        day, month, year = int(groups[0]), found, int(groups[2]) if groups[2] else None
    elif kind == "month d":
        found = month_of(groups[0])
        if found is None:
            return None
        month, day, year = found, int(groups[1]), int(groups[2]) if groups[2] else None
    else:
        day, month, year = int(groups[0]), int(groups[1]), None
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    if year is not None and year < 100:
        year += 2000
    return Written(day, month, year, match.start(), match.end())


def complete(written: Written, ctx: DayContext, text: str = "") -> date:
    """The day a written date names; DateProblem when there is no such day."""
    if written.year is not None:
        try:
            return date(written.year, written.month, written.day)
        except ValueError:
            raise DateProblem(no_such_day(text)) from None
    if ctx.season is not None:
        start, end = ctx.season
        for year in range(start.year, end.year + 1):
            try:
                day = date(year, written.month, written.day)
            except ValueError:
                continue
            if start <= day <= end:
                return day
    for back in range(0, 8):  # the latest such day that is not after today (a 29 February looks back to a leap year)
        try:
            day = date(ctx.today.year - back, written.month, written.day)
        except ValueError:
            continue
        if day <= ctx.today:
            return day
    raise DateProblem(no_such_day(text))


def no_such_day(text: str) -> Msg:
    return Msg("“%(text)s” names no day of the calendar", text=text)


def read_day(value, ctx: DayContext) -> date | None:
    """A cell's date: a date cell as it is, a text that is a date (and nothing with digits besides); None if the cell
    holds no date. DateProblem for a day that does not exist."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, timedelta) or not isinstance(value, str):
        return None
    written = find_day(value)
    if written is None:
        return None
    said = value.casefold()
    rest = said[: written.start] + said[written.end :]
    if any(c.isdigit() for c in rest):
        return None
    return complete(written, ctx, value)
