"""The evenings a laid-out book holds: per evening each member's points and money as the sheet has them, every cell
that cannot be read named by its sheet, row and column (a problem: nothing is imported while there is one), and every
total that does not add up said plainly (a note: the members' own figures are what is imported, the totals only
checked). Rows headed by a total's word ("I alt", "Sum") are the sheet's totals, checked; the kitty's row is left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import Any

from scorekeeper.clubs.rules.season_import.amounts import AmountProblem, is_empty, read_count, read_money, read_points
from scorekeeper.clubs.rules.season_import.book import Book, Sheet
from scorekeeper.clubs.rules.season_import.dates import DateProblem, DayContext, read_day
from scorekeeper.clubs.rules.season_import.layout import Layout, SheetLayout
from scorekeeper.clubs.rules.season_import.words import Words
from scorekeeper.core.messages import Msg
from scorekeeper.core.numbers import as_decimal

FIELDS = ("points", "cents", "before", "fee", "hands", "table")
_ROLE_FIELD = {"points": "points", "money": "cents", "before_fee": "before", "fee": "fee", "hands": "hands",
               "table": "table"}  # fmt: skip


@dataclass(frozen=True)
class Where:
    """A cell: its sheet, its row (1 as the sheet counts) and its column (0 = A)."""

    sheet: str
    row: int
    column: int


@dataclass(frozen=True)
class Note:
    """A problem (`blocking`: nothing is imported while it stands) or a remark, where it is and of which evening."""

    message: Msg
    where: Where | None = None
    day: date | None = None
    blocking: bool = True


@dataclass(frozen=True)
class Row:
    """A member's evening as the sheet has it: points, money (net: after the fee; before the fee; the fee), hands and
    table, each None where the sheet says nothing."""

    name: str
    points: Fraction | None = None
    cents: int | None = None
    before: int | None = None
    fee: int | None = None
    hands: int | None = None
    table: int | None = None
    where: Where | None = None

    def winnings(self, fee: int) -> int | None:
        """The money before the fee: as the sheet says it, else its net and the evening's fee; None: none given."""
        if self.before is not None:
            return self.before
        return None if self.cents is None else self.cents + fee


@dataclass(frozen=True)
class EveningRead:
    day: date
    rows: tuple[Row, ...]
    fee: int = 0  # cents each member paid the kitty (a fee column); 0 when the sheet has none


@dataclass(frozen=True)
class Reading:
    evenings: tuple[EveningRead, ...]
    names: tuple[str, ...]  # as first written, in the order first met
    problems: tuple[Note, ...] = ()
    notes: tuple[Note, ...] = ()


def same_name(name: str) -> str:
    """A name as two cells are compared: casefolded, its spaces single."""
    return " ".join(name.split()).casefold()


@dataclass
class _Found:
    """What the sheets say, cell by cell, while they are read."""

    words: Words
    ctx: DayContext
    values: dict[tuple[date, str], dict[str, tuple[Any, Where]]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    problems: list[Note] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)

    def name(self, text: str) -> str:
        return self.names.setdefault(same_name(text), " ".join(text.split()))

    def put(self, day: date, name: str, key: str, value: Any, where: Where) -> None:
        cell = self.values.setdefault((day, same_name(name)), {})
        if key in cell:
            first = cell[key][1]
            self.problems.append(
                Note(
                    Msg(
                        "%(name)s's %(what)s of this evening is in two places (also sheet “%(sheet)s”, row %(row)d):"
                        " leave one of them out",
                        name=name,
                        what=WHAT[key],
                        sheet=first.sheet,
                        row=first.row,
                    ),
                    where,
                    day,
                )
            )
            return
        cell[key] = (value, where)


WHAT = {
    "points": Msg("points"),
    "cents": Msg("money"),
    "before": Msg("money before the fee"),
    "fee": Msg("fee"),
    "hands": Msg("hands"),
    "table": Msg("table"),
}


def _read(key: str, value: Any, decimal: str) -> Any:
    if key == "points":
        return read_points(value, decimal)
    if key in ("cents", "before", "fee"):
        return read_money(value, decimal)
    return read_count(value)


def _text(value: Any) -> str:
    return value.isoformat() if isinstance(value, date) else str(value).strip()


