"""What the pages and the API do to a whist drive: check, replay, store. The drive's setup and each table's result are
stored as entered; the seating of every hand, the standings and the prizes are replayed from them (drives/rules.py).

Besides the results a drive keeps: the seatings of hands kept as they were played (a late correction does not move
people who sat down and played), the seating of the hand being played as it was shown before a correction re-seated
it (so the pages can say "move again" to whom it concerns), the app's draws for the prizes, and when the prizes were
given: after that nothing that changes a total is taken.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.messages import InputError, Msg
from scorekeeper.drives import rules as core
from scorekeeper.drives.money import CURRENCIES as CURRENCIES
from scorekeeper.drives.money import MONEY_FIELDS as MONEY_FIELDS
from scorekeeper.drives.money import PRIZE_NAME_MAX as PRIZE_NAME_MAX
from scorekeeper.drives.money import awards as awards
from scorekeeper.drives.money import check_money as check_money
from scorekeeper.drives.money import default_currency as default_currency
from scorekeeper.drives.money import normal_money as normal_money
from scorekeeper.drives.money import rules_of as rules_of
from scorekeeper.drives.money import split_money as split_money
from scorekeeper.drives.rules import MAX_HANDS, MAX_TABLES, Drive, DriveSetup, accept, make_drive, play
from scorekeeper.games.service import hash_key, key_matches
from scorekeeper.storage import reading, store, writing


class NotFound(Exception):
    """No such drive."""


class Forbidden(Exception):
    """The drive's edit key is wrong or missing."""


class Final(core.OutOfTurn):
    """The prizes are given: no result, correction or substitute changes the drive now (409)."""


class HasResults(core.OutOfTurn):
    """A drive with results is not deleted (409): it is an evening that happened."""


@dataclass(frozen=True, slots=True)
class ScoredDrive:
    """A drive as stored and as replayed: `drive` has the rounds, the current hand and the standings."""

    record: store.DriveRecord
    drive: Drive
    results: dict[tuple[int, int], list[int]]
    kept: dict[int, Any]
    senders: dict[tuple[int, int], tuple[str | None, str | None]] = field(default_factory=dict)  # (sender, when)
    replaced: tuple[store.DriveReplacedRecord, ...] = ()  # results a second phone replaced, not settled yet

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def setup(self) -> DriveSetup:
        return self.drive.setup

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def final(self) -> bool:
        """The prizes are given."""
        return self.record.prizes_given is not None

    def move_again(self) -> dict[str, tuple[tuple[int, str], tuple[int, str]]]:
        """Who must move again in the hand being played: name → ((table, seat) they were first told, (table, seat)
        now), for those a correction re-seated since the hand was first shown. Empty once the hand is complete."""
        reseat = self.record.reseat
        drive = self.drive
        if not reseat or reseat.get("hand") != drive.current or drive.rounds[drive.current - 1].complete:
            return {}
        played = drive.rounds[drive.current - 1]
        try:
            shown = core.check_seating(self.setup, reseat["seating"])
        except ValueError:
            return {}
        first = core.positions(self.setup, core.Round(played.hand, played.trump, _tables(played, shown)))
        now = core.positions(self.setup, played)
        return {name: (first[name], at) for name, at in now.items() if name in first and first[name] != at}


def _tables(played: core.Round, seating: core.Seating) -> tuple[core.TableHand, ...]:
    return tuple(core.TableHand(t + 1, pairs, None, played.hand) for t, pairs in enumerate(seating))


def edit_page(drive_id: str, key: str) -> str:
    """The path of the drive's page with the right to enter results (it carries the key), as games have /g/<id>/k/<key>."""
    return f"/d/{drive_id}/k/{key}"


# ---------------------------------------------------------------- starting, reading


def create_drive(
    db,
    data: Any,
    money: Any = None,
    max_tables: int | None = MAX_TABLES,
    max_hands: int | None = MAX_HANDS,
    language: str | None = None,
) -> tuple[str, str]:
    """Check and store a new drive (and its money, as check_money takes it, if given); answer (drive id, edit key).
    Raises InputError naming every wrong field. The bounds are the caller's (the app's DRIVE_MAX_TABLES and
    DRIVE_MAX_HANDS): they bound what its paper costs."""
    setup = make_drive(data, max_tables=max_tables, max_hands=max_hands)
    checked = None if money is None else check_money(money, setup, language)
    drive_id, key = secrets.token_urlsafe(8), secrets.token_urlsafe(24)
    with writing(db):
        store.insert_drive(db, id=drive_id, title=setup.title, setup=setup.as_dict(), edit_key_hash=hash_key(key))
        if checked is not None:
            store.put_drive_money(db, drive_id, checked)
    return drive_id, key


