"""The reader of a club's season sheet (issue 45), pure: the shapes (wide, long, a sheet of points beside one of
kroner), the separators and encodings of CSV files, decimal commas, dates as a treasurer writes them, headings in
Danish, Norwegian, Swedish and English, totals that do not add up, near-miss names, formulas read as their values,
and bad files named by sheet, row and column."""

import io
import zipfile
from datetime import date
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest

import season_sheet
from scorekeeper.clubs.rules import season_import as si
from scorekeeper.clubs.rules.season_import import amounts, dates
from scorekeeper.clubs.rules.season_import.names import alike

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MID_SEASON = si.DayContext(date(2027, 1, 15))
LIMIT = 2 * 1024 * 1024


def xlsx(*sheets: tuple[str, list[list]]) -> bytes:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for title, rows in sheets:
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def read(name: str, data: bytes, ctx=MID_SEASON, zero_sum=True, changes=None):
    book = si.read_book(name, data, LIMIT)
    layout = si.guess(book, si.BASE_WORDS, ctx)
    if changes:
        layout = si.apply_changes(book, layout, changes, si.BASE_WORDS, ctx)
    return layout, si.read_evenings(book, layout, si.BASE_WORDS, ctx, zero_sum)


def figures(reading) -> dict:
    """{(day, name): (points, cents, hands)} of every evening read."""
    return {(e.day, r.name): (r.points, r.winnings(e.fee), r.hands) for e in reading.evenings for r in e.rows}


# ---------------------------------------------------------------- shapes


def test_a_wide_sheet_with_a_title_above_its_headings_and_a_total_column():
    data = xlsx(("Point", [["Klubben 2026/27"], [], ["Navn", "12.9.", "19.9.", "I alt"], ["Anna", 10, -4, 6],
                           ["Bo", -10, 4, -6]]))  # fmt: skip
    layout, reading = read("s.xlsx", data)
    sheet = layout.sheets[0]
    assert (sheet.shape, sheet.head) == ("wide", 2)
    assert [c.role for c in sheet.columns] == ["member", "points", "points", "total"]
    assert figures(reading) == {
        (date(2026, 9, 12), "Anna"): (10, None, None),
        (date(2026, 9, 12), "Bo"): (-10, None, None),
        (date(2026, 9, 19), "Anna"): (-4, None, None),
        (date(2026, 9, 19), "Bo"): (4, None, None),
    }
    assert reading.problems == () and reading.notes == ()


def test_a_sheet_of_points_beside_a_sheet_of_kroner():
    points = ["Navn", "12.9."], ["Anna", 10], ["Bo", -10]
    kroner = ["Navn", "12.9."], ["Anna", 0.5], ["Bo", -0.5]
    _layout, reading = read("s.xlsx", xlsx(("Point", list(points)), ("Kroner", list(kroner))))
    assert figures(reading) == {
        (date(2026, 9, 12), "Anna"): (10, 50, None),
        (date(2026, 9, 12), "Bo"): (-10, -50, None),
    }


def test_a_long_sheet_with_money_hands_and_table():
    rows = [["Dato", "Medlem", "Point", "Kr.", "Spil", "Bord"], ["12-09-2026", "Anna", 10, 0.5, 20, 1],
            ["12-09-2026", "Bo", -10, -0.5, 20, 1], ["19-09-2026", "Anna", -3, -0.15, 16, 2]]  # fmt: skip
    layout, reading = read("s.xlsx", xlsx(("Data", rows)))
    assert layout.sheets[0].shape == "long"
    assert [c.role for c in layout.sheets[0].columns] == ["date", "member", "points", "money", "hands", "table"]
    assert figures(reading)[date(2026, 9, 19), "Anna"] == (-3, -15, 16)
    assert {r.table for e in reading.evenings for r in e.rows} == {1, 2}


