"""A club's imported evenings (migration m181): the imports (the club's log of them), each member's evening as the
sheet kept it, and the club's season."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction

from scorekeeper.storage.store.games import dumped, now


@dataclass(frozen=True)
class ImportRecord:
    id: int
    club_id: str
    file_name: str
    digest: str
    at: str
    evenings: int
    members: int


@dataclass(frozen=True)
class ImportedResultRecord:
    evening_id: int
    member_id: int
    points: int | Fraction
    cents: int | None
    hands: int | None
    table: int | None


def _import(row) -> ImportRecord:
    return ImportRecord(*row)


_IMPORT = "SELECT id, club_id, file_name, digest, at, evenings, members FROM club_imports"


def insert_import(db, club_id: str, file_name: str, digest: str, evenings: int, members: int) -> int:
    return db.execute(
        "INSERT INTO club_imports (club_id, file_name, digest, at, evenings, members) VALUES (?, ?, ?, ?, ?, ?)",
        [club_id, file_name, digest, now(db), evenings, members],
    ).lastrowid


def import_by_digest(db, club_id: str, digest: str) -> ImportRecord | None:
    row = db.execute(f"{_IMPORT} WHERE club_id = ? AND digest = ?", [club_id, digest]).fetchone()
    return _import(row) if row else None


def club_imports(db, club_id: str) -> list[ImportRecord]:
    """The club's log of imports, the latest first."""
    return [_import(r) for r in db.execute(f"{_IMPORT} WHERE club_id = ? ORDER BY id DESC", [club_id])]


def mark_imported(db, evening_id: int, import_id: int) -> None:
    db.execute("UPDATE club_evenings SET import_id = ? WHERE id = ?", [import_id, evening_id])


def evening_imports(db, evening_ids: list[int]) -> dict[int, ImportRecord]:
    """The import each of these evenings came from (an evening played in the app has none)."""
    if not evening_ids:
        return {}
    marks = ",".join("?" * len(evening_ids))
    rows = db.execute(
        f"SELECT e.id, i.id, i.club_id, i.file_name, i.digest, i.at, i.evenings, i.members FROM club_evenings e"
        f" JOIN club_imports i ON i.id = e.import_id WHERE e.id IN ({marks})",
        evening_ids,
    ).fetchall()
    return {r[0]: _import(r[1:]) for r in rows}


def imported_days(db, club_id: str) -> dict[str, bool]:
    """The days of the club's evenings: True where that day's evening was imported, False where it was played here."""
    out: dict[str, bool] = {}
    for day, imported in db.execute(
        "SELECT date, import_id IS NOT NULL FROM club_evenings WHERE club_id = ? ORDER BY date", [club_id]
    ):
        out[day] = out.get(day, False) or bool(imported)
    return out


def _points(text: str) -> int | Fraction:
    value = Fraction(text)
    return value.numerator if value.denominator == 1 else value


def _written(points: int | Fraction) -> str:
    value = Fraction(points)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def put_imported_result(
    db, evening_id: int, member_id: int, points, cents: int | None, hands: int | None, table: int | None
) -> None:
    """A member's imported evening, as new or in place of the one kept."""
    db.execute(
        "INSERT OR REPLACE INTO club_imported_results (evening_id, member_id, points, cents, hands, table_number)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [evening_id, member_id, _written(points), cents, hands, table],
    )


def delete_imported_result(db, evening_id: int, member_id: int) -> None:
    db.execute("DELETE FROM club_imported_results WHERE evening_id = ? AND member_id = ?", [evening_id, member_id])


def imported_results(db, evening_ids: list[int]) -> dict[int, list[ImportedResultRecord]]:
    """The members' imported evenings of these evenings, by evening."""
    if not evening_ids:
        return {}
    marks = ",".join("?" * len(evening_ids))
    out: dict[int, list[ImportedResultRecord]] = {}
    for r in db.execute(
        f"SELECT evening_id, member_id, points, cents, hands, table_number FROM club_imported_results"
        f" WHERE evening_id IN ({marks}) ORDER BY evening_id, member_id",
        evening_ids,
    ):
        out.setdefault(r[0], []).append(ImportedResultRecord(r[0], r[1], _points(r[2]), r[3], r[4], r[5]))
    return out


def club_season(db, club_id: str) -> dict | None:
    """The season the club named: {"from", "to"} (ISO dates), or None."""
    row = db.execute("SELECT season FROM clubs WHERE id = ?", [club_id]).fetchone()
    return json.loads(row[0]) if row and row[0] else None


def set_club_season(db, club_id: str, season: dict | None) -> None:
    db.execute(
        "UPDATE clubs SET season = ?, updated = ? WHERE id = ?",
        [None if season is None else dumped(season), now(db), club_id],
    )
