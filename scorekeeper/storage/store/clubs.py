"""Clubs, their members, card evenings and the games that are an evening's tables (migrations m100 onwards)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.storage.store.games import dumped, loaded, now

# Clubs, their members, card evenings and the games that are an evening's tables (migrations m100 onwards).


@dataclass(frozen=True)
class ClubRecord:
    id: str
    name: str
    currency: str
    variant: str
    options: dict[str, Any]
    password_hash: str
    created: str
    language: str | None = None
    # The evening's defaults on the club's card: {"fee_cents": int, "settlement": "pairwise" | "kitty"}.
    evening_defaults: dict[str, Any] = field(default_factory=dict)
    evening_format: dict[str, Any] | None = None  # halves, deals per half, prizes (m140); None: one half, no prizes


@dataclass(frozen=True)
class MemberRecord:
    id: int
    name: str
    retired: str | None


@dataclass(frozen=True)
class EveningRecord:
    id: int
    club_id: str
    date: str
    fee_cents: int
    rate: str | None
    settlement: str
    settled: str | None
    settled_balances: dict[str, int] | None
    currency: str = ""  # the club's currency when the evening was made
    settled_terms: dict[str, Any] | None = None  # date, fee_cents and settlement when it was marked settled
    format: dict[str, Any] | None = None  # the club's evening format when the evening was made (m140)
    draw: dict[str, Any] | None = None  # the next half's draw, waiting to be started: half, tables, out, repeats


@dataclass(frozen=True)
class ClubTableRecord:
    game_id: str
    evening_id: int
    number: int
    members: tuple[int, ...]  # member id per seat
    half: int = 1
    place: int | None = None  # the table's number within its half (None: its number)
    code: str | None = None  # the short code that hands it to its scorer

    @property
    def shown_number(self) -> int:
        return self.place or self.number


def _club(row) -> ClubRecord:
    return ClubRecord(
        row["id"],
        row["name"],
        row["currency"],
        row["variant"],
        json.loads(row["options"]),
        row["password_hash"],
        row["created"],
        row["language"],
        json.loads(row["evening_defaults"]) if row["evening_defaults"] else {},
        loaded(row["evening_format"]),
    )


def insert_club(
    db, *, id, name, currency, variant, options, password_hash, language=None, evening_defaults=None
) -> None:
    stamp = now(db)
    db.execute(
        "INSERT INTO clubs (id, name, currency, variant, options, password_hash, created, updated, language,"
        " evening_defaults) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            id,
            name,
            currency,
            variant,
            dumped(options),
            password_hash,
            stamp,
            stamp,
            language,
            dumped(evening_defaults or {}),
        ],
    )


def get_club(db, club_id: str) -> ClubRecord | None:
    rows = list(db.query("SELECT * FROM clubs WHERE id = ?", [club_id]))
    return _club(rows[0]) if rows else None


def list_clubs(db, ids: list[str]) -> list[ClubRecord]:
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    return [_club(r) for r in db.query(f"SELECT * FROM clubs WHERE id IN ({marks}) ORDER BY name", ids)]


def update_club(
    db, club_id: str, *, name, currency, variant, options, password_hash=None, language=None, evening_defaults=None
) -> None:
    """Change a club; `evening_defaults` None keeps the ones it has."""
    db.execute(
        "UPDATE clubs SET name = ?, currency = ?, variant = ?, options = ?, updated = ?, language = ?,"
        " password_hash = coalesce(?, password_hash), evening_defaults = coalesce(?, evening_defaults) WHERE id = ?",
        [
            name,
            currency,
            variant,
            dumped(options),
            now(db),
            language,
            password_hash,
            None if evening_defaults is None else dumped(evening_defaults),
            club_id,
        ],
    )


def club_login(db, club_id: str, address: str, now: float) -> tuple[int, float | None]:
    """Wrong passwords in a row from this address and until when its login is closed; (0, None) once expired."""
    rows = list(
        db.query(
            "SELECT failures, locked_until FROM club_logins WHERE club_id = ? AND address = ? AND expires > ?",
            [club_id, address, now],
        )
    )
    return (rows[0]["failures"], rows[0]["locked_until"]) if rows else (0, None)


def set_club_login(
    db, club_id: str, address: str, failures: int, locked_until: float | None, expires: float, now: float
) -> None:
    """Keep an address's count of wrong passwords (none: forget it), and forget every count that has expired."""
    db.execute("DELETE FROM club_logins WHERE expires <= ?", [now])
    if failures:
        db.execute(
            "INSERT OR REPLACE INTO club_logins (club_id, address, failures, locked_until, expires)"
            " VALUES (?, ?, ?, ?, ?)",
            [club_id, address, failures, locked_until, expires],
        )
    else:
        db.execute("DELETE FROM club_logins WHERE club_id = ? AND address = ?", [club_id, address])


