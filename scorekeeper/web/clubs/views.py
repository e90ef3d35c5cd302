"""The club pages, by job: access.py (the club, its admin, its members), evenings.py (card evenings, their tables,
results, settling up), season.py (the ledger, statistics); common.py holds the blueprint and what they share.

Anyone with the club's link reads; changes need the club's admin to be logged in on this phone.
Thin: club_service does the work, club_present makes it text. The endpoints keep their names (clubs.<view>).
"""

from __future__ import annotations

from scorekeeper.web.clubs import access, evenings, season
from scorekeeper.web.clubs.common import bp

__all__ = ["access", "bp", "evenings", "season"]
