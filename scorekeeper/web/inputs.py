"""What a URL or a form may carry: whole numbers in ASCII digits only, and `next` targets that stay on the site.

Python's int() takes odd forms ("１２", "١٢", " 7", "1_0", "+7"), and str.isdigit() says yes to "²", which int() then
refuses with an error (a 500 where it was not caught): both let a stranger's query string reach places no test looked. Every number
that comes from a URL or a form goes through whole_number(); every redirect target through safe_next().
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

DIGITS = re.compile(r"-?[0-9]{1,9}", re.ASCII)
# What browsers drop from a URL before they read it (WHATWG URL: tabs and newlines anywhere, C0 controls and spaces
# at both ends): "/\t/evil.example" is "//evil.example" to them.
DROPPED = re.compile(r"[\t\n\r]")
EDGES = "".join(chr(c) for c in range(0x21))


def whole_number(raw: Any, *, negative: bool = False) -> int | None:
    """The whole number written in ASCII digits (with a leading minus only if `negative`), else None."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw if negative or raw >= 0 else None
    if not isinstance(raw, str) or not DIGITS.fullmatch(raw):
        return None
    if raw.startswith("-") and not negative:
        return None
    return int(raw)


def number_or_raw(raw: Any, *, negative: bool = False) -> Any:
    """A form or query value as a whole number when it is one; otherwise as it came (None for an empty one), so the
    scorer's own check names the field and says what is wrong."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    value = whole_number(raw, negative=negative)
    return raw if value is None else value


def safe_next(raw: Any, default: str) -> str:
    """A redirect target on this site: a path that a browser will read as a path here, else `default`."""
    if not isinstance(raw, str) or not raw:
        return default
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in raw) or "\\" in raw:
        return default
    seen = DROPPED.sub("", raw).strip(EDGES)
    if not seen.startswith("/") or seen.startswith("//") or seen != raw:
        return default
    parts = urlsplit(seen)
    if parts.scheme or parts.netloc:
        return default
    return seen
