"""What the club pages do: check, store, and add up evenings and seasons. No HTTP here; the sums are scoring.club."""

from __future__ import annotations

import hashlib
import ipaddress
import secrets
from dataclasses import dataclass
from datetime import date as Date
from decimal import Decimal
from typing import Any

from flask_babel import gettext as _
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.core import VARIANTS, InputError, check_name, make_setup, settlement_points
from scorekeeper.core import club as club_rules
from scorekeeper.core.messages import message_of
from scorekeeper.core.numbers import NumberError, read_number
from scorekeeper.core.options import CURRENCIES
from scorekeeper.services import games as service
from scorekeeper.storage import store, writing

CLUB_NAME_MAX = 60
PASSWORD_MIN = 8
PASSWORD_MAX = 200
FEE_MAX = 10_000
# Wrong passwords, counted per club and client address: from the LOCK_AFTER-th in a row, each locks that address's
# login for LOCK_BASE × 2^k seconds, at most LOCK_MAX; a count is forgotten LOCK_FORGET seconds after its last lock ends.
LOCK_AFTER = 3
LOCK_BASE = 30
LOCK_MAX = 3600
LOCK_FORGET = 24 * 3600


class ClubNotFound(Exception):
    """No such club, member, evening or table."""


class LockedOut(Exception):
    """Too many wrong passwords: the login is closed for `retry_after` seconds."""

    def __init__(self, retry_after: int):
        super().__init__(retry_after)
        self.retry_after = retry_after


@dataclass(frozen=True)
class TableGame:
    record: store.ClubTableRecord
    scored_game: service.ScoredGame


@dataclass(frozen=True)
class EveningData:
    record: store.EveningRecord
    tables: tuple[TableGame, ...]
    result: club_rules.EveningResult


# ---------------------------------------------------------------- the club and its rules


def get_club(db, club_id: str) -> store.ClubRecord:
    club = store.get_club(db, club_id)
    if club is None:
        raise ClubNotFound("club")
    return club


def clubs(db, ids: list[str]) -> list[store.ClubRecord]:
    """The clubs with these ids (the ones this phone has opened), by name."""
    return store.list_clubs(db, ids)


def check_rules(variant: Any, options: Any, currency: str) -> dict:
    """The club's rule set as its tables will be started with it; raises InputError keyed like start_game's.

    Only a variant a club may play for money (FOR_MONEY) keeps the club's rate; the others give standings.
    """
    module = VARIANTS.get(variant) if isinstance(variant, str) else None
    if module is None:
        raise InputError({"variant": _("must be one of %(choices)s", choices=", ".join(VARIANTS))})
    given = dict(options or {})
    given["currency"] = currency if currency in CURRENCIES else module.OPTIONS["currency"].default
    if not module.FOR_MONEY:
        given["rate"] = None
    names = [f"P{i + 1}" for i in range(min(module.PLAYER_COUNTS))]
    return dict(make_setup(variant, names, 0, given).options)


def _check_club(data: dict, creating: bool) -> tuple[dict, dict]:
    errors: dict[str, str] = {}
    out: dict[str, Any] = {}
    try:
        out["name"] = check_name(data.get("name"), _("the club's name"), limit=CLUB_NAME_MAX)
    except ValueError as exc:
        errors["name"] = message_of(exc)
    currency = data.get("currency")
    if currency not in CURRENCIES:
        errors["currency"] = _("must be one of %(choices)s", choices=", ".join(CURRENCIES))
    out["currency"] = currency
    language = data.get("language") or None
    if language is not None and language not in service.LANGUAGES:
        errors["language"] = _("must be one of %(choices)s, or null", choices=", ".join(service.LANGUAGES))
    out["language"] = language
    try:
        out["options"] = check_rules(data.get("variant"), data.get("options"), currency)
        out["variant"] = data["variant"]
    except InputError as exc:
        errors.update(exc.errors)
    password = data.get("password")
    if creating or password:
        if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
            errors["password"] = _("must be %(low)d to %(high)d characters", low=PASSWORD_MIN, high=PASSWORD_MAX)
        else:
            out["password_hash"] = generate_password_hash(password)
    return out, errors


