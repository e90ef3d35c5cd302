"""A game's house rules in words, for the head of a printed sheet and a club's page.

The words of a hand are the variant's own (variants/<name>/view.py: hand_words); this module only asks for them.
"""

from __future__ import annotations

from scorekeeper.variants.views import VIEWS
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import rate


def house_rules(table) -> list[dict]:
    """The options a table plays by, in words, for the head of a printed sheet: [{"label", "value"}]."""
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
