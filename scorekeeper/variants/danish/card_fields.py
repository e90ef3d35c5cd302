"""The card's fields read and written as a treasurer writes them: a field's name, numbers as typed on the card (¾, 1¼,
"1 1/4", 0,75), the fields a house fills and the house the fields make, with each error keyed by its field. The editor
(variants/danish/card.py) draws and answers the form around them.

Beside the grid (a value per bid and column, one rule for the card) the card is also a matrix, as many clubs print it: a
row per bid and suffix in the club's words ("8 gode"), a square per number of tricks 0–13, each a field of its own
(`card.sq.8.gode.10`). A square holding a number is the card's own value there (RULES.md's `cells`); an empty one counts
as the grid's rule gives it. The squares are filled one by one, from the rule (a button), or from a block of rows pasted
from the club's spreadsheet (`read_paste`); a card opens with the squares it has, every square where the grid cannot
show it, so that saving a page never changes a square nobody touched."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from babel import numbers
from flask_babel import get_locale

from scorekeeper.core.messages import Msg, OptionError, message_of
from scorekeeper.core.numbers import DENOMINATOR_MAX, TEXT_MAX, NumberError, ascii_written, read_number
from scorekeeper.variants.danish import grid as danish_grid
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish import rules
from scorekeeper.variants.danish.words import solo_name, suffix_name
from scorekeeper.web.i18n import MINUS, ngettext, say
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.words import tricks_words

MARK = "card"  # a form that carries the card's fields says so (an unticked switch is then "off", not "not sent")
LEVELS = tuple(int(n) for n in model.LEVELS)
TRICKS = tuple(range(14))
CUT = TEXT_MAX + 1  # a field's text kept: one more than a number may be long, so a longer one is refused as too long


def name(*parts: Any) -> str:
    """A field's name: card.cell.8.0 — the card, the part and where in it (a column, a bid)."""
    return ".".join([MARK, *map(str, parts)])


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


def _number(text: str, path: str, high: int, errors: dict, where: str) -> Fraction | None:
    """A typed number as written on paper (3, 0,75, 0.75, 3/4, ¾, 1¼, 1 1/4) through the core's strict reader; None if
    wrong (said)."""
    try:
        return model.number(text, path, high, on_paper=True)
    except (OptionError, NumberError) as exc:
        errors[where] = message_of(exc)
        return None


# ---------------------------------------------------------------- the matrix: a square per bid, suffix and tricks

SQUARE = "sq"
PASTE = name("paste")  # a block of rows copied from the club's spreadsheet
SQUARES = name("squares")  # the matrix's buttons: "rule" (every square from the rule), "clear", "read" (the paste)
SQUARE_ACTIONS = ("rule", "clear", "read")
SAID = name("said")  # not a field: what the squares' buttons or the paste just did, for the page's notice
INEXACT = name("inexact")  # not a field: the card opened is one the grid cannot show (every square is its own)
PASTE_MAX = 32 * 1024  # characters of a paste: 56 rows of 14 squares written at length are some 12,000
PASTE_LINES = 200  # lines of a paste: a card has at most 56 rows (and a header, and blank lines)
PASTE_PROBLEMS = 12  # the paste's problems named one by one; the rest counted
SOL_NUMBERS = ("won", "lost", "won_per_under", "lost_per_over")  # a sol bid's numbers (its gå med is a choice)
SOL_OWN = "none"  # a sol bid's own gå med field: never played along (its JSON null); "" follows the card's


def square_name(n: int, suffix: str, tricks: int) -> str:
    """A square's field: card.sq.8.gode.10 (bid, suffix, the tricks bidder and partner take)."""
    return name(SQUARE, n, suffix, tricks)


ALL_SQUARES = tuple(square_name(n, s, t) for n in LEVELS for s in model.SUFFIX_NAMES for t in TRICKS)


