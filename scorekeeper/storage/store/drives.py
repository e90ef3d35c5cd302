"""A drive's setup as checked and the tables' results as entered (migration m107); the seating is replayed from these."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from scorekeeper.storage.store.games import dumped, now

# A drive's setup as checked and the tables' results as entered (migration m107); the seating is replayed from these.


@dataclass(frozen=True, slots=True)
class DriveRecord:
    id: str
    title: str | None
    setup: dict[str, Any]
    edit_key_hash: str
    created: str
    updated: str
    version: int
    reseat: dict[str, Any] | None = None  # {"hand", "seating"}: hand `hand` as shown before a correction re-seated it
    draws: tuple[dict[str, Any], ...] = ()  # the app's draws for the prizes (cuts, lucky numbers), as made
    prizes_given: str | None = None  # when the organiser gave the prizes: the results are final since
    epoch: int | None = None  # the file's epoch, made anew by every restore (store/games.py's GameRecord.epoch)


@dataclass(frozen=True, slots=True)
class DriveResultRecord:
    hand: int
    table: int
    tricks: list[int]
    sender: str | None = None  # a table phone's own id, "organiser", or None (sent before migration m163)
    updated: str | None = None


@dataclass(frozen=True, slots=True)
class DriveReplacedRecord:
    """A table's result that a second phone replaced (migration m163): both results, who sent each and when."""

    id: int
    hand: int
    table: int
    tricks: list[int]
    sender: str | None
    sent: str
    by_tricks: list[int]
    by_sender: str | None
    at: str
    settled: str | None


def insert_drive(db, *, id: str, title: str | None, setup: dict, edit_key_hash: str) -> None:
    stamp = now(db)
    db.execute(
        "INSERT INTO drives (id, title, setup, edit_key_hash, created, updated, version) VALUES (?, ?, ?, ?, ?, ?, 0)",
        [id, title, dumped(setup), edit_key_hash, stamp, stamp],
    )


def get_drive(db, drive_id: str) -> DriveRecord | None:
    row = db.execute(
        "SELECT id, title, setup, edit_key_hash, created, updated, version, reseat, draws, prizes_given,"
        " (SELECT version FROM live_versions WHERE scope = 'epoch') FROM drives WHERE id = ?",
        [drive_id],
    ).fetchone()
    if row is None:
        return None
    id, title, setup, edit_key_hash, created, updated, version, reseat, draws, given, epoch = row
    return DriveRecord(
        id,
        title,
        json.loads(setup),
        edit_key_hash,
        created,
        updated,
        version,
        json.loads(reseat) if reseat else None,
        tuple(json.loads(draws)) if draws else (),
        given,
        epoch,
    )


def _drive_changed(db, drive_id: str) -> None:
    db.execute("UPDATE drives SET version = version + 1, updated = ? WHERE id = ?", [now(db), drive_id])


def put_drive_setup(db, drive_id: str, setup: dict, title: str | None) -> None:
    """The setup after a rename or a substitute (as checked by the core); the version goes up."""
    db.execute("UPDATE drives SET setup = ?, title = ? WHERE id = ?", [dumped(setup), title, drive_id])
    _drive_changed(db, drive_id)


def drive_kept_seatings(db, drive_id: str) -> dict[int, list]:
    """The seatings kept as played (migration m120), hand → [[[lady, gent], [lady, gent]] per table]."""
    return {
        hand: json.loads(seating)
        for hand, seating in db.execute("SELECT hand, seating FROM drive_seatings WHERE drive_id = ?", [drive_id])
    }


def keep_drive_seatings(db, drive_id: str, seatings: dict[int, Any]) -> None:
    for hand, seating in seatings.items():
        db.execute(
            "INSERT OR REPLACE INTO drive_seatings (drive_id, hand, seating) VALUES (?, ?, ?)",
            [drive_id, hand, dumped([[list(p) for p in t] for t in seating])],
        )


def put_drive_reseat(db, drive_id: str, reseat: dict | None) -> None:
    db.execute("UPDATE drives SET reseat = ? WHERE id = ?", [dumped(reseat) if reseat else None, drive_id])


