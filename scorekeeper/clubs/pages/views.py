"""The club pages, by job: access.py (the club, its admin, its members), evenings.py (card evenings, their tables,
results, settling up), season.py (the ledger, statistics), tables.py (a table's title, its
handover by code, the draw on its phone, Play again on the evening), imports.py (past evenings imported from the club's
sheet), winners.py (the club's season and its winners on paper); common.py holds the blueprint and what they share.

Anyone with the club's link reads; changes need the club's admin to be logged in on this phone.
Thin: club_service does the work, club_present makes it text. The endpoints keep their names (clubs.<view>).
"""

from __future__ import annotations

from scorekeeper.clubs.pages import access, evenings, imports, season, tables, winners
from scorekeeper.clubs.pages.common import bp

__all__ = ["access", "bp", "evenings", "imports", "season", "tables", "winners"]
