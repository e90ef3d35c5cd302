"""The only module that knows the table names: games and the hands as the players entered them."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: str
    variant: str
    title: str | None
    players: tuple[str, ...]
    dealer: int
    options: dict[str, Any]
    edit_key_hash: str
    created: str
    updated: str
    version: int
    language: str | None = None
    # The deal in progress (open_deals): the bids entered before it is played, or None; its own version.
    deal: dict[str, Any] | None = None
    deal_version: int = 0

    def hands_part(self) -> GameRecord:
        """The record without its deal in progress: what the scored hands depend on."""
        return replace(self, deal=None, deal_version=0)


@dataclass(frozen=True, slots=True)
class HandRecord:
    id: int
    input: dict[str, Any]


@dataclass(frozen=True)
class EditRecord:
    """One line of a game's edit log: a hand added, edited or deleted, with its input before and after."""

    at: str
    action: str
    number: int
    before: dict[str, Any] | None
    after: dict[str, Any] | None


@dataclass(frozen=True)
class IdempotencyRecord:
    """A write already done under an idempotency key: what it did, to which hand, for which request."""

    action: str
    request: str
    hand_id: int | None


def now(db) -> str:
    """The time written into a row, in UTC: the connection's clock (tests set one: config CLOCK)."""
    return db.clock().isoformat(timespec="seconds")


def _dump(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def insert_game(db, *, id, variant, title, players, dealer, options, edit_key_hash, language=None) -> None:
    stamp = now(db)
    db.execute(
        "INSERT INTO games (id, variant, title, players, dealer, options, edit_key_hash, created, updated, version,"
        " language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
        [id, variant, title, _dump(list(players)), dealer, _dump(options), edit_key_hash, stamp, stamp, language],
    )


# The reads a hand entry makes go through db.execute: db.query wraps each one in a savepoint of its own, which doubles
# the statements of the busiest request.
GAME_COLUMNS = (
    "g.id, g.variant, g.title, g.players, g.dealer, g.options, g.edit_key_hash, g.created, g.updated, g.version,"
    " g.language, d.input, coalesce(d.version, 0)"
)


def get_game(db, game_id: str) -> GameRecord | None:
    """A game's row and its deal in progress, in one read."""
    row = db.execute(
        f"SELECT {GAME_COLUMNS} FROM games g LEFT JOIN open_deals d ON d.game_id = g.id WHERE g.id = ?", [game_id]
    ).fetchone()
    if row is None:
        return None
    id, variant, title, players, dealer, options, edit_key_hash, created, updated, version, language, deal, dv = row
    return GameRecord(
        id,
        variant,
        title,
        tuple(json.loads(players)),
        dealer,
        json.loads(options),
        edit_key_hash,
        created,
        updated,
        version,
        language,
        None if deal is None else json.loads(deal),
        dv,
    )


def get_hands(db, game_id: str) -> list[HandRecord]:
    return [
        HandRecord(id, json.loads(input))
        for id, input in db.execute("SELECT id, input FROM hands WHERE game_id = ? ORDER BY id", [game_id])
    ]


def count_hands(db, game_id: str) -> int:
    return next(db.query("SELECT count(*) AS n FROM hands WHERE game_id = ?", [game_id]))["n"]


# Inserting, changing or deleting a hand bumps its game's `version` and `updated` by trigger (migration m103).


def insert_hand(db, game_id: str, input: dict) -> HandRecord:
    """Store a hand; answers it as get_hands will read it back."""
    return add_hand(db, game_id, input)[0]


def add_hand(db, game_id: str, input: dict) -> tuple[HandRecord, str]:
    """Store a hand; answers it as get_hands will read it back, and the time its game's row was `updated` to."""
    stamp, text = now(db), _dump(input)
    cursor = db.execute(
        "INSERT INTO hands (game_id, input, created, updated) VALUES (?, ?, ?, ?)", [game_id, text, stamp, stamp]
    )
    return HandRecord(cursor.lastrowid, json.loads(text)), stamp


def after_hand_added(game: GameRecord, stamp: str, deal_closed: bool = False) -> GameRecord:
    """The game's row as a hand added in this transaction leaves it, without reading it again: its trigger (m103) put
    the version one on and `updated` to the hand's time; close_open_deal, when it closed one, the deal's version one
    on. `game` is the row as read in the same write transaction."""
    out = replace(game, version=game.version + 1, updated=stamp)
    return replace(out, deal=None, deal_version=game.deal_version + 1) if deal_closed else out


def update_hand(db, game_id: str, hand_id: int, input: dict) -> HandRecord:
    """Change a hand's input; answers it as get_hands will read it back."""
    text = _dump(input)
    db.execute(
        "UPDATE hands SET input = ?, updated = ? WHERE id = ? AND game_id = ?", [text, now(db), hand_id, game_id]
    )
    return HandRecord(hand_id, json.loads(text))


def delete_hand(db, game_id: str, hand_id: int) -> None:
    db.execute("DELETE FROM hands WHERE id = ? AND game_id = ?", [hand_id, game_id])


# The deal in progress: one row per game once bids were entered, its input NULL while no deal is open.


def put_open_deal(db, game_id: str, input: dict) -> None:
    """Keep the bids of the deal in progress as entered (a new deal, or a change to the open one)."""
    db.execute(
        "INSERT INTO open_deals (game_id, input, version, updated) VALUES (?, ?, 1, ?) ON CONFLICT (game_id) DO"
        " UPDATE SET input = excluded.input, version = version + 1, updated = excluded.updated",
        [game_id, _dump(input), now(db)],
    )


def close_open_deal(db, game_id: str) -> bool:
    """No deal in progress any more (its tricks completed the hand, or its bids were cleared); whether one was."""
    return (
        db.execute(
            "UPDATE open_deals SET input = NULL, version = version + 1, updated = ? WHERE game_id = ?"
            " AND input IS NOT NULL",
            [now(db), game_id],
        ).rowcount
        > 0
    )


def list_games(db, ids: list[str]) -> list[GameRecord]:
    """The games with these ids, newest first (the home page's 'games on this device')."""
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    found = [
        get_game(db, r["id"])
        for r in db.query(f"SELECT id FROM games WHERE id IN ({marks}) ORDER BY created DESC", ids)
    ]
    return [g for g in found if g]


def log_edit(
    db, game_id: str, action: str, number: int, hand_id: int | None, before: dict | None, after: dict | None
) -> int:
    """Write a line of the edit log; answers its id."""
    return db.execute(
        "INSERT INTO edits (game_id, at, action, number, hand_id, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            game_id,
            now(db),
            action,
            number,
            hand_id,
            None if before is None else _dump(before),
            None if after is None else _dump(after),
        ],
    ).lastrowid


