"""Which column of a sheet is what, guessed from its headings, and the admin's changes to the guess.

Two shapes. *Wide*: the members down the side, an evening a column with its date in the heading ("12.9.",
"12. sep.", "2026-09-12 points"); a column of money when its heading or its sheet says so ("kr", "Penge"), else of
points; a total column (a member's "I alt") to check against; a second sheet of money beside one of points. *Long*:
a row per member per evening: the date, the member, the points and optionally the money (net, before the fee, the
fee), the hands and the table. A workbook with a long sheet reads it and leaves its wide ones out (the app's own
ledger has both, holding the same evenings), and the admin may change any of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from scorekeeper.clubs.rules.season_import.book import Book, Sheet
from scorekeeper.clubs.rules.season_import.dates import DateProblem, DayContext, complete, find_day, read_day
from scorekeeper.clubs.rules.season_import.words import Words
from scorekeeper.core.messages import Msg

SHAPES = ("wide", "long", "skip")
# wide: points, money, hands are an evening's column (it has a date); total is a member's total of the sheet's
# evenings of its measure; long: one value per row each.
WIDE_ROLES = ("member", "points", "money", "hands", "total", "ignore")
LONG_ROLES = ("date", "member", "points", "money", "before_fee", "fee", "hands", "table", "ignore")
MEASURES = ("points", "money", "hands")
HEAD_ROWS = 25  # the headings are looked for in a sheet's first rows (a title and a blank line may come first)


@dataclass(frozen=True)
class Column:
    """A column as the import reads it: its heading as written, its job (`role`), and for an evening's column of a
    wide sheet the evening (`day`, None while its heading names no day) and the date as the heading wrote it;
    `measure` is what a wide sheet's total column adds up."""

    index: int
    heading: str
    role: str
    day: date | None = None
    written: str = ""
    measure: str = ""
    problem: Msg | None = None  # the heading's date names no day ("31.9.")


@dataclass(frozen=True)
class SheetLayout:
    index: int
    name: str
    shape: str
    head: int  # the headings' row, 0-based
    columns: tuple[Column, ...]
    measure: str = "points"  # a wide sheet's evenings: of points, or of money (a sheet named "Penge")

    def role(self, role: str) -> list[Column]:
        return [c for c in self.columns if c.role == role]

    @property
    def member(self) -> Column | None:
        return next((c for c in self.columns if c.role == "member"), None)

    @property
    def evenings(self) -> list[Column]:
        """A wide sheet's evening columns."""
        return [c for c in self.columns if c.role in MEASURES] if self.shape == "wide" else []


@dataclass(frozen=True)
class Layout:
    sheets: tuple[SheetLayout, ...]

    @property
    def used(self) -> tuple[SheetLayout, ...]:
        return tuple(s for s in self.sheets if s.shape != "skip")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, date):
        return value.isoformat()
    return str(value).strip()


def _heading_day(value: Any, ctx: DayContext) -> tuple[date | None, str, str, Msg | None] | None:
    """A heading that holds a date: (the day, the date as written, the heading's other words, a problem); None if
    it holds none."""
    if isinstance(value, date):
        day = read_day(value, ctx)
        return day, _text(value), "", None
    if not isinstance(value, str):
        return None
    written = find_day(value)
    if written is None:
        return None
    said = value.casefold()
    shown = value[written.start : written.end].strip() if len(said) == len(value) else value.strip()
    rest = said[: written.start] + " " + said[written.end :]
    try:
        return complete(written, ctx, shown), shown, rest, None
    except DateProblem as exc:
        return None, shown, rest, exc.args[0]


def _score(row: tuple[Any, ...], words: Words, ctx: DayContext) -> int:
    """How much a row looks like headings: a date 2, a known word 1."""
    score = 0
    for value in row:
        if value is None or isinstance(value, (int, float)):
            continue
        if _heading_day(value, ctx) is not None:
            score += 2
        elif isinstance(value, str) and words.job_of(value):
            score += 1
    return score


def head_row(sheet: Sheet, words: Words, ctx: DayContext) -> int:
    """The row of headings: the one among the first that looks most like headings (the first of equals)."""
    best, best_score = 0, 0
    for r, row in enumerate(sheet.rows[:HEAD_ROWS]):
        if sum(1 for v in row if v is not None) < 2:
            continue
        score = _score(row, words, ctx)
        if score > best_score:
            best, best_score = r, score
    return best


def _mostly_text(sheet: Sheet, column: int, head: int) -> bool:
    values = [sheet.cell(r, column) for r in range(head + 1, len(sheet.rows))]
    values = [v for v in values if v is not None]
    return bool(values) and sum(isinstance(v, str) for v in values) * 2 > len(values)


def _measure_of(text: str, words: Words) -> str:
    for measure in ("hands", "money", "points"):
        if words.says(text, measure):
            return measure
    return ""


