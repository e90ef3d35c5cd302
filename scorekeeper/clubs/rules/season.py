"""The club's season (issue 45), pure: named once as from–to and the same days every year after; the current season
(the latest that has begun), and the season's winners: places by the season's points (shared on equal points, the
next place skipped, as an evening's), the club's extra prizes by their season figures, and each member's money."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from scorekeeper.clubs.rules import club as club_rules
from scorekeeper.clubs.rules import evening as evening_rules
from scorekeeper.core.numbers import Point


@dataclass(frozen=True)
class Season:
    start: date
    end: date

    def as_dict(self) -> dict[str, str]:
        return {"from": self.start.isoformat(), "to": self.end.isoformat()}


class SeasonError(ValueError):
    """A season whose end is not after its start, or that is longer than a year: `field` names which."""

    def __init__(self, field: str):
        super().__init__(field)
        self.field = field


def _in_year(day: date, year: int) -> date:
    try:
        return day.replace(year=year)
    except ValueError:  # 29 February
        return day.replace(year=year, day=28)


def make_season(start: date, end: date) -> Season:
    if end <= start:
        raise SeasonError("to")
    if end >= _in_year(start, start.year + 1):
        raise SeasonError("to")
    return Season(start, end)


def read_season(data: Mapping[str, Any] | None) -> Season | None:
    if not data:
        return None
    try:
        return make_season(date.fromisoformat(data["from"]), date.fromisoformat(data["to"]))
    except (KeyError, TypeError, ValueError):
        return None


def shifted(season: Season, years: int) -> Season:
    start = _in_year(season.start, season.start.year + years)
    return Season(start, start + (season.end - season.start))


def current(season: Season, today: date) -> Season:
    """The season as it recurs every year: the latest that has begun by `today` (the named one before it begins)."""
    years = today.year - season.start.year
    for back in (years + 1, years, years - 1):
        candidate = shifted(season, back)
        if candidate.start <= today:
            return candidate if back >= 0 else season
    return season


def label(season: Season) -> str:
    """ "2026/27", or "2026" for a season within one year."""
    if season.start.year == season.end.year:
        return str(season.start.year)
    return f"{season.start.year}/{str(season.end.year)[-2:]}"


def previous(season: Season) -> Season:
    return shifted(season, -1)


@dataclass(frozen=True)
class Winner:
    member: Any
    place: int
    shared: bool
    evenings: int
    points: Point
    net: int | None  # the season's money (one currency), None with several
    prize: bool  # a place the club gives a prize for


def winners(
    ledger: club_rules.Ledger,
    stats: Iterable[club_rules.MemberStats],
    fmt: evening_rules.Format,
) -> tuple[tuple[Winner, ...], tuple[evening_rules.Prize, ...]]:
    """The season's table (those who played, by the season's points: the money game's, else the standings points)
    and its prizes: the club's places and extra prizes, as an evening gives them, over the season's figures."""
    money = any(r.evening.counts_money for r in ledger.results)
    figures = {s.member: {"bids_made": s.bids_made, "alone_made": s.sol_made} for s in stats}
    played = [line for line in ledger.lines if line.evenings]
    standings = [
        evening_rules.Standing(
            line.member, line.points if money else line.standing_points, (), figures.get(line.member, {})
        )
        for line in played
    ]
    lines = {line.member: line for line in played}
    table = tuple(
        Winner(
            p.member,
            p.place,
            p.shared,
            lines[p.member].evenings,
            lines[p.member].points if money else lines[p.member].standing_points,
            lines[p.member].net,
            p.place <= fmt.places,
        )
        for p in evening_rules.ranked(standings)
    )
    return table, evening_rules.prizes(standings, fmt)