def last_edit(db, game_id: str) -> int:
    """The id of the game's newest edit log line (0 if none)."""
    return db.execute("SELECT coalesce(max(id), 0) FROM edits WHERE game_id = ?", [game_id]).fetchone()[0]


def edits_since(db, game_id: str, edit_id: int) -> list[tuple[int, str]]:
    """(id, action) of the game's edit log lines after `edit_id`, oldest first."""
    return db.execute(
        "SELECT id, action FROM edits WHERE game_id = ? AND id > ? ORDER BY id", [game_id, edit_id]
    ).fetchall()


def hands_after(db, game_id: str, hand_id: int) -> list[HandRecord]:
    """The game's hands stored after the hand with this row id."""
    return [
        HandRecord(id, json.loads(input))
        for id, input in db.execute(
            "SELECT id, input FROM hands WHERE game_id = ? AND id > ? ORDER BY id", [game_id, hand_id]
        )
    ]


def get_edits(db, game_id: str, *, skip_added: bool = False) -> list[EditRecord]:
    """The game's edit log, oldest first; `skip_added` leaves out the additions (one per hand of the sheet)."""
    where = "game_id = ? AND action != 'added'" if skip_added else "game_id = ?"
    return [
        EditRecord(
            r["at"],
            r["action"],
            r["number"],
            None if r["before"] is None else json.loads(r["before"]),
            None if r["after"] is None else json.loads(r["after"]),
        )
        for r in db.query(f"SELECT * FROM edits WHERE {where} ORDER BY id", [game_id])
    ]


