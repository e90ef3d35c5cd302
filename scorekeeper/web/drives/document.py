"""A whist drive's paper as the PDF renderer's documents (web/sheets/draw.py draws them with ReportLab): the score
cards, the tally cards and the blank score cards, from the same contexts as their print pages (web/drives/present.py)
and with the same words in the same order, so that the two cannot drift (tests/integration/test_pdf_text.py). A card
is a page of its own, handed out: no page numbers."""

from __future__ import annotations

from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import html_lang

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
