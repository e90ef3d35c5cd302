"""Numbers as a treasurer writes them on the card (10, 2,5 in Danish, 0.75, 3/4, ¾, 1¼, "1 1/4", −33.280 with the
reader's thousands separator), and a block of the matrix's rows pasted from the club's spreadsheet (Excel and
LibreOffice copy tabs between the cells, a CSV file has semicolons) read into its squares. The squares' fields and the
page around them are card_matrix.py's."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from babel import numbers
from flask_babel import get_locale

from scorekeeper.core.messages import Msg, OptionError
from scorekeeper.core.numbers import NumberError, ascii_written, read_number
from scorekeeper.variants.danish import house as model
from scorekeeper.web.i18n import MINUS
from scorekeeper.web.words import tricks_words

TRICKS = tuple(range(14))
PASTE_LINES = 200  # lines of a paste: a card has at most 56 rows (and a header, and blank lines)


# ---------------------------------------------------------------- numbers as a treasurer writes them


def _decimal_sign() -> str:
    return numbers.get_decimal_symbol(get_locale() or "en")


def number_text(value: Any) -> str:
    """A number of the house as its field shows it: 10, 2,5 (in Danish), 2/3 for a fraction no decimal says."""
    f = model.kept(value)
    if f.denominator == 1:
        return str(f.numerator)
    for places in range(1, 5):
        scaled = f * 10**places
        if scaled.denominator == 1:
            whole, part = divmod(abs(scaled.numerator), 10**places)
            sign = "-" if f < 0 else ""
            return f"{sign}{whole}{_decimal_sign()}{part:0{places}d}"
    return f"{f.numerator}/{f.denominator}"


def group_symbol() -> str:
    return numbers.get_group_symbol(get_locale() or "en")


def ungrouped(text: str, group: str) -> str:
    """A number written with the reader's thousands separators ("−33.280" in Danish, "1,280" in English, "1 280" in
    Swedish) without them; any other text as it is. Only groups of three digits after a first group that is no 0 are
    separators: 0.75 and 0.125 stay as they are."""
    group = "[ \u00a0\u202f]" if group.isspace() else re.escape(group)
    decimal = "[.,]"
    match = re.fullmatch(rf"([+\-\u2212\u2013]?)([1-9]\d{{0,2}}(?:{group}\d{{3}})+)({decimal}\d+)?", text)
    if match is None or (match.group(3) and match.group(3)[0] in group):
        return text
    return match.group(1) + re.sub(r"\D", "", match.group(2)) + (match.group(3) or "")


def square_value(text: str, path: str = "", group: str = ".") -> Fraction:
    """A square as the card writes it, signed: 12, −2, 0,75, 0.75, 3/4, ¾, 1¼, "1 1/4", −33.280 (the reader's
    thousands separator, `group`); raises NumberError naming `path`."""
    wrong = Msg("must be a number as on the card: 12, −2, 0,75, 3/4, ¾ or 1 1/4")
    text = ascii_written(ungrouped(text.strip(), group))
    return read_number(
        text,
        path,
        high=model.MONEY_MAX,
        low=-model.MONEY_MAX,
        fraction=True,
        messages={"shape": wrong, "range": Msg("must be from −1000000 to 1000000")},
    )


def square_text(value: Any) -> str:
    """A square's value as its field shows it: 12, −2 (a real minus), 0,75 in Danish."""
    f = Fraction(value) if not isinstance(value, str) else model.kept(value)
    return f"{MINUS}{number_text(-f)}" if f < 0 else number_text(f)


# ---------------------------------------------------------------- a paste of the matrix's rows


def folded(text: str) -> str:
    """A row's name as a paste is matched to it: case, spaces and a last full stop or colon left out."""
    return " ".join(text.split()).casefold().rstrip(".:").strip()


@dataclass(frozen=True)
class Row:
    """A row of the matrix: a bid and a suffix, its name as the card says it ("8 gode", "7 3 vip", "9" for the plain
    bid) and every name a paste may give it (the card's, the app's, the suffix's code)."""

    n: int
    suffix: str
    label: str
    names: frozenset[str]


def _header(cells: list[str]) -> list[int] | None:
    """The tricks of a header row ("Stik", 0, 1 … 13; "0 stik" …), or None if the cells are not one."""
    tricks = []
    for cell in cells:
        match = re.fullmatch(r"\D*?(\d{1,2})\D*", cell)
        if match is None or int(match.group(1)) > 13:
            return None
        tricks.append(int(match.group(1)))
    return tricks if tricks and len(set(tricks)) == len(tricks) else None


