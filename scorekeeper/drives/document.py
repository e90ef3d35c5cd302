"""A whist drive's paper as one model (games/document.py says how): the table cards, the score cards (four A6 to an
A4 sheet), the tally cards, the standings (everyone's, and the organiser's with the money) and the blank score cards
(two A5 to a sheet) as documents of blocks, from drives/present.py's contexts. The print pages
(templates/print/drive_*.html, through print/blocks.html) and the PDFs (paper/draw.py) both draw these blocks. A card
is handed out: no page numbers on cards; the standings have them.

Measures are drives-print.css's. Every text goes to draw.py as text (it escapes it before any markup)."""

from __future__ import annotations

from typing import Any

import segno

from scorekeeper.paper.faces import BOLD, FONT, register_fonts
from scorekeeper.paper.lines import broken
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import html_lang
from scorekeeper.web.i18n import money as money_text

CARD_ROW_MM = 5.6  # a tally card's row (14 pt), high enough to write in
SHEET_MM = (210.0, 297.0)  # the cut sheets fill A4 edge to edge
A6_MM = (105.0, 148.5)  # four score cards to a sheet
A5_MM = (210.0, 148.5)  # two blank cards to a sheet
CARD_PAD_MM = (5.0, 6.0)  # a cut card's padding, top/bottom and left/right
BLANK_ROW_MM = (6.0, 10.0)  # a blank card's row, written on in pencil (issue 33): at least 6 mm, the rows filling it
# Two A5 blank cards to a sheet while the hands fit at 6 mm a row, else one to an A4 sheet (its class on the page).
BLANK_FORMATS = ((A5_MM, 2, "sheet2"), ((210.0, 297.0), 1, "sheet1"))
BLANK_HEAD_MM = 30.0  # what a blank card needs besides its rows: its heading, the line under it, the totals
# A score card is read and written on at the table (issue 33): no type under 8 pt, a row at least 6 mm high for a
# pencilled total and at most 10 mm, the rows filling the card. Its size is the first of these its hands fit at 6 mm:
# (cards across, card width × height in mm, cards a sheet, landscape sheet) — four A6 to an A4 sheet, three to a
# landscape sheet (a third of it each), two to a sheet (half of it, its whole height).
SCORE_FORMATS = (
    (2, (105.0, 148.5), 4, False),
    (3, (99.0, 210.0), 3, True),
    (2, (105.0, 297.0), 2, False),
)
SCORE_PAD_MM = (3.5, 4.0)
SCORE_ROW_MM = (6.0, 10.0)
SCORE_TYPE = 8.0  # the grid, the line under the name, the card's number
SCORE_NAME, SCORE_TOTALS = 14.0, 9.0
# The score card's columns in mm (the table's with its dummy mark, "10, blindemann", and "Opponents" in the longest of
# the languages fit at 8 pt); the total takes the rest of the card's width.
SCORE_COLUMNS = (6.0, 12.5, 23.5, 15.0, 22.5, None)
RED_SUITS = {"♥": "#b3261e", "♦": "#b3261e"}  # as the pages' --red
WARNING = "#b3261e"


MM_PT = 72 / 25.4


def _card_table(
    header: list[str], rows: list[Any], interval: int | None = None, left: tuple[int, ...] = (), css: tuple = ()
) -> dict:
    """A card's rows (.card-rows): a grid, centred but for the names, a heavy rule under the interval's hand; `css`
    the columns' classes on the page."""
    columns = [{"align": "left" if i in left else "center"} for i in range(len(header))]
    for column, name in zip(columns, css):
        if name:
            column["css"] = name
    if interval and interval <= len(rows):
        rows = [*rows[: interval - 1], {"css": "interval", "cells": rows[interval - 1]}, *rows[interval:]]
    return {
        "kind": "table",
        "css": "card-rows",
        "columns": columns,
        "header": [header],
        "rows": rows,
        "grid": True,
        "size": 10,
        "head_size": 10,
        "row_height": CARD_ROW_MM,
        "valign": "MIDDLE",
        "pad": 1.4,
        "vpad": 0.7,
        "rule_after_rows": [interval - 1] if interval and interval <= len(rows) else [],
    }


