"""A paper document drawn as an A4 PDF with ReportLab: the renderer process's drawing (server/pdf.py), no Flask.

The document comes finished from a feature's document.py (games/, clubs/, drives/: the one model of the paper, whose
blocks the print page renders too, through templates/print/blocks.html): a head, tables with repeated header rows, a
chart from web/chart.py's geometry, headings, paragraphs, lists, sections, blocks side by side, blocks kept on one
page. What only the page reads (a block's or a cell's `css`, a row's or a cell's `id`, a cell's `th`) is left alone. Nothing here knows a variant or a sheet; every text is escaped before it reaches ReportLab's
Paragraph markup (whose <img src> would read a file), and table cells that need no wrapping are drawn as plain strings,
which ReportLab never parses.

Fonts: DejaVu Sans and DejaVu Sans Bold, shipped in the package (scorekeeper/fonts/, with their licence) so that a
`pip install` prints without a system font, registered once per process and embedded in each PDF; they hold æ ø å ä ö,
the suits and the real minus sign.
"""

from __future__ import annotations

import io
from typing import Any

from reportlab.platypus.flowables import Flowable

from scorekeeper.paper.chart import ChartBlocks
from scorekeeper.paper.faces import (
    BOLD,
    FONT,
    GREY,
    MARGIN_BOTTOM,
    MARGIN_TOP,
    MARGIN_X,
    MM,
    PAGE_H,
    PAGE_W,
    register_fonts,
    styles,
    text,
)
from scorekeeper.paper.lines import Lines, broken, cut

SMALLEST = 4.5  # pt: the smallest type a cell's text is made to fit its cell with

# ---------------------------------------------------------------- the page


def _canvas_class(footer_left: str, pages: bool):
    """A canvas that writes the footer (the document's title, "n / N") once the number of pages is known."""
    from reportlab.pdfgen.canvas import Canvas

    class FooterCanvas(Canvas):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._pages: list[dict] = []

        def showPage(self):
            self._pages.append(dict(self.__dict__))
            self._startPage()  # type: ignore[attr-defined]  # Canvas's own (showPage's second half): types-reportlab leaves it out

        def save(self):
            total = len(self._pages)
            for number, state in enumerate(self._pages, 1):
                self.__dict__.update(state)
                self.setFont(FONT, 7.5)
                self.setFillColor(GREY["soft"])
                y = MARGIN_BOTTOM - 9
                left = state.get("_footer_left", footer_left)
                if left:
                    self.drawString(MARGIN_X, y, left)
                if pages:
                    self.drawRightString(PAGE_W - MARGIN_X, y, f"{number} / {total}")
                super().showPage()
            super().save()

    return FooterCanvas


