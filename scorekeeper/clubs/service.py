"""What the club pages do: check, store, and add up evenings and seasons. No HTTP here; the sums are scoring.club."""

from __future__ import annotations

import hashlib
import ipaddress
import random
import secrets
from dataclasses import dataclass
from datetime import date as Date
from decimal import Decimal
from typing import Any

from flask_babel import gettext as _
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.clubs.rules import club as club_rules
from scorekeeper.clubs.rules import evening as evening_rules
from scorekeeper.core import VARIANTS, InputError, check_name, rule_set_options, settlement_points
from scorekeeper.core.messages import message_of
from scorekeeper.core.numbers import NumberError, read_number
from scorekeeper.core.options import CURRENCIES
from scorekeeper.games import service
from scorekeeper.storage import store, writing

CLUB_NAME_MAX = 60
PASSWORD_MIN = 8
PASSWORD_MAX = 200
FEE_MAX = 10_000
# Wrong passwords, counted per club and client address: from the LOCK_AFTER-th in a row, each locks that address's
# login for LOCK_BASE × 2^k seconds, at most LOCK_MAX; a count is forgotten LOCK_FORGET seconds after its last lock ends.
LOCK_AFTER = 3
# An IPv6 client is its address (each phone on a club's Wi-Fi has its own); the addresses of one /64 together, unknown
# phones all, lock after NETWORK_LOCK_AFTER, so one client taking many addresses of its network is bounded too.
NETWORK_LOCK_AFTER = 12
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
class TablePlace:
    """A game that is a club's table: the club, the evening, the table (its half and number) and the halves of its
    evening."""

    club: store.ClubRecord
    evening: store.EveningRecord
    table: store.ClubTableRecord
    halves: int = 1


@dataclass(frozen=True)
class EveningData:
    record: store.EveningRecord
    tables: tuple[TableGame, ...]
    result: club_rules.EveningResult
    format: evening_rules.Format = evening_rules.Format()
    standings: tuple[evening_rules.Standing, ...] = ()
    places: tuple[evening_rules.Place, ...] = ()
    prizes: tuple[evening_rules.Prize, ...] = ()

    @property
    def half(self) -> int:
        """The half being played: the latest with a table (1 before any)."""
        return max((t.record.half for t in self.tables), default=1)


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

    Checked for every table size the variant has, not one: a club keeps any house rule its tables may use, and what
    depends on a table's size (Scotch's teams, Plump's cards) is checked when a table starts (add_table). Only a
    variant a club may play for money (FOR_MONEY) keeps the club's rate; the others give standings.
    """
    module = VARIANTS.get(variant) if isinstance(variant, str) else None
    if module is None:
        raise InputError({"variant": _("must be one of %(choices)s", choices=", ".join(VARIANTS))})
    given = dict(options or {}) if isinstance(options, dict) or options is None else options
    if isinstance(given, dict):
        if "currency" in module.OPTIONS:
            given["currency"] = currency if currency in CURRENCIES else module.OPTIONS["currency"].default
        if not module.FOR_MONEY and "rate" in module.OPTIONS:
            given["rate"] = None
    resolved, errors = rule_set_options(module, given)
    if errors:
        raise InputError(errors)
    return resolved


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
    if "evening" in data or creating:
        try:
            out["evening_defaults"] = _check_evening_defaults(data.get("evening") or {})
        except InputError as exc:
            errors.update(exc.errors)
    password = data.get("password")
    if creating or password:
        if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
            errors["password"] = _("must be %(low)d to %(high)d characters", low=PASSWORD_MIN, high=PASSWORD_MAX)
        else:
            out["password_hash"] = generate_password_hash(password)
    return out, errors


def _check_evening_defaults(given: Any) -> dict[str, Any]:
    """The evening's defaults on the club's card: a fee per member (an amount, as the evening form takes it) and the
    way of settling up; errors keyed evening.fee, evening.settlement."""
    if not isinstance(given, dict):
        raise InputError({"evening": _("must be the evening's fee and way of settling up")})
    errors: dict[str, str] = {}
    fee_cents = 0
    try:
        fee = given.get("fee_cents")
        if fee is not None:
            if isinstance(fee, bool) or not isinstance(fee, int) or not 0 <= fee <= FEE_MAX * 100:
                raise InputError(
                    {"fee": _("must be an amount from 0 to %(max)s with at most two decimals", max=FEE_MAX)}
                )
            fee_cents = fee
        else:
            fee_cents = parse_money(given.get("fee"))
    except InputError as exc:
        errors["evening.fee"] = exc.errors["fee"]
    settlement = given.get("settlement") or "pairwise"
    if settlement not in club_rules.SETTLEMENTS:
        errors["evening.settlement"] = _("must be one of %(choices)s", choices=", ".join(club_rules.SETTLEMENTS))
    if errors:
        raise InputError(errors)
    return {"fee_cents": fee_cents, "settlement": settlement}


def evening_defaults(club: store.ClubRecord) -> dict[str, Any]:
    """What a new evening of the club starts from: its card's fee per member and way of settling up."""
    return {"fee_cents": 0, "settlement": "pairwise"} | dict(club.evening_defaults or {})


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


