"""What a live page is known by: a game's row as stored, read without scoring it (the drives' is drives.head), so
that a phone asking "has it changed?" every few seconds costs one indexed read, never a replay."""

from __future__ import annotations

from scorekeeper.storage import store


def game_row(db, game_id: str) -> store.GameRecord | None:
    """The game's row and its deal in progress, in one statement (its version goes up with every change to its hands,
    its deal's version with every change to the bids), or None if there is none."""
    return store.get_game(db, game_id)