def read_paste(
    text: str, rows: list[Row], group: str = ".", sol_names: Mapping[str, str] | None = None
) -> tuple[dict[tuple[int, str, int], str], list[Msg]]:
    """A block of rows copied from the club's spreadsheet (Excel, LibreOffice: tabs between the cells; a CSV file:
    semicolons), each the row's name and then its squares for 0 to 13 tricks, a header row of tricks allowed: the
    squares' texts by (bid, suffix, tricks) — an empty cell an empty square — and the problems, each naming its line, row
    and tricks. A row the card does not have is a problem, never skipped (a line of no squares, a heading in the
    spreadsheet, is passed over); so is a square that is no number. `sol_names`: the sol bids' names, said to belong
    in the sol fields."""
    found: dict[tuple[int, str, int], str] = {}
    problems: list[Msg] = []
    by_name: dict[str, Row] = {}
    for each in rows:
        for known in each.names:
            by_name.setdefault(known, each)
    lines = text.splitlines()
    if len(lines) > PASTE_LINES:
        return {}, [
            Msg(
                "%(lines)d lines are more than a card has (at most %(max)d): paste the card's rows only",
                lines=len(lines),
                max=PASTE_LINES,
            )
        ]
    tricks = list(TRICKS)
    seen: dict[tuple[int, str], int] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        sep = "\t" if "\t" in line else ";" if ";" in line else None
        if sep is None:
            problems.append(
                Msg(
                    "line %(line)d: put a tab or a semicolon between the squares, as a copy from a spreadsheet has",
                    line=number,
                )
            )
            continue
        cells = [c.strip().strip('"').strip() for c in line.split(sep)]
        head, squares = cells[0], cells[1:]
        row = by_name.get(folded(head))
        if row is None:
            header = _header([c for c in squares if c])
            if header is not None and not re.match(r"\s*\d", head):
                tricks = header
                continue
            if not any(squares):
                continue  # a heading of the spreadsheet: no squares, nothing lost
            sol = next((bid for bid, known in (sol_names or {}).items() if folded(known) == folded(head)), None)
            if sol is not None:
                problems.append(
                    Msg(
                        "line %(line)d: “%(row)s” is a sol bid: its values go in the sol bids' fields, not in the "
                        "squares",
                        line=number,
                        row=head[:40],
                    )
                )
                continue
            problems.append(
                Msg(
                    "line %(line)d: “%(row)s” is no row of this card (its rows are named as “%(first)s” … “%(last)s”)",
                    line=number,
                    row=head[:40],
                    first=rows[0].label if rows else "",
                    last=rows[-1].label if rows else "",
                )
            )
            continue
        if (row.n, row.suffix) in seen:
            problems.append(
                Msg(
                    "line %(line)d: “%(row)s” is in the paste twice (line %(first)d too)",
                    line=number,
                    row=row.label,
                    first=seen[(row.n, row.suffix)],
                )
            )
            continue
        seen[(row.n, row.suffix)] = number
        while len(squares) > len(tricks) and not squares[-1]:
            squares.pop()
        if len(squares) != len(tricks):
            span = f"{min(tricks)}–{max(tricks)}"  # outside the message's call: its extractor skips an f-string there
            problems.append(
                Msg(
                    "line %(line)d: “%(row)s” has %(got)d squares; the card has %(want)d (for %(tricks)s)",
                    line=number,
                    row=row.label,
                    got=len(squares),
                    want=len(tricks),
                    tricks=span,
                )
            )
            continue
        for t, cell in zip(tricks, squares):
            where = Msg("“%(row)s”, %(tricks)s", row=row.label, tricks=tricks_words(t))
            if not cell:
                found[(row.n, row.suffix, t)] = ""
                continue
            try:
                value = square_value(cell, "", group)
            except (NumberError, OptionError):
                problems.append(
                    Msg(
                        "line %(line)d, %(where)s: “%(text)s” is no number as a card writes one (12, −2, "
                        "0,75, 3/4, ¾, 1 1/4)",
                        line=number,
                        where=where,
                        text=cell[:20],
                    )
                )
                continue
            if t >= row.n and value < 0:
                problems.append(
                    Msg(
                        "line %(line)d, %(where)s: a made bid is won, so its square is 0 or more",
                        line=number,
                        where=where,
                    )
                )
                continue
            found[(row.n, row.suffix, t)] = square_text(value if t >= row.n else -abs(value))  # a lost one: its minus
    if not seen and not problems:
        problems.append(Msg("nothing to read: paste the card's rows, each its name first and then its squares"))
    return ({} if problems else found), problems