def cell_key(n: int, suffix: str, tricks: int) -> str:
    """RULES.md's key of a square: "8/gode/+2" made with two over, "8/gode/-3" lost by three."""
    return f"{n}/{suffix}/+{tricks - n}" if tricks >= n else f"{n}/{suffix}/-{n - tricks}"


def _square_of_cell(key: str) -> tuple[int, str, int] | None:
    level, suffix, step = (key.split("/") + ["", "", ""])[:3]
    if level not in model.LEVELS or suffix not in model.SUFFIX_NAMES or step[:1] not in ("+", "-"):
        return None
    if not (step[1:].isascii() and step[1:].isdigit()):
        return None
    n, d = int(level), int(step[1:])
    return n, suffix, n + d if step[0] == "+" else n - d


def _group_symbol() -> str:
    return numbers.get_group_symbol(get_locale() or "en")


def _ungrouped(text: str, group: str) -> str:
    """A number written with the reader's thousands separators ("−33.280" in Danish, "1,280" in English, "1 280" in
    Swedish) without them; any other text as it is. Only groups of three digits are separators: 0.75 stays 0.75."""
    group = "[ \u00a0\u202f]" if group.isspace() else re.escape(group)
    decimal = "[.,]"
    match = re.fullmatch(rf"([+\-\u2212\u2013]?)(\d{{1,3}}(?:{group}\d{{3}})+)({decimal}\d+)?", text)
    if match is None or (match.group(3) and match.group(3)[0] in group):
        return text
    return match.group(1) + re.sub(r"\D", "", match.group(2)) + (match.group(3) or "")


def square_value(text: str, path: str = "", group: str = ".") -> Fraction:
    """A square as the card writes it, signed: 12, −2, 0,75, 0.75, 3/4, ¾, 1¼, "1 1/4", −33.280 (the reader's
    thousands separator, `group`); raises NumberError naming `path`."""
    wrong = Msg("must be a number as on the card: 12, −2, 0,75, 3/4, ¾ or 1 1/4")
    text = ascii_written(_ungrouped(text.strip(), group))
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


def bid_label(n: int, suffix: str, heading: str = "", alone: bool = True) -> str:
    """A bid as the card names it: its column's heading when the column is this suffix alone ("7 3 vip", "7 alm."),
    else the suffix's own word ("7 vip 3"), the plain bid its number."""
    if alone and heading:
        return f"{n} {heading}"
    return str(n) if suffix == "plain" else f"{n} {suffix_label(suffix)}"


def club_bid_label(n: int, suffix: str, names: Mapping[str, Any] | None) -> str:
    """A bid in the club's words (option `card_names`: a column of this suffix alone gives its heading), else the
    app's; the plain bid is its number, as on the hand's buttons."""
    if suffix == "plain":
        return str(n)
    for column in (names or {}).get("columns") or ():
        if suffix in (column.get("suffixes") or ()):
            return bid_label(n, suffix, column.get("heading") or "", len(column["suffixes"]) == 1)
    return bid_label(n, suffix)


def _columns(texts: Mapping[str, str]) -> list[tuple[str, tuple[str, ...]]]:
    """The card's columns as posted: (heading, the suffixes ticked), each suffix once (in its first column)."""
    count = count_of(texts.get(name("columns"), ""), 1, COLUMNS, 1)
    seen: set[str] = set()
    out = []
    for i in range(count):
        heading = " ".join(texts.get(name("col", i, "heading"), "").split())[: danish_grid.NAME_MAX]
        suffixes = tuple(s for s in model.SUFFIX_NAMES if texts.get(name("col", i, s)) and s not in seen)
        seen |= set(suffixes)
        out.append((heading, suffixes))
    return out


