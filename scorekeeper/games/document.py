"""A game's paper as one model: its sheet and blank sheets as documents, blocks of finished text (head, table, h2, p,
list, section, chart …), the single source of the paper's words.

Both renderings draw these same blocks: the print page through templates/print/blocks.html (a Jinja macro per kind of
block, which adds tags and print.css's classes, no words) and the PDF through paper/draw.py (ReportLab). So the
blocks carry the page's marks beside the PDF's measures: a block's or cell's `css`, a row's `id`, a cell's `th`.
Money and dates are formatted here, in the reader's language; a variant's own words come from its view (the
tariff's, tariff_words). tests/integration/test_pdf_text.py holds the two renderers to the same words.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.web.i18n import html_lang, money, rate

# Column widths in mm, as print.css sets them: a side's two columns by the number of sides.
SIDE_MM = {2: 24, 3: 24, 4: 24, 5: 21, 6: 19, 7: 17, 8: 15}
SMALL_TABLE = 5  # sides from which the hands' table is set a point smaller


def head_block(head: dict) -> dict:
    """A sheet's head: variant, title, date, players, first dealer (a line to write on when unknown), house rules."""
    return {
        "kind": "head",
        "kicker": head["variant_title"],
        "title": head.get("title") or head["variant_title"],
        "facts": [
            [_("Date"), head.get("date"), {"line": "wide"}],
            [_("Players"), head.get("players"), {"css": "players", "line": "wide"}],
            [_("First dealer"), head.get("first_dealer")],
        ],
        "rules": [[rule["label"], rule["value"]] for rule in head["rules"]],
        "rules_label": _("House rules"),  # the page's name for them (aria-label); the PDF shows none
    }


