"""House rules as text and back: the one parser for what a form's option fields and a query string carry.

A text that is of its option's kind becomes the scorer's type (whole numbers by the strict parser in inputs.py);
one that is not is kept as it came, so the scorer's own check names the option and says what is wrong. Only what
the scorer could not name well is answered here: a number that is not one, an int_map short of numbers. The option's
`kind` says how its text reads (core/options.py); no option is known here by its name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask_babel import lazy_gettext as _l

from scorekeeper.core.messages import message_of
from scorekeeper.web.i18n import rate, say
from scorekeeper.web.inputs import JSONRefused, number_or_raw, read_json

TRUE = ("1", "true", "yes", "on", "y")
FALSE = ("0", "false", "no", "off", "n", "")
NONE = ("", "none", "null")


def options_from_text(module, texts: Mapping[str, str | None]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The house rules in `texts` (option name → text) as the scorer's types; errors keyed by option name.

    An option not in `texts` (or None there) is not given (its default stands), nor is an empty whole number; an unchecked box is the
    form's to send as "".
    """
    options: dict[str, Any] = {}
    errors: dict[str, Any] = {}
    for name, text in texts.items():
        opt = module.OPTIONS.get(name)
        if opt is None or text is None:
            continue
        raw = str(text).strip()
        if opt.kind == "bool":
            options[name] = True if raw.lower() in TRUE else False if raw.lower() in FALSE else raw
        elif opt.kind in ("int_or_none", "rate") and raw.lower() in NONE:
            options[name] = None
        elif opt.kind == "int":
            if raw:
                options[name] = _whole(raw, name, errors)
        elif opt.kind == "int_or_none":
            options[name] = _whole(raw, name, errors)
        elif opt.kind == "int_or_map":
            values = [number_or_raw(v.strip(), negative=True) for v in raw.replace(";", ",").split(",") if v.strip()]
            if not values:
                if opt.default is None:
                    options[name] = None
            elif len(values) == 1:
                options[name] = values[0]
            elif len(values) != len(opt.choices):
                errors[name] = _l("Enter one number, or %(n)d separated by commas.", n=len(opt.choices))
            else:
                options[name] = dict(zip(opt.choices, values))
        elif opt.kind in ("int_list", "int_map"):
            values = [number_or_raw(v.strip(), negative=True) for v in raw.replace(";", ",").split(",") if v.strip()]
            if opt.kind == "int_list":
                options[name] = values
            elif len(values) != len(opt.choices):
                errors[name] = _l("Enter %(n)d numbers, separated by commas.", n=len(opt.choices))
            else:
                options[name] = dict(zip(opt.choices, values))
        elif opt.kind == "choice_or_list":
            if raw in opt.choices or not any(c.isdigit() for c in raw):
                options[name] = raw
            else:
                options[name] = [
                    number_or_raw(v.strip(), negative=True) for v in raw.replace(";", ",").split(",") if v.strip()
                ]
        elif opt.kind == "preset":
            options[name] = None if raw.lower() in NONE else raw
        elif opt.kind == "json":
            try:
                options[name] = None if raw.lower() in NONE else read_json(raw)
            except JSONRefused as exc:
                errors[name] = say(message_of(exc))
            except ValueError:
                errors[name] = _l("Write it as JSON, as the API answers it.")
        elif opt.kind == "rate":
            options[name] = raw.replace(",", ".")
        else:
            options[name] = raw
    return options, errors


def _whole(raw: str, name: str, errors: dict):
    value = number_or_raw(raw, negative=True)
    if not isinstance(value, int):
        errors[name] = _l("Enter a whole number.")
    return value


def option_text(opt, value) -> str:
    """A house rule's value as its text box shows it: 10, 20, 40 … for a tariff; empty for none."""
    if value is None:
        return ""
    if opt.kind == "int_list" or (opt.kind == "choice_or_list" and isinstance(value, list)):
        return ", ".join(map(str, value))
    if opt.kind == "json":
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if opt.kind == "int_map" or (opt.kind == "int_or_map" and isinstance(value, dict)):
        return ", ".join(str(value[k]) for k in opt.choices)
    if opt.kind == "rate":
        return rate(value)  # 0,05 in Danish: the parser takes a comma as well as a point
    return str(value)
