"""Text fitted to a table cell: broken at spaces and after a word's hyphens, never inside a word, the type shrunk until
the widest piece fits; drawn as plain strings (never parsed as markup)."""

from __future__ import annotations

import re

from reportlab.platypus.flowables import Flowable


class Lines(Flowable):
    """Lines already broken (`broken`), each (text, font, size, colour, leading), drawn as plain strings: what a table
    cell needs, at a fraction of a Paragraph's cost (no markup to parse, nothing to measure twice; the 500-hand sheet
    has 500 such cells). A string is never parsed, so a name is only ever letters."""

    def __init__(self, lines: list[tuple[str, str, float, str, float]], align: str = "left"):
        super().__init__()
        self.lines, self.align = lines, align
        self.height = sum(line[4] for line in lines)

    def wrap(self, avail_width, avail_height):
        self.width = avail_width
        return avail_width, self.height

    def draw(self):
        canvas = self.canv
        y = self.height
        for value, face, size, color, leading in self.lines:
            y -= leading
            canvas.setFont(face, size)
            canvas.setFillColor(color)
            base = y + (leading - size) / 2 + size * 0.2
            if self.align == "right":
                canvas.drawRightString(self.width, base, value)
            elif self.align == "center":
                canvas.drawCentredString(self.width / 2, base, value)
            else:
                canvas.drawString(0, base, value)


GLUE = "\u00a0\u202f"  # no-break spaces: an entry that must stay on one line ("3 st. 10 D": tricks, honours)
SPACES = re.compile(f"[^\\S{GLUE}]+")


def broken(value: str, face: str, size: float, width: float, smallest: float = 4.5) -> tuple[float, list[str]]:
    """`value` in lines no wider than `width`: broken at spaces and after a word's hyphens, never inside a word
    ("Christoffersen-" / "Skovbjærg", not "Christoffers" / "en-") nor at a no-break space; a piece wider than the cell
    shrinks the type until it fits. The size and the lines."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    words = [word for word in SPACES.split(value) if word]
    pieces = [(k > 0, piece) for word in words for k, piece in enumerate(hyphen_parts(word))]
    if not pieces or width <= 0:
        return size, [value]
    widest = max(stringWidth(piece, face, size) for _joined, piece in pieces)
    if widest > width:
        size = max(smallest, int(size * width / widest * 20) / 20)
    space = stringWidth(" ", face, size)
    lines: list[str] = []
    line, used = "", 0.0
    for joined, piece in pieces:
        w = stringWidth(piece, face, size)
        gap = 0.0 if joined or not line else space
        if line and used + gap + w > width:
            lines.append(line)
            line, used = piece, w
        else:
            line += ("" if joined or not line else " ") + piece
            used += gap + w
    lines.append(line)
    return size, lines


def cut(value: str, face: str, size: float, width: float) -> list[str]:
    """A line with no place to break (an address) cut where it reaches `width`."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    out, line = [], ""
    for ch in value:
        if line and stringWidth(line + ch, face, size) > width:
            out.append(line)
            line = ""
        line += ch
    return out + [line]


def hyphen_parts(word: str) -> list[str]:
    """A word's pieces a line may end after: "Christoffersen-Skovbjærg" → "Christoffersen-", "Skovbjærg"."""
    parts, start = [], 0
    for i, ch in enumerate(word):
        if ch == "-" and 0 < i < len(word) - 1:
            parts.append(word[start : i + 1])
            start = i + 1
    parts.append(word[start:])
    return parts