def card_rows(texts: Mapping[str, str], levels=LEVELS) -> list[Row]:
    """The matrix's rows for the card's columns as posted: bid by bid, the columns in the card's order."""
    rows = []
    for n in levels:
        for heading, suffixes in _columns(texts):
            for s in suffixes:
                label = bid_label(n, s, heading, len(suffixes) == 1)
                known = {label, f"{n} {suffix_label(s)}", f"{n} {s}"}
                if s == "plain":
                    known |= {str(n), f"{n} {_('plain')}", f"{n} plain"}
                rows.append(Row(n, s, label, frozenset(folded(k) for k in known)))
    return rows


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
            problems.append(
                Msg(
                    "line %(line)d: “%(row)s” has %(got)d squares; the card has %(want)d (for %(tricks)s)",
                    line=number,
                    row=row.label,
                    got=len(squares),
                    want=len(tricks),
                    tricks=f"{min(tricks)}–{max(tricks)}",
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


def _paste_into(texts: dict[str, str], rows: list[Row], errors: dict) -> None:
    """The paste read into the squares (and emptied), or its problems said beside it (the squares left as they were)."""
    text = texts.get(PASTE, "")
    if not text.strip():
        texts[PASTE] = ""
        return
    if len(text) > PASTE_MAX:
        errors[PASTE] = Msg(
            "the paste is longer than %(max)d characters, more than any card: paste the card's rows only", max=PASTE_MAX
        )
        return
    sol_names = {bid: texts.get(name("sol", bid, "name"), "") or solo_name(bid) for bid in model.SOL_BIDS}
    found, problems = read_paste(text, rows, _group_symbol(), sol_names)
    if problems:
        more = len(problems) - PASTE_PROBLEMS
        listed = problems[:PASTE_PROBLEMS] + ([Msg("and %(n)d more", n=more)] if more > 0 else [])
        errors[PASTE] = Msg("The paste was not read: %(problems)s", problems=listed)
        return
    for (n, s, t), value in found.items():
        texts[square_name(n, s, t)] = value
    texts[PASTE] = ""
    texts[SAID] = f"pasted:{len({(n, s) for n, s, _t in found})}"


def _read_squares(texts: Mapping[str, str], rows: list[Row], errors: dict) -> dict[tuple[int, str, int], Fraction]:
    """The squares with a number, signed as the card prints them (a lost bid's may be written without its minus: it is
    what bidder and partner each pay); each wrong one said by its field."""
    out = {}
    group = _group_symbol()
    for row in rows:
        for t in TRICKS:
            key = square_name(row.n, row.suffix, t)
            text = texts.get(key, "").strip()
            if not text:
                continue
            try:
                value = square_value(text, key, group)
            except (NumberError, OptionError) as exc:
                errors[key] = message_of(exc)
                continue
            if t >= row.n and value < 0:
                errors[key] = Msg("a made bid is won, so its square is 0 or more (a lost bid's has the minus)")
                continue
            out[(row.n, row.suffix, t)] = value if t >= row.n else -abs(value)
    return out


def squares_notice(texts: Mapping[str, str]) -> str | None:
    """What the squares' buttons or the paste did, for the page's notice (None: nothing)."""
    said = texts.get(SAID, "")
    if said.startswith("pasted:"):
        rows = int(said.partition(":")[2])
        return ngettext(
            "%(num)d row of the paste is in the squares. Nothing is saved yet.",
            "%(num)d rows of the paste are in the squares. Nothing is saved yet.",
            rows,
        )
    if said == "rule":
        return _("Every square now holds what the rule above gives it; change any of them. Nothing is saved yet.")
    if said == "clear":
        return _("The squares are empty: each counts as the rule above gives it. Nothing is saved yet.")
    return None


# ---------------------------------------------------------------- the fields of a card


def texts_of(house: Mapping[str, Any], names: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Every field's text for a complete, normalised house: the grid it opens as (variants/danish/grid.py), in
    the club's own column layout and words (option `card_names`) when they fit it; the squares of its own (`cells`) in
    the matrix, and every square there when the grid cannot show the card as it is."""
    out: dict[str, str] = {}
    grid, exact = danish_grid.grid_of(house, names)
    out[name("columns")] = str(len(grid.columns))
    for i in range(COLUMNS):
        column = grid.columns[i] if i < len(grid.columns) else None
        out[name("col", i, "heading")] = column.heading if column else ""
        for s in model.SUFFIX_NAMES:
            out[name("col", i, s)] = "y" if column and s in column.suffixes else ""
    levels = grid.levels or LEVELS
    out[name("low")], out[name("high")] = str(levels[0]), str(levels[-1])
    for n in LEVELS:
        for i in range(COLUMNS):
            value = grid.values[n][i] if n in grid.values and i < len(grid.columns) else None
            out[name("cell", n, i)] = number_text(value) if value is not None else ""
    out[name("made")], out[name("lost")], out[name("per_trick")] = grid.made, grid.lost, grid.per_trick
    sol = house["sol"]
    sol_names = (names or {}).get("sol") or {}
    for bid in model.SOL_BIDS:
        entry = sol.get(bid)
        out[name("sol", bid, "name")] = sol_names.get(bid, "")
        out[name("sol", bid, "max_tricks")] = str(entry["max_tricks"] if entry else rules.SOLO_MAX_TRICKS[bid])
        for f in SOL_NUMBERS:
            out[name("sol", bid, f)] = number_text(entry[f]) if entry else ""
        own = model.own_gaa_med(house, bid) if entry else model.HOUSE_RULE
        out[name("sol", bid, "gaa_med")] = "" if own == model.HOUSE_RULE else own or SOL_OWN
    out[name("selvmakker", "factor")] = number_text(house["selvmakker"]["factor"])
    selv = house["selvmakker"]["rounding"]
    out[name("selvmakker", "rounding")] = "" if selv == house["rounding"] else selv  # "": as the points round
    out[name("rounding")] = house["rounding"]
    out[name("gaa_med")] = house["gaa_med"] or ""
    slam = house["slam"]
    for key in model.SLAM_KEYS:
        for t in TRICKS:
            value = slam.get(key, {}).get(str(t))
            out[name("slam", key, t)] = "" if value is None else number_text(value)
    scored = model.parse(house)
    for n in LEVELS:
        for s in model.SUFFIX_NAMES:
            for t in TRICKS:
                kept = scored.can_bid(n, s) and (not exact or cell_key(n, s, t) in house["cells"])
                out[square_name(n, s, t)] = square_text(scored.trick_value(n, s, t)) if kept else ""
    out[INEXACT] = "" if exact else "y"
    return out


COLUMNS = danish_grid.COLUMNS_MAX
# The fields every card has.
FIXED_FIELDS = tuple(
    [name("columns"), name("low"), name("high"), name("made"), name("lost"), name("per_trick")]
    + [name("col", i, f) for i in range(COLUMNS) for f in ("heading", *model.SUFFIX_NAMES)]
    + [name("cell", n, i) for n in LEVELS for i in range(COLUMNS)]
    + [name("sol", bid, f) for bid in model.SOL_BIDS for f in ("name", "gaa_med", *model.SOL_FIELDS)]
    + [name("selvmakker", "factor"), name("selvmakker", "rounding"), name("rounding"), name("gaa_med")]
    + [name("slam", key, t) for key in model.SLAM_KEYS for t in TRICKS]
    + [PASTE, SQUARES, *ALL_SQUARES]
)
TEXT_FIELDS = {name("col", i, "heading") for i in range(COLUMNS)} | {name("sol", b, "name") for b in model.SOL_BIDS}


def typed(formdata) -> dict[str, str]:
    """The fields' texts as posted, each bounded one character past what it may hold (no field longer than a number,
    a name or a paste may be), so that a longer one is refused in words, never cut to fit."""
    out = {}
    for key in FIXED_FIELDS:
        cut = danish_grid.NAME_MAX + 1 if key in TEXT_FIELDS else PASTE_MAX + 1 if key == PASTE else CUT
        out[key] = str(formdata.get(key, "") or "")[:cut]
    return out


def count_of(text: str, low: int, high: int, default: int) -> int:
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdigit() and low <= int(text) <= high else default


def _choice(text: str, choices: tuple[str, ...], default: str) -> str:
    return text if text in choices else default


def house_of(texts: dict[str, str]) -> tuple[dict[str, Any] | None, dict[str, Any], dict[str, Any]]:
    """The complete, checked house and the names the fields hold, or None and the errors by field name. What the
    matrix's buttons and the paste put in the squares is written into `texts` (the page shows it)."""
    errors: dict[str, Any] = {}
    count = count_of(texts.get(name("columns"), ""), 1, COLUMNS, 1)
    low = count_of(texts.get(name("low"), ""), 7, 13, 7)
    high = count_of(texts.get(name("high"), ""), low, 13, 13)
    columns: list[danish_grid.Column] = []
    seen: dict[str, int] = {}
    for i in range(count):
        heading = " ".join(texts.get(name("col", i, "heading"), "").split())
        if len(heading) > danish_grid.NAME_MAX:
            errors[name("col", i, "heading")] = Msg("at most %(n)d characters", n=danish_grid.NAME_MAX)
        suffixes = tuple(s for s in model.SUFFIX_NAMES if texts.get(name("col", i, s)))
        if not suffixes:
            errors[name("col", i, "plain")] = Msg("tick the suffixes this column covers, or have fewer columns")
        for s in suffixes:
            if s in seen:
                errors[name("col", i, s)] = Msg(
                    "%(suffix)s is in column %(n)d already", suffix=suffix_label(s), n=seen[s] + 1
                )
            seen.setdefault(s, i)
        columns.append(danish_grid.Column(heading, suffixes))
    rows = card_rows(texts, range(low, high + 1))
    action = texts.get(SQUARES, "")
    texts[SQUARES] = ""
    if action == "clear":
        for r in rows:
            for t in TRICKS:
                texts[square_name(r.n, r.suffix, t)] = ""
        texts[SAID] = "clear"
    _paste_into(texts, rows, errors)
    values: dict[int, tuple[Fraction, ...]] = {}
    for n in range(low, high + 1):
        row = []
        for i in range(count):
            where = name("cell", n, i)
            text = texts.get(where, "").strip()
            if not text and columns[i].suffixes and _matrix_holds(texts, n, columns[i].suffixes):
                text = texts[where] = _grid_value_of(texts, n, columns[i].suffixes[0])
            if not text:
                errors[where] = Msg("fill in this square, or let the card start at a higher bid")
                row.append(Fraction(0))
                continue
            value = _number(text, f"cell.{n}.{i}", model.MONEY_MAX, errors, where)
            row.append(value if value is not None else Fraction(0))
        values[n] = tuple(row)
    grid = danish_grid.Grid(
        columns=tuple(columns),
        levels=tuple(range(low, high + 1)),
        values=values,
        made=_choice(texts.get(name("made"), ""), danish_grid.MADE_RULES, "over"),
        lost=_choice(texts.get(name("lost"), ""), danish_grid.LOST_RULES, "double"),
        per_trick=_choice(texts.get(name("per_trick"), ""), danish_grid.PER_TRICK, "column"),
    )
    house: dict[str, Any] = {"slam": {}, "sol": {}}
    entry: dict[str, Any]
    sol_names: dict[str, str] = {}
    for bid in model.SOL_BIDS:
        sol_names[bid] = " ".join(texts.get(name("sol", bid, "name"), "").split())[: danish_grid.NAME_MAX]
        won, lost = (texts.get(name("sol", bid, f), "").strip() for f in ("won", "lost"))
        if not won and not lost:
            continue
        entry = {
            "max_tricks": _choice_int(
                texts.get(name("sol", bid, "max_tricks")), 13, errors, name("sol", bid, "max_tricks")
            )
        }
        for f in SOL_NUMBERS:
            where, text = name("sol", bid, f), texts.get(name("sol", bid, f), "").strip()
            if not text:
                if f in ("won", "lost"):
                    errors[where] = Msg("fill in this value, or empty both to leave the sol bid out")
                else:
                    entry[f] = 0
                continue
            value = _number(text, f"sol.{bid}.{f}", model.MONEY_MAX, errors, where)
            if value is not None:
                entry[f] = model.shown(value)
        own = texts.get(name("sol", bid, "gaa_med"), "")
        if own == SOL_OWN or own in model.GAA_MED:
            entry["gaa_med"] = None if own == SOL_OWN else own  # this bid's own gå med rule; "": the card's
        house["sol"][bid] = entry
    factor = texts.get(name("selvmakker", "factor"), "").strip() or "1"
    value = _number(factor, "selvmakker.factor", model.FACTOR_MAX, errors, name("selvmakker", "factor"))
    rounding = _choice(texts.get(name("rounding"), ""), model.ROUNDINGS, "half_away")
    house["selvmakker"] = {
        "factor": model.shown(value) if value is not None else 1,
        "rounding": _choice(texts.get(name("selvmakker", "rounding"), ""), model.ROUNDINGS, rounding),
    }
    house["rounding"] = rounding
    house["gaa_med"] = _choice(texts.get(name("gaa_med"), ""), model.GAA_MED, "") or None
    for key in model.SLAM_KEYS:
        entries = {}
        for t in TRICKS:
            where, text = name("slam", key, t), texts.get(name("slam", key, t), "").strip()
            if not text:
                continue
            high_value = 13 if key == "made_extra" else model.FACTOR_MAX
            got = _number(text, f"slam.{key}.{t}", high_value, errors, where)
            if got is not None:
                if key != "made_extra" and got == 0:
                    errors[where] = Msg("a factor must be more than 0 (1: no change)")
                entries[str(t)] = model.shown(got)
        if entries:
            house["slam"][key] = entries
    squares = _read_squares(texts, rows, errors)
    if errors:
        return None, {}, errors
    house |= danish_grid.house_parts(grid)
    house["cells"] = {}
    try:
        checked = model.check_house(house)
        model.check_playable(checked)
        if action == "rule":  # every square of the card from the rule as it stands, to change one by one
            scored = model.parse(checked)
            for r in rows:
                for t in TRICKS:
                    made = scored.trick_value(r.n, r.suffix, t)
                    texts[square_name(r.n, r.suffix, t)] = square_text(made)
                    squares[(r.n, r.suffix, t)] = Fraction(made)
            texts[SAID] = "rule"
        cells = {cell_key(n, s, t): model.shown(abs(v)) for (n, s, t), v in squares.items()}
        checked = model.check_house(checked | {"cells": cells})
        model.points_denominator(checked, DENOMINATOR_MAX)  # named by its square, as the game's options would
    except OptionError as exc:
        return None, {}, {field_of_path(exc.path, grid): message_of(exc)}
    return checked, danish_grid.names_of(grid, sol_names), {}


def _matrix_holds(texts: Mapping[str, str], n: int, suffixes) -> bool:
    """Every square of a bid's rows for these suffixes has a number: the grid's value there is not needed."""
    return all(texts.get(square_name(n, s, t), "").strip() for s in suffixes for t in TRICKS)


def _grid_value_of(texts: Mapping[str, str], n: int, suffix: str) -> str:
    """The grid's value of a bid whose rows the matrix holds whole: its square made exactly (what the grid's value
    is on a card that follows a rule), 0 if that square is no number (said beside it)."""
    try:
        return number_text(abs(square_value(texts[square_name(n, suffix, n)], "", _group_symbol())))
    except (NumberError, OptionError):
        return "0"


def _choice_int(raw: Any, high: int, errors: dict, where: str) -> int:
    text = str(raw or "").strip()
    if not (text.isascii() and text.isdigit() and int(text) <= high):
        errors[where] = Msg("must be a whole number from 0 to %(high)d", high=high)
        return 0
    return int(text)


def field_of_path(path: str, grid: danish_grid.Grid | None = None) -> str:
    """The field an error of the house belongs to: a sol's own field, a level's square in the first column, a
    suffix's column, a square of the matrix."""
    parts = path.split(".")
    square = _square_of_cell(parts[1]) if parts[0] == "cells" and len(parts) >= 2 else None
    if square is not None:
        return square_name(*square)
    if parts[0] == "sol" and len(parts) >= 2:
        return name(*parts)
    if parts[0] in ("selvmakker", "rounding", "gaa_med", "slam"):
        return name(*parts)
    low = grid.levels[0] if grid and grid.levels else 7
    if parts[0] == "levels" and len(parts) >= 2 and parts[1] in model.LEVELS:
        return name("cell", parts[1], 0)
    if parts[0] == "overrides" and len(parts) >= 2:
        n, _sep, s = parts[1].partition("/")
        column = next((i for i, c in enumerate(grid.columns) if s in c.suffixes), 0) if grid else 0
        return name("cell", n if n in model.LEVELS else low, column)
    return name("cell", low, 0)


def suffix_label(suffix: str) -> str:
    return suffix_name(suffix) or _("plain")


# ---------------------------------------------------------------- the matrix on the page


def _square_field(texts: Mapping[str, str], errors: Mapping[str, Any], key: str, label: str) -> dict[str, Any]:
    error = errors.get(key)
    return {
        "name": key,
        "id": key.replace(".", "-"),
        "value": texts.get(key, ""),
        "label": label,
        "error": say(error) if error is not None else None,
    }


def matrix_view(texts: Mapping[str, str], errors: Mapping[str, Any], *, method: str = "post") -> dict[str, Any]:
    """The matrix's context for the template (templates/variants/danish/card.html): its rows for the card's columns as
    posted (every bid 7–13, those outside the card's bids hidden), a field per square labelled with its row and tricks
    as the card says them ("8 gode · 10 stik"), the paste box, what the page says about them. A page that sends its
    form in the address (method get) draws the squares only when the card has some."""
    low = count_of(texts.get(name("low"), ""), 7, 13, 7)
    high = count_of(texts.get(name("high"), ""), low, 13, 13)
    rows: list[dict[str, Any]] = []
    own = 0
    for row in card_rows(texts):
        squares = []
        for t in TRICKS:
            key = square_name(row.n, row.suffix, t)
            field = _square_field(texts, errors, key, f"{row.label} · {tricks_words(t)}")
            squares.append(field | {"made": t >= row.n})
            own += bool(field["value"].strip()) and low <= row.n <= high
        rows.append({"n": row.n, "label": row.label, "hidden": not low <= row.n <= high, "squares": squares})
    wrong = any(k.startswith(name(SQUARE) + ".") for k in errors) or PASTE in errors
    if texts.get(INEXACT):
        note = _(
            "The grid above cannot show this card as it is: each square below holds the card's own value, and saving "
            "keeps them. Change the squares here; the grid only counts for a square left empty."
        )
    elif own:
        note = ngettext(
            "%(num)d square has a value of its own; an empty square counts as the rule above gives it.",
            "%(num)d squares have values of their own; an empty square counts as the rule above gives it.",
            own,
        )
    else:
        note = None
    longest = max((len(sq["value"]) for row in rows for sq in row["squares"]), default=0)
    return {
        "draw": method == "post" or own > 0,
        "size": max(4, longest + 1),  # characters a square shows: the longest value whole
        "open": bool(own or wrong or texts.get(PASTE, "").strip() or texts.get(SAID)),
        "rows": rows,
        "tricks": list(TRICKS),
        "note": note,
        "own": own,
        "action": SQUARES,
        "paste": _square_field(texts, errors, PASTE, ""),
        "names": {sq["name"] for row in rows for sq in row["squares"]} | {PASTE},
    }


def sol_gaa_med_view(texts: Mapping[str, str], errors: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each sol bid's own gå med field by bid: "" as the card's, SOL_OWN never, or one of the house's rules."""
    return {bid: _square_field(texts, errors, name("sol", bid, "gaa_med"), "") for bid in model.SOL_BIDS}
