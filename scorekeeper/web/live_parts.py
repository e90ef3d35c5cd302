"""What changed on a live page, for a phone that has the page as it was (issue 37): after a hand, the new hand's row,
the standing and what else differs, not the whole protokoll.

A phone whose page changed says the tag it shows (X-Live-Tag) and that it takes parts (X-Live-Parts). The protokoll
answers it what changed since the state its tag names, drawn from the scored game by the page's own macros
(games/pages/protokoll.py `_delta`, issue 47): `document` puts the parts in the answer static/live.js reads, each
`marked` with what live.js does with it:

- `data-live-part`: an element (a block of `<main>`, a row of the sheet) to put in place of its namesake (same id),
  or with `data-live-after="<id>"`, after that element if it has none (a new hand's row, a chart drawn for the first
  time). Rows come in a `<table>`, where an HTML parser keeps them;
- `data-live-attrs`: an element whose attributes become those of its namesake (the sheet's own: its count of hands,
  its deal in progress);
- `<i data-live-gone="<id>">`: the element with that id goes (a deleted hand's row).

Anything it cannot tell and the answer is the whole page, as before. Before issue 47 every worker cut the pages it drew
into parts and diffed them; that cutter is now the tests' (scorekeeper/testing/page_parts.py: they hold every answer
to the fresh page's parts) and the benchmark's baseline (bench/changed_poll.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape


def marked(element: str, *attributes: str) -> str:
    """An element's HTML with attributes added to its opening tag, first (`data-live-part`, `data-live-after="…"`)."""
    name = re.match(r"<[a-zA-Z][a-zA-Z0-9:-]*", element)
    assert name is not None, element  # an element's HTML opens with its tag
    name_end = name.end()
    return element[:name_end] + "".join(f" {a}" for a in attributes) + element[name_end:]


def document(url: str, tag: str, every: str | None, parts: Iterable[str], gone: Iterable[str] = ()) -> str:
    """The answer static/live.js reads as what changed: the `parts` (each `marked`) and the ids `gone`, in the root
    that says where to ask next (`url`), the page's new `tag` and its own seconds between questions (`every`: a
    finished game's, where it says any)."""
    return (
        f'<!doctype html><div hidden data-live-delta data-live-url="{escape(url)}" data-live-tag="{escape(tag)}"'
        + (f' data-live-every="{escape(every)}"' if every else "")
        + ">"
        + "".join(parts)
        + "".join(f'<i data-live-gone="{escape(ident)}"></i>' for ident in gone)
        + "</div>"
    )