def _small_card_table(table: dict, size: float, row_mm: float, pad_pt: float) -> dict:
    """A cut card's rows: smaller type and rows, as .sheet4 / .sheet2 .card-rows set them."""
    return {**table, "size": size, "head_size": size, "row_height": row_mm, "pad": pad_pt / 2.835, "vpad": 0}


def _cards(title: str, blocks: list[dict], cut: bool = False) -> dict:
    out = {"title": title, "lang": html_lang(), "footer": {"left": "", "pages": False}, "blocks": blocks}
    if cut:
        out["page"] = {"margins_mm": 0}
    return out


def _pages(cards: list[list[dict]], css: str) -> list[dict]:
    """A card a page: each card a section (`css`: its class on the page, which breaks after it)."""
    return [{"kind": "section", "css": css, "break": i > 0, "blocks": card} for i, card in enumerate(cards)]


def _sheets(
    cards: list[list[dict]], per_row: int, card_mm: tuple[float, float], per_sheet: int, css: str, card_css: str
) -> list[dict]:
    """Cut sheets (.sheet4, .sheet2): the cards in a grid that fills the page, dashed lines where to cut."""
    return [
        {
            "kind": "grid",
            "css": css,
            "cell_css": card_css,
            "columns": per_row,
            "cell_mm": list(card_mm),
            "pad_mm": list(CARD_PAD_MM),
            "cut": True,
            "cells": cards[i : i + per_sheet],
            "fill": per_sheet,
        }
        for i in range(0, len(cards), per_sheet)
    ]


def _line(text: str, size: float, css: str | None = None) -> dict:
    return {"kind": "p", "text": text, "size": size, "css": css}


def _header(blocks: list[dict]) -> dict:
    """A card's heading and the line under it, as the page's <header>."""
    return {"kind": "section", "tag": "header", "blocks": blocks}


# ---------------------------------------------------------------- score cards


def _score_text(card: dict, head: dict) -> tuple[list[str], list[list], str, list]:
    """A score card's words: the header, the rows, the line under the name, the totals (None: a line to write on)."""
    header = ["#", _("Trump"), _("Table"), _("Own tricks"), _("Opponents"), _("Total")]
    rows = [
        [
            str(r["hand"]),
            {"text": r["trump"], "color": RED_SUITS.get(r["trump"])},
            str(r["table"]),
            str(r["own"]),
            str(r["opp"]),
            str(r["total"]),
        ]
        for r in card["rows"]
    ]
    about = card["role"]
    if card.get("lady_as_gent"):
        about += " (" + _("lady playing as gent") + ")"
    about += f" · {head['title']}"
    if card.get("start"):
        about += " · " + _("Starts at table %(start)s", start=card["start"])
    if card.get("from_hand"):
        about += " · " + _("from hand %(n)d", n=card["from_hand"])
    totals = []
    if card["interval_after"]:
        totals.append([_("Half-time"), None if card["half"] is None else str(card["half"])])
    totals.append([_("Final"), None if card["final"] is None else str(card["final"])])
    return header, rows, about, totals


def _lines(value: str, face: str, size: float, width_mm: float) -> int:
    register_fonts()  # once per process: measured before drawn
    return len(broken(value, face, size, width_mm * MM_PT)[1])


def _score_head_mm(card: dict, header: list[str], about: str, inner_mm: float) -> float:
    """What a score card needs above and below its rows, in mm: the name (and number), the line under it, the
    header row (as many lines as its longest heading breaks into), the spaces and the totals."""
    widths = _score_widths(inner_mm)
    name = _lines(f"{card['name']} {_('No. %(n)d', n=card['number'])}", BOLD, SCORE_NAME, inner_mm)
    under = _lines(about, FONT, SCORE_TYPE, inner_mm)
    heading = max(_lines(h, BOLD, SCORE_TYPE, w - 1.4) for h, w in zip(header, widths))
    pt = name * SCORE_NAME * 1.2 + under * SCORE_TYPE * 1.3 + heading * SCORE_TYPE * 1.15 + SCORE_TOTALS * 1.3
    return pt / MM_PT + 0.5 + 0.8 + 0.7 + 2 + 1.5  # the spaces between, and a little to spare


