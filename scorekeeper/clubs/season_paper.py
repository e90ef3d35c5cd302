"""The season's winners as the club's paper (issue 45), one model (games/document.py says how): the club, the season
and its dates, the places with each member's evenings, points and money, then the prizes. The print page
(templates/print/season.html) and the PDF (paper/draw.py) both draw these blocks, in the club's print language."""

from __future__ import annotations

from scorekeeper.clubs.document import balances, heading
from scorekeeper.web.i18n import day, html_lang, money, ngettext
from scorekeeper.web.i18n import gettext as _


def winners_blocks(club_name: str, season: dict) -> list[dict]:
    """The season's head, its table of places and its prizes."""
    facts = _("%(start)s to %(end)s", start=day(season["start"]), end=day(season["end"])) if season["start"] else ""
    count = season["evenings"]
    facts += (" · " if facts else "") + ngettext("%(num)d evening", "%(num)d evenings", count)
    blocks: list[dict] = [{"kind": "head", "kicker": club_name, "title": season["title"], "line": facts}]
    header = [_("Place"), _("Member"), _("Evenings"), _("Points")] + ([_("Net")] if season["has_money"] else [])
    rows = []
    for w in season["table"]:
        row = [
            f"{w['place']}{'=' if w['shared'] else ''}",
            {"text": w["name"], "bold": w["prize"], "th": True},
            str(w["evenings"]),
            w["points"],
        ]
        if season["has_money"]:
            row.append("" if w["net"] is None else money(w["net"], season["currency"]))
        rows.append(row)
    blocks += heading(_("The season's standings"))
    blocks.append(balances(header, rows, "places", left=2))
    if season["prizes"]:
        items = [
            {
                "label": f"{p['label']}:",
                "text": f"{', '.join(p['winners'])} ({p['value']}{', ' + _('shared') if p['shared'] else ''})",
            }
            for p in season["prizes"]
        ]
        blocks += [*heading(_("Prizes")), {"kind": "list", "css": "prize-list", "items": items}]
    if not season["table"]:
        blocks.append({"kind": "p", "text": _("No evenings played in this season yet.")})
    return [{"kind": "section", "css": "evening-result season-result", "id": "season-result", "blocks": blocks}]


def winners_document(ctx: dict) -> dict:
    club_name, season = ctx["club"].name, ctx["season"]
    return {
        "title": f"{club_name} · {season['title']}",
        "lang": html_lang(),
        "footer": {"left": f"{club_name} · {season['title']}", "pages": True},
        "blocks": winners_blocks(club_name, season),
    }