def tariff_blocks(tariff: dict | None, label_mm: float = 8) -> list[dict]:
    """A tariff (paper.tariff_view): the bid × tricks matrix and the sol bids, kept on one page with their heading and
    the variant's note; `label_mm` the width of the bids' labels (a club's card names each row by its column's heading:
    they wrap)."""
    if not tariff:
        return []
    # A club's own row names ("10 sans, halve") on one line where they fit (about 1.7 mm a character at 7.5 pt bold),
    # rather than broken into the narrow column of a row of numbers.
    longest = max((len(str(row["bid"])) for row in tariff["rows"]), default=0)
    label_mm = max(label_mm, min(26.0, 1.7 * longest + 1.5)) if longest > 3 else label_mm
    matrix = {
        "kind": "table",
        "css": "matrix",
        "box": "matrix-box",
        "box_label": _("Tariff: a row for each bid, a column for each number of tricks"),  # it scrolls: a region
        "columns": [
            {
                "width": label_mm,
                "align": "right" if label_mm <= 8 else "left",
                "bold": True,
                "wrap": label_mm > 8,
                "th": True,
            }
        ]
        + [{"align": "right", "size": 7.5} for _t in tariff["tricks"]],
        "header": [[{"text": _("bid") + " \\ " + _("tricks"), "css": "corner"}, *[str(t) for t in tariff["tricks"]]]],
        "rows": [
            [{"text": str(row["bid"]), "shade": "#eeeeee"}]
            + [
                {"text": c["value"], "bold": True, "shade": "#f2f2f2", "css": "made"}
                if c["made"]
                else {"text": c["value"], "css": "lost"}
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
    sol = {
        "kind": "table",
        "css": "sol",
        "columns": [{"width": 40, "th": True}, {"width": 55, "align": "right"}, {"width": 55, "align": "right"}],
        "stretch": False,
        "header": [[_("Sol bid"), *tariff["sol_head"]]],
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
            "kind": "section",
            "css": "tariff",
            "keep": True,
            "blocks": [
                {"kind": "space", "mm": 4},
                {"kind": "h2", "text": _("Tariff"), "small": tariff["note"]},
                {"kind": "space", "mm": 1.5},
                matrix,
                {"kind": "space", "mm": 1.5},
                sol,
            ],
        }
    ]


# ---------------------------------------------------------------- a game's sheet


def hands_table(ctx: dict) -> dict:
    """The hands: #, the hand (who deals, its words, made or lost), each side's points and total, Σ; the header row on
    every page, the totals last."""
    sides, zero_sum = ctx["sides"], ctx["zero_sum"]
    n = len(sides)
    side_mm = SIDE_MM.get(n, 15)
    size = 8 if n >= SMALL_TABLE else 9
    size = 7 if n >= 7 else size
    columns = [
        {"width": 7, "align": "right", "color": "#444444", "size": size, "css": "num"},
        {"wrap": True, "size": size, "css": "hand", "small_css": "dealer"},
    ]
    for _name in sides:
        columns += [
            {"width": side_mm / 2, "align": "right", "size": min(size, 8), "color": "#333333", "css": "pts"},
            {"width": side_mm / 2, "align": "right", "bold": True, "size": size, "rule": True, "css": "total"},
        ]
        columns[-2]["small_css"] = "cell"
    if zero_sum:
        columns.append({"width": 8, "align": "right", "size": 7.5, "color": "#555555", "css": "sum"})
    header: list[dict[str, Any]] = [{"text": "#", "css": "num"}, {"text": _("Hand"), "align": "left", "css": "hand"}]
    for name in sides:
        header += [{"text": name, "span": 2, "css": "side"}]
    if zero_sum:
        header.append({"text": "Σ", "css": "sum"})
    rows: list[Any] = []  # a hand's row (its id and cells), or the cells of "No hands yet."
    for row in ctx["rows"]:
        dealer = row["deals"]
        if row["cards"]:
            dealer += " · " + row["cards"]
        if row["game"]:
            dealer += " · " + _("game %(n)d", n=row["game"])
        hand = {"text": row["text"], "small": dealer}
        if row.get("outcome_text"):
            hand["after"] = {"text": row["outcome_text"], "css": f"outcome {row['outcome']}"}
        cells = [str(row["number"]), hand]
        for c in row["cells"]:
            points = {"text": c["points"], "small": c["words"]} if c["words"] else {"text": c["points"]}
            total = {"text": c["total"]}
            if c["out"]:
                points["grey"] = total["grey"] = True
                points["css"] = "pts out"
            cells += [points, total]
        if zero_sum:
            cells.append(row["sum"])
        rows.append({"id": f"hand-{row['number']}", "cells": cells})
    if not rows:
        rows.append(
            ["", {"text": _("No hands yet."), "grey": True, "css": "hand empty"}]
            + [""] * (2 * n)
            + ([""] if zero_sum else [])
        )
    footer = [
        {"text": "", "th": True, "css": "num"},
        {"text": ctx["final"], "align": "left", "th": True, "css": "hand"},
    ]
    footer += [{"text": t, "span": 2, "align": "right", "css": "total"} for t in ctx["totals"]]
    if zero_sum:
        footer.append({"text": "", "css": "sum"})
    return {
        "kind": "table",
        "css": "hands",
        "footer_css": "final",
        "columns": columns,
        "header": [header],
        "rows": rows,
        "footer": [footer],
        "size": size,
    }


def outcome_blocks(ctx: dict) -> list[dict]:
    """The outcome: who won (or how many hands so far), games won, rubber points and what made them."""
    if ctx["finished"]:
        if ctx["winner"]:
            result = _("Game over: %(winner)s won.", winner=ctx["winner"])
        else:
            result = _("Game over: a draw.")
    else:
        n = len(ctx["rows"])
        result = ngettext("%(num)d hand so far; the game goes on.", "%(num)d hands so far; the game goes on.", n)
    out = [{"kind": "p", "text": result, "bold": True, "css": "result"}]
    if ctx["games_won"]:
        won = " · ".join(f"{name} {ctx['games_won'][i]}" for i, name in enumerate(ctx["sides"]))
        out.append({"kind": "p", "text": _("Games won:") + " " + won})
    if ctx["rubber_points"]:
        a, b = ctx["rubber_points"]
        out.append({"kind": "p", "text": _("Rubber points: %(a)d – %(b)d", a=a, b=b)})
    for line in ctx.get("outcome_lines") or []:
        out.append({"kind": "p", "text": line, "css": "outcome-line"})
    return [{"kind": "section", "css": "outcome", "blocks": out}]


def settlement_blocks(settlement: dict | None) -> list[dict]:
    """Each player's balance in money and who pays whom (on an evening settled through the kitty: each player's part
    to or from the kitty)."""
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
                "css": "balances kitty",
                "columns": [
                    {"width": 40, "size": 9, "th": True},
                    {"width": 26, "align": "right", "bold": True, "size": 9},
                    {"width": 24, "size": 9, "css": "way"},
                ],
                "stretch": False,
                "rows": [
                    {"css": f"kitty-{b['way']}", "cells": [b["player"], money(b["amount"], currency), ways[b["way"]]]}
                    for b in settlement["kitty"]
                ],
                "row_rules": False,
                "pad": 1.5,
                "vpad": 0.6,
            }
        )
        text = _("The evening settles through the kitty: every table and the fee at once, on its result.")
        return [{"kind": "section", "css": "settlement", "blocks": [*out, {"kind": "p", "text": text}]}]
    out += [
        {
            "kind": "table",
            "css": "balances",
            "columns": [
                {"width": 50, "size": 9, "th": True},
                {"width": 28, "align": "right", "bold": True, "size": 9},
            ],
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
                "css": "payments",
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
    return [{"kind": "section", "css": "settlement", "blocks": out}]


def sheet_title(ctx: dict) -> str:
    return ctx["head"]["title"] or ctx["head"]["variant_title"]


def sheet_blocks(ctx: dict, tariff: bool = True) -> list[dict]:
    """A game's sheet: the head, the hands, the chart beside the outcome and the settlement, the tariff (not on a club
    evening's sheets: `tariff` False, its card is printed once before them)."""
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
    """A blank sheet (paper.blank_context): the head, two header rows (the columns, then each side's own columns
    (plump's bid), points and total per side), a row per deal to write in (the dealer's columns shaded where the
    dealer sits out), the carried-forward totals of a sheet that goes on, and the tariff."""
    columns_in, sides, zero_sum = ctx["columns"], ctx["sides"], ctx["zero_sum"]
    side_columns = ctx.get("side_columns") or []
    scores = ctx.get("points", True)  # a variant kept in no points: only its own columns per side
    dealer_mm, entries_mm, score_mm, sum_mm = blank_widths(
        [_entry_mm(c["label"]) for c in columns_in], len(sides), zero_sum
    )
    small = len(sides) > SMALL_TABLE  # six sides and more
    per_side = (2 if scores else 0) + len(side_columns) or 1
    cell_mm = 2 * score_mm / per_side  # a side's width shared by its own columns, its points and its total
    side_css = [("side-entry", f"side-entry s-{c['key']}") for c in side_columns]
    side_css += [("pts", "pts"), ("total", "total")] if scores else [] if side_columns else [("", "")]
    columns = [
        {"width": 7, "align": "right", "color": "#444444", "css": "num", "col": "num"},
        {"width": dealer_mm, "size": 8, "css": "dealer", "col": "dealer"},
    ]
    columns += [
        {"width": w, "align": "center", "rule": True, "css": "entry", "col": f"entry e-{c['key']}"}
        for w, c in zip(entries_mm, columns_in)
    ]
    for _side in sides:
        columns += [{"width": cell_mm, "rule": True, "css": css, "col": col} for css, col in side_css]
    if zero_sum:
        columns.append({"width": sum_mm, "rule": True, "css": "sum", "col": "sum"})
    both = 2  # the headings over both header rows
    first = [{"text": "#", "rows": both, "css": "num"}, {"text": _("Dealer"), "rows": both, "css": "dealer"}]
    first += [{"text": c["label"], "rows": both, "css": "entry"} for c in columns_in]
    first += [{"names": list(side), "span": per_side, "css": "side"} for side in sides]
    if zero_sum:
        first.append({"text": "Σ = 0", "rows": both, "css": "sum"})
    spanned = {"text": "", "spanned": True}
    second: list[Any] = [spanned, spanned, *[spanned for _c in columns_in]]  # cells: a dict, or "" for none
    for _side in sides:
        second += [{"text": c["label"], "bold": False, "css": "side-entry"} for c in side_columns]
        if scores:
            second += [
                {"text": _("points"), "bold": False, "css": "pts"},
                {"text": _("total"), "bold": False, "css": "total"},
            ]
        elif not side_columns:
            second.append("")
    if zero_sum:
        second.append(spanned)
    rows: list[Any] = []  # a row's cells, or a dict of its css and cells
    if ctx["carried"]:
        carried = ["", {"text": _("Carried forward"), "span": len(columns_in) + 1, "bold": True}]
        for total in ctx["carried"]:
            carried += ["" for _c in range(per_side - 1)] + [{"text": total, "bold": True, "align": "right"}]
        rows.append({"css": "carried", "cells": carried + ([""] if zero_sum else [])})
    for row in ctx["rows"]:
        cells = [str(row["number"]), row["dealer"], *row["entries"]]
        for out in row["out"]:
            cells += [{"text": "", "shade": "#e3e3e3", "css": f"{css} out"} if out else "" for css, _col in side_css]
        rows.append(cells + ([""] if zero_sum else []))
    table = {
        "kind": "table",
        "css": "hands blank-rows",
        "colgroup": True,
        "columns": columns,
        "header": [first, second],
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
