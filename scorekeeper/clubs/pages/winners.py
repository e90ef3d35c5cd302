"""The club's season (issue 45): named once (from–to, the same days every year), the current one by default on the
ledger, the statistics and here; the season's winners as a page and as the club's paper (print page and PDF, in the
club's print language)."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from scorekeeper.clubs import forms as club_forms
from scorekeeper.clubs import present as club_present
from scorekeeper.clubs import service as club_service
from scorekeeper.clubs.pages import common
from scorekeeper.clubs.pages.common import bp
from scorekeeper.clubs.rules import season as season_rules
from scorekeeper.clubs.season_paper import winners_document
from scorekeeper.clubs.service import seasons
from scorekeeper.core import InputError
from scorekeeper.games.sheets import pdf_download
from scorekeeper.server import guard, heavy
from scorekeeper.server.db import get_db
from scorekeeper.web.messages import translate
from scorekeeper.web.present import minus


def season_title(start: str | None, end: str | None, named: season_rules.Season | None) -> str:
    """ "Season 2026/27" when the dates are a season of the club's; else the dates' own words."""
    if start and end and named is not None:
        asked = season_rules.Season(date.fromisoformat(start), date.fromisoformat(end))
        for back in range(-50, 51):
            if season_rules.shifted(named, back) == asked:
                return _("Season %(season)s", season=season_rules.label(asked))
    if start or end:
        return _("The evenings from %(start)s to %(end)s", start=start or "…", end=end or "…")
    return _("Every evening")


def season_links(club_id: str, start: str | None, end: str | None) -> dict:
    """What a season's page says of its dates: its title, and the links to the current season, the one before and
    every evening."""
    db = get_db()
    named = seasons.named_season(db, club_id)
    current = seasons.current_season(db, club_id)
    out: dict[str, Any] = {"title": season_title(start, end, named), "named": named is not None, "links": []}
    if current is not None:
        before = season_rules.previous(current)
        for label, s in ((_("This season"), current), (_("The season before"), before)):
            out["links"].append({"label": label, "args": {"from": s.start.isoformat(), "to": s.end.isoformat()}})
        out["links"].append({"label": _("Every evening"), "args": {"from": "", "to": ""}})
    return out


def winners_context(club, start: str | None, end: str | None) -> dict:
    db = get_db()
    found = seasons.winners(db, club.id, start, end)
    members = club_service.members(db, club.id)
    ledger = found.ledger
    has_money = any(r.has_money for r in ledger.results)
    currency = ledger.currencies[0] if len(ledger.currencies) == 1 else club.currency
    prizes = []
    for prize in found.prizes:
        names = [club_present.party_name(m, members) for m in prize.winners]
        if prize.kind == "place":
            label, value = (
                club_present.prize_label("place", prize.place),
                _("%(points)s points", points=minus(prize.value)),
            )
        else:
            label, value = club_present.prize_label(prize.kind), str(prize.value)
        prizes.append({"label": label, "winners": names, "value": value, "shared": len(names) > 1})
    return {
        "title": season_title(start, end, seasons.named_season(db, club.id)),
        "start": start or "",
        "end": end or "",
        "evenings": len(ledger.results),
        "has_money": has_money and len(ledger.currencies) <= 1,
        "currency": currency,
        "table": [
            {
                "place": w.place,
                "shared": w.shared,
                "name": club_present.party_name(w.member, members),
                "id": w.member,
                "evenings": w.evenings,
                "points": minus(w.points),
                "net": w.net,
                "prize": w.prize,
            }
            for w in found.table
        ],
        "prizes": prizes,
        "imported": sum(1 for r in ledger.results if r.evening.imported),
    }


@bp.route("/c/<club_id>/season", methods=["GET", "POST"])
@guard.exempt("the admin names the club's season: the club's own row")
@heavy.bounded
def season(club_id):
    """The season's winners (the current season unless the dates say otherwise); the admin names the season here."""
    club = common.club_or_404(club_id)
    admin = common.is_admin(club)
    form = club_forms.ButtonForm()
    general: list[str] = []
    errors: dict[str, str] = {}
    db = get_db()
    named = seasons.named_season(db, club_id)
    typed = {"from": named.start.isoformat() if named else "", "to": named.end.isoformat() if named else ""}
    if request.method == "POST":
        if not admin:
            return common.refuse()
        if not form.validate_on_submit():
            abort(400)
        typed = {"from": request.form.get("from", ""), "to": request.form.get("to", "")}
        try:
            seasons.set_season(db, club_id, typed["from"], typed["to"])
        except InputError as exc:
            errors = {k: translate(v) for k, v in exc.errors.items()}
            general = [_("The season was not changed.")]
        else:
            flash(_("The club's season is named.") if typed["from"] else _("The club has no season named."))
            return redirect(url_for("clubs.season", club_id=club_id))
    (start, end), dates_wrong = common.date_range(club_id)
    general += dates_wrong
    return render_template(
        "clubs/season.html",
        club=club,
        admin=admin,
        form=form,
        typed=typed,
        errors=errors,
        general=general,
        season=winners_context(club, start, end),
        links=season_links(club_id, start, end),
        args={k: v for k, v in (("from", start), ("to", end)) if v},
    ), 400 if general else 200


def _paper(club_id: str) -> dict:
    club = common.club_or_404(club_id)
    common.in_print_language(club)
    (start, end), wrong = common.date_range(club_id)
    if wrong:
        abort(400)
    return {"club": club, "season": winners_context(club, start, end)}


@bp.get("/c/<club_id>/season/print")
@heavy.bounded
def season_print(club_id):
    ctx = _paper(club_id)
    args = {"from": ctx["season"]["start"], "to": ctx["season"]["end"]}
    return render_template("print/season.html", pdf=False, doc=winners_document(ctx), args=args, **ctx)


@bp.get("/c/<club_id>/season.pdf")
@heavy.bounded
def season_pdf(club_id):
    ctx = _paper(club_id)
    return pdf_download(winners_document, "season.pdf", **ctx)
