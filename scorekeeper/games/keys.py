"""Who may change a game: its edit key (kept hashed) or the key a club table's code hands to its scorer's phone (an
HMAC of the game under its edit key, honoured while its evening is open), compared in constant time. A drive's keys
are kept and compared so too (drives/service.py)."""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any, Protocol

from scorekeeper.storage import store


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


HANDED = "h."  # a handed key (handed_key) starts so: no edit key does (token_urlsafe makes none with a dot)


class Keyed(Protocol):
    """A row guarded by an edit key (a game, a drive): what key_matches and handed_key read."""

    @property
    def id(self) -> str: ...

    @property
    def edit_key_hash(self) -> str: ...


def handed_key(game: Keyed) -> str:
    """The key a club table's code hands to its scorer's phone: an HMAC of the game under its (hashed) edit key, as a
    drive table's token is, so it gives this game's edit right and nothing else, and nothing new is stored."""
    mac = hmac.new(game.edit_key_hash.encode(), f"{game.id}/handed".encode(), hashlib.sha256)
    return HANDED + base64.urlsafe_b64encode(mac.digest()[:18]).decode()


def key_matches(game: Keyed, key: Any) -> bool:
    """Constant-time comparison of a presented edit key with the stored hash (or of a handed key with its HMAC)."""
    if not isinstance(key, str) or not key or not key.isascii():
        return False
    if key.startswith(HANDED):
        return hmac.compare_digest(handed_key(game), key)
    return hmac.compare_digest(hash_key(key), game.edit_key_hash)


def handed_expired(db, game: store.GameRecord, key: Any) -> bool:
    """A club table's handed key (its code's) whose evening is settled, or whose table is gone from the evening: it
    gives no edit right any more."""
    return isinstance(key, str) and key.startswith(HANDED) and not store.table_open(db, game.id)


def may_edit(db, game: store.GameRecord, key: Any) -> bool:
    """The key gives this game's edit right now: its edit key, or its club table's handed key while the evening is
    open (not settled)."""
    return key_matches(game, key) and not handed_expired(db, game, key)
