"""A game's house rules in words, for the head of a printed sheet and a club's page.

The words of a hand are the variant's own (variants/<name>/view.py: hand_words); this module only asks for them.
"""

from __future__ import annotations

import json
import threading

from cachetools import LRUCache, cached
from flask_babel import get_locale

from scorekeeper.variants.views import VIEWS
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import rate


def _said_for(table) -> tuple:
    """What a table's house rules' words are made of: the table (its options as JSON) and the reader's language."""
    options = json.dumps(dict(table.options), sort_keys=True, default=str)
    return (table.variant, table.n_players, options, tuple(table.players), table.first_dealer, str(get_locale()))


def house_rules(table) -> list[dict]:
    """The options a table plays by, in words, for the head of a printed sheet: [{"label", "value"}]. Said once per
    table and language (a Danish card's words took 1.8 ms, drawn again with every page a watching phone's poll drew:
    docs/benchmark.md)."""
    return [dict(rule) for rule in _house_rules(table)]


@cached(LRUCache(maxsize=1024), key=_said_for, lock=threading.Lock())
def _house_rules(table) -> list[dict]:
    o, view = dict(table.options), VIEWS[table.variant]
    rules = []
    if "target" in o and not o.get("deals"):
        rules.append((view.target_label(table), str(o["target"])))
    rules += view.house_rules(table)
    if "deals" in o:
        rules.append((_("Deals"), str(o["deals"]) if o["deals"] else _("no limit")))
    if o.get("rate") is not None:
        rules.append((_("Stake"), _("%(amount)s per point", amount=rate(o["rate"], o["currency"]))))
    else:
        rules.append((_("Stake"), _("not played for money")))
    return [{"label": label, "value": value} for label, value in rules]