def _score_widths(inner_mm: float) -> list[float]:
    fixed = sum(w for w in SCORE_COLUMNS if w)
    return [w if w else inner_mm - fixed for w in SCORE_COLUMNS]


def _score_format(cards: list[dict], head: dict) -> tuple[tuple, float]:
    """The first of SCORE_FORMATS whose cards hold every card's rows at SCORE_ROW_MM's least (the last if none does),
    and the row height that fills them, at most SCORE_ROW_MM's most."""
    least, most = SCORE_ROW_MM
    row_mm = least
    for form in SCORE_FORMATS:
        width, height = form[1]
        inner = width - 2 * SCORE_PAD_MM[1]
        room = min(
            (height - 2 * SCORE_PAD_MM[0] - _score_head_mm(card, *_score_text(card, head)[::2], inner))
            / max(1, len(card["rows"]))
            for card in cards
        )
        row_mm = min(most, room)
        if row_mm >= least:
            return form, row_mm
    return SCORE_FORMATS[-1], max(row_mm, 2.8)


def score_card(card: dict, head: dict, row_mm: float = SCORE_ROW_MM[0], inner_mm: float = 97.0) -> list[dict]:
    """A score card: the name and card number, role, drive, start table and first hand; per
    hand the trump (hearts and diamonds red), table (", dummy" when a seat there is empty and its hand played open),
    own and opponents' tricks and the running total; the half-time and final totals."""
    header, rows, about, totals = _score_text(card, head)
    table = _card_table(header, rows, card["interval_after"], css=("", "trump", "", "", "", "total"))
    table = {**table, "size": SCORE_TYPE, "head_size": SCORE_TYPE, "row_height": row_mm, "pad": 0.7, "vpad": 0}
    for column, width in zip(table["columns"], _score_widths(inner_mm)):
        column["width"] = width
    return [
        _header(
            [
                {"kind": "title", "text": card["name"], "small": _("No. %(n)d", n=card["number"]), "size": SCORE_NAME},
                {"kind": "space", "mm": 0.5},
                _line(about, SCORE_TYPE),
            ]
        ),
        {"kind": "space", "mm": 0.7},
        table,
        {"kind": "space", "mm": 2},
        {"kind": "fields", "items": totals, "size": SCORE_TOTALS, "css": "card-totals"},
    ]


def scorecards_document(ctx: dict) -> dict:
    """The score cards in the lists' order, as many to a sheet as their rows allow
    (SCORE_FORMATS: four A6 to an A4 sheet for most drives)."""
    head = ctx["head"]
    (across, card_mm, per_sheet, landscape), row_mm = _score_format(ctx["cards"], head)
    inner = card_mm[0] - 2 * SCORE_PAD_MM[1]
    cards = [score_card(card, head, row_mm, inner) for card in ctx["cards"]]
    css = {4: "sheet4", 3: "sheet3", 2: "sheet2tall"}[per_sheet]  # drives-print.css's sheet of this format
    sheets = _sheets(cards, across, card_mm, per_sheet, css, "score-card")
    for sheet in sheets:
        sheet["pad_mm"] = list(SCORE_PAD_MM)
    out = _cards(head["title"], sheets, cut=True)
    out["page"]["landscape"] = landscape
    return out


# ---------------------------------------------------------------- tally cards