def get_idempotency(db, game_id: str, key: str) -> IdempotencyRecord | None:
    row = db.execute(
        "SELECT action, request, hand_id FROM idempotency_keys WHERE game_id = ? AND key = ?", [game_id, key]
    ).fetchone()
    return IdempotencyRecord(*row) if row else None


def put_idempotency(db, game_id: str, key: str, action: str, request: str, hand_id: int | None) -> None:
    db.execute(
        "INSERT INTO idempotency_keys (game_id, key, action, request, hand_id, created) VALUES (?, ?, ?, ?, ?, ?)",
        [game_id, key, action, request, hand_id, now(db)],
    )


def purge_idempotency(db, before: str, keep: int = 0) -> int:
    """Forget the idempotency keys made before `before` (an ISO time in UTC, as now() writes them), but never the
    newest `keep` of each game, in the order they were written (rowid): a clock that jumps forward purges none of
    those, so a retry of a recent write is still recognised."""
    return db.execute(
        "DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM (SELECT rowid, created,"
        " ROW_NUMBER() OVER (PARTITION BY game_id ORDER BY rowid DESC) AS newer FROM idempotency_keys)"
        " WHERE newer > ? AND created < ?)",
        [keep, before],
    ).rowcount


# ================================================================ clubs
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


def _json(text):
    return json.loads(text) if text else None


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
        _json(row["evening_format"]),
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
            _dump(options),
            password_hash,
            stamp,
            stamp,
            language,
            _dump(evening_defaults or {}),
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
            _dump(options),
            now(db),
            language,
            password_hash,
            None if evening_defaults is None else _dump(evening_defaults),
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
        db.execute("UPDATE games SET players = ? WHERE id = ?", [_dump(names), game_id])


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
        _json(row["format"]),
        _json(row["draw"]),
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
        [club_id, date, fee_cents, rate, settlement, now(db), currency, None if format is None else _dump(format)],
    ).lastrowid


def set_club_format(db, club_id: str, format: dict | None) -> None:
    """The club's evening format (its own column: the card's other sections are not touched)."""
    db.execute(
        "UPDATE clubs SET evening_format = ?, updated = ? WHERE id = ?",
        [None if format is None else _dump(format), now(db), club_id],
    )


def set_evening_format(db, evening_id: int, format: dict | None) -> None:
    db.execute(
        "UPDATE club_evenings SET format = ? WHERE id = ?", [None if format is None else _dump(format), evening_id]
    )


def set_evening_draw(db, evening_id: int, draw: dict | None) -> None:
    """The next half's draw, waiting to be started (None: none waiting)."""
    db.execute("UPDATE club_evenings SET draw = ? WHERE id = ?", [None if draw is None else _dump(draw), evening_id])


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
            _dump(balances) if settled else None,
            _dump(terms) if settled and terms is not None else None,
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
# A drive's setup as checked and the tables' results as entered (migration m107); the seating is replayed from these.


@dataclass(frozen=True, slots=True)
class DriveRecord:
    id: str
    title: str | None
    setup: dict[str, Any]
    edit_key_hash: str
    created: str
    updated: str
    version: int
    reseat: dict[str, Any] | None = None  # {"hand", "seating"}: hand `hand` as shown before a correction re-seated it
    draws: tuple[dict[str, Any], ...] = ()  # the app's draws for the prizes (cuts, lucky numbers), as made
    prizes_given: str | None = None  # when the organiser gave the prizes: the results are final since


@dataclass(frozen=True, slots=True)
class DriveResultRecord:
    hand: int
    table: int
    tricks: list[int]


def insert_drive(db, *, id: str, title: str | None, setup: dict, edit_key_hash: str) -> None:
    stamp = now(db)
    db.execute(
        "INSERT INTO drives (id, title, setup, edit_key_hash, created, updated, version) VALUES (?, ?, ?, ?, ?, ?, 0)",
        [id, title, _dump(setup), edit_key_hash, stamp, stamp],
    )


