"""A treasurer's season sheet (issue 45), as the tests import it: 18 members × 14 evenings of Danish whist at 5 øre a
point, wide, Danish headings and dates written the ways a treasurer writes them, a sheet of points and one of kroner,
two names spelled differently from the club's, and one evening whose total row has a typo. The figures the ledger
must show afterwards are worked out here from the members' own cells, never from the sheet's totals.

`workbook()` makes the .xlsx with openpyxl; tests/fixtures/make_season_ods.py made tests/fixtures/season-2026.ods from
the same figures with LibreOffice (its totals and its kroner are formulas, which LibreOffice computed and stored)."""

from __future__ import annotations

import io
import random
from datetime import date, timedelta
from decimal import Decimal

CLUB = "Kløverklubben"
RATE = Decimal("0.05")
# The club's members as the club spells them.
MEMBERS = [
    "Anna Holm", "Bent Larsen", "Birthe Hansen", "Carl Nielsen", "Dorte Kjær", "Erik Mogensen", "Freja Dam",
    "Gunnar Bech", "Hanne Lund", "Ib Poulsen", "Jytte Krogh", "Karen Vestergaard", "Lars Friis", "Mette Skov",
    "Niels Juul", "Ole Bak", "Søren Østergaard", "Tove Møller",
]  # fmt: skip
# The two names the sheet spells otherwise.
SPELLED = {"Søren Østergaard": "Søren Ø.", "Birthe Hansen": "Birte Hansen"}
FIRST = date(2026, 9, 10)
DAYS = [FIRST + timedelta(weeks=n) for n in range(14)]
# Each evening's heading as the treasurer wrote it.
HEADINGS = [
    "10.9.", "17-09-2026", "24. sep.", "1.10.", "8/10", "15. okt.", "22.10.2026", "29. oktober", "5.11.",
    "12-11-2026", "19. nov.", "26.11.", "3. dec.", "10.12.",
]  # fmt: skip
TYPO_EVENING = 6  # the evening (0-based) whose total row says 40 more than its members add up to
TYPO = 40
TITLE = "Kløverklubben – sæson 2026/27"


def points() -> dict[str, list[int | None]]:
    """Each member's points per evening (None: not there that evening); every evening adds up to zero."""
    rng = random.Random(45)
    out: dict[str, list[int | None]] = {m: [] for m in MEMBERS}
    for _day in DAYS:
        present = sorted(rng.sample(MEMBERS, 16))
        figures = [rng.randrange(-60, 61, 2) for _m in present[:-1]]
        figures.append(-sum(figures))
        got = dict(zip(present, figures))
        for m in MEMBERS:
            out[m].append(got.get(m))
    return out


def kroner(value: int | None) -> Decimal | None:
    return None if value is None else value * RATE


def expected() -> dict[str, dict]:
    """Per member (the club's name): evenings, points and net øre of the season, from the members' own cells."""
    out = {}
    for m, row in points().items():
        played = [p for p in row if p is not None]
        out[m] = {"evenings": len(played), "points": sum(played), "net": sum(int(kroner(p) * 100) for p in played)}
    return out


def sheet_name(member: str) -> str:
    return SPELLED.get(member, member)


def workbook(typo: bool = True) -> bytes:
    """The season as an .xlsx: the sheet "Point" and the sheet "Kroner", a title, a blank row, the headings, a row per
    member, the total row "I alt" (one evening's with a typo); values, as a spreadsheet shows them."""
    import openpyxl

    book = openpyxl.Workbook()
    figures = points()
    for title, measure in (("Point", lambda p: p), ("Kroner", kroner)):
        sheet = book.active if title == "Point" else book.create_sheet(title)
        sheet.title = title
        sheet.append([TITLE])
        sheet.append([])
        sheet.append(["Navn", *HEADINGS, "I alt"])
        for m in MEMBERS:
            values = [measure(p) for p in figures[m]]
            sheet.append([sheet_name(m), *values, sum(v for v in values if v is not None)])
        totals = [sum(measure(figures[m][n]) or 0 for m in MEMBERS) for n in range(len(DAYS))]
        if typo and title == "Point":
            totals[TYPO_EVENING] += TYPO
        sheet.append(["I alt", *totals])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
