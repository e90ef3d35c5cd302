"""The games this process scored last (games.service.ScoredGame), so that entering a hand scores one hand instead of the whole game.

A scored game is kept under its database file and game id; service uses it only while the game's row read now equals the
row it was kept with, or, when another worker only added hands since, after scoring those (service._scored_game). Every
change to a game's hands bumps the row's version (a trigger, migration m103, so even a change made with sqlite3 at
the file shows), and the app writes a line of the edit log in the same transaction. What is kept is never changed in
place (frozen records, tuples).

After `scorekeeper restore` a kept scored game of a restored game is not used again: the row carries the file's epoch
(store.GameRecord.epoch), which every restore makes anew, so a restored row never equals a kept one, even where its
version climbs back to the kept one's over other hands (issue 43).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Any

from cachetools import LRUCache

# A scored hand kept is 2-3 KB (a game of 20 hands, 45 KB): the hands bound the memory, 100-150 MB a worker. A
# game not kept costs a hand 4-5 ms more (its replay; bench/kept_games.py): a night's machine keeps every game its
# tables play (KEPT_GAMES, KEPT_HANDS: docs/scaling.md).
MAX_GAMES = 5_000
MAX_HANDS = 50_000


class Kept:
    """A least-recently-used store, bounded by the number of things kept and by their size together: scored games and
    the hands they hold (`games` below), or drive pages and their bytes (drives/pages/paper.py). cachetools' LRUCache
    bounds the size (getsizeof); the number is bounded here, by dropping its least recently used (popitem)."""

    def __init__(self, max_items: int = MAX_GAMES, max_size: int = MAX_HANDS):
        self.max_items, self.max_size = max_items, max_size
        self._kept: LRUCache = LRUCache(maxsize=max_size, getsizeof=lambda kept: kept[1])  # key: (the thing, its size)
        self._lock = threading.Lock()  # cachetools' caches are not thread-safe

    def get(self, key: Hashable) -> Any | None:
        """What is kept under `key` (a scored game: up to date or not, the caller checks), else None."""
        with self._lock:
            found = self._kept.get(key)
        return None if found is None else found[0]

    def put(self, key: Hashable, thing: Any, size: int) -> None:
        with self._lock:
            self._kept.pop(key, None)
            if size > self.max_size:
                return
            self._kept[key] = (thing, size)
            while len(self._kept) > self.max_items:
                self._kept.popitem()

    def bound(self, max_items: int, max_size: int) -> None:
        """New bounds (the app's KEPT_GAMES and KEPT_HANDS, at its start): what is kept is let go if they change."""
        with self._lock:
            if (max_items, max_size) != (self.max_items, self.max_size):
                self.max_items, self.max_size = max_items, max_size
                self._kept = LRUCache(maxsize=max_size, getsizeof=lambda kept: kept[1])

    def forget(self, key: Hashable) -> None:
        with self._lock:
            self._kept.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)


games = Kept()  # the scored games, by their hands
