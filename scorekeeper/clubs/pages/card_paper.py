"""A club's card on paper: one A4 page with the whole bid × tricks table (a row per bid and column of the card, every
number of tricks 0–13) and the sol bids by the club's own names, as a print page (templates/print/card.html) and the
same words as a PDF drawn by ReportLab (paper/draw.py), so the treasurer can hang the app's card on the wall."""

from __future__ import annotations

from flask_babel import gettext as _

from scorekeeper.core import VARIANTS, table_for
from scorekeeper.games import document
from scorekeeper.games.paper import tariff_view
from scorekeeper.web import describe
from scorekeeper.web.i18n import html_lang, rate

LABEL_MM = 44  # the bid and column heading beside the 14 columns of tricks: wraps rather than pushing them off A4


def card_context(club) -> dict:
    """The card's head (the club, the game, the stake, its rules in words) and its table."""
    options = club.options
    stake = options.get("rate") if VARIANTS[club.variant].FOR_MONEY else None
    facts = [(_("Stake"), _("%(amount)s per point", amount=rate(stake, club.currency)))] if stake else []
    return {
        "head": {
            "variant_title": _(VARIANTS[club.variant].TITLE),
            "title": club.name,
            "facts": facts,
            "rules": describe.house_rules(table_for(club.variant, options)),
        },
        "tariff_table": tariff_view(club.variant, options),
    }


def card_document(ctx: dict) -> dict:
    """The card's paper (its print page and its PDF): the head, then the table kept on the page."""
    head = ctx["head"]
    blocks = [
        {
            "kind": "head",
            "kicker": head["variant_title"],
            "title": head["title"],
            "facts": [list(f) for f in head["facts"]],
            "rules": [[r["label"], r["value"]] for r in head["rules"]],
            "rules_label": _("House rules"),
        },
        *document.tariff_blocks(ctx["tariff_table"], label_mm=LABEL_MM),
    ]
    return {"title": head["title"], "lang": html_lang(), "footer": {"left": head["title"]}, "blocks": blocks}
