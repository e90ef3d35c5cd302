"""A game started, imported as another exported it, exported, its card replaced (a club's, applied to its table), its edit
log read."""

from __future__ import annotations

import secrets
from typing import Any

from scorekeeper.core import InputError, Protokoll, Setup, check_name, make_setup, play
from scorekeeper.core.messages import Msg, field_messages, message_of
from scorekeeper.games.keys import hash_key
from scorekeeper.games.service.scored import NotFound, ScoredGame, load
from scorekeeper.storage import store, writing

GAME_FIELDS = ("variant", "players", "dealer", "title", "options", "language", "preset")
LANGUAGES = ("da", "nb", "sv", "en")
EXPORT_FORMAT = "scorekeeper/game/1"


def check_game(data: Any, allowed: tuple[str, ...] = GAME_FIELDS) -> tuple[Setup, str | None, str | None]:
    """Check what a game is started with; answer its setup and title, or raise InputError naming every wrong field."""
    if not isinstance(data, dict):
        raise InputError({"body": Msg("must be a JSON object with variant, players, dealer, title and options")})
    errors: dict[str, str] = {k: Msg("unknown field") for k in sorted(set(data) - set(allowed))}
    title = None
    try:
        title = check_name(data.get("title"), Msg("the title"), required=False, limit=80)
    except ValueError as exc:
        errors["title"] = message_of(exc)
    language = data.get("language")
    if language is not None and language not in LANGUAGES:
        errors["language"] = Msg("must be one of %(choices)s, or null", choices=", ".join(LANGUAGES))
    setup = None
    options = data.get("options")
    if data.get("preset") is not None:  # a preset named beside the options, as the forms send it
        options = {"preset": data["preset"]} | (options if isinstance(options, dict) else {})
    try:
        setup = make_setup(data.get("variant"), data.get("players"), data.get("dealer", 0), options)
    except InputError as exc:
        errors.update({"preset" if k == "options.preset" and "preset" in data else k: v for k, v in exc.errors.items()})
    if errors or setup is None:
        raise InputError(errors)
    return setup, title, language


def insert_game(db, setup: Setup, title: str | None, language: str | None = None) -> tuple[str, str]:
    game_id = secrets.token_urlsafe(8)
    key = secrets.token_urlsafe(24)
    store.insert_game(
        db,
        id=game_id,
        variant=setup.variant,
        title=title,
        players=setup.players,
        dealer=setup.dealer,
        options=dict(setup.options),
        edit_key_hash=hash_key(key),
        language=language,
    )
    return game_id, key


def start_game(db, data: Any) -> tuple[str, str]:
    """Check and store a new game; answer (game id, edit key)."""
    setup, title, language = check_game(data)
    with writing(db):
        return insert_game(db, setup, title, language)


def rescored_with(scored_game: ScoredGame, options: dict) -> tuple[Setup, Protokoll]:
    """The game's setup with other options (a club's card, applied to a table) and its hands replayed by them; raises
    InputError naming the first hand they do not fit ("hand": "hand 3: …"), or the options that are wrong."""
    game = scored_game.game
    setup = make_setup(game.variant, list(game.players), game.dealer, options)
    try:
        protokoll = play(setup, [h.input for h in scored_game.hands])
    except InputError as exc:
        raise InputError(
            {"hand": Msg("hand %(n)d: %(details)s", n=exc.number, details=field_messages(exc.errors))}, exc.number
        ) from None
    return setup, protokoll


def put_options(db, scored_game: ScoredGame, setup: Setup, before: dict, after: dict) -> None:
    """Inside the caller's write transaction: the game's options replaced by `setup`'s (rescored_with checked them with
    every hand), and a line in its edit log (action `card`, after its last hand) with what changed, `before` and
    `after`. Every reader replays the game by them from here on."""
    store.set_game_options(db, scored_game.game.id, dict(setup.options))
    store.log_edit(db, scored_game.game.id, "card", len(scored_game.hands), None, before, after)


def edit_log(db, game_id: str, *, changes_only: bool = False) -> list[dict]:
    """Every change to the game's hands, oldest first: when, what, which hand, its input before and after.

    `changes_only`: edits and deletions, not the additions (the protokoll lists those as its rows).
    """
    if store.get_game(db, game_id) is None:
        raise NotFound("game")
    return [
        {"at": e.at, "action": e.action, "number": e.number, "before": e.before, "after": e.after}
        for e in store.get_edits(db, game_id, skip_added=changes_only)
    ]


def export_game(db, game_id: str) -> dict:
    """Everything a game is made of — its setup and the hands as entered — for import_game to rebuild it."""
    game = load(db, game_id).game
    return {
        "format": EXPORT_FORMAT,
        "variant": game.variant,
        "title": game.title,
        "players": list(game.players),
        "dealer": game.dealer,
        "options": dict(game.options),
        "language": game.language,
        "hands": [h.input for h in store.get_hands(db, game_id)],
    }


def import_game(db, data: Any, max_hands: int | None = None) -> tuple[str, str]:
    """Rebuild an exported game as a new game with a new edit key; answer (game id, edit key).

    More than `max_hands` hands (the app's MAX_HANDS; None: no limit) are refused before any is scored."""
    if not isinstance(data, dict):
        raise InputError({"body": Msg("must be a JSON object as GET /api/games/<id>/export answers it")})
    errors: dict[str, str] = {}
    if data.get("format") != EXPORT_FORMAT:
        errors["format"] = Msg(
            'must be "%(format)s" (a game exported by GET /api/games/<id>/export)', format=EXPORT_FORMAT
        )
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        errors["hands"] = Msg("must be a list of hand inputs")
    elif max_hands is not None and len(hands) > max_hands:
        errors["hands"] = Msg("has %(n)d hands; a game takes at most %(max)d", n=len(hands), max=max_hands)
    checked = None
    try:
        checked = check_game({k: v for k, v in data.items() if k not in ("format", "hands")})
    except InputError as exc:
        errors.update(exc.errors)
    if errors or checked is None:
        raise InputError(errors)
    setup, title, language = checked
    try:
        protokoll = play(setup, hands)
    except InputError as exc:
        raise InputError(
            {"hands": Msg("hand %(n)d: %(details)s", n=exc.number, details=field_messages(exc.errors))}
        ) from None
    with writing(db):
        game_id, key = insert_game(db, setup, title, language)
        for hand in protokoll.hands:
            record = store.insert_hand(db, game_id, dict(hand.input))
            store.log_edit(db, game_id, "added", hand.number, record.id, None, dict(hand.input))
    return game_id, key