def client_key(address: Any, whole: bool = False) -> str:
    """Whom a budget counts: an IPv4 address, or an IPv6 client's /64 network (one home or phone line can take any
    address in it; with `whole`, the IPv6 address itself: each phone on a club's Wi-Fi); anything else as given."""
    try:
        ip = ipaddress.ip_address(str(address or "").strip())
    except ValueError:
        return str(address or "")[:100]
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    if ip.version == 6 and not whole:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def throttle_keys(address: Any, device: str | None = None) -> list[tuple[str, int]]:
    """Whose wrong passwords a login counts, each with the count that locks it: a phone that logged in to the club
    before (its device id, from a signed cookie) by itself; any other by its address, and an IPv6 one by its /64 too."""
    if device:
        return [(f"device:{device}", LOCK_AFTER)]
    key = client_key(address, whole=True)
    network = client_key(address)
    return [(key, LOCK_AFTER)] + ([(network, NETWORK_LOCK_AFTER)] if network != key else [])


def login_lock(db, club_id: str, address: Any, now: float) -> float | None:
    """Until when the admin login is closed for this address, an unknown phone (None: open)."""
    locks = [store.club_login(db, club_id, key, now)[1] for key, _after in throttle_keys(address)]
    return max((lock for lock in locks if lock is not None and lock > now), default=None)


def login(db, club_id: str, password: Any, now: float, address: Any, device: str | None = None) -> bool:
    """Check the admin password. Wrong ones are counted per club and client (throttle_keys) and close the login for
    that client for longer and longer; wrong passwords from one client never refuse the right one from another, and
    the right one clears its own client's count. A locked client's password is not checked: were it, the lock would
    only change the answer to a guess, not stop the guessing."""
    club = get_club(db, club_id)
    keys = throttle_keys(address, device)
    counts = {key: store.club_login(db, club_id, key, now) for key, _after in keys}
    locked_until = max((until for _n, until in counts.values() if until is not None), default=None)
    if locked_until is not None and now < locked_until:
        raise LockedOut(max(1, int(locked_until - now + 0.999)))
    ok = isinstance(password, str) and check_password_hash(club.password_hash, password)
    with writing(db):
        if ok:
            store.set_club_login(db, club_id, keys[0][0], 0, None, now, now)
        else:
            for key, after in keys:
                failures = counts[key][0] + 1
                locked = None
                if failures >= after:
                    locked = now + min(LOCK_BASE * 2 ** (failures - after), LOCK_MAX)
                store.set_club_login(db, club_id, key, failures, locked, (locked or now) + LOCK_FORGET, now)
    return ok


# ---------------------------------------------------------------- the evening's format (the club's card)


def club_format(club: store.ClubRecord) -> evening_rules.Format:
    """How the club plays an evening; a club that never said: one half, as many deals as a table likes, no prizes."""
    return _stored_format(club.evening_format)


def _stored_format(data: dict | None) -> evening_rules.Format:
    try:
        return evening_rules.read_format(data)
    except evening_rules.FormatError:
        return evening_rules.Format()


def evening_format(record: store.EveningRecord) -> evening_rules.Format:
    """The format an evening was made with (one half for an evening made before formats)."""
    return _stored_format(record.format)


FORMAT_FIELDS = {
    "halves": lambda low, high: _("must be a whole number from %(low)d to %(high)d", low=low, high=high),
    "deals": lambda low, high: _("must be a whole number from %(low)d to %(high)d, or empty", low=low, high=high),
    "places": lambda low, high: _("must be a whole number from %(low)d to %(high)d", low=low, high=high),
    "prizes": lambda low, high: _("must be among %(choices)s", choices=", ".join(evening_rules.PRIZE_KINDS)),
}


