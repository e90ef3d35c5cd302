"""What the pages and the API do to a whist drive: check, replay, store. The drive's setup and each table's result are
stored as entered; the seating of every hand and the standings are replayed from them (core/drives.py)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.drives import MAX_HANDS, MAX_TABLES, Drive, DriveSetup, accept, make_drive, play
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.services.clubs import parse_money
from scorekeeper.services.games import hash_key, key_matches
from scorekeeper.storage import reading, store, writing


class NotFound(Exception):
    """No such drive."""


class Forbidden(Exception):
    """The drive's edit key is wrong or missing."""


@dataclass(frozen=True, slots=True)
class ScoredDrive:
    """A drive as stored and as replayed: `drive` has the rounds, the current hand and the standings."""

    record: store.DriveRecord
    drive: Drive

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def setup(self) -> DriveSetup:
        return self.drive.setup

    @property
    def version(self) -> int:
        return self.record.version


def edit_page(drive_id: str, key: str) -> str:
    """The path of the drive's page with the right to enter results (it carries the key), as games have /g/<id>/k/<key>."""
    return f"/d/{drive_id}/k/{key}"


def create_drive(
    db, data: Any, money: Any = None, max_tables: int | None = MAX_TABLES, max_hands: int | None = MAX_HANDS
) -> tuple[str, str]:
    """Check and store a new drive (and its money, as check_money takes it, if given); answer (drive id, edit key).
    Raises InputError naming every wrong field. The bounds are the caller's (the app's DRIVE_MAX_TABLES and
    DRIVE_MAX_HANDS): they bound what its paper costs."""
    setup = make_drive(data, max_tables=max_tables, max_hands=max_hands)
    checked = None if money is None else check_money(money)
    drive_id, key = secrets.token_urlsafe(8), secrets.token_urlsafe(24)
    with writing(db):
        store.insert_drive(db, id=drive_id, title=setup.title, setup=setup.as_dict(), edit_key_hash=hash_key(key))
        if checked is not None:
            store.put_drive_money(db, drive_id, checked)
    return drive_id, key


# ---------------------------------------------------------------- the drive's money: entry fee and prizes

CURRENCIES = ("DKK", "NOK", "SEK", "EUR", "GBP", "USD")
PRIZES = ("top_lady", "top_gent", "top_pair", "half_time", "booby")
PRIZE_NAME_MAX = 80


def check_money(data: Any) -> dict:
    """The drive's money as stored: {"currency", "fee" (cents per player), "prizes": [{"kind", "name", "amount"
    (cents, 0 for a prize that is not cash or was given)}]} from the organiser's fields; InputError naming each wrong
    one (fee, currency, prize_<kind>, prize_<kind>_amount)."""
    if not isinstance(data, dict):
        raise InputError({"money": Msg("must be an object")})
    errors: dict[str, Any] = {}
    currency = data.get("currency") or "DKK"
    if currency not in CURRENCIES:
        errors["currency"] = Msg("must be one of %(choices)s", choices=", ".join(CURRENCIES))
    fee = 0
    try:
        fee = parse_money(data.get("fee"), "fee")
    except InputError as exc:
        errors.update(exc.errors)
    prizes = []
    for prize in data.get("prizes") or []:
        kind = prize.get("kind") if isinstance(prize, dict) else None
        if kind not in PRIZES:
            errors["prizes"] = Msg("must be one of %(choices)s", choices=", ".join(PRIZES))
            continue
        name = str(prize.get("name") or "").strip()
        if len(name) > PRIZE_NAME_MAX or any(ord(c) < 32 or c in "<>" for c in name):
            errors[f"prize_{kind}"] = Msg("must be at most %(max)d characters, without < or >", max=PRIZE_NAME_MAX)
            continue
        try:
            amount = parse_money(prize.get("amount"), f"prize_{kind}_amount")
        except InputError as exc:
            errors.update(exc.errors)
            continue
        if name or amount:
            prizes.append({"kind": kind, "name": name, "amount": amount})
    if errors:
        raise InputError(errors)
    return {"currency": currency, "fee": fee, "prizes": prizes}


