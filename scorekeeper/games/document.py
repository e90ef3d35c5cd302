"""The print pages' contexts as documents for the PDF renderer: blocks of finished text (paper/draw.py draws them).

Built from the same context as the print page (paper.sheet_context, paper.blank_context), with the same words from the
same catalogue, in the same order as the page's HTML: tests/integration/test_pdf_text.py holds each PDF's text equal to
its print page's, so that the two cannot drift. Money and dates are formatted here, in the reader's language; the
renderer only lays out.
"""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.web.i18n import html_lang, money, rate

# Column widths in mm, as print.css sets them: a side's two columns by the number of sides.
SIDE_MM = {2: 24, 3: 24, 4: 24, 5: 21, 6: 19, 7: 17, 8: 15}
SMALL_TABLE = 5  # sides from which the hands' table is set a point smaller


def head_block(head: dict) -> dict:
    """print/_head.html: variant, title, date, players, first dealer (a line to write on when unknown), house rules."""
    return {
        "kind": "head",
        "kicker": head["variant_title"],
        "title": head.get("title") or head["variant_title"],
        "facts": [
            [_("Date"), head.get("date")],
            [_("Players"), head.get("players")],
            [_("First dealer"), head.get("first_dealer")],
        ],
        "rules": [[rule["label"], rule["value"]] for rule in head["rules"]],
    }


def tariff_blocks(tariff: dict | None, label_mm: float = 8) -> list[dict]:
    """print/_tariff.html: the bid × tricks matrix and the sol bids, kept on one page with their heading; `label_mm`
    the width of the bids' labels (a club's card names each row by its column's heading: they wrap)."""
    if not tariff:
        return []
    if tariff["standard_suffixes"]:
        small = _(
            "plain bid; vip, gode, sans and halve count double; selvmakker: the bidder gets three times, the others pay once"
        )
    else:
        small = (
            _("times the plain row: %(suffixes)s", suffixes=tariff["multiples"]) + "; " if tariff["multiples"] else ""
        ) + _("selvmakker: the bidder gets three times what each other pays")
    matrix = {
        "kind": "table",
        "columns": [
            {"width": label_mm, "align": "right" if label_mm <= 8 else "left", "bold": True, "wrap": label_mm > 8}
        ]
        + [{"align": "right", "size": 7.5} for _t in tariff["tricks"]],
        "header": [[f"{_('bid')} \\ {_('tricks')}", *[str(t) for t in tariff["tricks"]]]],
        "rows": [
            [{"text": str(row["bid"]), "shade": "#eeeeee"}]
            + [
                {"text": c["value"], "bold": c["made"], "shade": "#f2f2f2"} if c["made"] else c["value"]
                for c in row["cells"]
            ]
            for row in tariff["rows"]
        ],
        "grid": True,
        "head_shade": True,
        "size": 7.5,
        "head_size": 6.5,
        "pad": 0.6,
        "vpad": 0.5,
    }
    if tariff["pool"]:
        sol_head = ["", _("made: the sol player's total"), _("lost: the sol player's total")]
    else:
        sol_head = ["", _("made: each of the others pays"), _("lost: the bidder pays each")]
    sol = {
        "kind": "table",
        "columns": [{"width": 40}, {"width": 55, "align": "right"}, {"width": 55, "align": "right"}],
        "stretch": False,
        "header": [sol_head],
        "rows": [list(s.values()) for s in tariff["sol"]],  # name, made, lost: as paper.tariff_view orders them
        "grid": True,
        "head_shade": True,
        "size": 7.5,
        "head_size": 7,
        "pad": 2,
        "vpad": 0.5,
    }
    return [
        {
            "kind": "keep",
            "blocks": [
                {"kind": "space", "mm": 4},
                {"kind": "h2", "text": _("Tariff"), "small": small},
                {"kind": "space", "mm": 1.5},
                matrix,
                {"kind": "space", "mm": 1.5},
                sol,
            ],
        }
    ]


# ---------------------------------------------------------------- a game's sheet


