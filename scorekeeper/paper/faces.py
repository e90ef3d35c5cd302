"""The type every PDF is set in: DejaVu Sans and its bold, shipped in the package (scorekeeper/fonts/, with their
licence) so that a `pip install` prints without a system font, registered once per process; and the paragraph styles of
print.css in ReportLab's terms."""

from __future__ import annotations

from importlib.resources import as_file, files
from typing import Literal
from xml.sax.saxutils import escape

FONT, BOLD = "DejaVuSans", "DejaVuSans-Bold"
FONT_FILES = {FONT: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}
MM = 72 / 25.4  # points per millimetre
PAGE_W, PAGE_H = 595.2755905511812, 841.8897637795277  # A4
MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = 12 * MM, 12 * MM, 15 * MM
GREY = {"dark": "#333333", "mid": "#444444", "soft": "#555555", "faint": "#888888", "rule": "#aaaaaa"}
_registered = False


def register_fonts() -> None:
    """DejaVu Sans and its bold as one family (so that <b> in a Paragraph is the bold face), once per process."""
    global _registered
    if _registered:
        return
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, file in FONT_FILES.items():
        with as_file(files("scorekeeper").joinpath("fonts", file)) as path:  # TTFont reads the whole file here
            pdfmetrics.registerFont(TTFont(name, str(path)))
    faces: tuple[tuple[Literal[0, 1], Literal[0, 1], str], ...] = (
        (0, 0, FONT),
        (1, 0, BOLD),
        (0, 1, FONT),
        (1, 1, BOLD),
    )
    for bold, italic, face in faces:
        addMapping(FONT, bold, italic, face)
    _registered = True


def text(value) -> str:
    """A text for Paragraph markup: escaped, so that a name such as <img src="/etc/passwd"> is only letters."""
    return escape("" if value is None else str(value))


class Styles:
    """The paragraph styles of print.css in ReportLab's terms, made once per process."""

    def __init__(self):
        from reportlab.lib.colors import HexColor
        from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
        from reportlab.lib.styles import ParagraphStyle

        self.color = HexColor
        self.align: dict[str, Literal[0, 1, 2]] = {"left": TA_LEFT, "right": TA_RIGHT, "center": TA_CENTER}
        # Never split inside a word; the cells' own line breaking (`broken`) also breaks after a word's hyphens.
        # (ReportLab's embeddedHyphenation does so too, but drops the hyphens of a word when a table wraps it twice.)
        base = ParagraphStyle("base", fontName=FONT, fontSize=9, leading=11.7, splitLongWords=0)
        self.base = base
        self.cache: dict = {}

    def get(self, size: float = 9, bold: bool = False, color: str | None = None, align: str = "left", lead=1.3):
        key = (size, bold, color, align, lead)
        if key not in self.cache:
            from reportlab.lib.styles import ParagraphStyle

            self.cache[key] = ParagraphStyle(
                f"s{len(self.cache)}",
                parent=self.base,
                fontName=BOLD if bold else FONT,
                fontSize=size,
                leading=size * lead,
                textColor=self.color(color or "#000000"),
                alignment=self.align[align],
            )
        return self.cache[key]


_STYLES: Styles | None = None


def styles() -> Styles:
    """The styles, made on first use."""
    global _STYLES
    if _STYLES is None:
        _STYLES = Styles()
    return _STYLES
