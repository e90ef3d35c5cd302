"""Danish whist's words, shared by its view (variants/danish/view.py) and its card editor (danish_card.py): the sol
bids, the suffixes, a bid, the presets and the gå med rules in the reader's language."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from scorekeeper.variants.danish import rules
from scorekeeper.web.i18n import gettext as _

PRESET_LABELS = {
    "standard": _l("Standard tariff"),
    "per_trick": _l("Doubled tariff per missing trick"),
    "double_sol": _l("Doubled sol values"),
    "quarter_steps": _l("Quarter steps: vip ×1¼, gode and sans ×1½, halve ×1¾"),
    "suffix_base_only": _l("A suffix doubles the base only, not the overtricks"),
    "gode_not_doubled": _l("Gode not doubled"),
    "tricks_times_tariff": _l("Tricks × tariff"),
    "half_overtricks": _l("Overtricks at half the tariff"),
    "lost_base_plus_short": _l("Lost: the tariff plus the tariff per missing trick"),
    "grand_slam_double": _l("All 13 tricks count double"),
    "selvmakker_two_shares": _l("Selvmakker gets two shares, not three"),
    "sol_lost_equals_won": _l("A lost sol pays what a made one wins"),
    "sol_join_independent": _l("Others may join a sol (gå med), each settles with all"),
    "sol_join_vs_others": _l("Others may join a sol (gå med), settled with those not playing it"),
    "winners_pool": _l("Sol values are the sol player's totals; joined sols share the pool"),
    "more_suffixes": _l("More suffixes: stærke (spades), vip on the 2nd and 3rd card"),
}


def solo_name(bid: str, options=None) -> str:
    """The club's own name of a sol bid (option `card_names`), else the one word asked for, translated (not all four)."""
    own = ((options or {}).get("card_names") or {}).get("sol") or {}
    if own.get(bid):
        return own[bid]
    return {
        "sol": lambda: _("sol"),
        "ren_sol": lambda: _("ren sol"),
        "bordlaegger": lambda: _("bordlægger"),
        "ren_bordlaegger": lambda: _("ren bordlægger"),
    }[bid]()


def suffix_name(suffix: str) -> str:
    """The one word asked for, translated (not all five)."""
    return {
        "plain": lambda: "",
        "vip": lambda: _("vip"),
        "gode": lambda: _("gode"),
        "sans": lambda: _("sans"),
        "halve": lambda: _("halve"),
        "vip2": lambda: _("vip 2"),
        "vip3": lambda: _("vip 3"),
        "staerke": lambda: _("stærke"),
    }[suffix]()


def bid_name(bid, suffix=None, options=None) -> str:
    if rules.is_solo(bid):
        return solo_name(bid, options)
    return f"{bid} {suffix_name(suffix or 'plain')}".strip()


GAA_MED_LABELS = {
    "independent": lambda: _("each sol player settles with all three others"),
    "vs_non_participants": lambda: _("each sol player settles with those not playing sol"),
    "winners_pool": lambda: _("the sol values are totals; winners share what the others pay"),
}