def test_a_long_sheet_is_read_and_the_wide_one_of_the_same_workbook_left_out():
    """The app's own ledger has both: the long sheet holds every member's evening, the wide one the same again."""
    wide = [["member", "2026-09-12 points"], ["Anna", 10], ["Bo", -10]]
    long = [["date", "member", "points"], [date(2026, 9, 12), "Anna", 10], [date(2026, 9, 12), "Bo", -10]]
    layout, reading = read("s.xlsx", xlsx(("Ledger", wide), ("Each evening", long)))
    assert [s.shape for s in layout.sheets] == ["skip", "long"]
    assert len(figures(reading)) == 2 and reading.problems == ()


def test_the_admin_changes_a_column_and_a_date():
    data = xlsx(("Ark", [["Navn", "Aften 1", "12.9.", "Noter"], ["Anna", 3, 10, "x"], ["Bo", -3, -10, ""]]))
    layout, reading = read("s.xlsx", data)
    assert [c.role for c in layout.sheets[0].columns] == ["member", "ignore", "points", "ignore"]
    changes = {0: {"columns": {1: {"role": "points", "date": "5.9."}}}}
    layout, reading = read("s.xlsx", data, changes=changes)
    assert figures(reading)[date(2026, 9, 5), "Anna"] == (3, None, None)
    changes = {0: {"shape": "skip"}}
    _layout, reading = read("s.xlsx", data, changes=changes)
    assert reading.evenings == () and reading.problems


# ---------------------------------------------------------------- CSV: separators, encodings, decimal commas


@pytest.mark.parametrize(
    "text,encoding",
    [
        ("Navn;12.9.;19.9.\r\nSøren;12,5;-3\r\nÅse;-12,5;3\r\n", "utf-8-sig"),
        ("Navn;12.9.;19.9.\nSøren;12,5;-3\nÅse;-12,5;3\n", "utf-8"),
        ("Navn;12.9.;19.9.\r\nSøren;12,5;-3\r\nÅse;-12,5;3\r\n", "cp1252"),
        ("Navn,12.9.,19.9.\nSøren,12.5,-3\nÅse,-12.5,3\n", "utf-8"),
        ('"Navn","12.9.","19.9."\n"Søren","12,5","-3"\n"Åse","-12,5","3"\n', "cp1252"),
        ("Navn\t12.9.\t19.9.\nSøren\t12,5\t-3\nÅse\t-12,5\t3\n", "utf-16"),
    ],
    ids=["semicolon-bom", "semicolon-utf8", "semicolon-cp1252", "comma-point", "comma-quoted-comma", "tab-utf16"],
)
def test_csv_separators_encodings_and_decimal_commas(text, encoding):
    _layout, reading = read("saeson.csv", text.encode(encoding))
    assert reading.names == ("Søren", "Åse")
    assert figures(reading)[date(2026, 9, 12), "Søren"] == (Fraction(25, 2), None, None)
    assert figures(reading)[date(2026, 9, 19), "Åse"] == (3, None, None)


@pytest.mark.parametrize(
    "written,decimal,cents",
    [
        ("12,50", ",", 1250),
        ("-12,5", ",", -1250),
        ("1.250,50 kr", ",", 125050),
        ("1 250,50", ",", 125050),
        ("50,-", ",", 5000),
        ("−3,25", ",", -325),
        ("12.50", ".", 1250),
        ("1,250.50", ".", 125050),
        ("DKK 7.05", ".", 705),
        (12.35, "", 1235),
        (0.1 + 0.2, "", 30),  # a formula's last value
        (-7, "", -700),
    ],
)
def test_money_as_written(written, decimal, cents):
    assert amounts.read_money(written, decimal) == cents


@pytest.mark.parametrize("written", ["12,345", "tolv", "1e3", "12.3.4", True])
def test_money_that_is_no_amount(written):
    with pytest.raises(amounts.AmountProblem):
        amounts.read_money(written, ",")


