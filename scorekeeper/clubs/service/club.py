"""The club and its rules: its card checked, created and changed, the admin's password and the login throttle, the evening's format."""

from __future__ import annotations

import hashlib
import ipaddress
import secrets
from typing import Any

from flask_babel import gettext as _
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.clubs.rules import club as club_rules
from scorekeeper.clubs.rules import evening as evening_rules
from scorekeeper.clubs.service.common import (
    CLUB_NAME_MAX,
    FEE_MAX,
    LOCK_AFTER,
    LOCK_BASE,
    LOCK_FORGET,
    LOCK_MAX,
    NETWORK_LOCK_AFTER,
    PASSWORD_MAX,
    PASSWORD_MIN,
    ClubNotFound,
    LockedOut,
    parse_money,
)
from scorekeeper.core import VARIANTS, InputError, check_name, rule_set_options
from scorekeeper.core.messages import message_of
from scorekeeper.core.options import CURRENCIES
from scorekeeper.games import service
from scorekeeper.storage import store, writing

# ---------------------------------------------------------------- the club and its rules


def get_club(db, club_id: str) -> store.ClubRecord:
    club = store.get_club(db, club_id)
    if club is None:
        raise ClubNotFound("club")
    return club


def clubs(db, ids: list[str]) -> list[store.ClubRecord]:
    """The clubs with these ids (the ones this phone has opened), by name."""
    return store.list_clubs(db, ids)


def check_rules(variant: Any, options: Any, currency: Any) -> dict:
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