def create_club(db, data: dict) -> str:
    """Check and store a new club (name, currency, variant, options, password); answers its id."""
    club, errors = _check_club(data, creating=True)
    if errors:
        raise InputError(errors)
    club_id = secrets.token_urlsafe(8)
    with writing(db):
        store.insert_club(db, id=club_id, **club)
    return club_id


def update_club(db, club_id: str, data: dict) -> None:
    """Change the club's name, currency or rule set (or password); tables already started keep their rules."""
    get_club(db, club_id)
    club, errors = _check_club(data, creating=False)
    if errors:
        raise InputError(errors)
    with writing(db):
        store.update_club(db, club_id, **club)


def admin_token(club: store.ClubRecord) -> str:
    """What a logged-in phone keeps: it changes with the password, which logs every other phone out."""
    return hashlib.sha256(club.password_hash.encode()).hexdigest()[:24]


def client_key(address: Any) -> str:
    """Whom the login throttle counts: an IPv4 address, or an IPv6 client's /64 network (one home or phone line can
    take any address in it); anything else as given."""
    try:
        ip = ipaddress.ip_address(str(address or "").strip())
    except ValueError:
        return str(address or "")[:100]
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def login_lock(db, club_id: str, address: Any, now: float) -> float | None:
    """Until when the admin login is closed for this address (None: open)."""
    return store.club_login(db, club_id, client_key(address), now)[1]


def login(db, club_id: str, password: Any, now: float, address: Any) -> bool:
    """Check the admin password. Wrong ones are counted per club and client address and close the login for that
    address for longer and longer; wrong passwords from one address never refuse the right one from another, and the
    right one clears its own address's count."""
    club = get_club(db, club_id)
    key = client_key(address)
    locked_until = store.club_login(db, club_id, key, now)[1]
    if locked_until is not None and now < locked_until:
        raise LockedOut(max(1, int(locked_until - now + 0.999)))
    ok = isinstance(password, str) and check_password_hash(club.password_hash, password)
    with writing(db):
        if ok:
            store.set_club_login(db, club_id, key, 0, None, now, now)
        else:
            failures = store.club_login(db, club_id, key, now)[0] + 1
            locked = None
            if failures >= LOCK_AFTER:
                locked = now + min(LOCK_BASE * 2 ** (failures - LOCK_AFTER), LOCK_MAX)
            store.set_club_login(db, club_id, key, failures, locked, (locked or now) + LOCK_FORGET, now)
    return ok


# ---------------------------------------------------------------- members


def members(db, club_id: str) -> dict[int, store.MemberRecord]:
    return {m.id: m for m in store.club_members(db, club_id)}


def _member_name(db, club_id: str, name: Any, member_id: int | None = None) -> str:
    try:
        name = check_name(name, _("the name"))
    except ValueError as exc:
        raise InputError({"name": message_of(exc)}) from None
    for other in store.club_members(db, club_id):
        if other.id != member_id and other.name.casefold() == name.casefold():
            raise InputError({"name": _("the club already has a member called %(name)s", name=other.name)})
    return name


def add_member(db, club_id: str, name: Any) -> int:
    get_club(db, club_id)
    with writing(db):
        return store.insert_member(db, club_id, _member_name(db, club_id, name))


def add_members(db, club_id: str, names: list[Any]) -> list[int]:
    """Several members at once, all or none: each name checked, a name twice in the list refused by name."""
    get_club(db, club_id)
    errors: dict = {}
    checked: list[str] = []
    with writing(db):
        for i, name in enumerate(names):
            try:
                name = _member_name(db, club_id, name)
            except InputError as exc:
                errors[f"names.{i}"] = exc.errors["name"]
                continue
            twice = next((other for other in checked if other.casefold() == name.casefold()), None)
            if twice is not None:
                errors[f"names.{i}"] = _("%(name)s is in the list twice", name=twice)
            checked.append(name)
        if not names:
            errors["names"] = _("Enter a name.")
        if errors:
            raise InputError(errors)
        return [store.insert_member(db, club_id, name) for name in checked]


