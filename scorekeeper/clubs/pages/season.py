"""A club's season: the ledger of its evenings (and as CSV) and its members' statistics."""

from __future__ import annotations

from flask import (
    abort,
    render_template,
    request,
)

from scorekeeper.clubs import present as club_present
from scorekeeper.clubs import service as club_service
from scorekeeper.clubs.pages import common, winners
from scorekeeper.clubs.pages.common import bp
from scorekeeper.clubs.service import imports as import_service
from scorekeeper.core import VARIANTS
from scorekeeper.server import heavy
from scorekeeper.server.db import get_db
from scorekeeper.variants.views import VIEWS
from scorekeeper.web import xlsx


@bp.get("/c/<club_id>/ledger")
@heavy.bounded
def ledger(club_id):
    club = common.club_or_404(club_id)
    (start, end), general = common.date_range(club_id)
    db = get_db()
    season = club_service.season(db, club_id, start, end)
    ctx = club_present.ledger_context(season, club_service.members(db, club_id), club.currency)
    return render_template(
        "clubs/ledger.html",
        club=club,
        links=winners.season_links(club_id, start, end),
        ledger=None if general else ctx,
        start=start or (request.args.get("from", "")[:10] if general else ""),
        end=end or (request.args.get("to", "")[:10] if general else ""),
        general=general,
        args={k: v for k, v in (("from", start), ("to", end)) if v},
    ), 400 if general else 200


def _printed_season(club_id):
    """The club, the database and the season between the dates asked, for a download in the club's print language;
    400 for dates that cannot be read (the ledger's page says why)."""
    club = common.club_or_404(club_id)
    common.in_print_language(club)
    (start, end), general = common.date_range(club_id)
    if general:
        abort(400)
    db = get_db()
    return club, db, club_service.season(db, club_id, start, end)


@bp.get("/c/<club_id>/ledger.csv")
@heavy.bounded
def ledger_csv(club_id):
    club, db, season = _printed_season(club_id)
    dialect = common.csv_dialect()
    return common.csv_response(
        club_present.ledger_csv(season, club_service.members(db, club_id), club.currency, dialect),
        "ledger-semicolon.csv" if dialect == "semicolon" else "ledger.csv",
    )


@bp.get("/c/<club_id>/ledger.xlsx")
@heavy.bounded
def ledger_xlsx(club_id):
    club, db, season = _printed_season(club_id)
    files = import_service.evening_files(db, [r.evening.id for r in season.results])
    return xlsx.download(
        club_present.ledger_sheets(season, club_service.members(db, club_id), club.currency, files), "ledger.xlsx"
    )


@bp.get("/c/<club_id>/stats")
@heavy.bounded
def stats(club_id):
    club = common.club_or_404(club_id)
    (start, end), general = common.date_range(club_id)
    db = get_db()
    rows = club_present.stats_context(club_service.stats(db, club_id, start, end), club_service.members(db, club_id))
    return render_template(
        "clubs/stats.html",
        club=club,
        rows=rows,
        start=start or "",
        end=end or "",
        general=general,
        links=winners.season_links(club_id, start, end),
        variant_title=VARIANTS[club.variant].TITLE,
        words=VIEWS[club.variant].STATS_WORDS,
    ), 400 if general else 200
