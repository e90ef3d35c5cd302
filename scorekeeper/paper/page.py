"""A table block's rows as the print page writes them (templates/print/blocks.html's table macro asks `paper_rows`):
the rows' tags written here in Python, each text escaped, because a 500-hand sheet's cells through a Jinja macro
cost three times the page (a Jinja lookup of a key a cell lacks raises and catches). No word is made here: the texts
are the block's own; the classes are the block's marks (`css`, `id`, `th`)."""

from __future__ import annotations

from markupsafe import Markup, escape

LINE = '<span class="line"></span>'  # an unknown name: a line to write on


def _class(css) -> str:
    return f' class="{escape(css)}"' if css else ""


def _cell(c: dict, column: dict, head: bool) -> str:
    """A cell: a `th` in the header, where it says so (`th`) or its column does; its class its own `css`, else (not
    in the header) its column's; a smaller line before its text (`small`), words after it (`after`), smaller lines
    under it (`below`), a side's names with a line for an unknown one (`names`)."""
    tag = "th" if head or c.get("th", column.get("th")) else "td"
    css = c["css"] if "css" in c else (None if head else column.get("css"))
    marks = _class(css)
    if c.get("id"):
        marks += f' id="{escape(c["id"])}"'
    if c.get("span", 1) > 1:
        marks += f' colspan="{c["span"]}"'
    if c.get("rows", 1) > 1:
        marks += f' rowspan="{c["rows"]}"'
    inner = ""
    if c.get("small"):
        inner = f"<small{_class(column.get('small_css'))}>{escape(c['small'])}</small>"
        inner += " " if column.get("wrap") else ""
    if c.get("names"):
        inner += " &amp; ".join(str(escape(name)) if name else LINE for name in c["names"])
    else:
        text = c.get("text")
        inner += "" if text is None else str(escape(text))
    if c.get("after"):
        inner += f" <span{_class(c['after'].get('css'))}>{escape(c['after']['text'])}</span>"
    below_css = c.get("below_css") or ()
    for i, line in enumerate(c.get("below") or ()):
        inner += f" <small{_class(below_css[i] if i < len(below_css) else None)}>{escape(line)}</small>"
    return f"<{tag}{marks}>{inner}</{tag}>"


def paper_rows(rows: list, columns: list[dict], head: bool = False) -> Markup:
    """Rows of a table block as HTML: a `<tr>` with the row's `id` and `css` (a row a list of cells, or {"cells",
    "id", "css"}), a cell per column it spans, a cell spanned by one above it (`spanned`) left out."""
    out = []
    width = len(columns)
    for row in rows:
        marks = ""
        if isinstance(row, dict):
            marks = (f' id="{escape(row["id"])}"' if row.get("id") else "") + _class(row.get("css"))
            row = row["cells"]
        cells, at = [], 0
        for cell in row:
            c = cell if isinstance(cell, dict) else {"text": cell}
            if not c.get("spanned"):
                cells.append(_cell(c, columns[at] if at < width else {}, head))
            at += c.get("span", 1)
        out.append(f"<tr{marks}>{''.join(cells)}</tr>")
    return Markup("".join(out))
