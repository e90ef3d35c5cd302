"""The club's season (issue 45): named once, from–to, recurring yearly; the ledger, statistics and prizes open on the
current one; the season's winners."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from flask_babel import gettext as _

from scorekeeper.clubs.rules import club as club_rules
from scorekeeper.clubs.rules import evening as evening_rules
from scorekeeper.clubs.rules import season as season_rules
from scorekeeper.clubs.service.club import club_format, get_club
from scorekeeper.clubs.service.common import parse_date
from scorekeeper.clubs.service.evenings import season, stats
from scorekeeper.core import InputError
from scorekeeper.storage import store, writing


def today(db) -> date:
    """The club's today: the connection's clock (tests set their own)."""
    return db.clock().date()


def named_season(db, club_id: str) -> season_rules.Season | None:
    """The season as the club named it, or None."""
    get_club(db, club_id)
    return season_rules.read_season(store.club_season(db, club_id))


def current_season(db, club_id: str) -> season_rules.Season | None:
    named = named_season(db, club_id)
    return None if named is None else season_rules.current(named, today(db))


def set_season(db, club_id: str, start: Any, end: Any) -> season_rules.Season | None:
    """Name the club's season (both dates empty: none); raises InputError naming `from` or `to`."""
    if not str(start or "").strip() and not str(end or "").strip():
        with writing(db):
            get_club(db, club_id)
            store.set_club_season(db, club_id, None)
        return None
    errors: dict[str, Any] = {}
    days: dict[str, str] = {}
    for value, field in ((start, "from"), (end, "to")):
        try:
            days[field] = parse_date(value, field)
        except InputError as exc:
            errors.update(exc.errors)
    if errors:
        raise InputError(errors)
    try:
        named = season_rules.make_season(date.fromisoformat(days["from"]), date.fromisoformat(days["to"]))
    except season_rules.SeasonError:
        raise InputError({"to": _("The season must end after it starts, within a year.")}) from None
    with writing(db):
        get_club(db, club_id)
        store.set_club_season(db, club_id, named.as_dict())
    return named


def default_range(db, club_id: str) -> tuple[str | None, str | None]:
    """The dates the season's pages open on: the current season's, or every evening when the club named none."""
    current = current_season(db, club_id)
    return (current.start.isoformat(), current.end.isoformat()) if current else (None, None)


@dataclass(frozen=True)
class SeasonWinners:
    ledger: club_rules.Ledger
    table: tuple[season_rules.Winner, ...]
    prizes: tuple[evening_rules.Prize, ...]
    format: evening_rules.Format


def winners(db, club_id: str, start: str | None, end: str | None) -> SeasonWinners:
    club = get_club(db, club_id)
    ledger = season(db, club_id, start, end)
    fmt = club_format(club)
    table, prizes = season_rules.winners(ledger, stats(db, club_id, start, end), fmt)
    return SeasonWinners(ledger, table, prizes, fmt)
