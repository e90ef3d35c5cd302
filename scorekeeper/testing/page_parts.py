"""A live page cut into its parts, and what differs between two pages' parts: how the protokoll's changed poll was
answered before issue 47 (each worker cut the pages it drew and diffed them), kept for tests and the benchmark.

A test applies the app's answer (web/live_parts.py's document) to the page a phone showed, as static/live.js does, and
compares the result with the fresh page's parts (`parts_of`: the elements that are the children of its `<main>`, each
with an id, and the rows, `<tbody id=…>`, of its sheet); bench/changed_poll.py measures the old way (`changes`) beside
the new. A plug-in's tests may do the same with its pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

from scorekeeper.web.live_parts import document, marked

_TAG = re.compile(r"<!--.*?-->|<(/?)([a-zA-Z][a-zA-Z0-9:-]*)\b(?:[^>\"']|\"[^\"]*\"|'[^']*')*?(/?)>", re.S)
_ID = re.compile(r'\sid="([^"]+)"')
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass(frozen=True)
class Parts:
    order: tuple[str, ...]  # the ids of <main>'s children, in order
    blocks: dict[str, str]  # id: the element's HTML (the sheet without its rows)
    sheet_open: str  # the sheet's opening tag
    rows: tuple[tuple[str, str], ...]  # (id, HTML) of the sheet's rows, in order


def children(html: str, start: int, end: int) -> list[tuple[int, int]] | None:
    """The (start, end) of each element that is a direct child between `start` and `end` (an element ends at the
    closing tag that balances its name's opening tags: the pages' own markup, where no element holds one of its
    own name that is not closed); None if there is text outside them or the markup does not balance."""
    out: list[tuple[int, int]] = []
    at = start
    while True:
        while at < end and html[at].isspace():
            at += 1
        if at >= end:
            return out
        if html.startswith("<!--", at):
            at = html.find("-->", at, end)
            if at < 0:
                return None
            at += 3
            continue
        head = _TAG.match(html, at, end)
        if head is None or head.group(1) or not head.group(2):
            return None
        name = head.group(2).lower()
        if name in VOID or head.group(3):
            out.append((at, head.end()))
            at = head.end()
            continue
        depth, scan = 1, head.end()
        opening, closing = re.compile(rf"<{name}[\s>/]", re.I), f"</{name}>"
        while depth:
            close = html.find(closing, scan, end)
            if close < 0:
                return None
            nested = opening.search(html, scan, close)
            if nested:
                depth += 1
                scan = nested.end()
            else:
                depth -= 1
                scan = close + len(closing)
        out.append((at, scan))
        at = scan


def parts_of(page: str | bytes) -> Parts | None:
    """A page's parts, or None if it cannot be cut into them (then it is sent whole). A page drawn by another process
    (server/heavy.py) comes as its bytes."""
    if isinstance(page, bytes):
        page = page.decode("utf-8")
    opened = re.search(r"<main\b[^>]*>", page)
    closed = page.rfind("</main>")
    if opened is None or closed < opened.end():
        return None
    spans = children(page, opened.end(), closed)
    if spans is None:
        return None
    order: list[str] = []
    blocks: dict[str, str] = {}
    sheet_open = ""
    rows: tuple[tuple[str, str], ...] = ()
    for start, end in spans:
        head = _TAG.match(page, start)
        found = _ID.search(head.group(0)) if head else None
        if head is None or found is None or found.group(1) in blocks:
            return None
        ident = found.group(1)
        order.append(ident)
        blocks[ident] = page[start:end]
        if ident == "sheet":
            sheet_open = head.group(0)
            inner = children(page, head.end(), page.rindex("</table>", start, end))
            if inner is None:
                return None
            frame: list[str] = []
            kept: list[tuple[str, str]] = []
            for a, b in inner:
                row_head = _TAG.match(page, a)
                assert row_head is not None  # children() found an opening tag at each start
                row_id = _ID.search(row_head.group(0))
                if page.startswith("<tbody", a) and row_id:
                    kept.append((row_id.group(1), page[a:b]))
                else:
                    frame.append(page[a:b])
            blocks[ident] = "".join(frame)  # the sheet's head, without its opening tag and rows
            rows = tuple(kept)
    return Parts(tuple(order), blocks, sheet_open, rows)


def _sequence(old: list[tuple[str, str]], new: list[tuple[str, str]]) -> tuple[list[str], list[str]] | None:
    """The elements (HTML, marked) that bring the sequence `old` to `new` and the ids gone; None if the elements both
    have are not in the same order, or a new one has none before it to follow."""
    before, now = dict(old), dict(new)
    kept = [ident for ident, _ in new if ident in before]
    if kept != [ident for ident, _ in old if ident in now]:
        return None
    out, previous = [], None
    for ident, html in new:
        if ident not in before:
            if previous is None:
                return None
            out.append(marked(html, "data-live-part", f'data-live-after="{escape(previous)}"'))
        elif before[ident] != html:
            out.append(marked(html, "data-live-part"))
        previous = ident
    return out, [ident for ident, _ in old if ident not in now]


def changes(old: Parts | None, new: Parts | None, url: str, tag: str, every: str | None = None) -> str | None:
    """The answer that brings a page showing `old` to `new`: the parts that changed, in a document static/live.js
    reads (with the page's own seconds between questions, `every`, where it says any); None where only the whole page
    will do."""
    if old is None or new is None or ("sheet" in old.order) != ("sheet" in new.order):
        return None
    if old.blocks.get("sheet") != new.blocks.get("sheet"):  # the sheet's head: its columns, its players
        return None
    blocks = _sequence(
        [(i, "" if i == "sheet" else old.blocks[i]) for i in old.order],
        [(i, "" if i == "sheet" else new.blocks[i]) for i in new.order],
    )
    rows = _sequence(list(old.rows), list(new.rows))
    if blocks is None or rows is None:
        return None
    out, gone = blocks[0], blocks[1] + rows[1]
    if old.sheet_open != new.sheet_open:
        out.append(marked(new.sheet_open, "data-live-attrs") + "</table>")
    if rows[0]:
        out.append("<table>" + "".join(rows[0]) + "</table>")
    return document(url, tag, every, out, gone)
