"""A drive's money: the entry fee and the prizes as the organiser sets them (checked, kept apart from the setup,
migration m108), and who wins each prize now, with the draws the app has made."""

from __future__ import annotations

from typing import Any, Protocol

from scorekeeper.clubs.service import parse_money
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.core.options import LANGUAGE_CURRENCY
from scorekeeper.drives import rules as core
from scorekeeper.drives.rules import Drive, DriveSetup
from scorekeeper.storage import store


class Replayed(Protocol):
    """What is read of a replayed drive here (drives/service.ScoredDrive)."""

    @property
    def drive(self) -> Drive: ...

    @property
    def record(self) -> store.DriveRecord: ...


CURRENCIES = ("DKK", "NOK", "SEK", "EUR", "GBP", "USD")
PRIZE_NAME_MAX = 80
# What POST /api/drives takes besides the setup: the money, kept apart from the setup (migration m108).
MONEY_FIELDS = ("currency", "fee", "prizes", "one_prize_each", "prize_ties")


def default_currency(language: str | None) -> str:
    """The currency a drive gets when none is given: the drive's language's (Danish kroner in Danish…)."""
    return LANGUAGE_CURRENCY.get((language or "")[:2], "DKK")


def split_money(body: Any) -> tuple[Any, dict | None]:
    """An API body as (setup, money): the money fields taken out (None when there are none)."""
    if not isinstance(body, dict):
        return body, None
    money = {k: body[k] for k in MONEY_FIELDS if k in body}
    setup = {k: v for k, v in body.items() if k not in MONEY_FIELDS}
    return setup, money or None


def check_money(data: Any, setup: DriveSetup, language: str | None = None) -> dict:
    """The drive's money as stored: {"currency", "fee" (cents per player), "prizes": [{"kind", "role", "place",
    "name", "amount" (cents; 0 for a prize that is not cash or was given)}], "one_prize_each", "prize_ties"} from the
    organiser's fields; InputError naming each wrong one (fee, currency, prizes.<n>.<field>, prize_ties…)."""
    if not isinstance(data, dict):
        raise InputError({"money": Msg("must be an object")})
    errors: dict[str, Any] = {}
    currency = data.get("currency") or default_currency(language)
    if currency not in CURRENCIES:
        errors["currency"] = Msg("must be one of %(choices)s", choices=", ".join(CURRENCIES))
    fee = 0
    try:
        fee = parse_money(data.get("fee"), "fee")
    except InputError as exc:
        errors.update(exc.errors)
    raw_prizes = data.get("prizes") or []
    if not isinstance(raw_prizes, list) or len(raw_prizes) > core.MAX_PRIZES:
        errors["prizes"] = Msg("must be a list of at most %(max)d prizes", max=core.MAX_PRIZES)
        raw_prizes = []
    prizes = []
    for n, prize in enumerate(raw_prizes, start=1):
        where = f"prizes.{n}"
        if not isinstance(prize, dict):
            errors[where] = Msg('must be an object such as {"kind": "place", "role": "lady", "place": 1}')
            continue
        unknown = sorted(set(prize) - {"kind", "role", "place", "name", "amount"})
        if unknown:
            errors[f"{where}.{unknown[0]}"] = Msg("unknown field")
            continue
        try:
            rule = core.check_prize(setup, prize)
        except InputError as exc:
            errors.update({f"{where}.{k}": v for k, v in exc.errors.items()})
            continue
        name = str(prize.get("name") or "").strip()
        if len(name) > PRIZE_NAME_MAX or any(ord(c) < 32 or c in "<>" for c in name):
            errors[f"{where}.name"] = Msg("must be at most %(max)d characters, without < or >", max=PRIZE_NAME_MAX)
            continue
        try:
            amount = parse_money(prize.get("amount"), f"{where}.amount")
        except InputError as exc:
            errors.update(exc.errors)
            continue
        prizes.append({"kind": rule.kind, "role": rule.role, "place": rule.place, "name": name, "amount": amount})
    one_each = data.get("one_prize_each", False)
    if not isinstance(one_each, bool):
        errors["one_prize_each"] = Msg("must be true or false")
    ties = data.get("prize_ties") or "share"
    if ties not in core.PRIZE_TIES:
        errors["prize_ties"] = Msg("must be one of %(choices)s", choices=", ".join(core.PRIZE_TIES))
    if errors:
        raise InputError(errors)
    return {"currency": currency, "fee": fee, "prizes": prizes, "one_prize_each": one_each, "prize_ties": ties}


def normal_money(money: dict | None, setup: DriveSetup) -> dict | None:
    """The money as stored, with the prizes of drives started before prizes were a list read as rules."""
    if not money:
        return None
    prizes = []
    for prize in money.get("prizes", []):
        if setup.couples and prize.get("kind") in ("top_lady", "top_gent") and "role" not in prize:
            prize = {**prize, "kind": "top_pair"}  # the old page gave a couples drive's "top lady" to the top pair
        try:
            rule = core.check_prize(setup, prize)
        except InputError:
            continue  # a legacy top_lady of a couples drive: there never was one to give
        prizes.append({**prize, "kind": rule.kind, "role": rule.role, "place": rule.place})
    return {"one_prize_each": False, "prize_ties": "share", **money, "prizes": prizes}


def rules_of(money: dict | None) -> list[core.PrizeRule]:
    return [core.PrizeRule(p["kind"], p["role"], p["place"]) for p in (money or {}).get("prizes", [])]


def awards(scored_drive: Replayed, money: dict | None) -> tuple[core.Award, ...]:
    """Who wins each prize now, with the draws the app has made."""
    if not money:
        return ()
    return core.award(
        scored_drive.drive,
        rules_of(money),
        one_each=money.get("one_prize_each", False),
        ties=money.get("prize_ties", "share"),
        draws=scored_drive.record.draws,
    )
