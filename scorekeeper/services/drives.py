"""What the pages and the API do to a whist drive: check, replay, store. The drive's setup and each table's result are
stored as entered; the seating of every hand and the standings are replayed from them (core/drives.py)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.base import InputError, Msg
from scorekeeper.core.drives import Drive, DriveSetup, accept, make_drive, play
from scorekeeper.services.games import hash_key, key_matches
from scorekeeper.storage import reading, store, writing


class NotFound(Exception):
    """No such drive."""


class Forbidden(Exception):
    """The drive's edit key is wrong or missing."""


@dataclass(frozen=True, slots=True)
class DriveSheet:
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


def create_drive(db, data: Any) -> tuple[str, str]:
    """Check and store a new drive; answer (drive id, edit key). Raises InputError naming every wrong field."""
    setup = make_drive(data)
    drive_id, key = secrets.token_urlsafe(8), secrets.token_urlsafe(24)
    with writing(db):
        store.insert_drive(db, id=drive_id, title=setup.title, setup=setup.as_dict(), edit_key_hash=hash_key(key))
    return drive_id, key


def _replayed(db, record: store.DriveRecord) -> DriveSheet:
    setup = make_drive(record.setup)
    results = {(r.hand, r.table): r.tricks for r in store.drive_results(db, record.id)}
    return DriveSheet(record, play(setup, results))


def load(db, drive_id: str) -> DriveSheet:
    """The drive replayed from its setup and results (read from one snapshot); NotFound if there is none."""
    with reading(db):
        record = store.get_drive(db, drive_id)
        if record is None:
            raise NotFound("drive")
        return _replayed(db, record)


def may_edit(sheet: DriveSheet, key: Any) -> bool:
    """Whether a presented key is the drive's edit key (constant time): for a page that claims the right to edit."""
    return key_matches(sheet.record, key)


def enter_result(db, drive_id: str, hand: Any, table: Any, raw: Any, key: Any) -> DriveSheet:
    """Store table `table`'s result of hand `hand` ({"tricks": [a, b]}, a for the first pair as seated) and answer
    the drive as it stands after it. Sending it again replaces it until hand + 1 has a result.

    Raises NotFound, Forbidden, InputError (bad tricks or table) or OutOfTurn (a hand that takes no result now,
    409 in the API); nothing is stored then.
    """
    with writing(db):
        record = store.get_drive(db, drive_id)
        if record is None:
            raise NotFound("drive")
        if not key_matches(record, key):
            raise Forbidden()
        if not isinstance(raw, dict):
            raise InputError({"body": Msg('must be a JSON object such as {"tricks": [7, 6]}')})
        unknown = sorted(set(raw) - {"tricks"})
        if unknown:
            raise InputError({k: Msg("unknown field") for k in unknown})
        before = _replayed(db, record)
        hand, table, tricks = accept(before.drive, hand, table, raw.get("tricks"))
        store.put_drive_result(db, drive_id, hand, table, list(tricks))
        after = _replayed(db, store.get_drive(db, drive_id))
    return after