@pytest.mark.parametrize(
    "written,points",
    [("12", 12), ("-3", -3), ("10,5", Fraction(21, 2)), ("¾", Fraction(3, 4)), ("10 1/4", Fraction(41, 4)),
     (10.75, Fraction(43, 4)), ("−40", -40)],
)  # fmt: skip
def test_points_as_written(written, points):
    assert amounts.read_points(written, ",") == points


# ---------------------------------------------------------------- dates


@pytest.mark.parametrize(
    "written,day",
    [
        ("12.9.", date(2026, 9, 12)),
        ("12.9", date(2026, 9, 12)),
        ("12/9", date(2026, 9, 12)),
        ("12-09-2026", date(2026, 9, 12)),
        ("12.09.2026", date(2026, 9, 12)),
        ("12/9-2026", date(2026, 9, 12)),
        ("12.9.26", date(2026, 9, 12)),
        ("2026-09-12", date(2026, 9, 12)),
        ("12. sep.", date(2026, 9, 12)),
        ("12. sept. 2026", date(2026, 9, 12)),
        ("12 september", date(2026, 9, 12)),
        ("12. okt.", date(2026, 10, 12)),
        ("12 oct", date(2026, 10, 12)),
        ("3. dec.", date(2026, 12, 3)),
        ("3. des.", date(2026, 12, 3)),
        ("Sep 12, 2026", date(2026, 9, 12)),
        ("12. mars", date(2026, 3, 12)),  # before today in the season's year: the spring just gone
        ("8.1.", date(2027, 1, 8)),  # January: this year (the import is made in January)
        ("12. maj", date(2026, 5, 12)),
        ("12. mai", date(2026, 5, 12)),
        ("12 augusti", date(2026, 8, 12)),
        ("Aften 3 · 12.9.", date(2026, 9, 12)),
    ],
)
def test_a_date_as_written(written, day):
    found = dates.find_day(written)
    assert found is not None and dates.complete(found, MID_SEASON, written) == day


def test_a_date_without_its_year_goes_in_the_clubs_season():
    season = si.DayContext(date(2026, 10, 1), (date(2026, 8, 1), date(2027, 5, 31)))
    assert dates.complete(dates.find_day("12.3."), season) == date(2027, 3, 12)
    assert dates.complete(dates.find_day("12.9."), season) == date(2026, 9, 12)


@pytest.mark.parametrize("written", ["31.9.", "30.2.2026", "2026-13-01"])
def test_a_day_the_calendar_has_not(written):
    found = dates.find_day(written)
    if found is None:  # the month 13: no date at all
        assert si.read_day(written, MID_SEASON) is None
        return
    with pytest.raises(dates.DateProblem) as caught:
        dates.complete(found, MID_SEASON, written)
    assert written in str(caught.value)


def test_a_spreadsheets_own_date_cell():
    from datetime import datetime

    assert si.read_day(datetime(2026, 9, 12, 0, 0), MID_SEASON) == date(2026, 9, 12)
    assert si.read_day(date(2026, 9, 12), MID_SEASON) == date(2026, 9, 12)
    assert si.read_day(12.9, MID_SEASON) is None


# ---------------------------------------------------------------- headings in four languages


@pytest.mark.parametrize(
    "headings",
    [
        ["Dato", "Navn", "Point", "Kr.", "Spil", "Bord"],  # da
        ["Dato", "Navn", "Poeng", "Penger", "Spill", "Bord"],  # nb
        ["Datum", "Namn", "Poäng", "Pengar", "Händer", "Bord"],  # sv
        ["Date", "Name", "Points", "Money", "Hands", "Table"],  # en
        ["date", "member", "points", "net", "hands", "table"],  # the app's own
    ],
    ids=["da", "nb", "sv", "en", "app"],
)
def test_long_headings_in_four_languages(headings):
    rows = [headings, ["12.9.2026", "Anna", 10, 0.5, 20, 1], ["12.9.2026", "Bo", -10, -0.5, 20, 1]]
    layout, reading = read("s.xlsx", xlsx(("Ark", rows)))
    assert [c.role for c in layout.sheets[0].columns] == ["date", "member", "points", "money", "hands", "table"]
    assert figures(reading)[date(2026, 9, 12), "Anna"] == (10, 50, 20)


