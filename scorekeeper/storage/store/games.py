"""A game and its hands as the players entered them, its deal in progress, the edit log, the idempotency keys; and how a row's JSON is written and read."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
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
    # The file's epoch (live_versions, made anew by every restore), read in the same statement: a page's tag and a kept
    # sheet or PDF are the epoch's too, so a restore that brings the version back over other hands is seen (issue 43).
    epoch: int | None = None

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


def dumped(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def loaded(text):
    return json.loads(text) if text else None


def insert_game(db, *, id, variant, title, players, dealer, options, edit_key_hash, language=None) -> None:
    stamp = now(db)
    db.execute(
        "INSERT INTO games (id, variant, title, players, dealer, options, edit_key_hash, created, updated, version,"
        " language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
        [id, variant, title, dumped(list(players)), dealer, dumped(options), edit_key_hash, stamp, stamp, language],
    )


# The reads a hand entry makes go through db.execute: db.query wraps each one in a savepoint of its own, which doubles
# the statements of the busiest request.
GAME_COLUMNS = (
    "g.id, g.variant, g.title, g.players, g.dealer, g.options, g.edit_key_hash, g.created, g.updated, g.version,"
    " g.language, d.input, coalesce(d.version, 0), (SELECT version FROM live_versions WHERE scope = 'epoch')"
)


def get_game(db, game_id: str) -> GameRecord | None:
    """A game's row and its deal in progress, in one read."""
    row = db.execute(
        f"SELECT {GAME_COLUMNS} FROM games g LEFT JOIN open_deals d ON d.game_id = g.id WHERE g.id = ?", [game_id]
    ).fetchone()
    if row is None:
        return None
    id, variant, title, players, dealer, options, edit_key_hash, created, updated, version, language, deal, *rest = row
    return GameRecord(
        id,
        variant,
        title,
        tuple(json.loads(players)),
        dealer,
        options_of(options),
        edit_key_hash,
        created,
        updated,
        version,
        language,
        None if deal is None else json.loads(deal),
        *rest,  # the deal's version, the epoch
    )


# A night's thousands of tables play a few dozen cards: each stored options text is read into one mapping, shared by
# every game stored with it (and never changed in place), so a kept game holds no copy of its own and what is worked
# out once per options mapping (the setup's resolved options, the Danish house) is worked out once per card.
OPTIONS_KEPT_BYTES = 4 * 1024 * 1024  # the texts kept (a matrix card's is some 30 KB): then they are read anew
_options: dict[str, dict[str, Any]] = {}
_options_bytes = [0]


def options_of(text: str) -> dict[str, Any]:
    """The stored options text as a mapping, the same one for the same text (do not change it in place)."""
    found = _options.get(text)
    if found is None:
        found = json.loads(text)
        if _options_bytes[0] + len(text) > OPTIONS_KEPT_BYTES:
            _options.clear()
            _options_bytes[0] = 0
        _options[text] = found
        _options_bytes[0] += len(text)
    return found


def interned(values: dict[str, Any]) -> dict[str, Any]:
    """The dict with each of its text values the one interned copy of that text ("plain", "spades", …): a kept game's
    30 hands hold one each, not 60 of their own (games/cache.py). Changed in place, answered."""
    for key, value in values.items():
        if type(value) is str:
            values[key] = sys.intern(value)
    return values


def read_input(text: str) -> dict[str, Any]:
    """A stored hand's input, its texts interned."""
    return json.loads(text, object_hook=interned)


def get_hands(db, game_id: str) -> list[HandRecord]:
    return [
        HandRecord(id, read_input(input))
        for id, input in db.execute("SELECT id, input FROM hands WHERE game_id = ? ORDER BY id", [game_id])
    ]


def count_hands(db, game_id: str) -> int:
    return next(db.query("SELECT count(*) AS n FROM hands WHERE game_id = ?", [game_id]))["n"]


# Inserting, changing or deleting a hand bumps its game's `version` and `updated` by trigger (migration m103).


def insert_hand(db, game_id: str, input: dict) -> HandRecord:
    """Store a hand; answers it as get_hands will read it back."""
    return add_hand(db, game_id, input)[0]


def add_hand(db, game_id: str, input: Mapping[str, Any]) -> tuple[HandRecord, str]:
    """Store a hand; answers it as get_hands will read it back, and the time its game's row was `updated` to."""
    stamp, text = now(db), dumped(input)
    cursor = db.execute(
        "INSERT INTO hands (game_id, input, created, updated) VALUES (?, ?, ?, ?)", [game_id, text, stamp, stamp]
    )
    return HandRecord(cursor.lastrowid, _as_read(input, text)), stamp


