"""What the pages and the API do to a game: check, replay, store. No HTTP here, and no arithmetic of its own.

The parts, by idea: scored (a game as stored and as scored, kept by the worker, caught up or replayed), checks (what
every write checks first: idempotency keys, the number or version seen, the points' bounds), hands (a hand added,
replaced or deleted), bids (the deal in progress), started (a game started, imported, exported, its card replaced,
its edit log)."""

from scorekeeper.core import GameOver, InputError, play, play_on
from scorekeeper.games.deal import OpenDeal, next_context, open_deal
from scorekeeper.games.keys import HANDED, Keyed, handed_expired, handed_key, hash_key, key_matches, may_edit
from scorekeeper.games.service.bids import clear_bids, put_bids
from scorekeeper.games.service.checks import IDEMPOTENCY_KEY, Deleted, HandLimit, Stale, hand_limit_message
from scorekeeper.games.service.hands import (
    add_hand,
    adding_hand,
    delete_hand,
    deleting_hand,
    replace_hand,
    replacing_hand,
)
from scorekeeper.games.service.scored import (
    Forbidden,
    NotFound,
    ScoredGame,
    authorise,
    load,
    setup_of,
    table_of,
    variant_of,
)
from scorekeeper.games.service.started import (
    EXPORT_FORMAT,
    GAME_FIELDS,
    LANGUAGES,
    check_game,
    edit_log,
    export_game,
    import_game,
    put_options,
    rescored_with,
    start_game,
)

__all__ = [
    "EXPORT_FORMAT",
    "GAME_FIELDS",
    "HANDED",
    "IDEMPOTENCY_KEY",
    "LANGUAGES",
    "Deleted",
    "Forbidden",
    "GameOver",
    "HandLimit",
    "InputError",
    "Keyed",
    "NotFound",
    "OpenDeal",
    "ScoredGame",
    "Stale",
    "add_hand",
    "adding_hand",
    "authorise",
    "check_game",
    "clear_bids",
    "delete_hand",
    "deleting_hand",
    "edit_log",
    "export_game",
    "hand_limit_message",
    "handed_expired",
    "handed_key",
    "hash_key",
    "import_game",
    "key_matches",
    "load",
    "may_edit",
    "next_context",
    "open_deal",
    "play",
    "play_on",
    "put_bids",
    "put_options",
    "replace_hand",
    "replacing_hand",
    "rescored_with",
    "setup_of",
    "start_game",
    "table_of",
    "variant_of",
]