def stored_setup(record: store.DriveRecord) -> DriveSetup:
    """The setup as stored, read back without the bounds of today (it was checked against those of its day)."""
    return make_drive(record.setup, max_tables=None, max_hands=None, stored=True)


def money(db, drive_id: str, setup: DriveSetup | None = None) -> dict | None:
    """The drive's currency, entry fee and prizes as stored (read as rules), or None for a drive without them.
    `setup`: the drive's, when the caller has it (else it is read)."""
    with reading(db):
        raw = store.drive_money(db, drive_id)
        if not raw:
            return None
        if setup is None:
            record = store.get_drive(db, drive_id)
            if record is None:
                return None
            setup = stored_setup(record)
    return normal_money(raw, setup)


def _replayed(db, record: store.DriveRecord) -> ScoredDrive:
    setup = stored_setup(record)
    rows = store.drive_results(db, record.id)
    results = {(r.hand, r.table): r.tricks for r in rows}
    kept = store.drive_kept_seatings(db, record.id)
    return ScoredDrive(
        record,
        play(setup, results, kept),
        results,
        kept,
        {(r.hand, r.table): (r.sender, r.updated) for r in rows},
        tuple(store.drive_replaced(db, record.id)),
    )


def load(db, drive_id: str) -> ScoredDrive:
    """The drive replayed from its setup and results (read from one snapshot); NotFound if there is none."""
    with reading(db):
        return _replayed(db, _record(db, drive_id))


def _record(db, drive_id: str) -> store.DriveRecord:
    """The drive's row; NotFound if there is none."""
    record = store.get_drive(db, drive_id)
    if record is None:
        raise NotFound("drive")
    return record


def head(db, drive_id: str) -> store.DriveRecord:
    """The drive's row, not replayed: what a kept page or PDF is known by (its version goes up with every result).
    NotFound if there is none."""
    with reading(db):
        record = store.get_drive(db, drive_id)
    if record is None:
        raise NotFound("drive")
    return record


def may_edit(scored_drive: ScoredDrive | store.DriveRecord, key: Any) -> bool:
    """Whether a presented key is the drive's edit key (constant time): for a page that claims the right to edit."""
    return key_matches(scored_drive.record if isinstance(scored_drive, ScoredDrive) else scored_drive, key)


# ---------------------------------------------------------------- the tables' own right to enter their results


def table_token(scored_drive: ScoredDrive, table: int) -> str:
    """The token on table `table`'s card: an HMAC of the drive and the table under the drive's (hashed) edit key, so
    a card lets its table enter its own results and nothing else, nothing new is stored, and the cards stay good
    across restarts and restores (they do not depend on the server's secret)."""
    return _table_token(scored_drive.record, table)


