"""The totals chart on paper (a block of kind "chart"): web/chart.py's geometry drawn with ReportLab's graphics, and its
legend. A part of the document builder (draw.Builder), kept apart by what it draws."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorekeeper.paper.faces import FONT, GREY, MM, Styles


class ChartBlocks:
    """The chart block of draw.Builder: what it needs of the builder is its width, styles and para()."""

    width: float  # draw.Builder's: the frame's width in points
    styles: Styles
    nested: bool  # drawing inside a table's cell
    para: Callable[..., Any]  # draw.Builder.para: a text as a Paragraph

    def block_chart(self, block: dict) -> list:
        """The running totals: the same geometry as the page's SVG (web/chart.py), drawn by reportlab.graphics."""
        from reportlab.graphics.shapes import Drawing, Line, PolyLine, String
        from reportlab.platypus import KeepTogether, Spacer

        chart = block["chart"]
        scale = min(self.width, 88 * MM) / chart["width"]
        w, h = chart["width"], chart["height"]
        drawing = Drawing(w * scale, h * scale)
        drawing.scale(scale, scale)

        def y(v):  # SVG's y runs down, ReportLab's up
            return h - v

        axis = self.styles.color(GREY["soft"])
        drawing.add(Line(chart["left"], y(chart["zero"]), chart["right"], y(chart["zero"]), strokeColor=axis))
        drawing.add(
            Line(
                chart["left"],
                y(chart["top"]["y"]),
                chart["left"],
                y(chart["bottom"]["y"]),
                strokeColor=axis,
                strokeWidth=0.6,
            )
        )
        tick = self.styles.color(GREY["dark"])
        x = chart["label_x"]
        drawing.add(
            String(
                x,
                y(chart["top"]["y"]) - 8,
                chart["top"]["text"],
                fontName=FONT,
                fontSize=9,
                textAnchor="end",
                fillColor=tick,
            )
        )
        if chart["zero"] not in (chart["top"]["y"], chart["bottom"]["y"]):
            drawing.add(
                String(x, y(chart["zero"]) - 3, "0", fontName=FONT, fontSize=9, textAnchor="end", fillColor=tick)
            )
        drawing.add(
            String(
                x,
                y(chart["bottom"]["y"]),
                chart["bottom"]["text"],
                fontName=FONT,
                fontSize=9,
                textAnchor="end",
                fillColor=tick,
            )
        )
        shades = ["#000000", "#444444", "#222222", "#555555", "#333333"]
        for line in chart["lines"]:
            coords = [float(v) for pair in line["points"].split() for v in pair.split(",")]
            points = [c if i % 2 == 0 else y(c) for i, c in enumerate(coords)]
            dash = [float(d) for d in line["dash"].split()] if line["dash"] else None
            drawing.add(
                PolyLine(
                    points,
                    strokeColor=self.styles.color(shades[line["index"] % len(shades)]),
                    strokeWidth=2,
                    strokeLineJoin=1,
                    strokeLineCap=1,
                    strokeDashArray=dash,  # type: ignore[arg-type]  # ReportLab takes None (a solid line); types-reportlab wants a dash
                )
            )
        legend = self._legend(chart["lines"], shades)
        caption = self.para(block["caption"], size=9, bold=True)
        parts = [caption, Spacer(0, 1 * MM), drawing, Spacer(0, 1.5 * MM), legend]
        # The heading never without its chart: kept on one page (a table's cell, beside, is on one page anyway).
        return parts if self.nested else [KeepTogether(parts)]

    def _legend(self, lines: list[dict], shades: list[str]):
        """A dash sample and a name per line, wrapped as words are."""
        from reportlab.graphics.shapes import Drawing, Line
        from reportlab.platypus import Table, TableStyle

        cells, widths = [], []
        for line in lines:
            sample = Drawing(28, 10)
            dash = [float(d) for d in line["dash"].split()] if line["dash"] else None
            sample.add(
                Line(
                    1,
                    5,
                    27,
                    5,
                    strokeColor=self.styles.color(shades[line["index"] % len(shades)]),
                    strokeWidth=2,
                    strokeDashArray=dash,  # type: ignore[arg-type]  # ReportLab takes None (a solid line); types-reportlab wants a dash
                )
            )
            cells += [sample, self.para(line["name"], size=8)]
            widths += [10 * MM, None]
        per_row = 2
        rows = [cells[i : i + 2 * per_row] for i in range(0, len(cells), 2 * per_row)]
        rows = [row + [""] * (2 * per_row - len(row)) for row in rows]
        name_w = (min(self.width, 88 * MM) - per_row * 10 * MM) / per_row
        table = Table(rows, colWidths=[10 * MM, name_w] * per_row, hAlign="LEFT")
        table.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0.5),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5),
                ]
            )
        )
        return table

    # -- tables