def _member(db, club_id: str, member_id: int) -> store.MemberRecord:
    found = members(db, club_id).get(member_id)
    if found is None:
        raise ClubNotFound("member")
    return found


def rename_member(db, club_id: str, member_id: int, name: Any) -> None:
    """A new name for a member; their old results follow them (tables keep member ids), and so do the score sheets
    of the tables they played."""
    with writing(db):
        _member(db, club_id, member_id)
        store.rename_member(db, club_id, member_id, _member_name(db, club_id, name, member_id))


def set_retired(db, club_id: str, member_id: int, retired: bool) -> None:
    """A retired member keeps their old results but is no longer offered for new tables."""
    with writing(db):
        _member(db, club_id, member_id)
        store.retire_member(db, club_id, member_id, retired)


# ---------------------------------------------------------------- evenings and tables


def parse_date(value: Any, field: str = "date") -> str:
    try:
        return Date.fromisoformat(str(value).strip()).isoformat()
    except ValueError:
        raise InputError({field: _("must be a date such as 2026-01-31")}) from None


def parse_money(value: Any, field: str = "fee") -> int:
    """An amount typed as 20, 20.5 or 20,50 in cents; empty is 0. Read by the core's one strict number reader: ASCII
    digits, no exponent, bounded before any arithmetic."""
    text = str(value or "").strip().replace(",", ".")
    if not text:
        return 0
    wrong = _("must be an amount such as 20 or 12.50")
    out_of_range = _("must be an amount from 0 to %(max)s with at most two decimals", max=FEE_MAX)
    try:
        amount = read_number(
            text,
            high=FEE_MAX,
            places=2,
            exponent=False,
            messages={"shape": wrong, "range": out_of_range, "places": out_of_range},
        )
    except NumberError as exc:
        raise InputError({field: message_of(exc)}) from None
    return int(amount * 100)


def club_rate(club: store.ClubRecord) -> str | None:
    """Money per point of the club's evenings: only for a variant a club may play for money."""
    rate = club.options.get("rate") if VARIANTS[club.variant].FOR_MONEY else None
    return None if rate is None else str(Decimal(str(rate)))


def _check_evening(date: Any, fee: Any, settlement: Any) -> tuple[str, int]:
    """An evening's date and fee as stored (ISO date, cents), or InputError naming every wrong field."""
    errors: dict[str, str] = {}
    day = fee_cents = None
    try:
        day = parse_date(date)
    except InputError as exc:
        errors.update(exc.errors)
    try:
        fee_cents = parse_money(fee)
    except InputError as exc:
        errors.update(exc.errors)
    if settlement not in club_rules.SETTLEMENTS:
        errors["settlement"] = _("must be one of %(choices)s", choices=", ".join(club_rules.SETTLEMENTS))
    if errors:
        raise InputError(errors)
    return day, fee_cents


def create_evening(db, club_id: str, date: Any, fee: Any = None, settlement: str = "pairwise") -> int:
    """A card evening at the club's rate and in its currency as they are today (later changes leave it alone)."""
    club = get_club(db, club_id)
    day, fee_cents = _check_evening(date, fee, settlement)
    with writing(db):
        return store.insert_evening(db, club_id, day, fee_cents, club_rate(club), settlement, club.currency)


def change_evening(db, club_id: str, evening_id: int, date: Any, fee: Any = None, settlement: str = "pairwise") -> None:
    """Correct an evening's date, fee or way of settling up. Its rate stays; a settled evening stays marked settled
    with the balances it was settled at, so a changed fee shows on its result as a change since settling."""
    day, fee_cents = _check_evening(date, fee, settlement)
    with writing(db):
        get_evening(db, club_id, evening_id)
        store.update_evening(db, evening_id, day, fee_cents, settlement)