@pytest.mark.parametrize(
    "member,total,money",
    [
        ("Navn", "I alt", "Kroner"),
        ("Navn", "Totalt", "Penger"),
        ("Namn", "Summa", "Pengar"),
        ("Name", "Total", "Money"),
    ],
    ids=["da", "nb", "sv", "en"],
)
def test_wide_headings_in_four_languages(member, total, money):
    rows = [[member, "12.9.", "19.9.", total], ["Anna", 1, 2, 3], ["Bo", -1, -2, -3]]
    layout, _reading = read("s.xlsx", xlsx((money, rows)))
    sheet = layout.sheets[0]
    assert [c.role for c in sheet.columns] == ["member", "money", "money", "total"]
    assert sheet.columns[3].measure == "money"


# ---------------------------------------------------------------- totals that do not add up


def test_totals_that_do_not_add_up_are_said_and_the_members_figures_kept():
    rows = [["Navn", "12.9.", "19.9.", "I alt"], ["Anna", 10, -4, 16], ["Bo", -10, 4, -6], ["I alt", 0, 40]]
    _layout, reading = read("s.xlsx", xlsx(("Point", rows)))
    assert reading.problems == ()
    said = {(n.where.row, n.where.column): str(n.message) for n in reading.notes}
    assert said[2, 3] == "Anna: the total column says 16, the evenings add up to 6."
    assert said[4, 2] == "the total row says 40, the members' points add up to 0."
    assert figures(reading)[date(2026, 9, 19), "Anna"][0] == -4


def test_an_evening_whose_points_do_not_add_up_to_zero():
    rows = [["Navn", "12.9."], ["Anna", 10], ["Bo", -8]]
    _layout, reading = read("s.xlsx", xlsx(("Point", rows)), zero_sum=True)
    assert [str(n.message) for n in reading.notes] == [
        "the members' points add up to 2, not 0 as every hand does: a typo?"
    ]
    assert read("s.xlsx", xlsx(("Point", rows)), zero_sum=False)[1].notes == ()


# ---------------------------------------------------------------- bad files: sheet, row and column


def test_a_cell_that_is_no_number_is_named_by_sheet_row_and_column():
    rows = [["Navn", "12.9.", "19.9."], ["Anna", 10, "syg"], ["Bo", -10, 4]]
    _layout, reading = read("s.xlsx", xlsx(("Point", rows)))
    (problem,) = reading.problems
    assert problem.where == si.Where("Point", 2, 2) and "“syg” is no number of points" in str(problem.message)


def test_a_dash_is_an_evening_not_played():
    rows = [["Navn", "12.9.", "19.9."], ["Anna", 10, "-"], ["Bo", -10, None]]
    _layout, reading = read("s.xlsx", xlsx(("Point", rows)))
    assert reading.problems == () and (date(2026, 9, 19), "Anna") not in figures(reading)


def test_a_heading_whose_date_names_no_day():
    rows = [["Navn", "31.9."], ["Anna", 10], ["Bo", -10]]
    _layout, reading = read("s.xlsx", xlsx(("Point", rows)))
    (problem,) = reading.problems
    assert problem.where == si.Where("Point", 1, 1) and "“31.9.” names no day" in str(problem.message)


def test_a_long_row_without_a_date_and_a_name_twice():
    rows = [["Dato", "Navn", "Point"], ["12.9.2026", "Anna", 10], ["", "Bo", -10], ["12.9.2026", "anna ", 3]]
    _layout, reading = read("s.xlsx", xlsx(("Ark", rows)))
    said = {(p.where.row, p.where.column): str(p.message) for p in reading.problems}
    assert said == {(3, 0): "This row has no date.", (4, 1): "anna is on this evening twice (also row 2)."}