def tally_document(ctx: dict) -> dict:
    """The tally cards: a card per table, per hand the trump, the two pairs seated there and the tricks each took; a
    card a page."""
    head = ctx["head"]
    header = ["#", _("Trump"), _("North – South"), _("Tricks"), _("East – West"), _("Tricks")]
    cards = []
    for card in ctx["cards"]:
        rows = [
            [str(r["hand"]), r["trump"], r["pairs"][0], str(r["tricks"][0]), r["pairs"][1], str(r["tricks"][1])]
            for r in card["rows"]
        ]
        table = _card_table(header, rows, left=(2, 4), css=("", "trump", "pair", "", "pair", ""))
        for i, width in ((0, 10), (1, 14), (3, 18), (5, 18)):  # the pairs' names get the rest of the width
            table["columns"][i]["width"] = width
        table["columns"][2].update(wrap=True, size=9)
        table["columns"][4].update(wrap=True, size=9)
        table.pop("row_height")
        cards.append(
            [
                _header([{"kind": "title", "text": _("Table %(n)d", n=card["table"])}, _line(head["title"], 9)]),
                table,
            ]
        )
    return _cards(head["title"], _pages(cards, "tally-card"))


# ---------------------------------------------------------------- blank cards


def _blank_format(hands: int) -> tuple[tuple[float, float], int, str, float]:
    """The first of BLANK_FORMATS whose card holds `hands` rows at 6 mm (the last if none does), and the row height
    that fills it, at most 10 mm."""
    least, most = BLANK_ROW_MM
    for size, per_sheet, css in BLANK_FORMATS:
        row_mm = (size[1] - 2 * CARD_PAD_MM[0] - BLANK_HEAD_MM) / (hands + 1)
        if row_mm >= least:
            return size, per_sheet, css, min(most, row_mm)
    return size, per_sheet, css, max(2.8, row_mm)


def blank_cards_document(ctx: dict) -> dict:
    """Blank score cards to fill in with a pencil, every hand's trump printed: two A5 to a sheet, or one A4 for a
    drive whose hands do not fit A5 at 6 mm a row; no type under 8 pt."""
    header = ["#", _("Trump"), _("Table"), _("Own tricks"), _("Opponents"), _("Total"), _("Initials")]
    cards = []
    size, per_sheet, css, row_mm = _blank_format(max(len(c["rows"]) for s in ctx["sheets"] for c in s))
    for sheet in ctx["sheets"]:
        for card in sheet:
            rows = [[str(r["hand"]), r["trump"], "", "", "", "", ""] for r in card["rows"]]
            cards.append(
                [
                    _header(
                        [
                            {"kind": "title", "text": _("Drive score card"), "size": 13},
                            {"kind": "space", "mm": 0.5},
                            {
                                "kind": "fields",
                                "items": [
                                    [_("Name"), None, {"line": "wide"}],
                                    [_("No."), None, {"line": "short"}],
                                    [_("Start table"), None, {"line": "short"}],
                                ],
                                "sep": " ",
                                "colon": False,
                                "size": 8,
                            },
                        ]
                    ),
                    {"kind": "space", "mm": 0.7},
                    _small_card_table(_card_table(header, rows, css=("", "trump")), 8, row_mm, 3),
                    {"kind": "space", "mm": 2.8},
                    {
                        "kind": "fields",
                        "items": [[_("Half-time"), None], [_("Final"), None]],
                        "size": 12,
                        "css": "card-totals",
                    },
                ]
            )
    return _cards(_("Drive score card"), _sheets(cards, 1, size, per_sheet, css, "score-card blank"), cut=True)


# ---------------------------------------------------------------- table cards