def table_count(db, evening_id: int) -> int:
    return store.count_club_tables(db, evening_id)


def delete_evening(db, club_id: str, evening_id: int) -> None:
    """Delete an evening made by mistake: only while it has no tables (take them off first)."""
    with writing(db):
        get_evening(db, club_id, evening_id)
        if table_count(db, evening_id):
            raise InputError({"evening": _("this evening has tables; take them off the evening first")})
        store.delete_evening(db, evening_id)


def evening_records(db, club_id: str) -> list[store.EveningRecord]:
    return store.club_evenings(db, club_id)


def get_evening(db, club_id: str, evening_id: int) -> store.EveningRecord:
    evening = store.get_evening(db, club_id, evening_id)
    if evening is None:
        raise ClubNotFound("evening")
    return evening


def table_options(club: store.ClubRecord, variant: str) -> dict:
    """A table plays the club's rule set; another variant gets its own defaults and is not played for money."""
    if variant == club.variant:
        return dict(club.options)
    options = {"currency": club.currency} if "currency" in VARIANTS[variant].OPTIONS else {}
    if "rate" in VARIANTS[variant].OPTIONS:
        options["rate"] = None
    return options


def add_table(
    db, club_id: str, evening_id: int, member_ids: Any, dealer: Any = 0, variant: str | None = None
) -> tuple[str, str, int]:
    """Start a game for members of the club (through service.start_game) and make it the evening's next table.

    Answers (game id, edit key, table number).
    """
    club = get_club(db, club_id)
    evening = get_evening(db, club_id, evening_id)
    variant = variant or club.variant
    if variant not in VARIANTS:
        raise InputError({"variant": _("must be one of %(choices)s", choices=", ".join(VARIANTS))})
    known = members(db, club_id)
    if not isinstance(member_ids, list) or not all(isinstance(m, int) for m in member_ids):
        raise InputError({"players": _("choose the members in seating order")})
    for member_id in member_ids:
        if member_id not in known:
            raise InputError({"players": _("not a member of this club")})
        if known[member_id].retired:
            raise InputError({"players": _("%(name)s has retired", name=known[member_id].name)})
    if len(set(member_ids)) != len(member_ids):
        raise InputError({"players": _("a member can have only one seat at a table")})
    number = len(store.club_tables(db, [evening.id])) + 1
    options = table_options(club, variant)
    if "currency" in options and evening.currency:  # the evening's currency, though the club's has changed since
        options["currency"] = evening.currency
    game_id, key = service.start_game(
        db,
        {
            "variant": variant,
            "players": [known[m].name for m in member_ids],
            "dealer": dealer,
            "title": _("Table %(n)d · %(date)s", n=number, date=evening.date),
            "options": options,
            "language": club.language,
        },
    )
    # The game is its own transaction in start_game; if the link fails, an unlinked game is all that is left.
    with writing(db):
        get_evening(db, club_id, evening_id)
        number = store.insert_club_table(db, evening_id, game_id, member_ids)
    return game_id, key, number


def remove_table(db, club_id: str, evening_id: int, game_id: str) -> None:
    """Take a table created by mistake off the evening; only while it has no hands (the game itself stays)."""
    get_evening(db, club_id, evening_id)
    with writing(db):
        if not any(t.game_id == game_id for t in store.club_tables(db, [evening_id])):
            raise ClubNotFound("table")
        if store.count_hands(db, game_id):
            raise InputError({"table": _("this table has hands; it stays on the evening")})
        store.delete_club_table(db, evening_id, game_id)


# ---------------------------------------------------------------- results


