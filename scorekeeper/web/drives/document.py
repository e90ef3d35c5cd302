"""A whist drive's paper as the PDF renderer's documents (web/sheets/draw.py draws them with ReportLab): the score
cards, the tally cards and the blank score cards, from the same contexts as their print pages (web/drives/present.py)
and with the same words in the same order, so that the two cannot drift (tests/integration/test_pdf_text.py). A card
is a page of its own, handed out: no page numbers."""

from __future__ import annotations

import segno

from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import html_lang
from scorekeeper.web.i18n import money as money_text

CARD_ROW_MM = 5.6  # a card's row, as drives-print.css sets it (14 pt), high enough to write in


def _card_table(header: list[str], rows: list[list], interval: int | None = None, left: tuple[int, ...] = ()) -> dict:
    columns = [{"align": "left" if i in left else "center"} for i in range(len(header))]
    return {
        "kind": "table",
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
        "rule_after_rows": [interval - 1] if interval else [],
    }


def _cards(title: str, blocks: list[dict]) -> dict:
    return {"title": title, "lang": html_lang(), "footer": {"left": "", "pages": False}, "blocks": blocks}


def _pages(cards: list[list[dict]]) -> list[dict]:
    out: list[dict] = []
    for i, card in enumerate(cards):
        if i:
            out.append({"kind": "page_break"})
        out += card
    return out


def scorecards_document(ctx: dict) -> dict:
    """print/drive_scorecards.html: per player (or pair) the name, role, drive and start table; per hand the trump,
    table, own and opponents' tricks and the running total; the half-time and final totals."""
    head = ctx["head"]
    header = ["#", _("Trump"), _("Table"), _("Own tricks"), _("Opponents"), _("Total")]
    cards = []
    for card in ctx["cards"]:
        rows = [
            [str(r["hand"]), r["trump"], str(r["table"]), str(r["own"]), str(r["opp"]), str(r["total"])]
            for r in card["rows"]
        ]
        totals = []
        if card["interval_after"]:
            totals.append([_("Half-time"), None if card["half"] is None else str(card["half"])])
        totals.append([_("Final"), None if card["final"] is None else str(card["final"])])
        cards.append(
            [
                {"kind": "title", "text": card["name"]},
                {
                    "kind": "p",
                    "text": f"{card['role']} · {head['title']} · "
                    + _("Starts at table %(start)s", start=card["start"]),
                },
                _card_table(header, rows, card["interval_after"]),
                {"kind": "space", "mm": 2.8},
                {"kind": "fields", "items": totals, "size": 12},
            ]
        )
    return _cards(head["title"], _pages(cards))


def tally_document(ctx: dict) -> dict:
    """print/drive_tally.html: per table, per hand the trump, the two pairs seated there and the tricks each took."""
    head = ctx["head"]
    header = ["#", _("Trump"), _("North – South"), _("Tricks"), _("East – West"), _("Tricks")]
    cards = []
    for card in ctx["cards"]:
        rows = [
            [str(r["hand"]), r["trump"], r["pairs"][0], str(r["tricks"][0]), r["pairs"][1], str(r["tricks"][1])]
            for r in card["rows"]
        ]
        table = _card_table(header, rows, left=(2, 4))
        for i, width in ((0, 10), (1, 14), (3, 18), (5, 18)):  # the pairs' names get the rest of the width
            table["columns"][i]["width"] = width
        table["columns"][2].update(wrap=True, size=9)
        table["columns"][4].update(wrap=True, size=9)
        table.pop("row_height")
        cards.append(
            [
                {"kind": "title", "text": _("Table %(n)d", n=card["table"])},
                {"kind": "p", "text": head["title"]},
                table,
            ]
        )
    return _cards(head["title"], _pages(cards))


def blank_cards_document(ctx: dict) -> dict:
    """print/drive_blank.html: score cards to fill in with a pen, every hand's trump printed."""
    header = ["#", _("Trump"), _("Table"), _("Own tricks"), _("Opponents"), _("Total"), _("Initials")]
    rows = [[str(r["hand"]), r["trump"], "", "", "", "", ""] for r in ctx["card"]["rows"]]
    cards = [
        [
            {"kind": "title", "text": _("Drive score card")},
            {"kind": "fields", "items": [[_("Name"), None], [_("Start table"), None]], "sep": " ", "colon": False},
            _card_table(header, rows),
            {"kind": "space", "mm": 2.8},
            {"kind": "fields", "items": [[_("Half-time"), None], [_("Final"), None]], "size": 12},
        ]
        for _copy in ctx["copies"]
    ]
    return _cards(_("Drive score card"), _pages(cards))


