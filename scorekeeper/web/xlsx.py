"""Spreadsheets that open right: an .xlsx workbook (openpyxl) with typed cells — whole numbers as numbers, money as
numbers with two decimals, dates as dates — for the pages' downloads (a club evening's result, the ledger, a game).

A sheet is described by its columns, each with a kind: "text", "int", "points" (an int, or a point that is not whole
as its exact decimal: ¾ is 0.75), "money" (cents, shown with two decimals), "rate" (money per point as written,
"0.05" or "0.0125": up to four decimals) or "date" (an ISO date); a cell of None
stays empty. A text that a spreadsheet would read as a formula stays text.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

from flask import Response
from openpyxl import Workbook
from openpyxl.styles import Font

from scorekeeper.core.numbers import as_decimal

MONEY_FORMAT = "#,##0.00"
RATE_FORMAT = "#,##0.00##"  # money, with a rate's third and fourth decimal when it has them
DATE_FORMAT = "yyyy-mm-dd"
KINDS = ("text", "int", "points", "money", "rate", "date", "auto")  # auto: a number as a number, anything else as text
TITLE_MAX = 31  # what a spreadsheet allows a sheet's name
MIMETYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@dataclass(frozen=True)
class Sheet:
    title: str
    columns: Sequence[tuple[str, str]]  # (heading, kind)
    rows: Iterable[Sequence]


def _sheet_title(text: str, taken: set[str]) -> str:
    clean = "".join(" " if c in "[]:*?/\\" else c for c in text).strip()[:TITLE_MAX] or "Sheet"
    title, n = clean, 2
    while title in taken:
        title = f"{clean[: TITLE_MAX - 4]} ({n})"
        n += 1
    taken.add(title)
    return title


def workbook(sheets: Sequence[Sheet]) -> bytes:
    book = Workbook()
    book.remove(book.worksheets[0])  # the empty sheet a new workbook opens with
    taken: set[str] = set()
    for sheet in sheets:
        ws = book.create_sheet(_sheet_title(sheet.title, taken))
        for c, (heading, _kind) in enumerate(sheet.columns, 1):
            cell = ws.cell(1, c, str(heading))
            cell.font = Font(bold=True)
            cell.data_type = "s"
            ws.column_dimensions[cell.column_letter].width = max(10, min(40, len(str(heading)) + 2))
        for r, row in enumerate(sheet.rows, 2):
            for c, ((_, kind), value) in enumerate(zip(sheet.columns, row), 1):
                _put(ws.cell(r, c), kind, value)
        ws.freeze_panes = "B2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _put(cell, kind: str, value) -> None:
    if value is None or value == "":
        return
    if kind == "auto":
        kind = "points" if isinstance(value, (int, Decimal, Fraction)) and not isinstance(value, bool) else "text"
    if kind == "int":
        cell.value = int(value)
    elif kind == "points":
        cell.value = as_decimal(value if isinstance(value, (int, Fraction)) else Fraction(value))
    elif kind == "money":
        cell.value = Decimal(int(value)).scaleb(-2)
        cell.number_format = MONEY_FORMAT
    elif kind == "rate":
        cell.value = Decimal(str(value))
        cell.number_format = RATE_FORMAT
    elif kind == "date":
        cell.value = value if isinstance(value, date) else date.fromisoformat(str(value)[:10])
        cell.number_format = DATE_FORMAT
    else:
        cell.value = str(value)
        cell.data_type = "s"  # "=1+1" stays the text it is, never a formula


def download(sheets: Sequence[Sheet], filename: str) -> Response:
    return Response(
        workbook(sheets),
        mimetype=MIMETYPE,
        headers={"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"},
    )