def money(db, drive_id: str) -> dict | None:
    """The drive's currency, entry fee and prizes as stored, or None for a drive started without them."""
    with reading(db):
        return store.drive_money(db, drive_id)


# ---------------------------------------------------------------- the tables' own right to enter their results


def table_token(scored_drive: ScoredDrive, table: int) -> str:
    """The token on table `table`'s card: an HMAC of the drive and the table under the drive's (hashed) edit key, so
    a card lets its table enter its own results and nothing else, nothing new is stored, and the cards stay good
    across restarts and restores (they do not depend on the server's secret)."""
    return _table_token(scored_drive.record, table)


def _table_token(record: store.DriveRecord, table: int) -> str:
    mac = hmac.new(record.edit_key_hash.encode(), f"{record.id}/table/{table}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:15]).decode()


def table_token_matches(scored_drive: ScoredDrive, table: int, token: Any) -> bool:
    return _same_token(_table_token(scored_drive.record, table), token)


def _same_token(expected: str, token: Any) -> bool:
    """Constant time; a token that is not ASCII text is simply wrong (compare_digest refuses to compare it)."""
    return isinstance(token, str) and token.isascii() and hmac.compare_digest(expected, token)


def stored_setup(record: store.DriveRecord) -> DriveSetup:
    """The setup as stored, read back without the bounds of today (it was checked against those of its day)."""
    return make_drive(record.setup, max_tables=None, max_hands=None)


def _replayed(db, record: store.DriveRecord) -> ScoredDrive:
    setup = stored_setup(record)
    results = {(r.hand, r.table): r.tricks for r in store.drive_results(db, record.id)}
    return ScoredDrive(record, play(setup, results))


def load(db, drive_id: str) -> ScoredDrive:
    """The drive replayed from its setup and results (read from one snapshot); NotFound if there is none."""
    with reading(db):
        record = store.get_drive(db, drive_id)
        if record is None:
            raise NotFound("drive")
        return _replayed(db, record)


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


def enter_result(db, drive_id: str, hand: Any, table: Any, raw: Any, key: Any) -> ScoredDrive:
    """Store table `table`'s result of hand `hand` ({"tricks": [a, b]}, a for the first pair as seated, and
    optionally "pairs": the table's two pairs by name as the sender was shown them) and answer the drive as it stands
    after it. Sending it again replaces it until hand + 1 has a result.

    Raises NotFound, Forbidden, InputError (bad tricks, table or pairs), OutOfTurn (a hand that takes no result now,
    409 in the API) or its SeatingChanged (the pairs sent are not the table's now: 409); nothing is stored then.
    """
    return _enter(db, drive_id, hand, table, raw, lambda record: key_matches(record, key))


def enter_table_result(db, drive_id: str, hand: Any, table: Any, raw: Any, token: Any) -> ScoredDrive:
    """As enter_result, with the table's own token (table_token) instead of the drive's key: a table's card enters
    that table's results only. Sending the same result again changes nothing (the result is replaced by itself)."""

    def allowed(record: store.DriveRecord) -> bool:
        return isinstance(table, int) and _same_token(_table_token(record, table), token)

    return _enter(db, drive_id, hand, table, raw, allowed)


def _enter(db, drive_id: str, hand: Any, table: Any, raw: Any, allowed: Callable[[store.DriveRecord], bool]):
    with writing(db):
        record = store.get_drive(db, drive_id)
        if record is None:
            raise NotFound("drive")
        if not allowed(record):
            raise Forbidden()
        if not isinstance(raw, dict):
            raise InputError({"body": Msg('must be a JSON object such as {"tricks": [7, 6]}')})
        unknown = sorted(set(raw) - {"tricks", "pairs"})
        if unknown:
            raise InputError({k: Msg("unknown field") for k in unknown})
        before = _replayed(db, record)
        hand, table, tricks = accept(before.drive, hand, table, raw.get("tricks"), raw.get("pairs"))
        store.put_drive_result(db, drive_id, hand, table, list(tricks))
        after = _replayed(db, store.get_drive(db, drive_id))
    return after