def put_drive_draws(db, drive_id: str, draws: list[dict]) -> None:
    db.execute("UPDATE drives SET draws = ? WHERE id = ?", [dumped(draws) if draws else None, drive_id])
    _drive_changed(db, drive_id)


def put_drive_prizes_given(db, drive_id: str, when: str | None) -> None:
    db.execute("UPDATE drives SET prizes_given = ? WHERE id = ?", [when, drive_id])
    _drive_changed(db, drive_id)


def delete_drive(db, drive_id: str) -> None:
    """A drive and everything it holds (its results and kept seatings go with it: ON DELETE CASCADE)."""
    db.execute("DELETE FROM drives WHERE id = ?", [drive_id])


def drive_results(db, drive_id: str) -> list[DriveResultRecord]:
    return [
        DriveResultRecord(hand, table, json.loads(tricks), sender, updated)
        for hand, table, tricks, sender, updated in db.execute(
            "SELECT hand, table_number, tricks, sender, updated FROM drive_results WHERE drive_id = ?"
            " ORDER BY hand, table_number",
            [drive_id],
        )
    ]


def put_drive_result(db, drive_id: str, hand: int, table: int, tricks: list[int], sender: str | None = None) -> None:
    """Store a table's result for a hand, replacing the one it had, with who sent it; the drive's version goes up."""
    stamp = now(db)
    db.execute(
        "INSERT INTO drive_results (drive_id, hand, table_number, tricks, created, updated, sender)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (drive_id, hand, table_number) DO UPDATE SET"
        " tricks = excluded.tricks, updated = excluded.updated, sender = excluded.sender",
        [drive_id, hand, table, dumped(tricks), stamp, stamp, sender],
    )
    db.execute("UPDATE drives SET version = version + 1, updated = ? WHERE id = ?", [stamp, drive_id])


def add_drive_replaced(
    db, drive_id: str, hand: int, table: int, was: DriveResultRecord, tricks: list[int], sender: str | None
) -> None:
    """A second phone's result replaced `was` (migration m163): kept until the organiser settles it."""
    db.execute(
        "INSERT INTO drive_replaced (drive_id, hand, table_number, tricks, sender, sent, by_tricks, by_sender, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            drive_id,
            hand,
            table,
            dumped(was.tricks),
            was.sender,
            was.updated or now(db),
            dumped(tricks),
            sender,
            now(db),
        ],
    )


def drive_replaced(db, drive_id: str, unsettled: bool = True) -> list[DriveReplacedRecord]:
    """The results a second phone replaced, oldest first (only those not settled yet, unless `unsettled` is False)."""
    where = " AND settled IS NULL" if unsettled else ""
    return [
        DriveReplacedRecord(i, hand, table, json.loads(tricks), sender, sent, json.loads(by), by_sender, at, settled)
        for i, hand, table, tricks, sender, sent, by, by_sender, at, settled in db.execute(
            "SELECT id, hand, table_number, tricks, sender, sent, by_tricks, by_sender, at, settled FROM drive_replaced"
            f" WHERE drive_id = ?{where} ORDER BY id",
            [drive_id],
        )
    ]


def settle_drive_replaced(db, drive_id: str, hand: int, table: int) -> int:
    """The organiser has settled which result a table's hand keeps: its replacements are no longer shown. The number
    settled; the drive's version goes up when there was one (the pages that showed it change)."""
    count = db.execute(
        "UPDATE drive_replaced SET settled = ? WHERE drive_id = ? AND hand = ? AND table_number = ? AND settled IS NULL",
        [now(db), drive_id, hand, table],
    ).rowcount
    if count:
        _drive_changed(db, drive_id)
    return count


def put_drive_money(db, drive_id: str, money: dict, changed: bool = False) -> None:
    """A drive's currency, entry fee and prizes (migration m108), as the organiser typed them; `changed` raises the
    version (prizes edited after the drive was started)."""
    db.execute("UPDATE drives SET money = ? WHERE id = ?", [dumped(money), drive_id])
    if changed:
        _drive_changed(db, drive_id)


def drive_money(db, drive_id: str) -> dict | None:
    row = db.execute("SELECT money FROM drives WHERE id = ?", [drive_id]).fetchone()
    return json.loads(row[0]) if row and row[0] else None
