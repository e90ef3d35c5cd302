"""Card evenings: dates and fees, their tables and codes (honoured while the evening is open), Play again, the draw at the break, and the results the club's arithmetic reads from the scored tables."""

from __future__ import annotations

import random
import secrets
from decimal import Decimal
from typing import Any

from flask_babel import gettext as _

from scorekeeper.clubs.rules import club as club_rules
from scorekeeper.clubs.rules import evening as evening_rules
from scorekeeper.clubs.service.club import club_format, evening_defaults, evening_format, get_club
from scorekeeper.clubs.service.common import ClubNotFound, EveningData, TableGame, TablePlace, parse_date, parse_money
from scorekeeper.clubs.service.members import members
from scorekeeper.core import VARIANTS, InputError, settlement_points
from scorekeeper.core.messages import Msg, field_messages
from scorekeeper.games import service
from scorekeeper.storage import store, writing

# ---------------------------------------------------------------- evenings and tables


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
    if errors or day is None or fee_cents is None:
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
    options: dict[str, Any] = {"currency": club.currency} if "currency" in VARIANTS[variant].OPTIONS else {}
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


class CodeExpired(Exception):
    """A table's code whose evening is settled: it hands nothing over any more."""


def claim_code(db, code: Any, club_id: str | None = None) -> tuple[str, str] | None:
    """The table a code hands over: (game id, the table's handed key, which gives its edit right while the evening is
    open); None if no table (of this club, when one is named) has this code; CodeExpired once its evening is
    settled, so the codes a guesser may aim at are those of the evenings being played."""
    code = normal_code(code)
    found = store.code_table(db, code) if code else None
    if found is None:
        return None
    game_id, table_club, still_open = found
    if club_id is not None and table_club != club_id:
        return None
    if not still_open:
        raise CodeExpired(game_id)
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
    if store.evening_imports(db, [evening_id]):
        raise InputError({"evening": _("this evening was imported from the club's sheet: it has no tables")})
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
    if not service.may_edit(db, scored_game.game, key):
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


# ---------------------------------------------------------------- the club's card and the evening's tables

# What a table keeps of its own when the club's card reaches it: the evening's currency, its deals per half and its
# rate (the evening's money is at the evening's own rate); all else is the card.
TABLE_OWN = ("currency", "deals", "rate")


def card_of(variant: str, options: dict) -> dict:
    """The card in a rule set as stored: its options, those added since it was stored at their defaults, but those a
    table keeps of its own. (Cheap: a card of 784 squares resolved again would cost some 60 ms a table.)"""
    defaults = {name: option.default for name, option in VARIANTS[variant].OPTIONS.items()}
    return {k: v for k, v in (defaults | dict(options)).items() if k not in TABLE_OWN}


def table_cards(db, club_id: str, evening_id: int) -> list[dict]:
    """Which card each of the evening's tables plays, by table number: "club" (the club's card as it is now), "older"
    (a card the club has changed since the table got it) or "own" (another variant's rules); `since`, when the table
    got the card it plays (its start, or the last time a card was applied to it)."""
    club = get_club(db, club_id)
    get_evening(db, club_id, evening_id)
    clubs_card = card_of(club.variant, club.options)
    out = []
    for t in store.club_tables(db, [evening_id]):
        game = store.get_game(db, t.game_id)
        if game is None:
            continue
        if game.variant != club.variant:
            card = "own"
        elif card_of(game.variant, game.options) == clubs_card:
            card = "club"
        else:
            card = "older"
        out.append({"game_id": t.game_id, "number": t.number, "card": card, "since": store.card_since(db, t.game_id)})
    return out


def apply_card(db, club_id: str, evening_id: int) -> int:
    """The club's card as it is now, to every table of the evening that plays an older one (issue 44: a card corrected
    during the evening): each game's card replaced, its hands rescored by replay, a line in its edit log; the
    standings, prizes and money follow, as they are read from the tables. All tables or none: a table whose hands the
    card does not fit (a bid it lacks) refuses it, naming the table and the hand. A settled evening keeps its tables.
    Answers the number of tables changed."""
    with writing(db):
        club = get_club(db, club_id)
        evening = get_evening(db, club_id, evening_id)
        if evening.settled:
            raise InputError(
                {"card": _("this evening is settled: mark it not settled first, then apply the club's card")}
            )
        halves = evening_format(evening).halves
        after = card_of(club.variant, club.options)
        changes, errors = [], {}
        for t in store.club_tables(db, [evening_id]):
            game = store.get_game(db, t.game_id)
            if game is None or game.variant != club.variant:
                continue
            before = card_of(game.variant, game.options)
            if before == after:
                continue
            scored_game = service.load(db, t.game_id)
            options = {k: v for k, v in game.options.items() if k in TABLE_OWN} | after
            try:
                setup, _protokoll = service.rescored_with(scored_game, options)
            except InputError as exc:
                table = (
                    Msg("Table %(n)d, half %(half)d", n=t.shown_number, half=t.half)
                    if halves > 1
                    else Msg("Table %(n)d", n=t.shown_number)
                )
                details = exc.errors.get("hand") or field_messages(exc.errors)
                errors[f"table.{t.number}"] = Msg("%(table)s keeps its card: %(details)s", table=table, details=details)
                continue
            changes.append((scored_game, setup, before))
        if errors:
            raise InputError(errors)
        for scored_game, setup, before in changes:
            now = {k: v for k, v in setup.options.items() if k not in TABLE_OWN}
            service.put_options(db, scored_game, setup, {"options": before}, {"options": now})
    return len(changes)


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


def _imported(rows: list[store.ImportedResultRecord], money: bool) -> tuple[club_rules.Imported, ...]:
    return tuple(club_rules.Imported(r.member_id, r.points, r.cents, r.hands, r.table, money) for r in rows)


def _evenings(db, records: list[store.EveningRecord], settlement: dict[int, str] | None = None) -> list[EveningData]:
    """Each evening with its tables and result: one path for them all, the imported ones (their members' figures as
    the club's sheet kept them, issue 45) too, so the ledger, the statistics and the prizes read them alike."""
    tables: dict[int, list[TableGame]] = {}
    for t in store.club_tables(db, [e.id for e in records]):
        tables.setdefault(t.evening_id, []).append(TableGame(t, service.load(db, t.game_id)))
    ids = [e.id for e in records]
    imports, imported = store.evening_imports(db, ids), store.imported_results(db, ids)
    money = {c: VARIANTS[get_club(db, c).variant].FOR_MONEY for c in {e.club_id for e in records if e.id in imports}}
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
            _imported(imported.get(e.id, []), money.get(e.club_id, True)),
        )
        result = club_rules.evening_result(evening)
        fmt = evening_format(e)
        standings = club_rules.standings(result, fmt.halves)
        places = evening_rules.ranked(standings)
        prizes = evening_rules.prizes(standings, fmt)
        out.append(EveningData(e, mine, result, fmt, standings, places, prizes, imports.get(e.id)))
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