def get_drive(db, drive_id: str) -> DriveRecord | None:
    row = db.execute(
        "SELECT id, title, setup, edit_key_hash, created, updated, version, reseat, draws, prizes_given FROM drives"
        " WHERE id = ?",
        [drive_id],
    ).fetchone()
    if row is None:
        return None
    id, title, setup, edit_key_hash, created, updated, version, reseat, draws, given = row
    return DriveRecord(
        id,
        title,
        json.loads(setup),
        edit_key_hash,
        created,
        updated,
        version,
        json.loads(reseat) if reseat else None,
        tuple(json.loads(draws)) if draws else (),
        given,
    )


def _drive_changed(db, drive_id: str) -> None:
    db.execute("UPDATE drives SET version = version + 1, updated = ? WHERE id = ?", [now(db), drive_id])


def put_drive_setup(db, drive_id: str, setup: dict, title: str | None) -> None:
    """The setup after a rename or a substitute (as checked by the core); the version goes up."""
    db.execute("UPDATE drives SET setup = ?, title = ? WHERE id = ?", [_dump(setup), title, drive_id])
    _drive_changed(db, drive_id)


def drive_kept_seatings(db, drive_id: str) -> dict[int, list]:
    """The seatings kept as played (migration m120), hand → [[[lady, gent], [lady, gent]] per table]."""
    return {
        hand: json.loads(seating)
        for hand, seating in db.execute("SELECT hand, seating FROM drive_seatings WHERE drive_id = ?", [drive_id])
    }


def keep_drive_seatings(db, drive_id: str, seatings: dict[int, Any]) -> None:
    for hand, seating in seatings.items():
        db.execute(
            "INSERT OR REPLACE INTO drive_seatings (drive_id, hand, seating) VALUES (?, ?, ?)",
            [drive_id, hand, _dump([[list(p) for p in t] for t in seating])],
        )


def put_drive_reseat(db, drive_id: str, reseat: dict | None) -> None:
    db.execute("UPDATE drives SET reseat = ? WHERE id = ?", [_dump(reseat) if reseat else None, drive_id])


def put_drive_draws(db, drive_id: str, draws: list[dict]) -> None:
    db.execute("UPDATE drives SET draws = ? WHERE id = ?", [_dump(draws) if draws else None, drive_id])
    _drive_changed(db, drive_id)


def put_drive_prizes_given(db, drive_id: str, when: str | None) -> None:
    db.execute("UPDATE drives SET prizes_given = ? WHERE id = ?", [when, drive_id])
    _drive_changed(db, drive_id)


def delete_drive(db, drive_id: str) -> None:
    """A drive and everything it holds (its results and kept seatings go with it: ON DELETE CASCADE)."""
    db.execute("DELETE FROM drives WHERE id = ?", [drive_id])


def drive_results(db, drive_id: str) -> list[DriveResultRecord]:
    return [
        DriveResultRecord(hand, table, json.loads(tricks))
        for hand, table, tricks in db.execute(
            "SELECT hand, table_number, tricks FROM drive_results WHERE drive_id = ? ORDER BY hand, table_number",
            [drive_id],
        )
    ]


def put_drive_result(db, drive_id: str, hand: int, table: int, tricks: list[int]) -> None:
    """Store a table's result for a hand, replacing the one it had; the drive's version goes up by one."""
    stamp = now(db)
    db.execute(
        "INSERT INTO drive_results (drive_id, hand, table_number, tricks, created, updated) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (drive_id, hand, table_number) DO UPDATE SET tricks = excluded.tricks, updated = excluded.updated",
        [drive_id, hand, table, _dump(tricks), stamp, stamp],
    )
    db.execute("UPDATE drives SET version = version + 1, updated = ? WHERE id = ?", [stamp, drive_id])


def put_drive_money(db, drive_id: str, money: dict, changed: bool = False) -> None:
    """A drive's currency, entry fee and prizes (migration m108), as the organiser typed them; `changed` raises the
    version (prizes edited after the drive was started)."""
    db.execute("UPDATE drives SET money = ? WHERE id = ?", [_dump(money), drive_id])
    if changed:
        _drive_changed(db, drive_id)


def drive_money(db, drive_id: str) -> dict | None:
    row = db.execute("SELECT money FROM drives WHERE id = ?", [drive_id]).fetchone()
    return json.loads(row[0]) if row and row[0] else None