def check_format(data: Any) -> evening_rules.Format:
    """A format as typed (whole numbers or text of digits; deals empty for none); InputError names each wrong field."""
    if not isinstance(data, dict):
        raise InputError({"format": _("must be an object with halves, deals, places and prizes")})
    errors: dict[str, str] = {}
    given: dict[str, Any] = {}
    for name in ("halves", "deals", "places"):
        value = data.get(name)
        if isinstance(value, str):
            value = value.strip()
            value = None if not value else int(value) if value.isascii() and value.isdigit() and len(value) < 4 else -1
        given[name] = value
    given["halves"] = 1 if given["halves"] is None else given["halves"]
    given["places"] = 0 if given["places"] is None else given["places"]
    given["prizes"] = data.get("prizes") or []
    for name, message in FORMAT_FIELDS.items():
        try:
            evening_rules.read_format(evening_rules.Format().as_dict() | {name: given[name]})
        except evening_rules.FormatError as exc:
            errors[name] = message(exc.low, exc.high)
    if errors:
        raise InputError(errors)
    return evening_rules.read_format(given)


def set_format(db, club_id: str, data: Any) -> evening_rules.Format:
    """Put the evening's format on the club's card: evenings made from now on are played so (made ones keep theirs)."""
    get_club(db, club_id)
    fmt = check_format(data)
    with writing(db):
        store.set_club_format(db, club_id, fmt.as_dict())
    return fmt


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


def create_evening(db, club_id: str, date: Any, fee: Any = None, settlement: str | None = None) -> int:
    """A card evening at the club's rate and in its currency as they are today (later changes leave it alone); the
    fee and the way of settling up not given are the club card's defaults."""
    club = get_club(db, club_id)
    defaults = evening_defaults(club)
    if fee is None:
        fee = f"{defaults['fee_cents'] // 100}.{defaults['fee_cents'] % 100:02d}"
    settlement = settlement or defaults["settlement"]
    day, fee_cents = _check_evening(date, fee, settlement)
    fmt = club_format(club).as_dict()
    with writing(db):
        return store.insert_evening(db, club_id, day, fee_cents, club_rate(club), settlement, club.currency, fmt)


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


CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud and typed on a phone
CODE_LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: Any) -> str | None:
    """A typed table code as stored: capitals, without spaces or dashes; None if it cannot be one."""
    if not isinstance(text, str):
        return None
    code = "".join(c for c in text.upper() if c not in " -\t")
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def claim_code(db, code: Any, club_id: str | None = None) -> tuple[str, str] | None:
    """The table a code hands over: (game id, the table's handed key, which gives its edit right); None if no table
    (of this club, when one is named) has this code."""
    code = normal_code(code)
    game_id = store.table_by_code(db, code) if code else None
    if game_id is None:
        return None
    if club_id is not None and (store.club_table_of(db, game_id) or (None, None))[1] != club_id:
        return None
    game = store.get_game(db, game_id)
    return (game_id, service.handed_key(game)) if game else None


def add_table(
    db,
    club_id: str,
    evening_id: int,
    member_ids: Any,
    dealer: Any = 0,
    variant: str | None = None,
    half: int | None = None,
    place: int | None = None,
) -> tuple[str, str, int]:
    """Start a game for members of the club (through service.start_game) and make it the evening's next table, in
    `half` (the evening's latest when not said), dealt for the format's deals per half when the variant counts deals.

    Answers (game id, edit key, table number). The game has no title: its title is built where it is shown (its
    number, its half, its evening's date, in the reader's language).
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
    options = table_options(club, variant)
    if "currency" in options and evening.currency:  # the evening's currency, though the club's has changed since
        options["currency"] = evening.currency
    fmt = evening_format(evening)
    if fmt.deals and "deals" in VARIANTS[variant].OPTIONS:
        options["deals"] = fmt.deals
    if half is None:
        half = max((t.half for t in store.club_tables(db, [evening.id])), default=1)
    game_id, key = service.start_game(
        db,
        {
            "variant": variant,
            "players": [known[m].name for m in member_ids],
            "dealer": dealer,
            "options": options,
            "language": club.language,
        },
    )
    # The game is its own transaction in start_game; if the link fails, an unlinked game is all that is left.
    with writing(db):
        get_evening(db, club_id, evening_id)
        number = store.insert_club_table(db, evening_id, game_id, member_ids, half, place, _free_code(db))
    return game_id, key, number


def _free_code(db) -> str:
    while True:
        code = new_code()
        if store.table_by_code(db, code) is None:
            return code


def evening_tables(db, evening_id: int) -> list[store.ClubTableRecord]:
    """An evening's tables, by number, with their seats, halves and codes."""
    return store.club_tables(db, [evening_id])