def _pure_table(record: store.ClubTableRecord, scored_game: service.ScoredGame) -> club_rules.Table:
    p = scored_game.protokoll
    if p.games_won is not None:
        won = tuple(p.games_won)
    else:
        won = tuple(int(p.finished and p.winner == s) for s in range(len(p.sides)))
    hands = tuple(club_rules.Hand(tuple(h.points), h.sitting_out, dict(h.input)) for h in p.hands)
    money = VARIANTS[scored_game.game.variant].FOR_MONEY
    return club_rules.Table(
        record.members,
        p.sides,
        hands,
        money,
        won,
        dict(scored_game.game.options),
        settlement_points(p) if money else (),
        scored_game.game.variant,
    )


def _settled(balances: dict | None) -> dict | None:
    if balances is None:
        return None
    return {(club_rules.KITTY if k == club_rules.KITTY else int(k)): v for k, v in balances.items()}


def _evenings(db, records: list[store.EveningRecord], settlement: dict[int, str] | None = None) -> list[EveningData]:
    tables: dict[int, list[TableGame]] = {}
    for t in store.club_tables(db, [e.id for e in records]):
        tables.setdefault(t.evening_id, []).append(TableGame(t, service.load(db, t.game_id)))
    out = []
    for e in records:
        mine = tuple(tables.get(e.id, ()))
        evening = club_rules.Evening(
            e.id,
            e.date,
            tuple(_pure_table(t.record, t.scored_game) for t in mine),
            Decimal(e.rate) if e.rate is not None else None,
            e.fee_cents,
            (settlement or {}).get(e.id, e.settlement),
            _settled(e.settled_balances),
            e.currency,
            (e.settled_terms or {}).get("fee_cents"),
        )
        out.append(EveningData(e, mine, club_rules.evening_result(evening)))
    return out


def evening(db, club_id: str, evening_id: int, settlement: str | None = None) -> EveningData:
    """An evening with its tables and its result (settled as `settlement` says, else as the evening is set)."""
    record = get_evening(db, club_id, evening_id)
    return _evenings(db, [record], {record.id: settlement} if settlement in club_rules.SETTLEMENTS else None)[0]


def evenings(db, club_id: str, start: str | None = None, end: str | None = None) -> list[EveningData]:
    get_club(db, club_id)
    return _evenings(db, store.club_evenings(db, club_id, start, end))


def set_settled(db, club_id: str, evening_id: int, settlement: str, settled: bool) -> None:
    """Choose how the evening settles; marking it settled keeps what each party's net was at that moment."""
    if settlement not in club_rules.SETTLEMENTS:
        raise InputError({"settlement": _("must be one of %(choices)s", choices=", ".join(club_rules.SETTLEMENTS))})
    with writing(db):
        data = evening(db, club_id, evening_id, settlement)
        balances = {str(k): v for k, v in data.result.net().items()} if settled else None
        terms = {"date": data.record.date, "fee_cents": data.record.fee_cents, "settlement": settlement}
        store.settle_evening(db, evening_id, settlement, balances, terms)


def date_range(start: Any, end: Any) -> tuple[str | None, str | None]:
    """The ledger's filter: ISO dates or empty; raises InputError naming `from` or `to`."""
    out = []
    for value, field in ((start, "from"), (end, "to")):
        out.append(parse_date(value, field) if value not in (None, "") else None)
    if out[0] and out[1] and out[0] > out[1]:
        raise InputError({"to": _("The end date is before the start date: choose a “To” on or after the “From”.")})
    return out[0], out[1]


def season(db, club_id: str, start: str | None = None, end: str | None = None) -> club_rules.Ledger:
    """The ledger of the evenings from `start` to `end`: every member of the club has a line."""
    results = [e.result for e in evenings(db, club_id, start, end)]
    return club_rules.ledger(results, members(db, club_id))


def stats(db, club_id: str, start: str | None = None, end: str | None = None) -> tuple[club_rules.MemberStats, ...]:
    pure = [e.result.evening for e in evenings(db, club_id, start, end)]
    return club_rules.member_stats(pure, members(db, club_id))