def hands_table(ctx: dict) -> dict:
    """The hands as print/sheet.html lists them: #, the hand (who deals, its words, made or lost), each side's points
    and total, Σ; the header row on every page, the totals last."""
    sides, zero_sum = ctx["sides"], ctx["zero_sum"]
    n = len(sides)
    side_mm = SIDE_MM.get(n, 15)
    size = 8 if n >= SMALL_TABLE else 9
    size = 7 if n >= 7 else size
    columns = [{"width": 7, "align": "right", "color": "#444444", "size": size}, {"wrap": True, "size": size}]
    for _name in sides:
        columns += [
            {"width": side_mm / 2, "align": "right", "size": min(size, 8), "color": "#333333"},
            {"width": side_mm / 2, "align": "right", "bold": True, "size": size, "rule": True},
        ]
    if zero_sum:
        columns.append({"width": 8, "align": "right", "size": 7.5, "color": "#555555"})
    header = ["#", {"text": _("Hand"), "align": "left"}]
    for name in sides:
        header += [{"text": name, "span": 2}]
    if zero_sum:
        header.append("Σ")
    rows = []
    for row in ctx["rows"]:
        dealer = row["deals"]
        if row["cards"]:
            dealer += " · " + row["cards"]
        if row["game"]:
            dealer += " · " + _("game %(n)d", n=row["game"])
        words = row["text"] + (" " + row["outcome_text"] if row.get("outcome_text") else "")
        cells = [str(row["number"]), {"text": words, "small": dealer}]
        for c in row["cells"]:
            points = {"text": c["points"], "small": c["words"]} if c["words"] else {"text": c["points"]}
            total = {"text": c["total"]}
            if c["out"]:
                points["grey"] = total["grey"] = True
            cells += [points, total]
        if zero_sum:
            cells.append(row["sum"])
        rows.append(cells)
    if not rows:
        rows.append(["", {"text": _("No hands yet."), "grey": True}] + [""] * (2 * n) + ([""] if zero_sum else []))
    footer = ["", {"text": ctx["final"], "align": "left"}]
    footer += [{"text": t, "span": 2, "align": "right"} for t in ctx["totals"]]
    if zero_sum:
        footer.append("")
    return {
        "kind": "table",
        "columns": columns,
        "header": [header],
        "rows": rows,
        "footer": [footer],
        "size": size,
    }


def outcome_blocks(ctx: dict) -> list[dict]:
    """print/sheet.html's outcome: who won (or how many hands so far), games won, rubber points and what made them."""
    if ctx["finished"]:
        if ctx["winner"]:
            result = _("Game over: %(winner)s won.", winner=ctx["winner"])
        else:
            result = _("Game over: a draw.")
    else:
        n = len(ctx["rows"])
        result = ngettext("%(num)d hand so far; the game goes on.", "%(num)d hands so far; the game goes on.", n)
    out = [{"kind": "p", "text": result, "bold": True}]
    if ctx["games_won"]:
        won = " · ".join(f"{name} {ctx['games_won'][i]}" for i, name in enumerate(ctx["sides"]))
        out.append({"kind": "p", "text": f"{_('Games won:')} {won}"})
    if ctx["rubber_points"]:
        a, b = ctx["rubber_points"]
        out.append({"kind": "p", "text": _("Rubber points: %(a)d – %(b)d", a=a, b=b)})
    for line in ctx.get("outcome_lines") or []:
        out.append({"kind": "p", "text": line})
    return out


def settlement_blocks(settlement: dict | None) -> list[dict]:
    """Each player's balance in money and who pays whom (on an evening settled through the kitty: each player's part
    to or from the kitty), as print/sheet.html says it."""
    if not settlement:
        return []
    currency = settlement["currency"]
    out = [
        {"kind": "space", "mm": 3},
        {
            "kind": "h2",
            "text": _("Settlement"),
            "small": _("%(amount)s per point", amount=rate(settlement["rate"], currency)),
        },
        {"kind": "space", "mm": 1},
    ]
    if settlement.get("kitty"):
        ways = {"to": _("to the kitty"), "from": _("from the kitty"), "even": ""}
        out.append(
            {
                "kind": "table",
                "columns": [
                    {"width": 40, "size": 9},
                    {"width": 26, "align": "right", "bold": True, "size": 9},
                    {"width": 24, "size": 9},
                ],
                "stretch": False,
                "rows": [[b["player"], money(b["amount"], currency), ways[b["way"]]] for b in settlement["kitty"]],
                "row_rules": False,
                "pad": 1.5,
                "vpad": 0.6,
            }
        )
        text = _("The evening settles through the kitty: every table and the fee at once, on its result.")
        return [*out, {"kind": "p", "text": text}]
    out += [
        {
            "kind": "table",
            "columns": [{"width": 50, "size": 9}, {"width": 28, "align": "right", "bold": True, "size": 9}],
            "stretch": False,
            "rows": [[b["player"], money(b["amount"], currency)] for b in settlement["balances"]],
            "row_rules": False,
            "pad": 0,
            "vpad": 0.6,
        },
    ]
    if settlement["payments"]:
        out.append(
            {
                "kind": "list",
                "items": [
                    _(
                        "%(payer)s pays %(payee)s %(amount)s",
                        payer=p["from"],
                        payee=p["to"],
                        amount=money(p["amount"], currency),
                    )
                    for p in settlement["payments"]
                ],
            }
        )
    else:
        out.append({"kind": "p", "text": _("Nobody pays anybody.")})
    return out


def sheet_title(ctx: dict) -> str:
    return ctx["head"]["title"] or ctx["head"]["variant_title"]


def sheet_blocks(ctx: dict, tariff: bool = True) -> list[dict]:
    """print/_sheet.html's blocks: the head, the hands, the chart beside the outcome and the settlement, the tariff
    (not on a club evening's sheets: `tariff` False, as print/evening.html leaves it out)."""
    blocks = [head_block(ctx["head"]), hands_table(ctx)]
    after = outcome_blocks(ctx) + settlement_blocks(ctx["settlement"])
    if ctx["chart"]:
        chart = {"kind": "chart", "caption": _("Running totals"), "chart": ctx["chart"]}
        blocks.append({"kind": "beside", "left_mm": 88, "left": [chart], "right": after})
    else:
        blocks += [{"kind": "space", "mm": 3}, *after]
    if tariff:
        blocks += tariff_blocks(ctx["tariff_table"])
    return blocks


