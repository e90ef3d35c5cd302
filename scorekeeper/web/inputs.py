"""What a URL or a form may carry: whole numbers in ASCII digits only, JSON of a bounded depth and numbers, and
`next` targets that stay on the site.

Python's int() takes odd forms ("１２", "١٢", " 7", "1_0", "+7"), and str.isdigit() says yes to "²", which int() then
refuses with an error (a 500 where it was not caught): both let a stranger's query string reach places no test looked. Every number
that comes from a URL or a form goes through whole_number(); every redirect target through safe_next().
"""

from __future__ import annotations

import json
import math
import re
from typing import Any
from urllib.parse import urlsplit

from scorekeeper.core.messages import Msg
from scorekeeper.core.numbers import TEXT_MAX

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


def link_args(args, *taken: str) -> dict[str, Any]:  # each a list of strings; Any: url_for's keywords
    """A query string's values to carry on in a link, url_for(endpoint, **link_args(request.args, "variant")): never
    a keyword url_for keeps for itself (_external, _scheme, _anchor, _method: all start with "_") nor one of the
    route's own arguments (`taken`), either of which made url_for fail (a 500) on a stranger's query string."""
    return {k: v for k, v in args.to_dict(flat=False).items() if not k.startswith("_") and k not in taken}


# ---------------------------------------------------------------- JSON from a stranger

JSON_DEPTH = 20  # levels of [ ] and { }: a game with a house tariff needs 5; Python's parser gives up near 1,000
JSON_NUMBER_MAX = TEXT_MAX  # characters of one number in JSON, as for any number of money or tariff
STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
BRACKETS = re.compile(r"[\[\]{}]")


class JSONRefused(ValueError):
    """JSON refused before or while it was read; args[0] is the Msg that says why (the caller names the field)."""


def read_json(text: str) -> Any:
    """JSON text as Python, held to what a card table sends: at most JSON_DEPTH levels deep (counted before it is
    parsed, so no stranger meets the parser's recursion), every number at most JSON_NUMBER_MAX characters and
    finite, no NaN or Infinity. JSONRefused says which bound; a ValueError that the text is not JSON at all."""
    depth = deepest = 0
    for bracket in BRACKETS.finditer(STRINGS.sub("", text)):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > deepest:
            deepest = depth
            if deepest > JSON_DEPTH:
                raise JSONRefused(Msg("is nested too deeply (at most %(depth)d levels of brackets)", depth=JSON_DEPTH))
    return _DECODER.decode(text)


def _number_refused(text: str) -> JSONRefused:
    shown = text if len(text) <= 20 else text[:17] + "..."
    return JSONRefused(
        Msg(
            "has a number too long or too large (%(number)s): at most %(length)d characters",
            number=shown,
            length=JSON_NUMBER_MAX,
        )
    )


def _int(text: str) -> int:
    if len(text) > JSON_NUMBER_MAX:
        raise _number_refused(text)
    return int(text)


def _float(text: str) -> float:
    if len(text) > JSON_NUMBER_MAX:
        raise _number_refused(text)
    value = float(text)
    if not math.isfinite(value):
        raise _number_refused(text)
    return value


def _constant(name: str):
    raise JSONRefused(Msg("has %(name)s, which is not a number in JSON", name=name))


# One decoder for every body (json.loads with hooks makes a new one, and its scanner, each time).
_DECODER = json.JSONDecoder(parse_int=_int, parse_float=_float, parse_constant=_constant)