def draw(document: dict) -> bytes:
    """The document as an A4 portrait PDF; with `page: {"margins_mm": 0}` a page without margins (cut sheets of
    cards that fill it edge to edge), landscape with `"landscape": True`."""
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, SimpleDocTemplate

    register_fonts()
    out = io.BytesIO()
    about: dict[str, Any] = {
        "title": document.get("title") or "",
        "author": "scorekeeper",
        "lang": document.get("lang"),
        "initialFontName": FONT,
    }
    builder_width: float
    if (document.get("page") or {}).get("margins_mm") == 0:
        width, height = (PAGE_H, PAGE_W) if document["page"].get("landscape") else (PAGE_W, PAGE_H)
        page = BaseDocTemplate(
            out, pagesize=(width, height), leftMargin=0, rightMargin=0, topMargin=0, bottomMargin=0, **about
        )
        frame = Frame(0, 0, width, height, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        page.addPageTemplates([PageTemplate(id="cut", frames=[frame], pagesize=(width, height))])
        builder_width = width
    else:
        page = SimpleDocTemplate(
            out,
            pagesize=(PAGE_W, PAGE_H),
            leftMargin=MARGIN_X,
            rightMargin=MARGIN_X,
            topMargin=MARGIN_TOP,
            bottomMargin=MARGIN_BOTTOM,
            **about,
        )
        builder_width = page.width
    builder = Builder(builder_width)
    story = builder.blocks(document["blocks"])
    footer = document.get("footer") or {}
    page.build(story, canvasmaker=_canvas_class(footer.get("left") or "", footer.get("pages", True)))
    return out.getvalue()


class RunningFooter(Flowable):
    """Sets the footer's left text from the page it lands on (no height, draws nothing)."""

    def __init__(self, footer: str):
        super().__init__()
        self.footer = footer
        self.width = self.height = 0

    def wrap(self, avail_width, avail_height):
        return 0, 0

    def draw(self):
        self.canv._footer_left = self.footer  # type: ignore[attr-defined]  # FooterCanvas keeps it with each page's state


# ---------------------------------------------------------------- the blocks


class Builder(ChartBlocks):
    """Blocks (dicts with a `kind`) to ReportLab flowables, within a frame `width` points wide."""

    def __init__(self, width: float):
        self.width = width
        self.styles = styles()
        self.nested = False  # drawing inside a table's cell

    def blocks(self, blocks: list[dict], width: float | None = None) -> list:
        saved, self.width = self.width, width or self.width
        try:
            return [f for block in blocks for f in getattr(self, "block_" + block["kind"])(block)]
        finally:
            self.width = saved

    def para(self, value, **style):
        from reportlab.platypus import Paragraph

        return Paragraph(text(value), self.styles.get(**style))

    # -- headings, paragraphs, lists

    def block_head(self, block: dict) -> list:
        from reportlab.platypus import Paragraph, Spacer
        from reportlab.platypus.flowables import HRFlowable

        s = self.styles
        out = []
        if block.get("kicker"):
            out.append(self.para(block["kicker"].upper(), size=8, color=GREY["mid"]))
        out.append(self.para(block.get("title") or "", size=15, bold=True, lead=1.25))
        out.append(Spacer(0, 1.5 * MM))
        if block.get("line"):  # a line of its own under the title (an evening's stake, fee and format)
            out += [self.para(block["line"], size=9), Spacer(0, 0.8 * MM)]
        for key, size in (("facts", 9.5), ("rules", 8)):
            items = block.get(key) or []
            if not items:
                continue
            parts = []
            for label, value, *_html in items:
                # An empty value is a line to write on: underlined no-break spaces, no letters in the PDF's text.
                shown = f"<b>{text(value)}</b>" if value else "<u>" + "\u00a0" * (40 if key == "facts" else 20) + "</u>"
                parts.append(f'<font color="{GREY["mid"]}">{text(label)}:</font> {shown}')
            out.append(Paragraph("\u2003 ".join(parts), s.get(size=size)))
            out.append(Spacer(0, 0.8 * MM))
        out.append(
            HRFlowable(width="100%", thickness=1.2, color=s.color("#000000"), spaceBefore=1 * MM, spaceAfter=3 * MM)
        )
        return out

    def block_fields(self, block: dict) -> list:
        """Labelled values on a line ("Half-time: 45 · Final: 90"), a value None a line to write on."""
        from reportlab.platypus import Paragraph

        parts = []
        for label, value, *_html in block["items"]:
            shown = "<u>" + "\u00a0" * 18 + "</u>" if value is None else f"<b>{text(value)}</b>"
            parts.append(f"{text(label)}{':' if block.get('colon', True) else ''} {shown}")
        return [Paragraph(text(block.get("sep", " · ")).join(parts), self.styles.get(size=block.get("size", 9)))]

    def block_title(self, block: dict) -> list:
        """A card's own heading (a player's name, a table), larger than a sheet's; `small`: a smaller word after it
        (a card's number), not bold."""
        from reportlab.platypus import Paragraph

        size = block.get("size", 18)
        style = self.styles.get(size=size, bold=True, lead=1.2, align=block.get("align", "left"))
        markup = text(block["text"])
        if block.get("small"):
            markup += f' <font name="{FONT}" size="{size * 0.6:.1f}">{text(block["small"])}</font>'
        return [Paragraph(markup, style)]

    def block_hr(self, block: dict) -> list:
        """The rule under a sheet's head."""
        from reportlab.platypus.flowables import HRFlowable

        return [
            HRFlowable(
                width="100%", thickness=1.2, color=self.styles.color("#000000"), spaceBefore=1 * MM, spaceAfter=3 * MM
            )
        ]

    def block_running(self, block: dict) -> list:
        """The footer's left text from this page on (an evening's table sheets each name their table)."""
        return [RunningFooter(block.get("footer") or "")]

    def block_grid(self, block: dict) -> list:
        """Cards in a grid of `columns`, each cell `cell_mm` (width, height) with `pad_mm` (top/bottom, left/right)
        inside; `cut`: dashed lines where to cut; `fill`: that many cells, the missing ones left empty. A sheet of
        cards on a page without margins fills it edge to edge."""
        from reportlab.platypus import Table, TableStyle

        columns = block["columns"]
        cell_w, cell_h = (v * MM for v in block["cell_mm"])
        pad_v, pad_h = (v * MM for v in block.get("pad_mm", (0, 0)))
        cells = [list(c) for c in block["cells"]] + [[] for _ in range(block.get("fill", 0) - len(block["cells"]))]
        self.nested = True
        try:
            drawn = [self.blocks(c, cell_w - 2 * pad_h) if c else "" for c in cells]
        finally:
            self.nested = False
        rows = [drawn[i : i + columns] for i in range(0, len(drawn), columns)]
        rows[-1] += [""] * (columns - len(rows[-1]))
        commands: list[tuple[Any, ...]] = [
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), pad_h),
            ("RIGHTPADDING", (0, 0), (-1, -1), pad_h),
            ("TOPPADDING", (0, 0), (-1, -1), pad_v),
            ("BOTTOMPADDING", (0, 0), (-1, -1), pad_v),
        ]
        if block.get("cut"):
            commands.append(("GRID", (0, 0), (-1, -1), 0.3, GREY["faint"], None, (2, 2)))
        table = Table(rows, colWidths=[cell_w] * columns, rowHeights=[cell_h] * len(rows), hAlign="LEFT")
        table.setStyle(TableStyle(commands))
        return [table]

    def block_page_break(self, block: dict) -> list:
        from reportlab.platypus import PageBreak

        return [PageBreak()]

    def block_h2(self, block: dict) -> list:
        from reportlab.platypus import Paragraph

        markup = f"<b>{text(block['text'])}</b>"
        if block.get("small"):
            markup += f' <font size="7.5" color="{GREY["mid"]}">{text(block["small"])}</font>'
        style = self.styles.get(size=10.5)
        return [Paragraph(markup, style)]

    def block_p(self, block: dict) -> list:
        from reportlab.platypus import Paragraph, Spacer

        style = {
            "bold": block.get("bold", False),
            "size": block.get("size", 9),
            "align": block.get("align", "left"),
            "color": block.get("color"),
        }
        if block.get("anywhere"):  # an address: may break anywhere (it has no words)
            size, lines = broken(block["text"], FONT, style["size"], self.width)
            lines = [line for chunk in lines for line in cut(chunk, FONT, size, self.width)]
            return [
                Paragraph("<br/>".join(text(line) for line in lines), self.styles.get(**style)),
                Spacer(0, 0.8 * MM),
            ]
        return [self.para(block["text"], **style), Spacer(0, 0.8 * MM)]

    def block_qr(self, block: dict) -> list:
        """A QR code from its matrix (rows of "0"/"1"), centred, `mm` wide, with the quiet zone around it."""
        from reportlab.graphics.shapes import Drawing, Rect

        rows = block["matrix"]
        n = len(rows) + 8  # four modules of quiet zone each side
        size = block.get("mm", 60) * MM
        cell = size / n
        drawing = Drawing(size, size)
        drawing.hAlign = "CENTER"
        for y, row in enumerate(rows):
            x = 0
            while x < len(row):
                if row[x] == "1":
                    start = x
                    while x < len(row) and row[x] == "1":
                        x += 1
                    drawing.add(
                        Rect(
                            (start + 4) * cell,
                            size - (y + 5) * cell,
                            (x - start) * cell,
                            cell,
                            fillColor=self.styles.color("#000000"),  # type: ignore[arg-type]  # types-reportlab types Rect's **kw without Unpack
                            strokeColor=None,  # type: ignore[arg-type]  # types-reportlab types Rect's **kw without Unpack
                            strokeWidth=0,  # type: ignore[arg-type]  # types-reportlab types Rect's **kw without Unpack
                        )
                    )
                else:
                    x += 1
        return [drawing]

    def block_list(self, block: dict) -> list:
        from reportlab.platypus import ListFlowable, ListItem

        items = [ListItem(self.item(item), leftIndent=5 * MM) for item in block["items"]]
        return [
            ListFlowable(items, bulletType="bullet", start="•", leftIndent=5 * MM, bulletFontName=FONT)  # type: ignore[arg-type]  # it takes ListItems; types-reportlab says flowables only
        ]

    def item(self, item):
        """A list's item: a text, or {"label", "text"} with its label in bold ("Top lady: Anna (1)")."""
        from reportlab.platypus import Paragraph

        if isinstance(item, str):
            return self.para(item)
        return Paragraph(f"<b>{text(item['label'])}</b> {text(item['text'])}", self.styles.get())

    def block_space(self, block: dict) -> list:
        from reportlab.platypus import Spacer

        return [Spacer(0, block.get("mm", 3) * MM)]

    def block_section(self, block: dict) -> list:
        """A part of the paper (the outcome, the settlement, the tariff, a table's sheet): its blocks, on a new page
        with `break`, naming the footer from there with `footer`, on one page together with `keep`."""
        from reportlab.platypus import KeepTogether, PageBreak

        out: list[Flowable] = [PageBreak()] if block.get("break") else []
        if block.get("footer"):
            out.append(RunningFooter(block["footer"]))
        inner = self.blocks(block["blocks"])
        return [*out, KeepTogether(inner)] if block.get("keep") else [*out, *inner]

    def block_keep(self, block: dict) -> list:
        """Blocks that go on one page together (a heading with its table or chart)."""
        from reportlab.platypus import KeepTogether

        return [KeepTogether(self.blocks(block["blocks"]))]

    def block_beside(self, block: dict) -> list:
        """Two columns of blocks side by side (the chart beside the outcome and the settlement), one page together."""
        from reportlab.platypus import Table, TableStyle

        left_w = block["left_mm"] * MM
        gap = 6 * MM
        right_w = self.width - left_w - gap
        self.nested = True
        try:
            left = self.blocks(block["left"], left_w)
            right = self.blocks(block["right"], right_w)
        finally:
            self.nested = False
        table = Table([[left, "", right]], colWidths=[left_w, gap, right_w])
        table.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 3 * MM),
                ]
            )
        )
        return [table]

    # -- the chart

    def block_table(self, block: dict) -> list:
        """A table: `columns` (width in mm or None for what is left; align, size, bold, color, wrap), `header` rows
        repeated on every page, `rows` (a row a list of cells, or {"cells": …} with the page's marks), `footer` rows,
        `caption` (a bold line above it); a cell is a text or {"text", "small", "after", "below", "span", "rows",
        "align", "bold", "shade", "grey", "write"} ("small": a smaller line above the text; "after": words after it;
        "below": smaller lines under it; "rows": a heading over that many header rows; "write": a line to write
        on)."""
        from reportlab.platypus import Table, TableStyle

        columns = block["columns"]
        fixed = sum(c["width"] * MM for c in columns if c.get("width"))
        free = [c for c in columns if not c.get("width")]
        share = (self.width - fixed) / len(free) if free else 0
        widths = [c["width"] * MM if c.get("width") else share for c in columns]
        if not free and block.get("stretch", True) and fixed < self.width:
            widths = [w * self.width / fixed for w in widths]
        header, rows, footer = block.get("header", []), block.get("rows", []), block.get("footer", [])
        pad = block.get("pad", 0.8) * MM
        vpad = block.get("vpad", 0.9) * MM
        commands: list[tuple[Any, ...]] = [
            ("FONT", (0, 0), (-1, -1), FONT, block.get("size", 9)),
            ("VALIGN", (0, 0), (-1, -1), block.get("valign", "TOP")),
            ("LEFTPADDING", (0, 0), (-1, -1), pad),
            ("RIGHTPADDING", (0, 0), (-1, -1), pad),
            ("TOPPADDING", (0, 0), (-1, -1), vpad),
            ("BOTTOMPADDING", (0, 0), (-1, -1), vpad),
        ]
        body_from, body_to = len(header), len(header) + len(rows) - 1
        for i, column in enumerate(columns):
            if column.get("align") in ("right", "center"):
                commands.append(("ALIGN", (i, 0), (i, -1), column["align"].upper()))
            if rows and (column.get("bold") or column.get("size")):
                commands.append(
                    (
                        "FONT",
                        (i, body_from),
                        (i, body_to),
                        BOLD if column.get("bold") else FONT,
                        column.get("size", block.get("size", 9)),
                    )
                )
            if column.get("color") and rows:
                commands.append(("TEXTCOLOR", (i, body_from), (i, body_to), column["color"]))
            if column.get("rule"):
                commands.append(("LINEAFTER", (i, 0), (i, -1), 0.4, GREY["rule"]))
        grid = block.get("grid")
        if grid:
            commands.append(("GRID", (0, 0), (-1, -1), 0.4, GREY["rule"]))
        if header:
            commands += [
                ("FONT", (0, 0), (-1, len(header) - 1), BOLD, block.get("head_size", 8)),
                ("VALIGN", (0, 0), (-1, len(header) - 1), "BOTTOM"),
            ]
            if block.get("head_shade"):
                commands.append(("BACKGROUND", (0, 0), (-1, len(header) - 1), "#eeeeee"))
            if not grid:
                commands.append(("LINEBELOW", (0, len(header) - 1), (-1, len(header) - 1), 1, "#000000"))
        if rows and block.get("row_rules", True) and not grid:
            commands.append(("LINEBELOW", (0, body_from), (-1, body_to), 0.4, GREY["rule"]))
        for r in block.get("rule_after_rows", []):  # a heavy rule under a body row (a drive's interval)
            commands.append(("LINEBELOW", (0, len(header) + r), (-1, len(header) + r), 2.5, "#000000"))
        for c in block.get("header_spans", []):  # a heading over both header rows
            commands.append(("SPAN", (c, 0), (c, len(header) - 1)))
        if footer:
            first = len(header) + len(rows)
            commands += [
                ("LINEABOVE", (0, first), (-1, first), 1.2, "#000000"),
                ("FONT", (0, first), (-1, -1), BOLD, block.get("foot_size", 10)),
                ("TOPPADDING", (0, first), (-1, -1), 1.5 * MM),
            ]
        data = []
        for r, row in enumerate([*header, *rows, *footer]):
            part = "head" if r < len(header) else "foot" if r >= len(header) + len(rows) else "body"
            data.append(self._row(row, r, part, columns, widths, commands, block))
        heights = None
        if block.get("row_height"):
            heights = [None] * len(header) + [block["row_height"] * MM] * len(rows) + [None] * len(footer)
        table = Table(data, colWidths=widths, rowHeights=heights, repeatRows=len(header), hAlign="LEFT")
        table.setStyle(TableStyle(commands))
        if block.get("caption"):  # its label above it, in bold (a drive's standings by role)
            return [*self.block_p({"text": block["caption"], "bold": True}), table]
        return [table]

    def _row(self, row, r, part, columns, widths, commands, block) -> list:
        if isinstance(row, dict):  # a row with a page's own marks (its id, its class): its cells
            row = row["cells"]
        out, c = [], 0
        for cell in row:
            if not isinstance(cell, dict):
                cell = {"text": cell}
            span = cell.get("span", 1)
            column = columns[c] if c < len(columns) else {}
            width = sum(widths[c : c + span]) - 2 * block.get("pad", 0.8) * MM
            if span > 1:
                commands.append(("SPAN", (c, r), (c + span - 1, r)))
            if cell.get("rows", 1) > 1:
                commands.append(("SPAN", (c, r), (c, r + cell["rows"] - 1)))
            if cell.get("shade"):
                commands.append(("BACKGROUND", (c, r), (c + span - 1, r), cell["shade"]))
            if cell.get("grey"):
                commands.append(("TEXTCOLOR", (c, r), (c + span - 1, r), GREY["faint"]))
            if cell.get("color"):  # a red suit
                commands.append(("TEXTCOLOR", (c, r), (c + span - 1, r), cell["color"]))
            if cell.get("align"):
                commands.append(("ALIGN", (c, r), (c + span - 1, r), cell["align"].upper()))
            if cell.get("bold") and part == "body":
                commands.append(("FONT", (c, r), (c, r), BOLD, column.get("size", block.get("size", 9))))
            out.append(self._cell(cell, part, column, width, block))
            out += [""] * (span - 1)
            c += span
        return out

    def _cell(self, cell: dict, part: str, column: dict, width: float, block: dict):
        value = cell.get("text")
        value = "" if value is None else str(value)
        if cell.get("after"):  # words after the text, marked apart on the page ("made", "lost")
            value += " " + cell["after"]["text"]
        align = cell.get("align") or column.get("align") or "left"
        if cell.get("write"):
            return self._write_line(width * cell.get("write", 1) if cell.get("write") is not True else width * 0.6)
        if part == "head":
            size = block.get("head_size", 8)
            if "names" in cell:
                return self.names(cell["names"], width, size)
            return self.fitted(value, width, size, bold=cell.get("bold", True), align=cell.get("align") or "center")
        size = column.get("size", block.get("size", 9)) if part == "body" else block.get("foot_size", 10)
        small = cell.get("small")
        if column.get("wrap") or (part == "foot" and cell.get("wrap")):
            out = []
            if small:
                small_size = column.get("small_size", 7)
                small_size, small_lines = broken(small, FONT, small_size, width)
                color = column.get("small_color", GREY["soft"])
                out += [(line, FONT, small_size, color, small_size * 1.15) for line in small_lines]
            bold = cell.get("bold", column.get("bold", False) if part == "body" else True)
            face = BOLD if bold else FONT
            size, lines = broken(value, face, size, width)
            out += [(line, face, size, column.get("color") or "#000000", size * 1.2) for line in lines]
            for below in cell.get("below") or []:  # smaller lines after the text (a standing's note, a prize's why)
                below_size, below_lines = broken(below, FONT, column.get("below_size", 7), width)
                color = column.get("below_color", GREY["mid"])
                out += [(line, FONT, below_size, color, below_size * 1.2) for line in below_lines]
            return Lines(out, align)
        if small:  # a side's own words above its points ("3/3", "1 tr. J 10"): bold, smaller, broken to fit
            small_size, small_lines = broken(small, BOLD, column.get("small_size", 6.5), width)
            face = BOLD if column.get("bold") else FONT
            size, lines = broken(value, face, size, width)
            out = [(line, BOLD, small_size, "#000000", small_size * 1.15) for line in small_lines]
            out += [(line, face, size, column.get("color") or "#000000", size * 1.2) for line in lines]
            return Lines(out, align)
        return self._kept_in(value, cell, part, column, width, size, align, block)

    def _kept_in(self, value: str, cell: dict, part: str, column: dict, width: float, size: float, align: str, block):
        """A plain cell as a string, unless it is wider than its column (a 64-character name in a settlement or a
        result): then broken as a wrapped column's cells are, never drawn over the next cell or off the page; in rows
        of a fixed height (a blank sheet's) in type small enough for its lines to fit the row."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        face = BOLD if part == "foot" or cell.get("bold") or column.get("bold") else FONT
        # No glyph of the fonts is wider than twice its size (2,016 of 2,048 units): a short cell needs no measuring.
        if not value or 2 * len(value) * size <= width or stringWidth(value, face, size) <= width:
            return value
        color = cell.get("color") or (GREY["faint"] if cell.get("grey") else column.get("color")) or "#000000"
        lead = 1.2
        height = (block["row_height"] - 2 * block.get("vpad", 0.9)) * MM if block.get("row_height") else None
        fitted, lines = broken(value, face, size, width)
        while height and len(lines) * fitted * lead > height and fitted > SMALLEST:
            lead = 1.1
            fitted, lines = broken(value, face, max(SMALLEST, min(fitted, size) - 0.5), width, SMALLEST)
        if height and len(lines) * fitted * lead > height:  # not even the smallest type fits: the lines that do, "…"
            lines = lines[: max(1, int(height // (fitted * lead)))]
            lines[-1] = cut(lines[-1], face, fitted, width - stringWidth("…", face, fitted))[0] + "…"
        return Lines([(line, face, fitted, color, fitted * lead) for line in lines], align)

    def names(self, names: list, width: float, size: float):
        """A side's heading: its names joined by "&", an unknown name a line to write on (no letters in the text)."""
        from reportlab.platypus import Paragraph

        known = " & ".join(n for n in names if n)
        if all(names):  # broken after a hyphen too, as Paragraph would not ("Christiansen-Østergaard" ran over)
            return self.fitted(known, width, size)
        if known:
            size, _lines = broken(known, BOLD, size, width)
        blank = "<u>" + "\u00a0" * max(4, int(width / len(names) / (size * 0.35))) + "</u>"
        markup = " &amp; ".join(text(n) if n else blank for n in names)
        return Paragraph(markup, self.styles.get(size=size, bold=True, align="center", lead=1.15))

    def _write_line(self, width: float):
        from reportlab.graphics.shapes import Drawing, Line

        line = Drawing(width, 9)
        line.add(Line(0, 0, width, 0, strokeWidth=0.6))
        return line

    def fitted(self, value: str, width: float, size: float, bold: bool = True, align: str = "center"):
        """A heading cell: wrapped at spaces and after hyphens, never inside a word; a word wider than the cell
        shrinks the type until it fits."""
        if not value:
            return ""
        face = BOLD if bold else FONT
        size, lines = broken(value, face, size, width)
        return Lines([(line, face, size, "#000000", size * 1.15) for line in lines], align)


def warm() -> None:
    """Fonts registered and the modules imported before the first real PDF."""
    draw({"title": "warm", "blocks": [{"kind": "p", "text": "Æ Ø Å æ ø å −20 ♠ ♥ ♦ ♣"}]})
