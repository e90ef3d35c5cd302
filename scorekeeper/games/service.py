"""What the pages and the API do to a game: check, replay, store. No HTTP here, and no arithmetic of its own."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from scorekeeper.core import (
    VARIANTS,
    GameOver,
    InputError,
    Protokoll,
    ScoredHand,
    Setup,
    TableContext,
    check_name,
    deal_sizes,
    is_int,
    make_setup,
    play,
    play_on,
    stored_options,
    table_context,
)
from scorekeeper.core.messages import Msg, field_messages, message_of
from scorekeeper.core.numbers import DIGITS_MAX, small
from scorekeeper.games import cache, deal
from scorekeeper.games.deal import OpenDeal as OpenDeal
from scorekeeper.games.deal import next_context as next_context
from scorekeeper.games.deal import open_deal as open_deal
from scorekeeper.games.keys import HANDED as HANDED
from scorekeeper.games.keys import Keyed as Keyed
from scorekeeper.games.keys import handed_expired as handed_expired
from scorekeeper.games.keys import handed_key as handed_key
from scorekeeper.games.keys import hash_key as hash_key
from scorekeeper.games.keys import key_matches as key_matches
from scorekeeper.games.keys import may_edit as may_edit
from scorekeeper.storage import file_of, reading, store, writing

GAME_FIELDS = ("variant", "players", "dealer", "title", "options", "language", "preset")
LANGUAGES = ("da", "nb", "sv", "en")
EXPORT_FORMAT = "scorekeeper/game/1"
IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,255}")


class NotFound(Exception):
    """No such game or hand."""


class Deleted(NotFound):
    """The write sent again under its idempotency key was done, but the hand it made or changed was deleted since (on
    another phone): nothing is done again."""


class Forbidden(Exception):
    """The edit key is wrong or missing."""


class HandLimit(GameOver):
    """The game already holds the most hands a game may have (the app's MAX_HANDS): it takes no more."""


def hand_limit_message(max_hands: int) -> Msg:
    return Msg("a game takes at most %(max)d hands; start a new game to play on", max=max_hands)


@dataclass(frozen=True, slots=True)
class ScoredGame:
    """A game as stored and as scored."""

    game: store.GameRecord
    hands: tuple[store.HandRecord, ...]
    protokoll: Protokoll
    # The id of the newest edit log line it includes: from there a scored game kept by this worker catches up.
    mark: int | None = field(default=None, compare=False)

    @property
    def setup(self) -> Setup:
        return self.protokoll.setup


def setup_of(game: store.GameRecord) -> Setup:
    """The stored game's setup, its options as they score today (core.stored_options: a game stored before an option
    existed scores and shows as it did)."""
    return Setup(game.variant, game.players, game.dealer, stored_options(game.variant, game.options, len(game.players)))


def _check_game(data: Any, allowed: tuple[str, ...] = GAME_FIELDS) -> tuple[Setup, str | None, str | None]:
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


def _insert_game(db, setup: Setup, title: str | None, language: str | None = None) -> tuple[str, str]:
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
    setup, title, language = _check_game(data)
    with writing(db):
        return _insert_game(db, setup, title, language)


def _cache_key(db, game_id: str) -> tuple[str, str] | None:
    path = file_of(db)
    return None if path is None else (path, game_id)


def _remember(db, scored_game: ScoredGame) -> None:
    """Keep a scored game as committed (never one with writes of an open transaction: they may yet be rolled back)."""
    key = _cache_key(db, scored_game.game.id)
    if key is not None and not db.conn.in_transaction:
        cache.games.put(key, scored_game, len(scored_game.hands))


def _caught_up(db, kept: ScoredGame, game: store.GameRecord) -> ScoredGame | None:
    """A kept scored game brought up to the game's row, if all that happened since is hands added (by another worker):
    then only those are scored. None if anything else changed (an edit, a deletion, the game's own fields)."""
    if (
        kept.mark is None
        or not kept.game.version < game.version
        or replace(kept.game.hands_part(), version=game.version, updated=game.updated) != game.hands_part()
    ):
        return None
    since = store.edits_since(db, game.id, kept.mark)
    # Each change bumps the version once and logs one line: hands added and nothing else, or replay. (The count of
    # the hands after the kept ones checks the same again: an edit or a deletion makes it fall short of the lines.)
    if len(since) != game.version - kept.game.version or any(action != "added" for _, action in since):
        return None
    added = tuple(store.hands_after(db, game.id, kept.hands[-1].id if kept.hands else 0))
    if len(added) != len(since):
        return None
    try:
        protokoll = play_on(kept.protokoll, [h.input for h in added])
    except InputError:  # cannot be for hands that were checked when stored; a replay says which hand if it is
        return None
    return ScoredGame(game, kept.hands + added, protokoll, since[-1][0])


def _scored_game(db, game: store.GameRecord) -> ScoredGame:
    """The game as scored: the scored game kept from the last time if its row is unchanged, else caught up or replayed.

    Inside a write transaction the reads see what the transaction sees; outside, they are made from one snapshot.
    """
    key = _cache_key(db, game.id)
    kept = cache.games.get(key) if key is not None else None
    if kept is not None and kept.game == game:
        return kept
    if kept is not None and kept.game.hands_part() == game.hands_part():  # only the deal in progress changed
        scored_game = replace(kept, game=game)
        _remember(db, scored_game)
        return scored_game
    inside = db.conn.in_transaction  # a write transaction, which read `game`
    with reading(db):
        now = game if inside else store.get_game(db, game.id)
        if now is None:
            raise NotFound("game")
        scored_game = _caught_up(db, kept, now) if kept is not None else None
        if scored_game is None:
            hands = tuple(store.get_hands(db, now.id))
            scored_game = ScoredGame(
                now, hands, play(setup_of(now), [h.input for h in hands]), store.last_edit(db, now.id)
            )
    _remember(db, scored_game)
    return scored_game


def load(db, game_id: str) -> ScoredGame:
    return _scored_game(db, _game(db, game_id))


def _game(db, game_id: str) -> store.GameRecord:
    """The game's row; NotFound if there is none."""
    game = store.get_game(db, game_id)
    if game is None:
        raise NotFound("game")
    return game


def authorise(db, scored_game: ScoredGame, key: Any) -> None:
    if not may_edit(db, scored_game.game, key):
        raise Forbidden()


def _replay(scored_game: ScoredGame, inputs: list, changed: int, deleted: bool = False) -> Protokoll:
    """Replay with a change at hand `changed`; an error in another hand names it by its number before the change."""
    try:
        return play(scored_game.setup, inputs)
    except InputError as exc:
        if exc.number is None or (exc.number == changed and not deleted):
            raise
        number = exc.number + 1 if deleted and exc.number >= changed else exc.number
        kind = GameOver if isinstance(exc, GameOver) else InputError
        sizes = deal_sizes(scored_game.setup) or ()
        if deleted and number != exc.number and number <= len(sizes) and sizes[number - 1] != sizes[exc.number - 1]:
            raise kind(
                {
                    "hand": Msg(
                        "Hand %(deleted)d cannot be deleted: the hands after it would each move up a deal, and hand "
                        "%(n)d (cards: %(old)d) does not fit hand %(m)d (cards: %(new)d). Change or delete the later "
                        "hands first.",
                        deleted=changed,
                        n=number,
                        old=sizes[number - 1],
                        m=exc.number,
                        new=sizes[exc.number - 1],
                    )
                },
                changed,
            ) from None
        raise kind(
            {
                "hand": Msg(
                    "this change does not fit hand %(n)d: %(details)s", n=number, details=field_messages(exc.errors)
                )
            },
            changed,
        ) from None


def _keyed(key: Any, action: str, number: int | None, raw: Any) -> tuple[str | None, str]:
    """The write's idempotency key, checked, and the fingerprint of what it asks for (made only when a key is sent)."""
    if key is None:
        return None, ""
    if not isinstance(key, str) or not IDEMPOTENCY_KEY.fullmatch(key):
        raise InputError({"Idempotency-Key": Msg("must be 1 to 255 printable ASCII characters without spaces")})
    return key, _fingerprint(action, number, raw)


def _check_expected(value: Any, field: str) -> None:
    if value is not None and not is_int(value):
        raise InputError({field: Msg("must be a whole number")})


def _fingerprint(action: str, number: int | None, raw: Any) -> str:
    """What a write asked for, so that a key sent again with a different request is refused rather than ignored."""
    try:
        text = json.dumps([action, number, raw], sort_keys=True, default=repr)
    except (TypeError, ValueError):
        text = repr([action, number, raw])
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _done_before(db, game_id: str, key: str | None, action: str, request: str) -> store.IdempotencyRecord | None:
    """The write already done under this idempotency key, if any."""
    if key is None:
        return None
    done = store.get_idempotency(db, game_id, key)
    if done is not None and (done.action != action or done.request != request):
        raise InputError({"Idempotency-Key": Msg("was already used for another change to this game; send a new key")})
    return done


def _scored(scored_game: ScoredGame, hand_id: int | None) -> ScoredHand:
    """The hand stored under this row id as it is scored now; Deleted if it is gone."""
    for i, hand in enumerate(scored_game.hands):
        if hand.id == hand_id:
            return scored_game.protokoll.hands[i]
    raise Deleted("hand")


def _check_version(scored_game: ScoredGame, expected_version: Any) -> None:
    _check_expected(expected_version, "version")
    if expected_version is not None and expected_version != scored_game.game.version:
        raise Stale(len(scored_game.hands), scored_game.game.version, "version")


def _in_bounds(protokoll: Protokoll, number: int) -> None:
    """Hand `number` and those after it write their points and totals in bounds (numbers.small): a house stored before
    the bound on exact points (docs/operations.md "Input bounds") cannot make a page, an answer or a paper fail."""
    for hand in protokoll.hands[number - 1 :]:
        if not all(map(small, hand.points + hand.totals)):
            raise InputError(
                {
                    "hand": Msg(
                        "this would make the game's exact points longer than %(digits)d digits over %(digits)d: its "
                        "house keeps fractions too fine; start a new game with simpler ones",
                        digits=DIGITS_MAX,
                    )
                },
                number,
            )


def add_hand(
    db,
    game_id: str,
    raw: Any,
    key: Any,
    expected_number: int | None = None,
    idempotency_key: str | None = None,
    max_hands: int | None = None,
) -> ScoredHand:
    """Append a hand: checked in its place, stored as the scorer normalised it. Answers the scored hand.

    `expected_number` is the number the writer is entering; someone else got there first raises Stale.
    The same `idempotency_key` again answers the hand it made, as it is scored now, and adds nothing.
    A game that holds `max_hands` hands (the app's MAX_HANDS; None: no limit) refuses another with HandLimit.
    """
    with adding_hand(db, game_id, raw, key, expected_number, idempotency_key, max_hands) as scored:
        return scored


@contextmanager
def adding_hand(
    db,
    game_id: str,
    raw: Any,
    key: Any,
    expected_number: int | None = None,
    idempotency_key: str | None = None,
    max_hands: int | None = None,
) -> Iterator[ScoredHand]:
    """add_hand for a writer that answers with the hand: the with-block draws the answer inside the write, and the
    hand is committed only when the block ends without an error (no write commits unless its answer says so)."""
    _check_expected(expected_number, "number")
    idempotency_key, request = _keyed(idempotency_key, "added", None, raw)
    with writing(db):
        game = store.get_game(db, game_id)
        if game is None:
            raise NotFound("game")
        if not may_edit(db, game, key):
            raise Forbidden()
        done = _done_before(db, game_id, idempotency_key, "added", request)
        scored_game = _scored_game(db, game)
        if done is not None:
            yield _scored(scored_game, done.hand_id)
            return
        number = len(scored_game.hands) + 1
        if expected_number is not None and expected_number != number:
            raise Stale(number - 1, game.version)
        if max_hands is not None and number > max_hands:
            raise HandLimit({"hands": hand_limit_message(max_hands)}, number)
        # The new hand is checked and scored in its place, going on from the scored game as it stands (the same as replaying
        # every hand, property-tested); a game already over refuses it as hand `number`.
        try:
            protokoll = play_on(scored_game.protokoll, [raw])
        except GameOver as exc:
            if exc.number != number:
                raise
            raise GameOver(
                {"hand": Msg("the game is over; it takes no more hands (edit a hand to reopen it)")}, number
            ) from None
        _in_bounds(protokoll, number)
        scored = protokoll.hands[-1]
        record, stamp = store.add_hand(db, game_id, dict(scored.input))
        mark = store.log_edit(db, game_id, "added", number, record.id, None, dict(scored.input))
        # The deal in progress was played: its tricks (or a whole hand) completed it.
        closed = game.deal is not None and store.close_open_deal(db, game_id)
        if idempotency_key is not None:
            store.put_idempotency(db, game_id, idempotency_key, "added", request, record.id)
        # The new row as the write left it, not read again (tests/integration/test_lean_hand_entry.py holds it equal).
        now = store.after_hand_added(game, stamp, closed)
        after = ScoredGame(now, scored_game.hands + (record,), protokoll, mark)
        yield scored  # the writer draws its answer here: if that fails, the hand is rolled back
    _remember(db, after)


def variant_of(db, game_id: str) -> str:
    """A game's variant, which never changes: from the scored game this worker keeps, else from the game's row (no
    replay: the API asks it before a write, whose key is not checked yet); NotFound if there is no such game."""
    key = _cache_key(db, game_id)
    kept = cache.games.get(key) if key is not None else None
    return kept.game.variant if kept is not None else _game(db, game_id).variant


def table_of(db, game_id: str) -> TableContext:
    """A game's table (its variant, players, options), which a hand's answer is drawn with: as variant_of, from the
    scored game this worker keeps, else from the game's row."""
    key = _cache_key(db, game_id)
    kept = cache.games.get(key) if key is not None else None
    return table_context(kept.setup if kept is not None else setup_of(_game(db, game_id)))


def _hand_record(scored_game: ScoredGame, number: Any) -> store.HandRecord:
    if not is_int(number) or not 1 <= number <= len(scored_game.hands):
        raise NotFound("hand")
    return scored_game.hands[number - 1]


def replace_hand(
    db,
    game_id: str,
    number: int,
    raw: Any,
    key: Any,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> ScoredHand:
    """Replace hand `number` and rescore everything after it; `expected_version` and `idempotency_key` as in add_hand."""
    with replacing_hand(db, game_id, number, raw, key, expected_version, idempotency_key) as scored:
        return scored


@contextmanager
def replacing_hand(
    db,
    game_id: str,
    number: int,
    raw: Any,
    key: Any,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> Iterator[ScoredHand]:
    """replace_hand with the writer's answer drawn inside the write, as adding_hand."""
    _check_expected(expected_version, "version")
    idempotency_key, request = _keyed(idempotency_key, "edited", number, raw)
    with writing(db):
        scored_game = load(db, game_id)
        authorise(db, scored_game, key)
        done = _done_before(db, game_id, idempotency_key, "edited", request)
        if done is not None:
            yield _scored(scored_game, done.hand_id)
            return
        _check_version(scored_game, expected_version)
        record = _hand_record(scored_game, number)
        inputs = [h.input for h in scored_game.hands]
        inputs[number - 1] = raw
        protokoll = _replay(scored_game, inputs, number)
        deal.still_fits(scored_game, protokoll, number)
        _in_bounds(protokoll, number)
        scored = protokoll.hands[number - 1]
        after = None
        if dict(scored.input) != record.input:
            changed = store.update_hand(db, game_id, record.id, dict(scored.input))
            mark = store.log_edit(db, game_id, "edited", number, record.id, record.input, dict(scored.input))
            hands = scored_game.hands[: number - 1] + (changed,) + scored_game.hands[number:]
            after = ScoredGame(_game(db, game_id), hands, protokoll, mark)
        if idempotency_key is not None:
            store.put_idempotency(db, game_id, idempotency_key, "edited", request, record.id)
        yield scored  # the writer draws its answer here: if that fails, the change is rolled back
    if after is not None:
        _remember(db, after)


def delete_hand(
    db, game_id: str, number: int, key: Any, expected_version: int | None = None, idempotency_key: str | None = None
) -> None:
    """Delete hand `number`; the hands after it move up. The same `idempotency_key` again deletes nothing more."""
    with deleting_hand(db, game_id, number, key, expected_version, idempotency_key):
        pass


@contextmanager
def deleting_hand(
    db, game_id: str, number: int, key: Any, expected_version: int | None = None, idempotency_key: str | None = None
) -> Iterator[ScoredGame]:
    """delete_hand for a writer that answers with the game as it is after: drawn inside the write, as adding_hand."""
    _check_expected(expected_version, "version")
    idempotency_key, request = _keyed(idempotency_key, "deleted", number, None)
    with writing(db):
        scored_game = load(db, game_id)
        authorise(db, scored_game, key)
        if _done_before(db, game_id, idempotency_key, "deleted", request) is not None:
            yield scored_game
            return
        _check_version(scored_game, expected_version)
        record = _hand_record(scored_game, number)
        inputs = [h.input for h in scored_game.hands]
        del inputs[number - 1]
        protokoll = _replay(scored_game, inputs, number, deleted=True)
        deal.still_fits(scored_game, protokoll, number)
        store.delete_hand(db, game_id, record.id)
        mark = store.log_edit(db, game_id, "deleted", number, record.id, record.input, None)
        if idempotency_key is not None:
            store.put_idempotency(db, game_id, idempotency_key, "deleted", request, record.id)
        after = ScoredGame(
            _game(db, game_id), scored_game.hands[: number - 1] + scored_game.hands[number:], protokoll, mark
        )
        yield after  # the writer draws its answer here: if that fails, the hand is not deleted
    _remember(db, after)


# ---------------------------------------------------------------- a deal in progress


def put_bids(
    db,
    game_id: str,
    raw: Any,
    key: Any,
    expected_number: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    max_hands: int | None = None,
) -> ScoredGame:
    """Enter or change the bids of the deal in progress (the next hand), checked in its place by the variant, kept as
    entered until its tricks complete the hand. `expected_number` is the hand the writer enters bids for,
    `expected_version` the version of the bids it saw (0: none); a key sent again answers the game as it is now."""
    _check_expected(expected_number, "number")
    _check_expected(expected_version, "version")
    idempotency_key, request = _keyed(idempotency_key, "bids", None, raw)
    with writing(db):
        scored_game = load(db, game_id)
        authorise(db, scored_game, key)
        game = scored_game.game
        if _done_before(db, game_id, idempotency_key, "bids", request) is None:
            number = len(scored_game.hands) + 1
            if expected_number is not None and expected_number != number:
                raise Stale(number - 1, game.deal_version)
            if expected_version is not None and expected_version != game.deal_version:
                raise Stale(number - 1, game.deal_version, "bids")
            if max_hands is not None and number > max_hands:
                raise HandLimit({"hands": hand_limit_message(max_hands)}, number)
            if scored_game.protokoll.finished:
                raise GameOver(
                    {"hand": Msg("the game is over; it takes no more hands (edit a hand to reopen it)")}, number
                )
            try:
                bids = VARIANTS[game.variant].check_bids(raw, next_context(scored_game))
            except InputError as exc:
                exc.number = number
                raise
            if bids != game.deal:
                store.put_open_deal(db, game_id, bids)
            if idempotency_key is not None:
                store.put_idempotency(db, game_id, idempotency_key, "bids", request, None)
        after = replace(scored_game, game=_game(db, game_id))
    _remember(db, after)
    return after


def clear_bids(
    db, game_id: str, key: Any, expected_version: int | None = None, idempotency_key: str | None = None
) -> ScoredGame:
    """No deal in progress: its bids cleared (NotFound when there were none). The same key again clears nothing more."""
    _check_expected(expected_version, "version")
    idempotency_key, request = _keyed(idempotency_key, "bids cleared", None, None)
    with writing(db):
        scored_game = load(db, game_id)
        authorise(db, scored_game, key)
        game = scored_game.game
        if _done_before(db, game_id, idempotency_key, "bids cleared", request) is None:
            if expected_version is not None and expected_version != game.deal_version:
                raise Stale(len(scored_game.hands), game.deal_version, "bids")
            if game.deal is None:
                raise NotFound("bids")
            store.close_open_deal(db, game_id)
            if idempotency_key is not None:
                store.put_idempotency(db, game_id, idempotency_key, "bids cleared", request, None)
        after = replace(scored_game, game=_game(db, game_id))
    _remember(db, after)
    return after


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
        checked = _check_game({k: v for k, v in data.items() if k not in ("format", "hands")})
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
        game_id, key = _insert_game(db, setup, title, language)
        for hand in protokoll.hands:
            record = store.insert_hand(db, game_id, dict(hand.input))
            store.log_edit(db, game_id, "added", hand.number, record.id, None, dict(hand.input))
    return game_id, key


class Stale(Exception):
    """Someone else changed the game first: `latest` is the number of the newest hand, `version` the game's version now.

    `field` says what the writer sent that no longer holds: the hand "number" it was entering, or the "version" it saw.
    """

    def __init__(self, latest: int, version: int | None = None, field: str = "number"):
        super().__init__(latest)
        self.latest = latest
        self.version = version
        self.field = field