def _as_read(input: Mapping[str, Any], text: str) -> dict[str, Any]:
    """The input as get_hands reads it back from `text`: the given dict itself where it is read back equal (a kept
    scored game then holds one input for the stored and the scored hand), else what is read back."""
    read = read_input(text)
    return interned(input) if type(input) is dict and read == input else read


def after_hand_added(game: GameRecord, stamp: str, deal_closed: bool = False) -> GameRecord:
    """The game's row as a hand added in this transaction leaves it, without reading it again: its trigger (m103) put
    the version one on and `updated` to the hand's time; close_open_deal, when it closed one, the deal's version one
    on. `game` is the row as read in the same write transaction."""
    out = replace(game, version=game.version + 1, updated=stamp)
    return replace(out, deal=None, deal_version=game.deal_version + 1) if deal_closed else out


def update_hand(db, game_id: str, hand_id: int, input: Mapping[str, Any]) -> HandRecord:
    """Change a hand's input; answers it as get_hands will read it back."""
    text = dumped(input)
    db.execute(
        "UPDATE hands SET input = ?, updated = ? WHERE id = ? AND game_id = ?", [text, now(db), hand_id, game_id]
    )
    return HandRecord(hand_id, _as_read(input, text))


def delete_hand(db, game_id: str, hand_id: int) -> None:
    db.execute("DELETE FROM hands WHERE id = ? AND game_id = ?", [hand_id, game_id])


# The deal in progress: one row per game once bids were entered, its input NULL while no deal is open.


def put_open_deal(db, game_id: str, input: dict) -> None:
    """Keep the bids of the deal in progress as entered (a new deal, or a change to the open one)."""
    db.execute(
        "INSERT INTO open_deals (game_id, input, version, updated) VALUES (?, ?, 1, ?) ON CONFLICT (game_id) DO"
        " UPDATE SET input = excluded.input, version = version + 1, updated = excluded.updated",
        [game_id, dumped(input), now(db)],
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


def set_game_options(db, game_id: str, options: dict) -> None:
    """Replace a game's options (its card, applied by the club): its version and `updated` go on, as a hand's change
    moves them, so every kept scored game and watching phone replays it."""
    db.execute(
        "UPDATE games SET options = ?, version = version + 1, updated = ? WHERE id = ?",
        [dumped(options), now(db), game_id],
    )


def card_since(db, game_id: str) -> str:
    """When the game got the card it plays: its last card change (edit log action `card`), else its start."""
    row = db.execute(
        "SELECT coalesce((SELECT max(at) FROM edits WHERE game_id = ? AND action = 'card'), created) FROM games"
        " WHERE id = ?",
        [game_id, game_id],
    ).fetchone()
    return row[0] if row else ""


def log_edit(
    db,
    game_id: str,
    action: str,
    number: int,
    hand_id: int | None,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
    at: str | None = None,
) -> int:
    """Write a line of the edit log (`at`: its time, else now); answers its id."""
    return db.execute(
        "INSERT INTO edits (game_id, at, action, number, hand_id, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            game_id,
            now(db) if at is None else at,
            action,
            number,
            hand_id,
            None if before is None else dumped(before),
            None if after is None else dumped(after),
        ],
    ).lastrowid


def last_edit(db, game_id: str) -> int:
    """The id of the game's newest edit log line (0 if none)."""
    return db.execute("SELECT coalesce(max(id), 0) FROM edits WHERE game_id = ?", [game_id]).fetchone()[0]


def added_since(db, game_id: str, edit_id: int) -> list[tuple[int, str, HandRecord | None]]:
    """The game's edit log lines after `edit_id`, oldest first, in one read: (id, action, the hand an `added` line
    added as it is stored now, None if it is gone or the line is another action's)."""
    return [
        (id, action, None if hand_id is None else HandRecord(hand_id, read_input(input)))
        for id, action, hand_id, input in db.execute(
            "SELECT e.id, e.action, h.id, h.input FROM edits e LEFT JOIN hands h ON h.id = e.hand_id"
            " AND h.game_id = e.game_id AND e.action = 'added' WHERE e.game_id = ? AND e.id > ? ORDER BY e.id",
            [game_id, edit_id],
        )
    ]


def edits_since(db, game_id: str, edit_id: int) -> list[tuple[int, str]]:
    """(id, action) of the game's edit log lines after `edit_id`, oldest first."""
    return db.execute(
        "SELECT id, action FROM edits WHERE game_id = ? AND id > ? ORDER BY id", [game_id, edit_id]
    ).fetchall()


def hands_after(db, game_id: str, hand_id: int) -> list[HandRecord]:
    """The game's hands stored after the hand with this row id."""
    return [
        HandRecord(id, read_input(input))
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
