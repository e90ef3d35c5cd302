"""A club's past evenings read from the spreadsheet it keeps (issue 45): pure, no Flask, no SQL.

By job: `book` reads the file's bytes into sheets of cell values (.xlsx, .ods, .xls through python-calamine: the values
a spreadsheet last showed, never a formula run; CSV with commas or semicolons, UTF-8 or Windows-1252); `words` are the
headings and month names a treasurer writes in Danish, Norwegian, Swedish and English; `dates` reads a date as written
("12.9.", "12-09-2026", "12. sep."); `amounts` a number or an amount of money as written; `layout` guesses which
column is what (wide: members down, an evening a column; long: a row per member per evening) and takes the admin's
changes; `read` reads the evenings with every problem named by sheet, row and column and every total that does not add
up said; `names` matches the sheet's names to the club's members (near-misses offered, never merged).
"""

from scorekeeper.clubs.rules.season_import.book import Book, FileProblem, Sheet, read_book
from scorekeeper.clubs.rules.season_import.dates import DayContext, read_day
from scorekeeper.clubs.rules.season_import.layout import (
    LONG_ROLES,
    SHAPES,
    WIDE_ROLES,
    Column,
    Layout,
    SheetLayout,
    apply_changes,
    guess,
)
from scorekeeper.clubs.rules.season_import.names import Candidate, NameMatch, match_names
from scorekeeper.clubs.rules.season_import.read import EveningRead, Note, Reading, Row, Where, read_evenings
from scorekeeper.clubs.rules.season_import.words import BASE_WORDS, Words

__all__ = [
    "BASE_WORDS",
    "Book",
    "Candidate",
    "Column",
    "DayContext",
    "EveningRead",
    "FileProblem",
    "LONG_ROLES",
    "Layout",
    "NameMatch",
    "Note",
    "Reading",
    "Row",
    "SHAPES",
    "Sheet",
    "SheetLayout",
    "WIDE_ROLES",
    "Where",
    "Words",
    "apply_changes",
    "guess",
    "match_names",
    "read_book",
    "read_day",
    "read_evenings",
]
