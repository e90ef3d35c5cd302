"""What changed on a live page, for a phone that has the page as it was (issue 37): after a hand, the new hand's row,
the standing and what else differs, not the whole protokoll.

A page drawn for a plain reader is the same for the same state (its tag), so each worker remembers, per page and tag,
the page's parts: the elements that are the children of its `<main>` (each has an id) and the rows (`<tbody id=…>`)
of its sheet. A phone whose page changed says the tag it shows (X-Live-Tag) and that it takes parts (X-Live-Parts);
if its tag's parts are remembered here, it is answered what differs between them and the page now: the blocks and
rows that changed (to put in place of their namesakes), the rows that are new (each after the row before it), the
rows that are gone, and the sheet's own attributes. Anything else (a block added or gone, the sheet's head changed,
a tag not remembered: another worker drew it, or it was forgotten) and the answer is the whole page, as before.
static/live.js puts the parts in place.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from html import escape

from cachetools import LRUCache

# The pages' parts remembered per worker, by their bytes (a state of a watched game is one: a page of 23 KB): a night
# of thousands of tables has each one's last state kept until its next hand, three minutes and some thousand other
# states later (256 pages once, and most phones then got the whole page)
KEPT_BYTES = 64 * 1024 * 1024
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


class Remembered:
    """The parts of the pages this worker drew, by (page, tag)."""

    def __init__(self, kept_bytes: int = KEPT_BYTES):
        self.kept: LRUCache = LRUCache(maxsize=kept_bytes, getsizeof=lambda kept: kept[1])  # (parts, the page's size)
        self.lock = threading.Lock()

    def remember(self, page_key, tag: str, page: str | bytes) -> Parts | None:
        with self.lock:
            if (page_key, tag) in self.kept:
                return self.kept[(page_key, tag)][0]
        parts = parts_of(page)
        with self.lock:
            self.kept[(page_key, tag)] = (parts, max(1, len(page)))
        return parts

    def known(self, page_key, tag: str) -> Parts | None:
        with self.lock:
            found = self.kept.get((page_key, tag))
        return None if found is None else found[0]


REMEMBERED = Remembered()


def _marked(element: str, *attributes: str) -> str:
    """An element's HTML with attributes added to its opening tag."""
    name = re.match(r"<[a-zA-Z][a-zA-Z0-9:-]*", element)
    assert name is not None, element  # an element's HTML opens with its tag
    name_end = name.end()
    return element[:name_end] + "".join(f" {a}" for a in attributes) + element[name_end:]


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
            out.append(_marked(html, "data-live-part", f'data-live-after="{escape(previous)}"'))
        elif before[ident] != html:
            out.append(_marked(html, "data-live-part"))
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
        out.append(_marked(new.sheet_open, "data-live-attrs") + "</table>")
    if rows[0]:
        out.append("<table>" + "".join(rows[0]) + "</table>")
    out.extend(f'<i data-live-gone="{escape(ident)}"></i>' for ident in gone)
    return (
        f'<!doctype html><div hidden data-live-delta data-live-url="{escape(url)}" data-live-tag="{escape(tag)}"'
        + (f' data-live-every="{escape(every)}"' if every else "")
        + ">"
        + "".join(out)
        + "</div>"
    )