DOCUMENTS = {"scorecards": scorecards_document, "tally": tally_document}


def table_cards_document(ctx: dict) -> dict:
    """print/drive_cards.html: a card per table with the drive's title, the table's number, the QR code of its page
    (drawn from segno's matrix: the same code as the page's SVG), what to do with it, and the address."""
    head = ctx["head"]
    cards = []
    for card in ctx["cards"]:
        matrix = ["".join("1" if cell else "0" for cell in row) for row in segno.make(card["url"], error="m").matrix]
        cards.append(
            [
                {"kind": "space", "mm": 20},
                {"kind": "p", "text": head["title"], "size": 16, "align": "center"},
                {"kind": "title", "text": _("Table %(n)d", n=card["table"]), "size": 64, "align": "center"},
                {"kind": "qr", "matrix": matrix, "mm": 90},
                {"kind": "space", "mm": 6},
                {
                    "kind": "p",
                    "text": _(
                        "Scan with a phone at this table to enter the tricks after each hand and see where to go next."
                    ),
                    "size": 13,
                    "align": "center",
                },
                {"kind": "p", "text": card["url"], "size": 8, "align": "center", "color": "#555555", "anywhere": True},
            ]
        )
    return _cards(head["title"], _pages(cards))


def standings_document(ctx: dict) -> dict:
    """print/drive_standings.html: the title and how far the drive is, the prizes and who won them, the money, the
    standings by role and at half-time."""
    head = ctx["head"]
    if head["finished"]:
        state = _("Final standings after %(n)d hands", n=head["hands"])
    else:
        state = _("Standings so far: hand %(n)d of %(hands)d", n=head["current"], hands=head["hands"])
    blocks: list[dict] = [{"kind": "title", "text": head["title"], "size": 15}, {"kind": "p", "text": state}]
    money = ctx["money"]
    currency = money["currency"] if money else None
    if ctx["prizes"]:
        rows = [
            [p["label"], p["name"], money_text(p["amount"], currency) if p["amount"] else "", ", ".join(p["winners"])]
            for p in ctx["prizes"]
        ]
        blocks += [
            {"kind": "h2", "text": _("Prizes")},
            {
                "kind": "table",
                "columns": [
                    {"width": 40, "bold": True},
                    {"width": 50},
                    {"width": 28, "align": "right"},
                    {"wrap": True},
                ],
                "rows": rows,
                "pad": 2,
            },
        ]
    if money:
        fee = money_text(money["fee"], currency)
        blocks += [
            {"kind": "h2", "text": _("Money")},
            {
                "kind": "table",
                "columns": [{"width": 90}, {"width": 40, "align": "right"}],
                "stretch": False,
                "rows": [
                    [
                        _("Entry fees: %(count)d players × %(fee)s", count=money["players"], fee=fee),
                        money_text(money["takings"], currency),
                    ],
                    [_("Prizes"), money_text(money["prizes"], currency)],
                    [
                        {"text": _("The drive raised"), "bold": True},
                        {"text": money_text(money["raised"], currency), "bold": True},
                    ],
                ],
                "pad": 2,
            },
        ]
    for key, label in (("standings", _("Standings")), ("half_time", _("Half-time standings"))):
        if key == "half_time" and not ctx["half_time"]:
            continue
        blocks.append({"kind": "h2", "text": label})
        for group in ctx[key]:
            blocks += [
                {"kind": "p", "text": group["label"], "bold": True},
                {
                    "kind": "table",
                    "columns": [{"width": 12, "align": "right"}, {"width": 80}, {"width": 20, "align": "right"}],
                    "stretch": False,
                    "header": [
                        [
                            {"text": "#", "align": "right"},
                            {"text": _("Name"), "align": "left"},
                            {"text": _("Tricks"), "align": "right"},
                        ]
                    ],
                    "rows": [[str(r["place"]), r["names"], str(r["total"])] for r in group["rows"]],
                    "pad": 2,
                },
                {"kind": "space", "mm": 3},
            ]
    return {
        "title": head["title"],
        "lang": html_lang(),
        "footer": {"left": head["title"], "pages": True},
        "blocks": blocks,
    }


DOCUMENTS["cards"] = table_cards_document
DOCUMENTS["standings"] = standings_document