def _wide(sheet: Sheet, layout: SheetLayout, found: _Found) -> None:
    member = layout.member
    if member is None:
        found.problems.append(Note(Msg("No column of names: choose the column with the members' names."),
                                   Where(sheet.name, layout.head + 1, 0)))  # fmt: skip
        return
    evenings = layout.evenings
    for column in evenings:
        if column.day is None:
            found.problems.append(
                Note(
                    column.problem or Msg("“%(text)s” is no date: type the evening's date", text=column.heading),
                    Where(sheet.name, layout.head + 1, column.index),
                )
            )
    if not evenings:
        found.problems.append(Note(Msg("No evening's column: choose the columns of the evenings."),
                                   Where(sheet.name, layout.head + 1, 0)))  # fmt: skip
    seen: dict[str, int] = {}
    sums: dict[int, Fraction] = {}  # per evening column: its members' values added up
    totals: list[tuple[int, Any, Where]] = []  # a total row's cells: (column, value, where)
    for r in range(layout.head + 1, len(sheet.rows)):
        raw = sheet.cell(r, member.index)
        figures = [c for c in evenings if not is_empty(sheet.cell(r, c.index))]
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            if figures:
                found.problems.append(
                    Note(Msg("This row has figures but no name."), Where(sheet.name, r + 1, member.index))
                )
            continue
        text = _text(raw)
        job = found.words.job_of(text)
        if job == "total":
            totals += [(c.index, sheet.cell(r, c.index), Where(sheet.name, r + 1, c.index)) for c in figures]
            continue
        if job == "kitty":
            if figures:
                found.notes.append(Note(Msg("The kitty's row “%(row)s” is left out.", row=text),
                                        Where(sheet.name, r + 1, member.index), blocking=False))  # fmt: skip
            continue
        if same_name(text) in seen:
            found.problems.append(
                Note(
                    Msg("%(name)s is in this sheet twice (also row %(row)d).", name=text, row=seen[same_name(text)]),
                    Where(sheet.name, r + 1, member.index),
                )
            )
            continue
        seen[same_name(text)] = r + 1
        name = found.name(text)
        added: dict[str, Fraction] = {}
        for column in figures:
            where = Where(sheet.name, r + 1, column.index)
            key = _ROLE_FIELD[column.role]
            try:
                value = _read(key, sheet.cell(r, column.index), sheet.decimal)
            except AmountProblem as exc:
                found.problems.append(Note(exc.args[0], where, column.day))
                continue
            if column.day is not None:
                found.put(column.day, name, key, value, where)
            sums[column.index] = sums.get(column.index, Fraction(0)) + Fraction(value)
            added[column.role] = added.get(column.role, Fraction(0)) + Fraction(value)
        for column in layout.role("total"):
            cell = sheet.cell(r, column.index)
            if is_empty(cell):
                continue
            where = Where(sheet.name, r + 1, column.index)
            _check_total(found, column.measure, cell, added.get(column.measure, Fraction(0)), sheet, where, name)
    for index, value, where in totals:
        column = next(c for c in evenings if c.index == index)
        _check_column(found, column.role, value, sums.get(index, Fraction(0)), sheet, where, column.day)


def _shown(key: str, value: Fraction) -> str:
    return str(as_decimal(value / 100 if key == "money" else value))


def _check_total(found: _Found, measure: str, cell: Any, added: Fraction, sheet: Sheet, where: Where, name: str):
    key = "cents" if measure == "money" else "points"
    try:
        total = Fraction(_read(key, cell, sheet.decimal))
    except AmountProblem:
        found.notes.append(Note(Msg("The total “%(text)s” is no number; it is not checked.", text=_text(cell)),
                                where, blocking=False))  # fmt: skip
        return
    if total != added:
        found.notes.append(
            Note(
                Msg(
                    "%(name)s: the total column says %(total)s, the evenings add up to %(sum)s.",
                    name=name,
                    total=_shown(measure, total),
                    sum=_shown(measure, added),
                ),
                where,
                blocking=False,
            )
        )


def _check_column(found: _Found, role: str, cell: Any, added: Fraction, sheet: Sheet, where: Where, day):
    key = _ROLE_FIELD[role]
    measure = "money" if key == "cents" else role
    try:
        total = Fraction(_read(key, cell, sheet.decimal))
    except AmountProblem:
        found.notes.append(Note(Msg("The total “%(text)s” is no number; it is not checked.", text=_text(cell)),
                                where, day, blocking=False))  # fmt: skip
        return
    if total != added:
        found.notes.append(
            Note(
                Msg(
                    "the total row says %(total)s, the members' %(what)s add up to %(sum)s.",
                    total=_shown(measure, total),
                    what=WHAT[key],
                    sum=_shown(measure, added),
                ),
                where,
                day,
                blocking=False,
            )
        )