def club_members(db, club_id: str) -> list[MemberRecord]:
    return [
        MemberRecord(r["id"], r["name"], r["retired"])
        for r in db.query(
            "SELECT id, name, retired FROM club_members WHERE club_id = ? ORDER BY name COLLATE NOCASE, id", [club_id]
        )
    ]


def insert_member(db, club_id: str, name: str) -> int:
    return db.execute(
        "INSERT INTO club_members (club_id, name, created) VALUES (?, ?, ?)", [club_id, name, now(db)]
    ).lastrowid


def rename_member(db, club_id: str, member_id: int, name: str) -> None:
    """A member's new name, in the club and in the seat they have at every table they played (the games' players)."""
    db.execute("UPDATE club_members SET name = ? WHERE id = ? AND club_id = ?", [name, member_id, club_id])
    seats = db.execute(
        "SELECT g.id, g.players, s.seat FROM club_seats s JOIN games g ON g.id = s.game_id WHERE s.member_id = ?",
        [member_id],
    ).fetchall()
    for game_id, players, seat in seats:
        names = json.loads(players)
        names[seat] = name
        db.execute("UPDATE games SET players = ? WHERE id = ?", [dumped(names), game_id])


def retire_member(db, club_id: str, member_id: int, retired: bool) -> None:
    db.execute(
        "UPDATE club_members SET retired = ? WHERE id = ? AND club_id = ?",
        [now(db) if retired else None, member_id, club_id],
    )


def _evening(row) -> EveningRecord:
    balances = json.loads(row["settled_balances"]) if row["settled_balances"] else None
    terms = json.loads(row["settled_terms"]) if row["settled_terms"] else None
    return EveningRecord(
        row["id"],
        row["club_id"],
        row["date"],
        row["fee_cents"],
        row["rate"],
        row["settlement"],
        row["settled"],
        balances,
        row["currency"] or "",
        terms,
        loaded(row["format"]),
        loaded(row["draw"]),
    )


def insert_evening(
    db,
    club_id: str,
    date: str,
    fee_cents: int,
    rate: str | None,
    settlement: str,
    currency: str,
    format: dict | None = None,
) -> int:
    return db.execute(
        "INSERT INTO club_evenings (club_id, date, fee_cents, rate, settlement, created, currency, format)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [club_id, date, fee_cents, rate, settlement, now(db), currency, None if format is None else dumped(format)],
    ).lastrowid


def set_club_format(db, club_id: str, format: dict | None) -> None:
    """The club's evening format (its own column: the card's other sections are not touched)."""
    db.execute(
        "UPDATE clubs SET evening_format = ?, updated = ? WHERE id = ?",
        [None if format is None else dumped(format), now(db), club_id],
    )


def set_evening_format(db, evening_id: int, format: dict | None) -> None:
    db.execute(
        "UPDATE club_evenings SET format = ? WHERE id = ?", [None if format is None else dumped(format), evening_id]
    )


def set_evening_draw(db, evening_id: int, draw: dict | None) -> None:
    """The next half's draw, waiting to be started (None: none waiting)."""
    db.execute("UPDATE club_evenings SET draw = ? WHERE id = ?", [None if draw is None else dumped(draw), evening_id])


def get_evening(db, club_id: str, evening_id: int) -> EveningRecord | None:
    rows = list(db.query("SELECT * FROM club_evenings WHERE id = ? AND club_id = ?", [evening_id, club_id]))
    return _evening(rows[0]) if rows else None


def club_evenings(db, club_id: str, start: str | None = None, end: str | None = None) -> list[EveningRecord]:
    """The club's evenings from `start` to `end` (ISO dates, both included), oldest first."""
    return [
        _evening(r)
        for r in db.query(
            "SELECT * FROM club_evenings WHERE club_id = ? AND date >= coalesce(?, date) AND date <= coalesce(?, date)"
            " ORDER BY date, id",
            [club_id, start, end],
        )
    ]


def update_evening(db, evening_id: int, date: str, fee_cents: int, settlement: str) -> None:
    db.execute(
        "UPDATE club_evenings SET date = ?, fee_cents = ?, settlement = ? WHERE id = ?",
        [date, fee_cents, settlement, evening_id],
    )


def delete_evening(db, evening_id: int) -> None:
    db.execute("DELETE FROM club_evenings WHERE id = ?", [evening_id])


def settle_evening(
    db, evening_id: int, settlement: str, balances: dict[str, int] | None, terms: dict[str, Any] | None = None
) -> None:
    """Mark an evening settled with the balances (and the date, fee, way of settling up) it was settled at, or
    (balances None) not settled."""
    settled = balances is not None
    db.execute(
        "UPDATE club_evenings SET settlement = ?, settled = ?, settled_balances = ?, settled_terms = ? WHERE id = ?",
        [
            settlement,
            now(db) if settled else None,
            dumped(balances) if settled else None,
            dumped(terms) if settled and terms is not None else None,
            evening_id,
        ],
    )