def table_of(db, game_id: str) -> TablePlace | None:
    """Where a game sits in a club: its club, evening and table; None for a game of no club."""
    found = store.club_table_of(db, game_id)
    if found is None:
        return None
    record, club_id = found
    club = store.get_club(db, club_id)
    evening = store.get_evening(db, club_id, record.evening_id)
    if club is None or evening is None:
        return None
    return TablePlace(club, evening, record, evening_format(evening).halves)


def play_again(db, game_id: str, key: Any) -> tuple[str, str, int] | None:
    """Play again at a club table: the evening's next table, with the same members, dealt first by the next dealer,
    in the same half. For the phone holding the table's key (its scorer), not only the admin. None for a game of no
    club (the ordinary Play again)."""
    place = table_of(db, game_id)
    if place is None:
        return None
    scored_game = service.load(db, game_id)
    if not service.key_matches(scored_game.game, key):
        raise InputError({"key": _("this phone may not change this table")})
    return add_table(
        db,
        place.club.id,
        place.evening.id,
        list(place.table.members),
        scored_game.protokoll.next_dealer,
        scored_game.game.variant,
        place.table.half,
    )


def remove_table(db, club_id: str, evening_id: int, game_id: str) -> None:
    """Take a table created by mistake off the evening; only while it has no hands (the game itself stays)."""
    get_evening(db, club_id, evening_id)
    with writing(db):
        if not any(t.game_id == game_id for t in store.club_tables(db, [evening_id])):
            raise ClubNotFound("table")
        if store.count_hands(db, game_id):
            raise InputError({"table": _("this table has hands; it stays on the evening")})
        store.delete_club_table(db, evening_id, game_id)


# ---------------------------------------------------------------- the break: the next half's draw


def _halves(tables: list[store.ClubTableRecord]) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for t in tables:
        out.setdefault(t.half, set()).update(t.members)
    return out


def make_draw(db, club_id: str, evening_id: int, rng: random.Random | None = None) -> dict:
    """Draw the next half's tables by lot (core.evening.draw: everyone present this evening, as few pairs meeting
    again as the numbers allow) and keep the draw on the evening until it is started; drawing again replaces it."""
    club = get_club(db, club_id)
    evening = get_evening(db, club_id, evening_id)
    tables = store.club_tables(db, [evening_id])
    if not tables:
        raise InputError({"draw": _("start the first half's tables first")})
    halves = _halves(tables)
    half = max(halves)
    fmt = evening_format(evening)
    if half >= fmt.halves:
        raise InputError({"draw": _("the evening's last half is being played: there is no break to draw for")})
    players = list(dict.fromkeys(m for t in tables for m in t.members))
    retired = {m for m, r in members(db, club_id).items() if r.retired}
    players = [m for m in players if m not in retired]
    sat_out = {m: sum(1 for seated in halves.values() if m not in seated) for m in players}
    rng = rng or random.Random(secrets.randbits(64))
    found = evening_rules.draw(players, [t.members for t in tables], VARIANTS[club.variant].PLAYER_COUNTS, rng, sat_out)
    draw = {
        "half": half + 1,
        "tables": [list(t) for t in found.tables],
        "out": list(found.sitting_out),
        "repeats": found.repeats,
        "complete": found.complete,
    }
    with writing(db):
        get_evening(db, club_id, evening_id)
        store.set_evening_draw(db, evening_id, draw)
    return draw


def start_draw(db, club_id: str, evening_id: int) -> list[tuple[str, str, int]]:
    """Start the drawn tables, all in one: each a table of the club's rules in the next half, numbered 1, 2 … within
    it, seat 1 dealing first. The draw is taken off the evening first, so a second tap starts nothing twice."""
    with writing(db):
        evening = get_evening(db, club_id, evening_id)
        draw = evening.draw
        if not draw:
            raise InputError({"draw": _("there is no draw waiting to be started")})
        store.set_evening_draw(db, evening_id, None)
    started = []
    for place, seated in enumerate(draw["tables"], 1):
        started.append(add_table(db, club_id, evening_id, list(seated), 0, None, draw["half"], place))
    return started


def cancel_draw(db, club_id: str, evening_id: int) -> None:
    with writing(db):
        get_evening(db, club_id, evening_id)
        store.set_evening_draw(db, evening_id, None)


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
        record.half,
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
        result = club_rules.evening_result(evening)
        fmt = evening_format(e)
        standings = club_rules.standings(result, fmt.halves)
        places = evening_rules.ranked(standings)
        out.append(EveningData(e, mine, result, fmt, standings, places, evening_rules.prizes(standings, fmt)))
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