def test_a_damaged_workbook_an_empty_file_and_a_file_too_large():
    with pytest.raises(si.FileProblem, match="damaged"):
        si.read_book("s.xlsx", b"PK\x03\x04" + b"\0" * 100, LIMIT)
    with pytest.raises(si.FileProblem, match="empty"):
        si.read_book("s.csv", b"", LIMIT)
    with pytest.raises(si.FileProblem, match="larger than 1 KiB"):
        si.read_book("s.csv", b"x" * 2000, 1024)


def test_a_workbook_that_unpacks_to_more_than_it_may_is_refused_before_it_is_read():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", b"<c><v>1</v></c>" * (5 * 1024 * 1024))  # 75 MiB unpacked
    data = out.getvalue()
    assert len(data) < LIMIT
    with pytest.raises(si.FileProblem, match="unpacks to more than 64 MiB"):
        si.read_book("s.xlsx", data, LIMIT)


# ---------------------------------------------------------------- formulas: their values, never run


def with_cached_values(data: bytes, values: dict[str, str]) -> bytes:
    """An openpyxl workbook whose formulas carry the values a spreadsheet would have stored beside them (openpyxl
    writes none): what Excel saves."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            body = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                text = body.decode()
                for formula, value in values.items():
                    text = text.replace(f"<f>{formula}</f><v></v>", f"<f>{formula}</f><v>{value}</v>")
                    text = text.replace(f"<f>{formula}</f><v />", f"<f>{formula}</f><v>{value}</v>")
                body = text.encode()
            target.writestr(item, body)
    return out.getvalue()


def test_an_xlsx_formula_is_read_as_the_value_it_last_showed():
    rows = [
        ["Navn", "12.9.", "19.9.", "I alt"],
        ["Anna", 10, "=2*3", "=SUM(B2:C2)"],
        ["Bo", -10, "=0-6", "=SUM(B3:C3)"],
    ]
    data = with_cached_values(xlsx(("Point", rows)), {"2*3": "6", "0-6": "-6", "SUM(B2:C2)": "16", "SUM(B3:C3)": "-16"})
    _layout, reading = read("s.xlsx", data)
    assert figures(reading)[date(2026, 9, 19), "Anna"][0] == 6 and reading.notes == ()


@pytest.mark.parametrize("kind", ["ods", "xls"])
def test_the_files_libreoffice_made_read_as_their_computed_values(kind):
    """tests/fixtures/season-2026.ods and .xls (tests/fixtures/make_season_ods.py): kroner and totals are formulas
    there, which LibreOffice computed and stored."""
    data = (FIXTURES / f"season-2026.{kind}").read_bytes()
    book = si.read_book(f"season-2026.{kind}", data, LIMIT)
    assert book.kind == kind and [s.name for s in book.sheets] == ["Point", "Kroner"]
    layout = si.guess(book, si.BASE_WORDS, MID_SEASON)
    reading = si.read_evenings(book, layout, si.BASE_WORDS, MID_SEASON, True)
    assert reading.problems == ()
    want = season_sheet.points()
    got = figures(reading)
    for member, row in want.items():
        for n, p in enumerate(row):
            key = (season_sheet.DAYS[n], season_sheet.sheet_name(member))
            assert got.get(key) == (None if p is None else (p, p * 5, None)), key
    typo = [n for n in reading.notes if n.day == season_sheet.DAYS[season_sheet.TYPO_EVENING]]
    assert [str(n.message) for n in typo] == ["the total row says 40, the members' points add up to 0."]


# ---------------------------------------------------------------- names


@pytest.mark.parametrize(
    "written,member,near",
    [
        ("Søren Ø.", "Søren Østergaard", True),
        ("S. Østergaard", "Søren Østergaard", True),
        ("Birte Hansen", "Birthe Hansen", True),
        ("Hansen, Birthe", "Birthe Hansen", True),
        ("Bo", "Anna Holm", False),
        ("Ib", "Bo", False),
    ],
)
def test_near_misses(written, member, near):
    assert (alike(written, member) >= 80) is near


def test_names_are_matched_offered_or_new_and_never_merged():
    members = {1: "Søren Østergaard", 2: "Anna Holm", 3: "Birthe Hansen"}
    found = {m.name: m for m in si.match_names(["anna holm", "Søren Ø.", "Birte Hansen", "Karl", "Karl J."], members)}
    assert found["anna holm"].member == 2 and found["anna holm"].near == ()
    assert found["Søren Ø."].member is None and [c.member for c in found["Søren Ø."].near] == [1]
    assert found["Birte Hansen"].member is None and [c.member for c in found["Birte Hansen"].near] == [3]
    assert found["Karl J."].near[0].name == "Karl"  # another of the sheet's new names


# ---------------------------------------------------------------- an imported evening's arithmetic and the season


def test_an_imported_evening_counts_its_money_as_given_else_at_the_rate():
    from decimal import Decimal

    from scorekeeper.clubs.rules import club as club_rules

    rows = (
        club_rules.Imported(1, 20, cents=110),  # the sheet's kroner: 1,10, whatever the rate says
        club_rules.Imported(2, -15),  # no money: at the evening's rate, 5 øre a point
        club_rules.Imported(3, Fraction(-5, 1), hands=18, table=2),
    )
    evening = club_rules.Evening(7, "2026-09-12", (), Decimal("0.05"), fee_cents=10, imported=rows)
    result = club_rules.evening_result(evening)
    got = {m.member: (m.points, m.winnings, m.net, m.hands, m.tables) for m in result.members}
    assert got == {1: (20, 110, 100, 0, 0), 2: (-15, -75, -85, 0, 0), 3: (-5, -25, -35, 18, 1)}
    assert result.has_money and result.kitty == 30
    assert sum(result.net().values()) == 110 - 75 - 25  # the sheet's own kroner: what it says, not forced to zero
    stats = {s.member: s for s in club_rules.member_stats([evening])}
    assert (stats[1].evenings, stats[1].points, stats[1].bids) == (1, 20, 0)
    (first, *_rest) = sorted(club_rules.standings(result), key=lambda s: -s.points)
    assert (first.member, first.halves) == (1, (20,))


def test_the_current_season_recurs_every_year_and_its_winners_share_a_place():
    from decimal import Decimal

    from scorekeeper.clubs.rules import club as club_rules
    from scorekeeper.clubs.rules import evening as evening_rules
    from scorekeeper.clubs.rules import season as season_rules

    named = season_rules.make_season(date(2026, 8, 1), date(2027, 5, 31))
    assert season_rules.current(named, date(2027, 1, 15)) == named
    assert season_rules.current(named, date(2027, 6, 20)) == named  # the summer: the season just ended
    assert season_rules.current(named, date(2028, 8, 1)).start == date(2028, 8, 1)
    assert season_rules.current(named, date(2026, 7, 1)) == named  # before it began: the named one
    assert season_rules.label(named) == "2026/27"
    with pytest.raises(season_rules.SeasonError):
        season_rules.make_season(date(2026, 8, 1), date(2027, 8, 1))
    evenings = [
        club_rules.Evening(1, "2026-09-12", (), Decimal("0.05"),
                           imported=(club_rules.Imported(1, 10), club_rules.Imported(2, 10), club_rules.Imported(3, -20))),
    ]  # fmt: skip
    ledger = club_rules.ledger([club_rules.evening_result(e) for e in evenings])
    table, prizes = season_rules.winners(ledger, club_rules.member_stats(evenings), evening_rules.Format(places=1))
    assert [(w.member, w.place, w.shared, w.prize) for w in table] == [(1, 1, True, True), (2, 1, True, True),
                                                                        (3, 3, False, False)]  # fmt: skip
    assert [(p.kind, p.winners) for p in prizes] == [("place", (1, 2))]