def table_cards_document(ctx: dict) -> dict:
    """The table cards: a card per table with the drive's title, the table's number, the QR code of its page (the
    PDF draws segno's matrix, the page its SVG: the same code), what to do with it, and the address; on top of each
    card in red, when the address is this computer's own name for itself, that phones cannot open it and where the
    page is on the network."""
    head = ctx["head"]
    cards = []
    warning: list[dict] = [{"kind": "space", "mm": 20}]
    if ctx.get("unreachable"):  # printed from this computer's own name for itself: say so on every card, in red
        said = _("The phones cannot open these QR codes.") + " "
        said += _(
            "They point to %(host)s, which is this computer's own name for itself: a phone that scans one opens "
            "nothing.",
            host=ctx["unreachable"],
        )
        warning = [{"kind": "p", "text": said, "size": 12, "bold": True, "color": WARNING, "align": "center"}]
        if ctx.get("reach_at"):
            warning += [
                _line(
                    _(
                        "The phones reach this computer at its address on the network. Open this page there and "
                        "print the cards from it:"
                    ),
                    11,
                )
                | {"color": WARNING, "align": "center"},
                {"kind": "p", "text": ctx["reach_at"], "size": 11, "bold": True, "color": WARNING, "align": "center"},
            ]
        warning = [{"kind": "section", "tag": "div", "css": "card-warning", "blocks": warning}]
        warning.append({"kind": "space", "mm": 2})
    for card in ctx["cards"]:
        matrix = ["".join("1" if cell else "0" for cell in row) for row in segno.make(card["url"], error="m").matrix]
        qr = {"kind": "qr", "matrix": matrix, "mm": 90, "label": _("QR code of table %(n)d", n=card["table"])}
        if card.get("qr"):
            qr["svg"] = card["qr"]  # the page's own SVG of the same code
        cards.append(
            [
                *warning,
                {"kind": "p", "text": head["title"], "size": 16, "align": "center", "css": "card-drive"},
                {"kind": "title", "text": _("Table %(n)d", n=card["table"]), "size": 64, "align": "center"},
                qr,
                {"kind": "space", "mm": 6},
                {
                    "kind": "p",
                    "text": _(
                        "Scan with a phone at this table to enter the tricks after each hand and see where to go next."
                    ),
                    "size": 13,
                    "align": "center",
                    "css": "card-help",
                },
                {
                    "kind": "p",
                    "text": card["url"],
                    "size": 8,
                    "align": "center",
                    "color": "#555555",
                    "anywhere": True,
                    "css": "card-url",
                    "href": card["url"],
                    "data": {"table": card["table"]},
                },
            ]
        )
    return _cards(head["title"], _pages(cards, "table-card"))


# ---------------------------------------------------------------- standings


def _state(head: dict) -> str:
    if head["finished"]:
        return _("Final standings after %(n)d hands", n=head["hands"])
    if not head.get("provisional") and head["current"] > 1:
        return _("Standings after hand %(n)d", n=head["current"] - 1)  # hands 1 … n, the hand being played not begun
    state = _("Standings so far: hand %(n)d of %(hands)d", n=head["current"], hands=head["hands"])
    if head.get("provisional"):
        tables = ", ".join(str(t) for t in head["waiting_for"])
        state += " (" + _("provisional: tables %(tables)s are still playing", tables=tables) + ")"
    return state


def standings_blocks(groups: list[dict], id: str = "standings") -> list[dict]:
    """The standings as paper prints them (the drive's pages have their own, drives/_drive.html): per role its label,
    then place, names (with the note and why a row level on tricks is behind) and tricks."""
    out: list[dict] = []
    for group in groups:
        rows = []
        for r in group["rows"]:
            below, below_css = [], []
            if r.get("note"):
                below, below_css = [f"({r['note']})"], ["note"]
            if r.get("why"):
                below, below_css = [*below, r["why"]], [*below_css, "why"]
            rows.append(
                [str(r["place"]), {"text": r["names"], "below": below, "below_css": below_css}, str(r["total"])]
            )
        out += [
            {
                "kind": "table",
                "css": f"standings role-{group['role']}",
                "caption": group["label"],
                "columns": [
                    {"width": 12, "align": "right", "css": "place"},
                    {"width": 80, "wrap": True, "below_size": 7, "below_color": "#444444", "css": "name"},
                    {"width": 20, "align": "right", "css": "total"},
                ],
                "stretch": False,
                "header": [
                    [
                        {"text": "#", "align": "right", "css": "place"},
                        {"text": _("Name"), "align": "left", "css": "name"},
                        {"text": _("Tricks"), "align": "right", "css": "total"},
                    ]
                ],
                "rows": rows,
                "pad": 2,
            },
            {"kind": "space", "mm": 3},
        ]
    return [{"kind": "section", "tag": "div", "css": "drive-standings", "id": id, "blocks": out}]