def layout_sheet(
    sheet: Sheet,
    index: int,
    words: Words,
    ctx: DayContext,
    shape: str | None = None,
    head: int | None = None,
) -> SheetLayout:
    """A sheet's columns as guessed from its headings (the row `head`, else found), in `shape` when given, else in the
    shape its columns say."""
    head = head_row(sheet, words, ctx) if head is None else head
    row = sheet.rows[head] if head < len(sheet.rows) else ()
    titles = [sheet.name] + [v for r in sheet.rows[:head] for v in r if isinstance(v, str)]
    money = any(words.says(t, "money") and not words.says(t, "points") for t in titles)
    measure = "money" if money else "points"
    found: list[Column] = []
    for c in range(sheet.width):
        value = row[c] if c < len(row) else None
        heading = _text(value)
        dated = _heading_day(value, ctx)
        if dated is not None:
            day, shown, rest, problem = dated
            found.append(Column(c, heading, "evening", day, shown, _measure_of(rest, words), problem))
            continue
        job = words.job_of(heading) if heading else None
        found.append(Column(c, heading, job or "ignore", measure=_measure_of(heading, words) if job else ""))
    if not any(c.role == "member" for c in found):  # no heading says it: the first column of names
        first = next((c for c in found if c.role in ("ignore",) and _mostly_text(sheet, c.index, head)), None)
        if first is not None:
            found[first.index] = replace(first, role="member")
    members = [c for c in found if c.role == "member"]
    for extra in members[1:]:
        found[extra.index] = replace(extra, role="ignore")
    if shape is None:
        has = {c.role for c in found}
        if "member" in has and "date" in has and has & {"points", "money", "before_fee"}:
            shape = "long"
        elif "member" in has and "evening" in has:
            shape = "wide"
        else:
            shape = "skip"
    columns = tuple(_in_shape(c, shape, measure) for c in found)
    return SheetLayout(index, sheet.name, shape, head, columns, measure)


def _in_shape(column: Column, shape: str, measure: str) -> Column:
    """A guessed column's role in the sheet's shape."""
    role = column.role
    if shape == "wide":
        if role == "evening":
            return replace(column, role=column.measure or measure)
        if role in ("points", "money"):  # undated: the member's total of such evenings (a ledger's "points")
            return replace(column, role="total", measure=role)
        if role == "total":
            return replace(column, measure=column.measure if column.measure in ("points", "money") else measure)
        return column if role in WIDE_ROLES else replace(column, role="ignore")
    if shape == "long":
        if role == "evening":  # a long sheet's date heading is its date column only by the admin's choice
            return replace(column, role="ignore", day=None)
        return column if role in LONG_ROLES else replace(column, role="ignore")
    return replace(column, role="ignore")


def guess(book: Book, words: Words, ctx: DayContext) -> Layout:
    """Every sheet's layout as its headings say; a long sheet wins over wide ones (they hold the same evenings)."""
    sheets = [layout_sheet(sheet, i, words, ctx) for i, sheet in enumerate(book.sheets)]
    if any(s.shape == "long" for s in sheets):
        sheets = [s if s.shape != "wide" else replace(s, shape="skip") for s in sheets]
    return Layout(tuple(sheets))


def apply_changes(
    book: Book, guessed: Layout, changes: Mapping[int, Mapping[str, Any]], words: Words, ctx: DayContext
) -> Layout:
    """The guess with the admin's changes: per sheet index its `shape`, its `head` row (1 as the sheet counts) and
    per column index its `role` and, for an evening, its `date` as typed (read as any date is)."""
    out = []
    for sheet_layout in guessed.sheets:
        change = changes.get(sheet_layout.index) or {}
        sheet = book.sheets[sheet_layout.index]
        shape: str = change["shape"] if change.get("shape") in SHAPES else sheet_layout.shape
        head = change.get("head")
        head = head - 1 if isinstance(head, int) and 1 <= head <= len(sheet.rows) else sheet_layout.head
        current = sheet_layout
        if shape != sheet_layout.shape or head != sheet_layout.head:
            current = layout_sheet(sheet, sheet_layout.index, words, ctx, shape, head)
        roles = WIDE_ROLES if shape == "wide" else LONG_ROLES
        columns = list(current.columns)
        for c, wanted in (change.get("columns") or {}).items():
            if not (isinstance(c, int) and 0 <= c < len(columns)):
                continue
            column = columns[c]
            role = wanted.get("role")
            if role in roles:
                column = replace(column, role=role)
                if role == "total" and column.measure not in ("points", "money"):
                    column = replace(column, measure=current.measure)
            typed = wanted.get("date")
            if shape == "wide" and column.role in MEASURES and isinstance(typed, str) and typed.strip():
                column = _dated(column, typed.strip(), ctx)
            columns[c] = column
        out.append(replace(current, shape=shape, columns=tuple(columns)))
    return Layout(tuple(out))


def _dated(column: Column, typed: str, ctx: DayContext) -> Column:
    """An evening's column with the date the admin typed (its heading's date when the same)."""
    if typed in (column.written, column.day.isoformat() if column.day else None):
        return column
    try:
        day = read_day(typed, ctx)
    except DateProblem as exc:
        return replace(column, day=None, written=typed, problem=exc.args[0])
    if day is None:
        return replace(column, day=None, written=typed, problem=Msg("“%(text)s” is no date", text=typed))
    return replace(column, day=day, written=typed, problem=None)
