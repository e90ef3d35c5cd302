"""A club evening's paper as one model (games/document.py says how): the evening's result (standings, prizes, money,
who pays whom) and the card its tables were scored by on the first page, then each table's sheet on a page of its
own, the same blocks as a game's sheet (games/document.sheet_blocks) with its own title in the footer. The print page
(templates/print/evening.html) and the PDF (paper/draw.py) both draw these blocks."""

from __future__ import annotations

from scorekeeper.games.document import sheet_blocks, sheet_title, tariff_blocks
from scorekeeper.web.i18n import day, html_lang, money, rate
from scorekeeper.web.i18n import gettext as _


def heading(text: str, small: str | None = None) -> list[dict]:
    """A heading of the club's paper with its space around it (`small`: a smaller word after it)."""
    return [{"kind": "space", "mm": 4}, {"kind": "h2", "text": text, "small": small}, {"kind": "space", "mm": 1}]


def balances(header: list[str], rows: list[list], css: str, left: int = 1) -> dict:
    """.evening-paper .balances: amounts to the right, the names (and the first column up to `left`) to the left."""
    columns = [{"align": "left" if i < left else "right", "size": 9} for i in range(len(header))]
    return {
        "kind": "table",
        "css": f"balances {css}",
        "columns": columns,
        "stretch": False,
        "header": [[{"text": h, "align": "left" if i < left else "right"} for i, h in enumerate(header)]],
        "rows": rows,
        "pad": 2.5,
        "vpad": 0.6,
        "head_size": 8,
    }


def result_blocks(club_name: str, evening: dict) -> list[dict]:
    """The evening's result: its head, standings, prizes, money and who pays whom."""
    currency = evening["currency"]
    when = day(evening["date"])
    facts = ""
    if evening.get("rate"):
        facts += _("%(amount)s per point", amount=rate(evening["rate"], currency))
    if evening.get("fee"):
        facts += " · " + _("fee %(amount)s", amount=money(evening["fee"], currency))
    if evening.get("format_text"):
        facts += " · " + evening["format_text"]
    blocks: list[dict] = [
        {"kind": "head", "kicker": club_name, "title": _("Result of %(date)s", date=when), "line": facts},
    ]
    halves = evening["halves_count"] > 1
    header = [_("Place"), _("Member")]
    header += [_("Half %(n)d", n=n) for n in range(1, evening["halves_count"] + 1)] if halves else []
    header += [_("Points")] + ([_("Net")] if evening["has_money"] else [])
    rows = []
    for p in evening["places"]:
        row = [f"{p['place']}{'=' if p['shared'] else ''}", {"text": p["name"], "bold": True, "th": True}]
        row += [str(h) for h in p["halves"]] if halves else []
        row.append(str(p["points"]))
        if evening["has_money"]:
            row.append(money(p["net"], currency))
        rows.append(row)
    blocks += heading(_("The evening's standings"))
    blocks.append(balances(header, rows, "places", left=2))
    if evening["prizes"]:
        items = []
        for p in evening["prizes"]:
            value = str(p["value"]) + (", " + _("shared") if p["shared"] else "")
            items.append({"label": f"{p['label']}:", "text": f"{', '.join(p['winners'])} ({value})"})
        blocks += [*heading(_("Prizes")), {"kind": "list", "css": "prize-list", "items": items}]
    if evening["has_money"]:
        rows = [
            [{"text": m["name"], "bold": True, "th": True}, money(m["winnings"]), money(m["fee"]), money(m["net"])]
            for m in evening["members"]
        ]
        if evening.get("kitty"):
            rows.append([{"text": _("Kitty"), "bold": True, "th": True}, "", "", money(evening["kitty"])])
        blocks += heading(_("Money"), currency)
        blocks.append(balances([_("Member"), _("Before fee"), _("Fee"), _("Net")], rows, "money"))
    if evening["has_money"] or evening.get("kitty"):
        how = _("through the kitty") if evening["settlement"] == "kitty" else _("pairwise")
        blocks += heading(_("Settling up"), how)
        if evening["payments"]:
            payments = [
                _(
                    "%(payer)s pays %(payee)s %(amount)s",
                    payer=p["from"],
                    payee=p["to"],
                    amount=money(p["amount"], currency),
                )
                for p in evening["payments"]
            ]
            blocks.append({"kind": "list", "css": "payments", "items": payments})
        else:
            blocks.append({"kind": "p", "text": _("Nobody owes anything.")})
    return [{"kind": "section", "css": "evening-result", "id": "evening-result", "blocks": blocks}]


def evening_document(ctx: dict) -> dict:
    """The evening's paper: its result, the cards its tables were scored by (each once), then a page per table's
    sheet."""
    club_name, evening = ctx["club"].name, ctx["evening"]
    title = _("Result of %(date)s", date=day(evening["date"]))
    blocks = result_blocks(club_name, evening)
    for card in ctx.get("cards", ()):
        if card["tables"]:
            blocks += [
                {"kind": "space", "mm": 4},
                {"kind": "p", "text": card["tables"], "bold": True, "css": "tariff-tables"},
            ]
        blocks += tariff_blocks(card["matrix"])
    for sheet in ctx["sheets"]:
        blocks.append(
            {
                "kind": "section",
                "css": f"table-sheet variant-{sheet['game']['variant']} sides-{len(sheet['sides'])}",
                "break": True,
                "footer": sheet_title(sheet),
                "blocks": sheet_blocks(sheet, tariff=False),
            }
        )
    return {
        "title": f"{club_name} · {title}",
        "lang": html_lang(),
        "footer": {"left": title, "pages": True},
        "blocks": blocks,
    }
