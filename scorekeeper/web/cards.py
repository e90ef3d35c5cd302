"""A club's card as a file: its rule set and its evenings' defaults, exported by the club's card page and imported by
another club or a new game in one step (an option editor reads it into its fields, web/editors.py).

The file is JSON: {"format": "scorekeeper-card", "version": 1, "variant", "name", "options", "evening"}. Reading one
back checks only its shape (bounded, web/inputs.read_json); the options are checked as any typed ones are, by the
scorer, when the form that imported them is saved.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from scorekeeper.web.inputs import read_json

FORMAT = "scorekeeper-card"
FILE_MAX = 64 * 1024  # a card with every exception the model allows is about 12 KiB
# The options a card carries: the rule set but the currency (the club's own) and nothing about one table.
CARRIED = ("currency",)


class NotACard(ValueError):
    """The text is no card of this app (or of another variant)."""


def card_file(name: str, variant: str, options: Mapping[str, Any], evening: Mapping[str, Any]) -> str:
    body = {
        "format": FORMAT,
        "version": 1,
        "variant": variant,
        "name": name,
        "options": {k: v for k, v in options.items() if k not in CARRIED},
        "evening": dict(evening),
    }
    return json.dumps(body, ensure_ascii=False, indent=1)


def read_card(text: str, variant: str) -> dict[str, Any]:
    """A card file's name, options and evening defaults; NotACard when it is none (JSONRefused when too deep or a
    number too long: the bounds of any JSON a stranger sends)."""
    body = read_json(text)
    if not isinstance(body, dict) or body.get("format") != FORMAT:
        raise NotACard("not a card")
    if body.get("variant") != variant:
        raise NotACard("another variant's card")
    options = body.get("options")
    if not isinstance(options, dict):
        raise NotACard("no rule set")
    evening = body.get("evening") if isinstance(body.get("evening"), dict) else {}
    name = body["name"] if isinstance(body.get("name"), str) else ""
    return {"name": name[:60], "options": options, "evening": evening}