def standings_document(ctx: dict) -> dict:
    """The standings: the title and how far the drive is, the sit-out rule, the prizes and who won them (what each
    cost, for the organiser), the money (the organiser's), the standings by role and at half-time."""
    head = ctx["head"]
    money = ctx["money"]
    currency = money["currency"] if money else None
    top: list[dict] = [
        {"kind": "title", "text": head["title"], "size": 15},
        {"kind": "space", "mm": 1},
        _line(_state(head), 9),
    ]
    if ctx.get("rule"):
        top.append(_line(ctx["rule"], 9, "rule"))
    blocks: list[dict] = [{"kind": "section", "tag": "header", "css": "sheet-head", "blocks": top}, {"kind": "hr"}]
    if ctx["prizes"]:
        rows = []
        for p in ctx["prizes"]:
            row = [p["label"], p["name"] or ""]
            if money:
                row.append(money_text(p["amount"], currency) if p["amount"] else "")
            status = [p["status"]] if p.get("status") else []
            reasons = list(p.get("reasons") or [])
            below_css = ["status"] * len(status) + ["why"] * len(reasons)
            row.append({"text": ", ".join(p["winners"]), "below": status + reasons, "below_css": below_css})
            rows.append(row)
        columns: list[dict[str, Any]] = [
            {"width": 40, "bold": True, "wrap": True, "th": True},
            {"width": 50, "wrap": True},
        ]
        if money:
            columns.append({"width": 28, "align": "right", "css": "amount"})
        columns.append({"wrap": True, "below_size": 7, "below_color": "#444444", "css": "winners"})
        prizes = [
            {"kind": "h2", "text": _("Prizes")},
            {"kind": "space", "mm": 1},
            {"kind": "table", "css": "prizes", "columns": columns, "rows": rows, "pad": 2},
        ]
        blocks.append({"kind": "section", "css": "prize-list", "blocks": prizes})
    if money:
        fee = money_text(money["fee"], currency)
        paid = [
            {"kind": "space", "mm": 3},
            {"kind": "h2", "text": _("Money")},
            {"kind": "space", "mm": 1},
            {
                "kind": "table",
                "css": "drive-money",
                "columns": [{"width": 90, "th": True}, {"width": 40, "align": "right", "css": "amount"}],
                "stretch": False,
                "rows": [
                    [
                        _("Entry fees: %(count)d players × %(fee)s", count=money["players"], fee=fee),
                        {"text": money_text(money["takings"], currency), "id": "takings"},
                    ],
                    [_("Prizes"), {"text": money_text(money["prizes"], currency), "id": "prize-total"}],
                    {
                        "css": "raised",
                        "cells": [
                            {"text": _("The drive raised"), "bold": True},
                            {"text": money_text(money["raised"], currency), "bold": True, "id": "raised"},
                        ],
                    },
                ],
                "pad": 2,
            },
        ]
        blocks.append({"kind": "section", "css": "money", "blocks": paid})
    for key, label in (("standings", _("Standings")), ("half_time", _("Half-time standings"))):
        if key == "half_time" and not ctx["half_time"]:
            continue
        part = [{"kind": "space", "mm": 3}, {"kind": "h2", "text": label}, {"kind": "space", "mm": 1}]
        part += standings_blocks(ctx[key], "standings" if key == "standings" else "half-time")
        blocks.append({"kind": "section", "blocks": part})
    return {
        "title": head["title"],
        "lang": html_lang(),
        "footer": {"left": head["title"], "pages": True},
        "blocks": blocks,
    }


DOCUMENTS = {
    "cards": table_cards_document,
    "scorecards": scorecards_document,
    "tally": tally_document,
    "standings": standings_document,
}
