"""What a club's writes share: its limits, the refusals that are no input error, the shapes they answer, a date and an amount of money read as typed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date as Date
from typing import Any

from flask_babel import gettext as _

from scorekeeper.clubs.rules import club as club_rules
from scorekeeper.clubs.rules import evening as evening_rules
from scorekeeper.core import InputError
from scorekeeper.core.messages import message_of
from scorekeeper.core.numbers import NumberError, read_number
from scorekeeper.games import service
from scorekeeper.storage import store

CLUB_NAME_MAX = 60
PASSWORD_MIN = 8
PASSWORD_MAX = 200
FEE_MAX = 10_000
# Wrong passwords, counted per club and client address: from the LOCK_AFTER-th in a row, each locks that address's
# login for LOCK_BASE × 2^k seconds, at most LOCK_MAX; a count is forgotten LOCK_FORGET seconds after its last lock ends.
LOCK_AFTER = 3
# An IPv6 client is its address (each phone on a club's Wi-Fi has its own); the addresses of one /64 together, unknown
# phones all, lock after NETWORK_LOCK_AFTER, so one client taking many addresses of its network is bounded too.
NETWORK_LOCK_AFTER = 12
LOCK_BASE = 30
LOCK_MAX = 3600
LOCK_FORGET = 24 * 3600


class ClubNotFound(Exception):
    """No such club, member, evening or table."""


class LockedOut(Exception):
    """Too many wrong passwords: the login is closed for `retry_after` seconds."""

    def __init__(self, retry_after: int):
        super().__init__(retry_after)
        self.retry_after = retry_after


@dataclass(frozen=True)
class TableGame:
    record: store.ClubTableRecord
    scored_game: service.ScoredGame


@dataclass(frozen=True)
class TablePlace:
    """A game that is a club's table: the club, the evening, the table (its half and number) and the halves of its
    evening."""

    club: store.ClubRecord
    evening: store.EveningRecord
    table: store.ClubTableRecord
    halves: int = 1


@dataclass(frozen=True)
class EveningData:
    record: store.EveningRecord
    tables: tuple[TableGame, ...]
    result: club_rules.EveningResult
    format: evening_rules.Format = evening_rules.Format()
    standings: tuple[evening_rules.Standing, ...] = ()
    places: tuple[evening_rules.Place, ...] = ()
    prizes: tuple[evening_rules.Prize, ...] = ()
    imported: store.ImportRecord | None = None  # the import it came from: no tables, its members' figures kept as such

    @property
    def half(self) -> int:
        """The half being played: the latest with a table (1 before any)."""
        return max((t.record.half for t in self.tables), default=1)


def parse_date(value: Any, field: str = "date") -> str:
    try:
        return Date.fromisoformat(str(value).strip()).isoformat()
    except ValueError:
        raise InputError({field: _("must be a date such as 2026-01-31")}) from None


def parse_money(value: Any, field: str = "fee") -> int:
    """An amount typed as 20, 20.5 or 20,50 in cents; empty is 0. Read by the core's one strict number reader: ASCII
    digits, no exponent, bounded before any arithmetic."""
    text = str(value or "").strip().replace(",", ".")
    if not text:
        return 0
    wrong = _("must be an amount such as 20 or 12.50")
    out_of_range = _("must be an amount from 0 to %(max)s with at most two decimals", max=FEE_MAX)
    try:
        amount = read_number(
            text,
            high=FEE_MAX,
            places=2,
            exponent=False,
            messages={"shape": wrong, "range": out_of_range, "places": out_of_range},
        )
    except NumberError as exc:
        raise InputError({field: message_of(exc)}) from None
    return int(amount * 100)
