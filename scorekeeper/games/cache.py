"""The games this process scored last (games.service.ScoredGame), so that entering a hand scores one hand instead of the whole game.

A scored game is kept under its database file and game id; service uses it only while the game's row read now equals the
row it was kept with, or, when another worker only added hands since, after scoring those (service.scored). Every
change to a game's hands bumps the row's version (a trigger, migration m103, so even a change made with sqlite3 at
the file shows), and the app writes a line of the edit log in the same transaction. What is kept is never changed in
place (frozen records, tuples).

After `scorekeeper restore` a kept scored game of a restored game is not used again: the row carries the file's epoch
(store.GameRecord.epoch), which every restore makes anew, so a restored row never equals a kept one, even where its
version climbs back to the kept one's over other hands (issue 43).

**Bounded by bytes** (issue 47): a worker keeps every game a night's tables play, or it replays a game from its stored
hands for its next hand (some 3-5 ms of CPU for 30 Danish hands), and a bound by hands alone let a night of 2,000
tables of 30 hands thrash (50,000 hands: a quarter of the hands replayed their game). The kept games are bounded by
KEPT_GAMES and by KEPT_GAMES_BYTES, a game counted at what it holds (`game_bytes`: measured with tracemalloc,
bench/worker_memory.py: the stored hand shares its input with the scored one, every game of a card one options
mapping), so 4,000 tables of 30 hands fit in some 80 MB.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, cast

MAX_GAMES = 10_000  # config KEPT_GAMES
MAX_HANDS = None  # config KEPT_HANDS: no bound by hands of its own (the bytes bound them)
MAX_BYTES = 96 * 1024 * 1024  # config KEPT_GAMES_BYTES
# What a kept game holds besides its hands (its row, the protokoll, its place here), and a scored hand with its stored
# record besides its input (the ScoredHand, its totals, the HandRecord): measured with tracemalloc (Danish games of
# 1, 30 and 100 hands: 1.9 KB a game, 290 bytes a hand besides its 272-byte input; bench/worker_memory.py), rounded up.
GAME_BYTES = 2048
HAND_BYTES = 384


UNCHANGED = object()


def game_bytes(hands, start: int = GAME_BYTES) -> int:
    """What a scored game of these stored hands holds, counted as `GAME_BYTES` and `HAND_BYTES` and each input's own
    dict (shared by the stored and the scored hand); `start`: what its other hands were counted as, for hands added."""
    return start + sum(HAND_BYTES + sys.getsizeof(hand.input) for hand in hands)


class Kept:
    """A least-recently-used store, bounded by the number of things kept, by their size together (scored games: their
    hands, if KEPT_HANDS says; drive pages: their bytes) and by their bytes together (scored games, KEPT_GAMES_BYTES)."""

    def __init__(self, max_items: int = MAX_GAMES, max_size: int | None = MAX_HANDS, max_bytes: int | None = MAX_BYTES):
        self.max_items, self.max_size, self.max_bytes = max_items, max_size, max_bytes
        self._kept: OrderedDict[Hashable, tuple[Any, int, int]] = OrderedDict()  # key: (the thing, its size, bytes)
        self.size = self.bytes = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any | None:
        """What is kept under `key` (a scored game: up to date or not, the caller checks), else None."""
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                return None
            self._kept.move_to_end(key)
        return found[0]

    def put(self, key: Hashable, thing: Any, size: int, nbytes: int = 0) -> None:
        with self._lock:
            self._drop(key)
            if (self.max_size is not None and size > self.max_size) or (
                self.max_bytes is not None and nbytes > self.max_bytes
            ):
                return
            self._kept[key] = (thing, size, nbytes)
            self.size += size
            self.bytes += nbytes
            while (
                len(self._kept) > self.max_items
                or (self.max_size is not None and self.size > self.max_size)
                or (self.max_bytes is not None and self.bytes > self.max_bytes)
            ):
                self._drop(next(iter(self._kept)))  # the least recently used

    def _drop(self, key: Hashable) -> None:
        found = self._kept.pop(key, None)
        if found is not None:
            self.size -= found[1]
            self.bytes -= found[2]

    def bound(self, max_items: int, max_size: int | None, max_bytes: int | None | object = UNCHANGED) -> None:
        """New bounds (the app's KEPT_GAMES, KEPT_HANDS and KEPT_GAMES_BYTES at its start): what is kept is let go if
        they change."""
        bytes_ = self.max_bytes if max_bytes is UNCHANGED else cast(int | None, max_bytes)
        with self._lock:
            if (max_items, max_size, bytes_) != (self.max_items, self.max_size, self.max_bytes):
                self.max_items, self.max_size, self.max_bytes = max_items, max_size, bytes_
                self._kept.clear()
                self.size = self.bytes = 0

    def forget(self, key: Hashable) -> None:
        with self._lock:
            self._drop(key)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.size = self.bytes = 0

    def keys(self) -> list[Hashable]:
        with self._lock:
            return list(self._kept)

    def __len__(self) -> int:
        return len(self._kept)


games = Kept()  # the scored games, by their number and bytes
