"""A club moves in mid-season (issue 45): its past evenings imported from the sheet it keeps. `preview` reads the file
with the admin's choices and stores nothing; `confirm` reads it again the same way and stores it all in one
transaction, or nothing: the new members, the evenings (marked imported, settled when the admin says they were), each
member's figures, and the import in the club's log. A file imported before, and an evening already in the club, add
nothing. `correct` changes an imported evening's figures, as a table's hands are corrected."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import Any

from flask_babel import force_locale
from flask_babel import gettext as _

from scorekeeper.clubs.rules import season as season_rules
from scorekeeper.clubs.rules import season_import as reader
from scorekeeper.clubs.rules.season_import.read import same_name
from scorekeeper.clubs.service.club import club_format, get_club
from scorekeeper.clubs.service.common import ClubNotFound, parse_money
from scorekeeper.clubs.service.evenings import club_rate, evening, get_evening
from scorekeeper.clubs.service.members import members
from scorekeeper.core import VARIANTS, InputError, check_name
from scorekeeper.core.messages import Msg, message_of
from scorekeeper.core.numbers import NumberError, ascii_written, exact, read_number
from scorekeeper.storage import store, writing

MAX_BYTES = 2 * 1024 * 1024  # the documented default of IMPORT_MAX_BYTES (scorekeeper/config.py)
LANGUAGES = ("en", "da", "nb", "sv")

# The app's own headings (its ledger's and evening's spreadsheets), in every language it speaks: the words of the
# files it writes, so that they read back whatever language they were written in. Formatted with empty values.
_APP_WORDS = {
    "member": ("member",),
    "date": ("date",),
    "points": ("points", "%(date)s points"),
    "money": ("net (%(currency)s)", "%(date)s net (%(currency)s)", "net"),
    "before_fee": ("before fee",),
    "fee": ("fee",),
    "hands": ("hands",),
    "kitty": ("kitty",),
    "ignore": (
        "evenings",
        "unsettled (%(currency)s)",
        "games won",
        "standing points",
        "currency",
        "place",
        "tables",
        "net of the kitty",
        "imported from",
    ),
}


def app_words() -> reader.Words:
    found: dict[str, set[str]] = {}
    for language in LANGUAGES:
        with force_locale(language):
            for job, texts in _APP_WORDS.items():
                found.setdefault(job, set()).update(_(t, date="", currency="") for t in texts)
    return reader.BASE_WORDS.more(found)


@dataclass(frozen=True)
class Choices:
    """What the admin changed in the preview: per sheet index its shape, its headings' row and per column its role and
    date (layout.apply_changes); per name of the sheet (as written) whom it is: "m:<member id>", "new" (a new member),
    "n:<another of the sheet's names>" (the same person) or "skip"; whether the evenings were settled."""

    sheets: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)
    settled: bool = True


@dataclass(frozen=True)
class NameChoice:
    match: reader.NameMatch
    choice: str  # as chosen (or the default): "m:<id>", "new", "n:<name>", "skip"; "" undecided
    member: int | None  # the member it ends as (None: a new member, skipped or undecided)
    new_as: str | None  # the new member's name it ends as
    problem: Msg | None = None


@dataclass(frozen=True)
class PlannedRow:
    name: str  # as the sheet writes it
    member: int | None  # the club's member; None: a new member `new_as` (both None: not decided yet)
    new_as: str | None
    points: Fraction
    cents: int | None  # money before the fee; None: at the evening's rate
    hands: int | None
    table: int | None
    where: reader.Where | None


@dataclass(frozen=True)
class PlannedEvening:
    day: date
    rows: tuple[PlannedRow, ...]
    fee: int
    state: str  # "new"; "imported" (an earlier import has this day: left out); "played" (played here: left out)
    notes: tuple[reader.Note, ...] = ()


@dataclass(frozen=True)
class Preview:
    file_name: str
    digest: str
    book: reader.Book
    layout: reader.Layout
    reading: reader.Reading
    names: tuple[NameChoice, ...]
    evenings: tuple[PlannedEvening, ...]
    problems: tuple[reader.Note, ...]
    notes: tuple[reader.Note, ...]  # those of no one evening
    before: store.ImportRecord | None  # this file was imported before
    settled: bool
    currency: str
    rate: str | None

    @property
    def new_evenings(self) -> tuple[PlannedEvening, ...]:
        return tuple(e for e in self.evenings if e.state == "new")

    @property
    def new_members(self) -> tuple[str, ...]:
        """The new members the new evenings bring (a name of an evening left out adds nobody)."""
        return tuple(
            dict.fromkeys(r.new_as for e in self.new_evenings for r in e.rows if r.member is None and r.new_as)
        )

    @property
    def ready(self) -> bool:
        return not self.problems and bool(self.new_evenings)


def _context(db, club_id: str) -> reader.DayContext:
    named = season_rules.read_season(store.club_season(db, club_id))
    today = db.clock().date()
    if named is None:
        return reader.DayContext(today)
    current = season_rules.current(named, today)
    return reader.DayContext(today, (current.start, current.end))


def _resolve(
    matches: tuple[reader.NameMatch, ...], chosen: Mapping[str, str], known: dict[int, Any]
) -> list[NameChoice]:
    """Each name's choice (the admin's, else the default: its member when the same, a new member when nobody is like
    it, undecided for a near-miss) and whom it ends as."""
    raw: dict[str, str] = {}
    for m in matches:
        choice = chosen.get(same_name(m.name))
        if choice is None:
            choice = f"m:{m.member}" if m.member is not None else ("" if m.near else "new")
        raw[same_name(m.name)] = choice
    out = []
    for m in matches:
        choice = raw[same_name(m.name)]
        member, new_as, problem = None, None, None
        target, via = choice, m.name
        if target.startswith("n:"):
            via = target[2:]
            target = raw.get(same_name(via), "")
            if target.startswith("n:") or same_name(via) == same_name(m.name):
                problem = Msg("Choose who “%(name)s” is: “%(other)s” is not decided either.", name=m.name, other=via)
                target = "?"
        if problem is None:
            if target == "":
                problem = Msg("Choose who “%(name)s” is: a member, or a new member.", name=m.name)
            elif target == "new":
                new_as = " ".join(via.split())
                try:
                    check_name(new_as, _("the name"))
                except ValueError as exc:
                    problem = Msg("“%(name)s” cannot be a member's name: %(why)s", name=new_as, why=message_of(exc))
            elif target.startswith("m:"):
                try:
                    member = int(target[2:])
                except ValueError:
                    member = None
                if member not in known:
                    problem = Msg("Choose who “%(name)s” is: a member, or a new member.", name=m.name)
                    member = None
            elif target != "skip":
                problem = Msg("Choose who “%(name)s” is: a member, or a new member.", name=m.name)
        out.append(NameChoice(m, choice, member, new_as, problem))
    return out


def _digest(data: bytes, days: list[date]) -> str:
    """The file and the evenings it holds: the same file imported again is known by it."""
    digest = hashlib.sha256(data)
    digest.update(b"\0" + ",".join(d.isoformat() for d in sorted(days)).encode())
    return digest.hexdigest()


def preview(db, club_id: str, file_name: str, data: bytes, choices: Choices, limit: int = MAX_BYTES) -> Preview:
    """What the import would store, with every problem and note; stores nothing. Raises reader.FileProblem for a
    file that cannot be read at all (too large, damaged, of no kind read here)."""
    club = get_club(db, club_id)
    words = app_words()
    ctx = _context(db, club_id)
    book = reader.read_book(file_name, data, limit)
    layout = reader.apply_changes(book, reader.guess(book, words, ctx), choices.sheets, words, ctx)
    zero_sum = VARIANTS[club.variant].FOR_MONEY
    reading = reader.read_evenings(book, layout, words, ctx, zero_sum)
    known = members(db, club_id)
    matches = reader.match_names(reading.names, {m: r.name for m, r in known.items()})
    names = _resolve(matches, choices.names, known)
    by_name = {same_name(n.match.name): n for n in names}
    taken = store.imported_days(db, club_id)
    fresh = [e for e in reading.evenings if e.day.isoformat() not in taken]
    wanted = {same_name(r.name) for e in fresh for r in e.rows}  # a name of the evenings left out needs no choice
    problems = list(reading.problems) + [
        reader.Note(n.problem) for n in names if n.problem and same_name(n.match.name) in wanted
    ]
    evenings = []
    for e in reading.evenings:
        iso = e.day.isoformat()
        state = "new" if iso not in taken else ("imported" if taken[iso] else "played")
        rows: list[PlannedRow] = []
        seen: dict[int | str, str] = {}
        for row in e.rows:
            choice = by_name[same_name(row.name)]
            if choice.choice == "skip":
                continue
            # An undecided name still counts on the preview's evening (its problem keeps it from being stored).
            who = choice.member if choice.member is not None else same_name(choice.new_as or f"?{row.name}")
            if who in seen and state == "new":
                problems.append(
                    reader.Note(
                        Msg(
                            "“%(name)s” and “%(other)s” are the same member on this evening.",
                            name=row.name,
                            other=seen[who],
                        ),
                        row.where,
                        e.day,
                    )  # fmt: skip
                )
                continue
            seen[who] = row.name
            rows.append(
                PlannedRow(
                    row.name,
                    choice.member,
                    choice.new_as,
                    row.points or Fraction(0),
                    row.winnings(e.fee),
                    row.hands,
                    row.table,
                    row.where,
                )  # fmt: skip
            )
        notes = tuple(n for n in reading.notes if n.day == e.day)
        evenings.append(PlannedEvening(e.day, tuple(rows), e.fee, state, notes))
    digest = _digest(data, [e.day for e in reading.evenings])
    return Preview(
        file_name,
        digest,
        book,
        layout,
        reading,
        tuple(names),
        tuple(evenings),
        tuple(problems),
        tuple(n for n in reading.notes if n.day is None),
        store.import_by_digest(db, club_id, digest),
        choices.settled,
        club.currency,
        club_rate(club),
    )


@dataclass(frozen=True)
class Imported:
    record: store.ImportRecord
    evenings: tuple[int, ...]
    members: tuple[int, ...]


def confirm(db, club_id: str, file_name: str, data: bytes, choices: Choices, limit: int = MAX_BYTES) -> Imported | None:
    """Store what the preview shows, all in one transaction or nothing; None when it adds nothing (the file, or each
    of its evenings, was imported before). Raises InputError while the preview has problems."""
    planned = preview(db, club_id, file_name, data, choices, limit)
    if planned.problems:
        raise InputError({"file": Msg("The file has problems; nothing was imported.")})
    if planned.before is not None or not planned.new_evenings:
        return None
    club = get_club(db, club_id)
    with writing(db):
        if store.import_by_digest(db, club_id, planned.digest) is not None:
            return None
        taken = store.imported_days(db, club_id)
        fresh = [e for e in planned.new_evenings if e.day.isoformat() not in taken]
        if not fresh:
            return None
        known = {same_name(m.name): m.id for m in store.club_members(db, club_id)}
        added: dict[str, int] = {}
        for name in planned.new_members:
            if same_name(name) in known:  # a member added meanwhile under this name
                added[same_name(name)] = known[same_name(name)]
            else:
                added[same_name(name)] = store.insert_member(db, club_id, name)
        new = tuple(v for k, v in added.items() if k not in known)
        import_id = store.insert_import(db, club_id, file_name[:200], planned.digest, len(fresh), len(new))
        fmt = club_format(club).as_dict()
        made = []
        for e in fresh:
            evening_id = store.insert_evening(
                db, club_id, e.day.isoformat(), e.fee, club_rate(club), "pairwise", club.currency, fmt
            )
            store.mark_imported(db, evening_id, import_id)
            for row in e.rows:
                member = row.member if row.member is not None else added[same_name(row.new_as or "")]
                store.put_imported_result(db, evening_id, member, exact(row.points), row.cents, row.hands, row.table)
            if choices.settled:
                data_now = evening(db, club_id, evening_id)
                balances = {str(k): v for k, v in data_now.result.net().items()}
                terms = {"date": e.day.isoformat(), "fee_cents": e.fee, "settlement": "pairwise"}
                store.settle_evening(db, evening_id, "pairwise", balances, terms)
            made.append(evening_id)
        record = next(r for r in store.club_imports(db, club_id) if r.id == import_id)
    return Imported(record, tuple(made), new)


def evening_files(db, evening_ids: list[int]) -> dict[int, str]:
    """The file each of these evenings was imported from (by evening id; none for an evening played here)."""
    return {e: r.file_name for e, r in store.evening_imports(db, evening_ids).items()}


def imports(db, club_id: str) -> list[store.ImportRecord]:
    """The club's log of imports, the latest first."""
    get_club(db, club_id)
    return store.club_imports(db, club_id)