def _table_token(record: store.DriveRecord, table: int) -> str:
    mac = hmac.new(record.edit_key_hash.encode(), f"{record.id}/table/{table}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:15]).decode()


def table_token_matches(scored_drive: ScoredDrive | store.DriveRecord, table: int, token: Any) -> bool:
    """Whether `token` is table `table`'s, checked against the drive as replayed or only its row (a live page's
    question: web/live.py)."""
    record = scored_drive.record if isinstance(scored_drive, ScoredDrive) else scored_drive
    return _same_token(_table_token(record, table), token)


def _same_token(expected: str, token: Any) -> bool:
    """Constant time; a token that is not ASCII text is simply wrong (compare_digest refuses to compare it)."""
    return isinstance(token, str) and token.isascii() and hmac.compare_digest(expected, token)


# ---------------------------------------------------------------- results and corrections


def _open(db, drive_id: str, allowed: Callable[[store.DriveRecord], bool]) -> ScoredDrive:
    """The drive to write to, inside writing(): NotFound, Forbidden."""
    record = _record(db, drive_id)
    if not allowed(record):
        raise Forbidden()
    return _replayed(db, record)


def _not_final(scored_drive: ScoredDrive) -> None:
    if scored_drive.final:
        raise Final({"drive": Msg("the prizes are given: the results are final")})


def _body(raw: Any, fields: set[str], example: str) -> dict:
    if not isinstance(raw, dict):
        raise InputError({"body": Msg("must be a JSON object such as %(example)s", example=example)})
    unknown = sorted(set(raw) - fields)
    if unknown:
        raise InputError({k: Msg("unknown field") for k in unknown})
    return raw


ORGANISER = "organiser"  # the sender of a result the organiser entered or corrected


def _store_change(
    db, scored_drive: ScoredDrive, change: core.Change, hand: int, table: int, sender: str | None = None
) -> None:
    """The result of a change (stored even when it is the same: every result sent raises the drive's version) with
    who sent it, its kept seatings, and, if it re-seated the hand being played, that hand as it was first shown (the
    pages tell those who sit elsewhere now to move again). A different result from another phone than the one that
    sent the stored one is kept as replaced until the organiser settles it; the organiser's own settles it."""
    tricks = list(change.results[hand, table])
    stored = scored_drive.results.get((hand, table))
    was_sender, was_at = scored_drive.senders.get((hand, table), (None, None))
    if sender == ORGANISER:
        store.settle_drive_replaced(db, scored_drive.id, hand, table)
    elif stored is not None and stored != tricks and (was_sender is None or was_sender != sender):
        was = store.DriveResultRecord(hand, table, stored, was_sender, was_at)
        store.add_drive_replaced(db, scored_drive.id, hand, table, was, tricks, sender)
    if stored == tricks and was_sender is not None and sender != ORGANISER:
        sender = was_sender  # the same result again, from another phone: it stays the first sender's
    store.put_drive_result(db, scored_drive.id, hand, table, tricks, sender)
    store.keep_drive_seatings(db, scored_drive.id, change.keep)
    if change.moved:
        moved = change.moved[0][1]
        reseat = scored_drive.record.reseat
        if not reseat or reseat.get("hand") != moved:
            seating = change.before.rounds[moved - 1].seating
            store.put_drive_reseat(
                db, scored_drive.id, {"hand": moved, "seating": [[list(p) for p in t] for t in seating]}
            )


def enter_result(db, drive_id: str, hand: Any, table: Any, raw: Any, key: Any) -> ScoredDrive:
    """Store table `table`'s result of hand `hand` ({"tricks": [a, b]}, a for the first pair as seated, and
    optionally "pairs": the table's two pairs by name as the sender was shown them) and answer the drive as it stands
    after it. Sending it again replaces it until hand + 1 has a result.

    Raises NotFound, Forbidden, InputError (bad tricks, table or pairs), OutOfTurn (a hand that takes no result now,
    409 in the API), its SeatingChanged (the pairs sent are not the table's now: 409) or Final (the prizes are
    given); nothing is stored then.
    """
    return _enter(db, drive_id, hand, table, raw, lambda record: key_matches(record, key), sender=ORGANISER)


def enter_table_result(
    db, drive_id: str, hand: Any, table: Any, raw: Any, token: Any, phone: str | None = None
) -> ScoredDrive:
    """As enter_result, with the table's own token (table_token) instead of the drive's key: a table's card enters
    that table's results only. Sending the same result again changes nothing (the result is replaced by itself).

    `raw` may carry "was": the result the sender's page showed as stored ([a, b], or None for none). If another phone
    has stored a different one since, the result is refused (OtherPhone, 409) rather than silently replacing it.
    `phone`: the sending phone's own id (the table page's cookie): a result that replaces another phone's is kept
    for the organiser to settle (replaced)."""

    def allowed(record: store.DriveRecord) -> bool:
        return isinstance(table, int) and _same_token(_table_token(record, table), token)

    sender = f"phone:{phone}" if phone else None
    return _enter(db, drive_id, hand, table, raw, allowed, fields={"tricks", "pairs", "was"}, sender=sender)


class OtherPhone(core.OutOfTurn):
    """A table's result that would replace one another phone at the table sent after the sender's page was loaded:
    the sender is shown both, to choose (409)."""

    def __init__(self, errors, stored: list[int]):
        super().__init__(errors)
        self.stored = stored


def _enter(db, drive_id, hand, table, raw, allowed, fields=frozenset({"tricks", "pairs"}), sender=None) -> ScoredDrive:
    with writing(db):
        before = _open(db, drive_id, allowed)
        body = _body(raw, set(fields), '{"tricks": [7, 6]}')
        _not_final(before)
        hand, table, tricks = accept(before.drive, hand, table, body.get("tricks"), body.get("pairs"))
        stored = before.results.get((hand, table))
        if "was" in body and stored is not None and stored != body["was"] and stored != list(tricks):
            raise OtherPhone(
                {"tricks": Msg("another phone at this table sent %(score)s meanwhile", score=_score(stored))}, stored
            )
        change = core.enter(before.setup, before.results, before.kept, hand, table, tricks)
        _store_change(db, before, change, hand, table, sender)
        after = _replayed(db, _record(db, drive_id))
    return after


def _score(tricks: list[int]) -> str:
    return f"{tricks[0]}–{tricks[1]}"


def correct_result(
    db, drive_id: str, hand: Any, table: Any, raw: Any, key: Any, dry_run: bool = False
) -> tuple[ScoredDrive, core.Change]:
    """The organiser's correction of any hand played so far (PUT): {"tricks": [a, b], "keep_seating": false,
    "pairs": …}. Answers the drive after it and the change (who moved, whose totals changed); with `dry_run`
    nothing is stored and the drive answered is the one before (the page shows the effect before it is saved).

    Raises NotFound, Forbidden, InputError, OutOfTurn (a hand not seated, a table sitting out), SeatingChanged or
    Final (the prizes are given)."""
    with writing(db):
        scored_drive = _open(db, drive_id, lambda record: key_matches(record, key))
        body = _body(raw, {"tricks", "pairs", "keep_seating", "dry_run"}, '{"tricks": [7, 6]}')
        _not_final(scored_drive)
        keep = body.get("keep_seating", False)
        if not isinstance(keep, bool):
            raise InputError({"keep_seating": Msg("must be true or false")})
        change = core.correct(
            scored_drive.setup,
            scored_drive.results,
            scored_drive.kept,
            hand,
            table,
            body.get("tricks"),
            keep,
            body.get("pairs"),
        )
        if dry_run or body.get("dry_run") is True:
            return scored_drive, change
        _store_change(db, scored_drive, change, hand, table, ORGANISER)
        after = _replayed(db, _record(db, drive_id))
    return after, change


def settle_replaced(db, drive_id: str, hand: Any, table: Any, key: Any) -> ScoredDrive:
    """The organiser keeps the result stored for a table's hand that a second phone replaced: it is no longer shown
    as replaced. (To take the other one, the organiser corrects the result: a correction settles it too.) Raises
    NotFound, Forbidden, InputError naming `table` when there is nothing to settle there."""
    with writing(db):
        _open(db, drive_id, lambda record: key_matches(record, key))
        if not store.settle_drive_replaced(db, drive_id, hand, table):
            raise InputError({"table": Msg("has no replaced result to settle in hand %(n)d", n=hand)})
        return _replayed(db, _record(db, drive_id))


# ---------------------------------------------------------------- the people: renames and substitutes


def rename_player(db, drive_id: str, raw: Any, key: Any) -> ScoredDrive:
    """{"from": "Bae", "to": "Bea"}: a name put right everywhere (the seating and the scores are the seat's)."""
    with writing(db):
        scored_drive = _open(db, drive_id, lambda record: key_matches(record, key))
        body = _body(raw, {"from", "to"}, '{"from": "Bae", "to": "Bea"}')
        setup = core.rename(scored_drive.setup, body.get("from"), body.get("to"))
        store.put_drive_setup(db, drive_id, setup.as_dict(), setup.title)
        return _replayed(db, _record(db, drive_id))


def add_substitute(db, drive_id: str, raw: Any, key: Any) -> ScoredDrive:
    """{"out": "Bea", "in": "Zoe", "hand": 13, "lady_as_gent": false}: Zoe takes Bea's seat from hand 13 on (the
    hand being played if none is given). The tricks of each hand stay with whoever played it."""
    with writing(db):
        scored_drive = _open(db, drive_id, lambda record: key_matches(record, key))
        body = _body(raw, {"out", "in", "hand", "lady_as_gent"}, '{"out": "Bea", "in": "Zoe", "hand": 13}')
        _not_final(scored_drive)
        hand = body.get("hand", scored_drive.drive.current)
        as_gent = body.get("lady_as_gent", False) is True
        setup = core.substitute(scored_drive.setup, body.get("out"), body.get("in"), hand, as_gent)
        store.put_drive_setup(db, drive_id, setup.as_dict(), setup.title)
        return _replayed(db, _record(db, drive_id))


def set_rules(db, drive_id: str, raw: Any, key: Any) -> ScoredDrive:
    """The organiser's rules for the people: {"substitute_card": "continue" | "new", "spare_seats": "dummy" |
    "sit_out"}. Hands already played keep the seating they were played in; the hand not yet played is seated by the
    new rule, and whoever sits elsewhere now is told to move again."""
    with writing(db):
        scored_drive = _open(db, drive_id, lambda record: key_matches(record, key))
        body = _body(raw, {"substitute_card", "spare_seats"}, '{"spare_seats": "sit_out"}')
        _not_final(scored_drive)
        setup = make_drive({**scored_drive.setup.as_dict(), **body}, max_tables=None, max_hands=None)
        before = scored_drive.drive
        reseated = setup.spare_seats != scored_drive.setup.spare_seats
        keep = {r.hand: r.seating for r in before.rounds if reseated and r.started and r.hand not in scored_drive.kept}
        after = play(setup, scored_drive.results, {**scored_drive.kept, **keep})
        store.keep_drive_seatings(db, drive_id, keep)
        current = before.rounds[before.current - 1]
        if (
            not current.started
            and len(after.rounds) >= current.hand
            and after.rounds[current.hand - 1].seating != current.seating
        ):
            reseat = scored_drive.record.reseat
            if not reseat or reseat.get("hand") != current.hand:
                store.put_drive_reseat(
                    db, drive_id, {"hand": current.hand, "seating": [[list(p) for p in t] for t in current.seating]}
                )
        store.put_drive_setup(db, drive_id, setup.as_dict(), setup.title)
        return _replayed(db, _record(db, drive_id))


def delete_drive(db, drive_id: str, key: Any) -> None:
    """A drive started by mistake or for a try: deleted while it has no result (HasResults, 409, once it has)."""
    with writing(db):
        scored_drive = _open(db, drive_id, lambda record: key_matches(record, key))
        if scored_drive.results:
            raise HasResults({"drive": Msg("has results: a drive that has been played is not deleted")})
        store.delete_drive(db, drive_id)


# ---------------------------------------------------------------- prizes: edited, drawn, given


def put_money(db, drive_id: str, data: Any, key: Any, language: str | None = None) -> ScoredDrive:
    """The entry fee and the prizes, written anew (the draws made so far are dropped: they were for other prizes)."""
    with writing(db):
        scored_drive = _open(db, drive_id, lambda record: key_matches(record, key))
        _not_final(scored_drive)
        checked = check_money(data, scored_drive.setup, language)
        store.put_drive_money(db, drive_id, checked, changed=True)
        store.put_drive_draws(db, drive_id, [])
        return _replayed(db, _record(db, drive_id))


def _draw(db, scored_drive: ScoredDrive, prizes: dict | None, rng: secrets.SystemRandom) -> list[dict]:
    """Draw every cut and lucky number the prizes wait for now, one after another (a draw can settle who is left for
    the next prize, under one prize each): the draws as they are to be stored."""
    draws = list(scored_drive.record.draws)
    if not prizes:
        return draws
    rules = rules_of(prizes)
    for _ in range(2 * len(rules) + 1):
        given = core.award(
            scored_drive.drive,
            rules,
            one_each=prizes.get("one_prize_each", False),
            ties=prizes.get("prize_ties", "share"),
            draws=draws,
        )
        index, waiting = next(((i, a) for i, a in enumerate(given) if a.status == "draw"), (None, None))
        if waiting is None or index is None:
            break
        at = store.now(db)
        if waiting.rule.kind == "lucky":
            draws = [d for d in draws if not (d.get("kind") == "lucky" and d.get("prize") == index)]
            draws.append({"kind": "lucky", "prize": index, "key": rng.choice(waiting.candidates), "at": at})
        else:
            among = sorted(waiting.candidates)
            draws = [d for d in draws if not (d.get("kind") == "cut" and sorted(d.get("among", [])) == among)]
            order = list(among)
            rng.shuffle(order)
            draws.append({"kind": "cut", "among": among, "order": order, "at": at})
    return draws


def draw_prizes(db, drive_id: str, key: Any) -> ScoredDrive:
    """The app draws the cuts and lucky numbers the prizes wait for now, and records them."""
    with writing(db):
        scored_drive = _open(db, drive_id, lambda record: key_matches(record, key))
        _not_final(scored_drive)
        prizes = normal_money(store.drive_money(db, drive_id), scored_drive.setup)
        draws = _draw(db, scored_drive, prizes, secrets.SystemRandom())
        if draws != list(scored_drive.record.draws):
            store.put_drive_draws(db, drive_id, draws)
        return _replayed(db, _record(db, drive_id))


def give_prizes(db, drive_id: str, key: Any) -> ScoredDrive:
    """The drive is over and the prizes are given: what is left to draw is drawn, and from now on no result changes
    (Final, 409). Refused (OutOfTurn) before the last hand is in."""
    with writing(db):
        scored_drive = _open(db, drive_id, lambda record: key_matches(record, key))
        _not_final(scored_drive)
        if not scored_drive.drive.finished:
            raise core.OutOfTurn({"drive": Msg("is not over yet: the prizes are given after the last hand")})
        prizes = normal_money(store.drive_money(db, drive_id), scored_drive.setup)
        draws = _draw(db, scored_drive, prizes, secrets.SystemRandom())
        if draws != list(scored_drive.record.draws):
            store.put_drive_draws(db, drive_id, draws)
        store.put_drive_prizes_given(db, drive_id, store.now(db))
        return _replayed(db, _record(db, drive_id))
