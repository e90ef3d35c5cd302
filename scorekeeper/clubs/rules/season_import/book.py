"""A file's bytes as sheets of cell values: .xlsx, .ods and .xls through python-calamine (the values the spreadsheet
last showed: a formula's cached result, never the formula run), CSV with commas, semicolons or tabs, in UTF-8 (with or
without its byte-order mark), UTF-16 with its mark, or Windows-1252 (what Excel on a Nordic Windows saves).

Bounds before anything is held whole: the file's size (the caller's limit), what a zipped workbook (.xlsx, .ods) says
it unpacks to, and the rows and columns of a sheet.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections import Counter
from dataclasses import dataclass
from typing import Any

from python_calamine import CalamineWorkbook, SheetTypeEnum

from scorekeeper.core.messages import Msg

UNPACKED_MAX = 64 * 1024 * 1024  # what a zipped workbook may unpack to (a 2 MiB file of repeated cells can say 2 GB)
ZIP_ENTRIES_MAX = 2_000
ROWS_MAX = 10_000  # a sheet's rows and columns: a club's season is some tens of each
COLUMNS_MAX = 500
SPREADSHEETS = {"xlsx": "xlsx", "xlsm": "xlsx", "ods": "ods", "xls": "xls"}
TEXTS = ("csv", "txt", "tsv")
DELIMITERS = (";", ",", "\t")


class FileProblem(Exception):
    """A file that cannot be read as it is: `message` (a Msg) says why, `sheet`, `row` (1 as the spreadsheet counts)
    and `column` (0 = A) where, when known."""

    def __init__(self, message: Msg, sheet: str | None = None, row: int | None = None, column: int | None = None):
        super().__init__(str(message))
        self.message, self.sheet, self.row, self.column = message, sheet, row, column


@dataclass(frozen=True)
class Sheet:
    """A sheet's cells, row by row from A1 (None: empty). `decimal` is the decimal sign a CSV file's separator implies
    ("," beside semicolons, "." beside commas); "" where the cells are typed (a spreadsheet's numbers are numbers)."""

    name: str
    rows: tuple[tuple[Any, ...], ...]
    decimal: str = ""

    def cell(self, row: int, column: int) -> Any:
        """The value at a 0-based row and column; None past the sheet's edge."""
        if 0 <= row < len(self.rows) and 0 <= column < len(self.rows[row]):
            return self.rows[row][column]
        return None

    @property
    def width(self) -> int:
        return max((len(r) for r in self.rows), default=0)


@dataclass(frozen=True)
class Book:
    kind: str  # "xlsx", "ods", "xls" or "csv"
    sheets: tuple[Sheet, ...]


def column_letter(column: int) -> str:
    """0 → A, 25 → Z, 26 → AA: a column as a spreadsheet names it."""
    out = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        out = chr(65 + rest) + out
    return out


def kind_of(name: str, data: bytes) -> str:
    """The file's kind by its first bytes (a zip: .xlsx or .ods by what it holds; OLE: .xls), else by its name's
    ending; text otherwise."""
    if data[:4] == b"PK\x03\x04":
        return "ods" if b"opendocument.spreadsheet" in data[:200] else "xlsx"
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        return "xls"
    ending = name.rsplit(".", 1)[-1].casefold() if "." in name else ""
    if ending in SPREADSHEETS:
        return SPREADSHEETS[ending]
    return "csv"


def read_book(name: str, data: bytes, limit: int) -> Book:
    """The file's sheets; FileProblem when it is larger than `limit` bytes, of no kind read here, or damaged."""
    if len(data) > limit:
        raise FileProblem(Msg("The file is larger than %(limit)s KiB, the most an import takes.", limit=limit // 1024))
    if not data:
        raise FileProblem(Msg("The file is empty."))
    kind = kind_of(name, data)
    if kind == "csv":
        return Book("csv", (_csv_sheet(name, data),))
    if kind in ("xlsx", "ods"):
        _check_zip(data)
    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
        sheets = []
        for meta in workbook.sheets_metadata:
            if meta.typ != SheetTypeEnum.WorkSheet:
                continue
            sheet = workbook.get_sheet_by_name(meta.name)
            if sheet.total_height > ROWS_MAX or sheet.total_width > COLUMNS_MAX:
                raise FileProblem(
                    Msg(
                        "The sheet has %(rows)d rows and %(columns)d columns; an import reads at most %(most_rows)d rows"
                        " and %(most_columns)d columns.",
                        rows=sheet.total_height,
                        columns=sheet.total_width,
                        most_rows=ROWS_MAX,
                        most_columns=COLUMNS_MAX,
                    ),
                    meta.name,
                )
            rows = sheet.to_python(skip_empty_area=False)
            sheets.append(Sheet(meta.name, _trimmed([[_value(v) for v in row] for row in rows])))
    except FileProblem:
        raise
    except Exception as exc:  # python-calamine's errors (CalamineError, ZipError, XmlError, PasswordError …)
        raise FileProblem(
            Msg("The file cannot be read as %(kind)s: %(why)s", kind="." + kind, why=str(exc)[:200])
        ) from None
    if not sheets:
        raise FileProblem(Msg("The file has no sheet with cells."))
    return Book(kind, tuple(sheets))


def _check_zip(data: bytes) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        raise FileProblem(Msg("The file is damaged: it is no workbook that can be opened.")) from None
    if len(entries) > ZIP_ENTRIES_MAX or sum(e.file_size for e in entries) > UNPACKED_MAX:
        raise FileProblem(
            Msg("The workbook unpacks to more than %(limit)d MiB, the most an import reads.", limit=UNPACKED_MAX >> 20)
        )


def _value(value: Any) -> Any:
    """A cell as read: '' is None, a whole float an int (a spreadsheet keeps 12 as 12.0)."""
    if value == "" or value is None:
        return None
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, str):
        value = value.strip()
        return value or None
    return value


def _trimmed(rows: list[list[Any]]) -> tuple[tuple[Any, ...], ...]:
    """Rows without the empty cells at their ends, and without the empty rows at the sheet's end."""
    out = []
    for row in rows:
        while row and row[-1] is None:
            row.pop()
        out.append(tuple(row))
    while out and not out[-1]:
        out.pop()
    return tuple(out)


# ---------------------------------------------------------------- CSV


def decode(data: bytes) -> str:
    """UTF-8 (its byte-order mark dropped), UTF-16 by its mark, else Windows-1252 (Latin-1 for the five bytes it
    leaves undefined)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise FileProblem(Msg("The file is no text a CSV file can be read from.")) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def delimiter_of(text: str) -> str:
    """The separator that splits the first lines into the same number of cells most often (a semicolon first when
    two split them alike: a Nordic file's numbers may hold commas)."""
    lines = [line for line in text.splitlines() if line.strip()][:30]
    best, best_score = ",", (0, 0, 0)
    for rank, delimiter in enumerate(DELIMITERS):
        counts = Counter(len(row) for row in csv.reader(lines, delimiter=delimiter) if row)
        if not counts:
            continue
        width, often = counts.most_common(1)[0]
        score = (often if width > 1 else 0, width, -rank)
        if score > best_score:
            best, best_score = delimiter, score
    return best


def _csv_sheet(name: str, data: bytes) -> Sheet:
    if b"\x00" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise FileProblem(Msg("The file is no text a CSV file can be read from."))
    text = decode(data)
    delimiter = delimiter_of(text)
    rows: list[list[Any]] = []
    try:
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
            if len(rows) >= ROWS_MAX or len(row) > COLUMNS_MAX:
                raise FileProblem(
                    Msg(
                        "The file has more than %(most_rows)d rows or %(most_columns)d columns, the most an import"
                        " reads.",
                        most_rows=ROWS_MAX,
                        most_columns=COLUMNS_MAX,
                    ),
                    name,
                    len(rows) + 1,
                )
            rows.append([_value(cell) for cell in row])
    except csv.Error as exc:
        raise FileProblem(
            Msg("The CSV file cannot be read: %(why)s", why=str(exc)[:200]), name, len(rows) + 1
        ) from None
    decimal = {";": ",", ",": ".", "\t": ""}[delimiter]
    return Sheet(name, _trimmed(rows), decimal)