# ---------------------------------------------------------------- an imported evening corrected


def imported_record(db, club_id: str, evening_id: int) -> store.ImportRecord:
    """The import an evening came from; ClubNotFound for an evening played here."""
    get_evening(db, club_id, evening_id)
    found = store.evening_imports(db, [evening_id]).get(evening_id)
    if found is None:
        raise ClubNotFound("imported evening")
    return found


def read_points(value: Any, field: str) -> Fraction:
    """Points as typed on the correction page: 12, -3, 10,5, ¾."""
    try:
        return read_number(
            ascii_written(str(value)),
            high=reader.amounts.POINTS_MAX,
            low=-reader.amounts.POINTS_MAX,
            fraction=True,
            exponent=False,
            messages={"shape": _("must be a number of points such as 12, -3 or 10,5")},
        )
    except NumberError as exc:
        raise InputError({field: message_of(exc)}) from None


def read_signed_money(value: Any, field: str) -> int | None:
    """Money as typed (it may be negative: a member's loss); empty: None."""
    text = str(value or "").strip().replace("\u2212", "-")
    if not text:
        return None
    sign = -1 if text.startswith("-") else 1
    return sign * parse_money(text.lstrip("+-").strip(), field)


def correct(db, club_id: str, evening_id: int, rows: list[dict[str, Any]]) -> None:
    """An imported evening's figures as the admin corrects them: per member (`member` id) the points, the money before
    the fee (empty: the points at the evening's rate) and the hands (empty: not counted); a member whose points are
    left empty is taken off the evening. All or nothing; InputError naming each wrong field (`rows.<i>.<field>`)."""
    imported_record(db, club_id, evening_id)
    known = members(db, club_id)
    errors: dict[str, Any] = {}
    wanted: dict[int, tuple] = {}
    for i, row in enumerate(rows):
        points_text = str(row.get("points") or "").strip()
        member = row.get("member")
        if not points_text:
            continue
        if member not in known:
            errors[f"rows.{i}.member"] = _("choose a member")
            continue
        if member in wanted:
            errors[f"rows.{i}.member"] = _("%(name)s is on the evening twice", name=known[member].name)
            continue
        try:
            points = read_points(points_text, f"rows.{i}.points")
            cents = read_signed_money(row.get("money"), f"rows.{i}.money")
            hands_text = str(row.get("hands") or "").strip()
            hands = None
            if hands_text:
                hands = reader.amounts.read_count(hands_text)
        except InputError as exc:
            errors.update(exc.errors)
            continue
        except reader.amounts.AmountProblem as exc:
            errors[f"rows.{i}.hands"] = exc.args[0]
            continue
        wanted[member] = (points, cents, hands, row.get("table"))
    if errors:
        raise InputError(errors)
    with writing(db):
        imported_record(db, club_id, evening_id)
        kept = store.imported_results(db, [evening_id]).get(evening_id, [])
        for old in kept:
            if old.member_id not in wanted:
                store.delete_imported_result(db, evening_id, old.member_id)
        tables = {old.member_id: old.table for old in kept}
        for member, (points, cents, hands, _table) in wanted.items():
            store.put_imported_result(db, evening_id, member, exact(points), cents, hands, tables.get(member))
