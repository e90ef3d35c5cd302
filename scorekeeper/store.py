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


def insert_hand(db, game_id: str, input: dict) -> None:
    stamp = now()
    db.execute("INSERT INTO hands (game_id, input, created, updated) VALUES (?, ?, ?, ?)",
               [game_id, _dump(input), stamp, stamp])
    _touch(db, game_id)


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
