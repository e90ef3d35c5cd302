"""The card's matrix as fields, as many clubs print a card: a row per bid and suffix in the club's words ("8 gode"), a
square per number of tricks 0–13, each a field of its own (`card.sq.8.gode.10`, named as every field of the card is:
card.<part>.<where>). What the paste (card_paste.py) and the matrix's buttons put in the squares, the squares read back
as the card prints them, and the matrix on the page. The card's other fields and the house they make are
card_fields.py's."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from scorekeeper.core.messages import Msg, OptionError, message_of
from scorekeeper.core.numbers import NumberError
from scorekeeper.variants.danish import grid as danish_grid
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish.card_paste import TRICKS, Row, folded, group_symbol, read_paste, square_value
from scorekeeper.variants.danish.words import solo_name, suffix_name
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import ngettext, say
from scorekeeper.web.words import tricks_words

MARK = "card"  # a form that carries the card's fields says so (an unticked switch is then "off", not "not sent")
LEVELS = tuple(int(n) for n in model.LEVELS)
COLUMNS = danish_grid.COLUMNS_MAX


def name(*parts: Any) -> str:
    """A field's name: card.cell.8.0 — the card, the part and where in it (a column, a bid)."""
    return ".".join([MARK, *map(str, parts)])


def count_of(text: str, low: int, high: int, default: int) -> int:
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdigit() and low <= int(text) <= high else default


# ---------------------------------------------------------------- the matrix: a square per bid, suffix and tricks

SQUARE = "sq"
PASTE = name("paste")  # a block of rows copied from the club's spreadsheet
SQUARES = name("squares")  # the matrix's buttons: "rule" (every square from the rule), "clear", "read" (the paste)
SQUARE_ACTIONS = ("rule", "clear", "read")
SAID = name("said")  # not a field: what the squares' buttons or the paste just did, for the page's notice
INEXACT = name("inexact")  # not a field: the card opened is one the grid cannot show (every square is its own)
PASTE_MAX = 32 * 1024  # characters of a paste: 56 rows of 14 squares written at length are some 12,000
PASTE_PROBLEMS = 12  # the paste's problems named one by one; the rest counted


def square_name(n: int, suffix: str, tricks: int) -> str:
    """A square's field: card.sq.8.gode.10 (bid, suffix, the tricks bidder and partner take)."""
    return name(SQUARE, n, suffix, tricks)


ALL_SQUARES = tuple(square_name(n, s, t) for n in LEVELS for s in model.SUFFIX_NAMES for t in TRICKS)


def cell_key(n: int, suffix: str, tricks: int) -> str:
    """RULES.md's key of a square: "8/gode/+2" made with two over, "8/gode/-3" lost by three."""
    return f"{n}/{suffix}/+{tricks - n}" if tricks >= n else f"{n}/{suffix}/-{n - tricks}"


def square_of_cell(key: str) -> tuple[int, str, int] | None:
    level, suffix, step = (key.split("/") + ["", "", ""])[:3]
    if level not in model.LEVELS or suffix not in model.SUFFIX_NAMES or step[:1] not in ("+", "-"):
        return None
    if not (step[1:].isascii() and step[1:].isdigit()):
        return None
    n, d = int(level), int(step[1:])
    return n, suffix, n + d if step[0] == "+" else n - d


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


def suffix_label(suffix: str) -> str:
    return suffix_name(suffix) or _("plain")


# ---------------------------------------------------------------- the squares filled and read


def paste_into(texts: dict[str, str], rows: list[Row], errors: dict) -> None:
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
    found, problems = read_paste(text, rows, group_symbol(), sol_names)
    if problems:
        more = len(problems) - PASTE_PROBLEMS
        listed = problems[:PASTE_PROBLEMS] + ([Msg("and %(n)d more", n=more)] if more > 0 else [])
        errors[PASTE] = Msg("The paste was not read: %(problems)s", problems=listed)
        return
    for (n, s, t), value in found.items():
        texts[square_name(n, s, t)] = value
    texts[PASTE] = ""
    texts[SAID] = f"pasted:{len({(n, s) for n, s, _t in found})}"


def read_squares(texts: Mapping[str, str], rows: list[Row], errors: dict) -> dict[tuple[int, str, int], Fraction]:
    """The squares with a number, signed as the card prints them (a lost bid's may be written without its minus: it is
    what bidder and partner each pay); each wrong one said by its field."""
    out = {}
    group = group_symbol()
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


# ---------------------------------------------------------------- the matrix on the page


def field_view(texts: Mapping[str, str], errors: Mapping[str, Any], key: str, label: str) -> dict[str, Any]:
    error = errors.get(key)
    return {
        "name": key,
        "id": key.replace(".", "-"),
        "value": texts.get(key, ""),
        "label": label,
        "error": say(error) if error is not None else None,
    }


def matrix_view(texts: Mapping[str, str], errors: Mapping[str, Any], *, method: str = "post") -> dict[str, Any]:
    """The matrix's context for the template (variants/danish/templates/card.html): its rows for the card's columns as
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
            field = field_view(texts, errors, key, f"{row.label} · {tricks_words(t)}")
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
        "paste": field_view(texts, errors, PASTE, ""),
        "names": {sq["name"] for row in rows for sq in row["squares"]} | {PASTE},
    }