def _long(sheet: Sheet, layout: SheetLayout, found: _Found) -> None:
    member = layout.member
    dates = layout.role("date")
    head = Where(sheet.name, layout.head + 1, 0)
    if member is None:
        found.problems.append(Note(Msg("No column of names: choose the column with the members' names."), head))
    if not dates:
        found.problems.append(Note(Msg("No column of dates: choose the column with the evenings' dates."), head))
    values = [c for c in layout.columns if c.role in _ROLE_FIELD]
    if not any(c.role in ("points", "money", "before_fee") for c in values):
        found.problems.append(Note(Msg("No column of points or money: choose the column they are in."), head))
    if member is None or not dates:
        return
    when = dates[0]
    seen: dict[tuple[date, str], int] = {}
    for r in range(layout.head + 1, len(sheet.rows)):
        raw_name, raw_day = sheet.cell(r, member.index), sheet.cell(r, when.index)
        filled = [c for c in values if not is_empty(sheet.cell(r, c.index))]
        if raw_name is None and raw_day is None:
            if filled:
                found.problems.append(Note(Msg("This row has figures but no name and no date."),
                                           Where(sheet.name, r + 1, member.index)))  # fmt: skip
            continue
        if raw_name is None:
            found.problems.append(Note(Msg("This row has no name."), Where(sheet.name, r + 1, member.index)))
            continue
        text = _text(raw_name)
        job = found.words.job_of(text)
        if job in ("total", "kitty"):
            continue
        where_day = Where(sheet.name, r + 1, when.index)
        try:
            day = read_day(raw_day, found.ctx)
        except DateProblem as exc:
            found.problems.append(Note(exc.args[0], where_day))
            continue
        if day is None:
            message = (
                Msg("This row has no date.")
                if raw_day is None
                else Msg("“%(text)s” is no date", text=_text(raw_day)[:40])
            )
            found.problems.append(Note(message, where_day))
            continue
        name = found.name(text)
        key = (day, same_name(text))
        if key in seen:
            found.problems.append(
                Note(
                    Msg("%(name)s is on this evening twice (also row %(row)d).", name=text, row=seen[key]),
                    Where(sheet.name, r + 1, member.index),
                    day,
                )  # fmt: skip
            )
            continue
        seen[key] = r + 1
        found.values.setdefault((day, same_name(text)), {})
        for column in filled:
            where = Where(sheet.name, r + 1, column.index)
            field_key = _ROLE_FIELD[column.role]
            try:
                value = _read(field_key, sheet.cell(r, column.index), sheet.decimal)
            except AmountProblem as exc:
                found.problems.append(Note(exc.args[0], where, day))
                continue
            found.put(day, name, field_key, value, where)


def read_evenings(book: Book, layout: Layout, words: Words, ctx: DayContext, zero_sum: bool = False) -> Reading:
    """The evenings of the sheets in use, with their problems and notes. `zero_sum`: the club's game adds up to zero
    every hand (Danish and Solo whist), so an evening's points that do not are said."""
    found = _Found(words, ctx)
    for sheet_layout in layout.used:
        sheet = book.sheets[sheet_layout.index]
        (_wide if sheet_layout.shape == "wide" else _long)(sheet, sheet_layout, found)
    if not layout.used:
        found.problems.append(Note(Msg("No sheet is read: choose the shape of the sheet with the evenings.")))
    by_day: dict[date, list[Row]] = {}
    for (day, key), cells in sorted(found.values.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        name = found.names[key]
        wheres = [w for _v, w in cells.values()]
        row = Row(name, where=min(wheres, key=lambda w: (w.sheet, w.row, w.column)) if wheres else None,
                  **{k: v for k, (v, _w) in cells.items()})  # fmt: skip
        if row.points is None and row.cents is None and row.before is None:
            continue  # only hands or a table: no evening of theirs to count
        by_day.setdefault(day, []).append(row)
    evenings = []
    for day, rows in sorted(by_day.items()):
        fees = {r.fee for r in rows if r.fee is not None}
        if len(fees) > 1:
            found.problems.append(
                Note(Msg("The fee differs between the members; an evening has one fee for all."), rows[0].where, day)
            )
        fee = fees.pop() if len(fees) == 1 else 0
        evening = EveningRead(day, tuple(rows), fee)
        found.notes += _evening_notes(evening, zero_sum)
        evenings.append(evening)
    used = {same_name(r.name) for e in evenings for r in e.rows}
    names = tuple(name for key, name in found.names.items() if key in used)  # in the order the sheets have them
    return Reading(tuple(evenings), names, tuple(found.problems), tuple(found.notes))


def _evening_notes(evening: EveningRead, zero_sum: bool) -> Iterable[Note]:
    """What does not add up in an evening: before the fee less the fee is not the net; a zero-sum game's points."""
    for row in evening.rows:
        if row.before is not None and row.cents is not None and row.before - (row.fee or 0) != row.cents:
            yield Note(
                Msg(
                    "%(name)s: before the fee %(before)s, less the fee %(fee)s, is not the net %(net)s.",
                    name=row.name,
                    before=_shown("money", Fraction(row.before)),
                    fee=_shown("money", Fraction(row.fee or 0)),
                    net=_shown("money", Fraction(row.cents)),
                ),
                row.where,
                evening.day,
                blocking=False,
            )
    points = [r.points for r in evening.rows]
    if zero_sum and points and all(p is not None for p in points):
        added = sum(p for p in points if p is not None)
        if added != 0:
            yield Note(
                Msg(
                    "the members' points add up to %(sum)s, not 0 as every hand does: a typo?",
                    sum=_shown("points", Fraction(added)),
                ),
                None,
                evening.day,
                blocking=False,
            )