def insert_club_table(
    db,
    evening_id: int,
    game_id: str,
    members: list[int],
    half: int = 1,
    place: int | None = None,
    code: str | None = None,
) -> int:
    """Link a game to an evening as its next table, with the member in each seat; answers the table's number. Its
    place (its number within the half) is the next of its half unless given."""
    number = next(
        db.query("SELECT coalesce(max(number), 0) + 1 AS n FROM club_tables WHERE evening_id = ?", [evening_id])
    )["n"]
    if place is None:
        place = db.execute(
            "SELECT coalesce(max(place), 0) + 1 FROM club_tables WHERE evening_id = ? AND half = ?", [evening_id, half]
        ).fetchone()[0]
    db.execute(
        "INSERT INTO club_tables (game_id, evening_id, number, half, place, code) VALUES (?, ?, ?, ?, ?, ?)",
        [game_id, evening_id, number, half, place, code],
    )
    for seat, member_id in enumerate(members):
        db.execute("INSERT INTO club_seats (game_id, seat, member_id) VALUES (?, ?, ?)", [game_id, seat, member_id])
    return number


def count_club_tables(db, evening_id: int) -> int:
    return db.execute("SELECT count(*) FROM club_tables WHERE evening_id = ?", [evening_id]).fetchone()[0]


def delete_club_table(db, evening_id: int, game_id: str) -> None:
    """Unlink a game from its evening (the game itself stays)."""
    db.execute("DELETE FROM club_tables WHERE game_id = ? AND evening_id = ?", [game_id, evening_id])


def club_tables(db, evening_ids: list[int]) -> list[ClubTableRecord]:
    """The tables of these evenings, by evening and number, with their seats."""
    if not evening_ids:
        return []
    marks = ",".join("?" * len(evening_ids))
    seats: dict[str, list[int]] = {}
    for r in db.query(
        f"SELECT s.game_id, s.member_id FROM club_seats s JOIN club_tables t ON t.game_id = s.game_id"
        f" WHERE t.evening_id IN ({marks}) ORDER BY s.game_id, s.seat",
        evening_ids,
    ):
        seats.setdefault(r["game_id"], []).append(r["member_id"])
    return [
        _table(r, seats.get(r["game_id"], ()))
        for r in db.query(
            f"SELECT * FROM club_tables WHERE evening_id IN ({marks}) ORDER BY evening_id, number", evening_ids
        )
    ]


def _table(r, seats) -> ClubTableRecord:
    return ClubTableRecord(r["game_id"], r["evening_id"], r["number"], tuple(seats), r["half"], r["place"], r["code"])


def club_table_of(db, game_id: str) -> tuple[ClubTableRecord, str] | None:
    """The club table a game is, with its club's id; None for a game of no club."""
    row = db.execute(
        "SELECT t.game_id, t.evening_id, t.number, t.half, t.place, t.code, e.club_id FROM club_tables t"
        " JOIN club_evenings e ON e.id = t.evening_id WHERE t.game_id = ?",
        [game_id],
    ).fetchone()
    if row is None:
        return None
    seats = [r[0] for r in db.execute("SELECT member_id FROM club_seats WHERE game_id = ? ORDER BY seat", [game_id])]
    keys = ("game_id", "evening_id", "number", "half", "place", "code")
    return _table(dict(zip(keys, row[:6])), seats), row[6]


def table_by_code(db, code: str) -> str | None:
    """The game whose club table has this handover code."""
    row = db.execute("SELECT game_id FROM club_tables WHERE code = ?", [code]).fetchone()
    return row[0] if row else None


def code_table(db, code: str) -> tuple[str, str, bool] | None:
    """The club table that has this handover code: (game id, club id, whether its evening is still open)."""
    row = db.execute(
        "SELECT t.game_id, e.club_id, e.settled IS NULL FROM club_tables t"
        " JOIN club_evenings e ON e.id = t.evening_id WHERE t.code = ?",
        [code],
    ).fetchone()
    return (row[0], row[1], bool(row[2])) if row else None


def table_open(db, game_id: str) -> bool:
    """Whether a game is a club table whose evening is open (not settled): while its code's handed key holds."""
    row = db.execute(
        "SELECT e.settled IS NULL FROM club_tables t JOIN club_evenings e ON e.id = t.evening_id WHERE t.game_id = ?",
        [game_id],
    ).fetchone()
    return bool(row and row[0])


def set_table_code(db, game_id: str, code: str) -> None:
    db.execute("UPDATE club_tables SET code = ? WHERE game_id = ?", [code, game_id])


# ================================================================ whist drives
