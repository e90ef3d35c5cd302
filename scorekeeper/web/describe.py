"""A hand in a few words for the protokoll: "Bo 9 gode ♣, partner Dina, 10 tricks"; house rules in words.

The words of a hand are the variant's own (web/variants/<name>.py: hand_words); this module only asks for them.
"""

from __future__ import annotations

from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import rate
from scorekeeper.web.variants import VIEWS


def hand(variant: str, inp, players, sides, trump=None) -> str:
    return VIEWS[variant].hand_words(inp, players, sides, trump)


def house_rules(variant: str, options) -> list[dict]:
    """The options a game was scored with, in words, for the head of a printed sheet: [{"label", "value"}]."""
    o = dict(options)
    rules = []
    if "target" in o and not o.get("deals"):
        rules.append((_("Target") if o.get("count") != "all26" else _("Target (deals won)"), str(o["target"])))
    rules += VIEWS[variant].house_rules(o)
    if "deals" in o:
        rules.append((_("Deals"), str(o["deals"]) if o["deals"] else _("no limit")))
    if o.get("rate") is not None:
        rules.append((_("Stake"), _("%(amount)s per point", amount=rate(o["rate"], o["currency"]))))
    else:
        rules.append((_("Stake"), _("not played for money")))
    return [{"label": label, "value": value} for label, value in rules]
