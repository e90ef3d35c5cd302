"""The only module that knows the table names: games and the hands as the players entered them."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _dump(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def insert_game(db, *, id, variant, title, players, dealer, options, edit_key_hash) -> None:
    stamp = now()
    db.execute(
        "INSERT INTO games (id, variant, title, players, dealer, options, edit_key_hash, created, updated, version)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
        [id, variant, title, _dump(list(players)), dealer, _dump(options), edit_key_hash, stamp, stamp])


def get_game(db, game_id: str) -> GameRecord | None:
    rows = list(db.query("SELECT * FROM games WHERE id = ?", [game_id]))
    if not rows:
        return None
    row = rows[0]
    return GameRecord(row["id"], row["variant"], row["title"], tuple(json.loads(row["players"])), row["dealer"],
                      json.loads(row["options"]), row["edit_key_hash"], row["created"], row["updated"], row["version"])


def get_hands(db, game_id: str) -> list[HandRecord]:
    return [HandRecord(r["id"], json.loads(r["input"]))
            for r in db.query("SELECT id, input FROM hands WHERE game_id = ? ORDER BY id", [game_id])]


def count_hands(db, game_id: str) -> int:
    return next(db.query("SELECT count(*) AS n FROM hands WHERE game_id = ?", [game_id]))["n"]


def _touch(db, game_id: str) -> None:
    db.execute("UPDATE games SET version = version + 1, updated = ? WHERE id = ?", [now(), game_id])


def insert_hand(db, game_id: str, input: dict) -> int:
    """Store a hand; answers its row id."""
    stamp = now()
    cursor = db.execute("INSERT INTO hands (game_id, input, created, updated) VALUES (?, ?, ?, ?)",
                        [game_id, _dump(input), stamp, stamp])
    _touch(db, game_id)
    return cursor.lastrowid


def update_hand(db, game_id: str, hand_id: int, input: dict) -> None:
    db.execute("UPDATE hands SET input = ?, updated = ? WHERE id = ? AND game_id = ?",
               [_dump(input), now(), hand_id, game_id])
    _touch(db, game_id)


def delete_hand(db, game_id: str, hand_id: int) -> None:
    db.execute("DELETE FROM hands WHERE id = ? AND game_id = ?", [hand_id, game_id])
    _touch(db, game_id)


def list_games(db, ids: list[str]) -> list[GameRecord]:
    """The games with these ids, newest first (the home page's 'games on this device')."""
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    found = [get_game(db, r["id"]) for r in db.query(f"SELECT id FROM games WHERE id IN ({marks}) ORDER BY created DESC", ids)]
    return [g for g in found if g]


def log_edit(db, game_id: str, action: str, number: int, hand_id: int | None,
             before: dict | None, after: dict | None) -> None:
    db.execute("INSERT INTO edits (game_id, at, action, number, hand_id, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)",
               [game_id, now(), action, number, hand_id,
                None if before is None else _dump(before), None if after is None else _dump(after)])


def get_edits(db, game_id: str) -> list[EditRecord]:
    """The game's edit log, oldest first."""
    return [EditRecord(r["at"], r["action"], r["number"],
                       None if r["before"] is None else json.loads(r["before"]),
                       None if r["after"] is None else json.loads(r["after"]))
            for r in db.query("SELECT * FROM edits WHERE game_id = ? ORDER BY id", [game_id])]


def get_idempotency(db, game_id: str, key: str) -> IdempotencyRecord | None:
    rows = list(db.query("SELECT action, request, hand_id FROM idempotency_keys WHERE game_id = ? AND key = ?",
                         [game_id, key]))
    return IdempotencyRecord(rows[0]["action"], rows[0]["request"], rows[0]["hand_id"]) if rows else None


def put_idempotency(db, game_id: str, key: str, action: str, request: str, hand_id: int | None) -> None:
    db.execute("INSERT INTO idempotency_keys (game_id, key, action, request, hand_id, created) VALUES (?, ?, ?, ?, ?, ?)",
               [game_id, key, action, request, hand_id, now()])