def sheet_document(ctx: dict) -> dict:
    """A game's printed protokoll (paper.sheet_context) as the renderer's document."""
    title = sheet_title(ctx)
    return {"title": title, "lang": html_lang(), "footer": {"left": title, "pages": True}, "blocks": sheet_blocks(ctx)}


# ---------------------------------------------------------------- a blank sheet

PAGE_MM = 186  # A4's width inside the margins
ROW_MM = 7.4  # a row high enough to write in


def _entry_mm(label: str) -> float:
    """What an entry column needs: its label's widest word at 7 pt bold (about 1.6 mm a letter), 10 mm at least."""
    return max(10.0, 1.6 * max((len(w) for w in label.split()), default=0) + 2)


def blank_widths(n_entries_mm: list[float], sides: int, zero_sum: bool) -> tuple[float, list[float], float, float]:
    """The blank sheet's columns on A4, as print.css would lay them: the dealer 22 mm and each score column 18 mm
    when they fit, else they share what the number, the entries and Σ leave (the dealer 15 mm at least); what is left
    over widens the entries. Answers (dealer, entries, score column, Σ) in mm."""
    total = 10.0 if zero_sum and sides < SMALL_TABLE else 8.0 if zero_sum else 0.0
    rest = PAGE_MM - 7 - total - sum(n_entries_mm)
    dealer, score = 22.0, 18.0
    if dealer + 2 * sides * score > rest:
        dealer = max(15.0, rest * dealer / (dealer + 2 * sides * score))
        score = (rest - dealer) / (2 * sides)
    spare = rest - dealer - 2 * sides * score
    entries = [w + spare / len(n_entries_mm) for w in n_entries_mm] if n_entries_mm else []
    if not n_entries_mm:
        dealer += spare
    return dealer, entries, score, total


def blank_document(ctx: dict) -> dict:
    """A blank sheet (paper.blank_context) as the renderer's document: print/blank.html's head, two header rows (the
    columns, then each side's own columns (plump's bid), points and total per side), a row per deal to write in (the dealer's columns shaded where the dealer
    sits out), the carried-forward totals of a sheet that goes on, and the tariff."""
    columns_in, sides, zero_sum = ctx["columns"], ctx["sides"], ctx["zero_sum"]
    side_columns = ctx.get("side_columns") or []
    dealer_mm, entries_mm, score_mm, sum_mm = blank_widths(
        [_entry_mm(c["label"]) for c in columns_in], len(sides), zero_sum
    )
    small = len(sides) > SMALL_TABLE  # six sides and more
    per_side = 2 + len(side_columns)
    cell_mm = 2 * score_mm / per_side  # a side's width shared by its own columns, its points and its total
    columns = [{"width": 7, "align": "right", "color": "#444444"}, {"width": dealer_mm, "size": 8}]
    columns += [{"width": w, "align": "center", "rule": True} for w in entries_mm]
    for _side in sides:
        columns += [{"width": cell_mm, "rule": True} for _c in range(per_side)]
    if zero_sum:
        columns.append({"width": sum_mm, "rule": True})
    first = ["#", _("Dealer"), *[c["label"] for c in columns_in]]
    first += [{"names": list(side), "span": per_side} for side in sides]
    if zero_sum:
        first.append("Σ = 0")
    second = ["", "", *["" for _c in columns_in]]
    for _side in sides:
        second += [{"text": c["label"], "bold": False} for c in side_columns]
        second += [{"text": _("points"), "bold": False}, {"text": _("total"), "bold": False}]
    if zero_sum:
        second.append("")
    rows = []
    if ctx["carried"]:
        carried = ["", {"text": _("Carried forward"), "span": len(columns_in) + 1, "bold": True}]
        for total in ctx["carried"]:
            carried += ["" for _c in side_columns] + ["", {"text": total, "bold": True, "align": "right"}]
        rows.append(carried + ([""] if zero_sum else []))
    for row in ctx["rows"]:
        cells = [str(row["number"]), row["dealer"], *row["entries"]]
        for out in row["out"]:
            cells += [{"text": "", "shade": "#e3e3e3"} if out else "" for _c in range(per_side)]
        rows.append(cells + ([""] if zero_sum else []))
    table = {
        "kind": "table",
        "columns": columns,
        "header": [first, second],
        "header_spans": list(range(2 + len(columns_in))) + ([len(columns) - 1] if zero_sum else []),
        "rows": rows,
        "row_height": ROW_MM,
        "head_size": 6.5 if small else 7,
        "size": 9,
        "valign": "MIDDLE",
        "pad": 0.3 if small else 0.4,
    }
    head = ctx["head"]
    title = head.get("title") or head["variant_title"]
    blocks = [head_block(head), table, *tariff_blocks(ctx["tariff_table"])]
    return {"title": title, "lang": html_lang(), "footer": {"left": title, "pages": True}, "blocks": blocks}
