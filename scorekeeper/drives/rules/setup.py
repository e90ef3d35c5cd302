"""The setup of a drive: the people's names, the tables they fill, substitutes, renaming; checked in words."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from scorekeeper.core import TITLE_MAX, check_name, trimmed_name
from scorekeeper.core.fields import is_int
from scorekeeper.core.game import TRUMPS
from scorekeeper.core.messages import InputError, Msg, message_of
from scorekeeper.drives.rules.model import (
    DEFAULT_HANDS,
    DEFAULT_SIT_OUT,
    DEFAULT_TRUMPS,
    FIELDS,
    FORMATS,
    MAX_HANDS,
    MAX_SUBSTITUTES,
    MAX_TABLES,
    MAX_TRUMPS,
    MOVEMENTS,
    SIT_OUT_AVERAGE,
    SPARE_SEATS,
    SUBSTITUTE_CARDS,
    TIE_BREAKS,
    TRICKS,
    DriveSetup,
    Person,
)

# ---------------------------------------------------------------- the setup


def kept_name(value: Any, what: str, *, required: bool = True, limit: int = 0) -> str | None:
    """A name as a drive stored it, read back: text, trimmed as check_name trims, but not held to today's rules of
    what a name may hold (they have grown stricter; a drive stored before must still open). `limit` is unused."""
    return trimmed_name(value, what, required=required)


def _names(
    value: Any, field: str, what: Callable[[int], Msg], errors: dict[str, str], check: Callable = check_name
) -> list[str]:
    if not isinstance(value, list):
        errors[field] = Msg("must be a list of names")
        return []
    names: list[str] = []
    for i, raw in enumerate(value):
        try:
            names.append(check(raw, ""))
        except ValueError:
            try:
                check(raw, what(i + 1))  # again, to say which name in words (a drive is read back often)
            except ValueError as exc:
                errors.setdefault(field, message_of(exc))
    return names


def _pairs(value: Any, errors: dict[str, str], check: Callable = check_name) -> tuple[list[str], list[str]]:
    if not isinstance(value, list) or not all(isinstance(p, list) and len(p) == 2 for p in value):
        errors["pairs"] = Msg('must be a list of pairs of names, such as [["Anna", "Bo"], ["Carl", "Dina"]]')
        return [], []
    firsts = _names([p[0] for p in value], "pairs", lambda n: Msg("pair %(n)d's first name", n=n), errors, check)
    seconds = _names([p[1] for p in value], "pairs", lambda n: Msg("pair %(n)d's second name", n=n), errors, check)
    return firsts, seconds


def _tables(ladies: int, gents: int, couples: bool, errors: dict[str, str], max_tables: int | None) -> None:
    """At least two tables, at most max_tables (None: no bound); at most one empty seat a table on average, so that
    every table but a few plays (the rest is what ladies playing as gents are for)."""
    field = "pairs" if couples else "ladies"
    if field in errors or "gents" in errors:
        return
    tables = math.ceil(max(ladies, gents) / 2)
    empty = 4 * tables - ladies - gents
    if tables < 2:
        errors[field] = (
            Msg("a couples drive has at least two tables: at least 3 pairs (not %(n)d)", n=ladies)
            if couples
            else Msg(
                "a drive has at least two tables: at least 3 ladies or 3 gents (not %(ladies)d ladies and "
                "%(gents)d gents)",
                ladies=ladies,
                gents=gents,
            )
        )
    elif max_tables is not None and tables > max_tables:
        errors[field] = Msg("a drive has at most %(max)d tables", max=max_tables)
    elif not couples and empty > tables:
        short = "gents" if gents < ladies else "ladies"
        errors[short] = Msg(
            "%(ladies)d ladies and %(gents)d gents leave %(empty)d empty seats at %(tables)d tables (at most one a "
            "table): list some of the ladies as ladies playing as gents",
            ladies=ladies,
            gents=gents,
            empty=empty,
            tables=tables,
        )


def _people(
    ladies: Sequence[str], gents: Sequence[str], couples: bool, as_gents: Sequence[str], hands: int
) -> list[Person]:
    as_gent = {n.casefold() for n in as_gents}
    people = [Person(f"lady:{i}", n, "lady", i, 1, hands, i + 1) for i, n in enumerate(ladies)]
    people += [
        Person(
            f"gent:{i}",
            n,
            "gent",
            i,
            1,
            hands,
            (i + 1) if couples else len(ladies) + i + 1,
            n.casefold() in as_gent,
        )
        for i, n in enumerate(gents)
    ]
    return people


def _substitutes(
    value: Any,
    people: list[Person],
    hands: int,
    couples: bool,
    as_gents: list[str],
    errors: dict[str, str],
    check: Callable = check_name,
    new_card: bool = False,
) -> list[tuple[int, str, str]]:
    """Each {"hand", "out", "in"} in the order entered: from hand `hand` on, `in` (a new name) holds the seat `out`
    holds then. Adds the newcomers to `people` (and ends the leaver's hands) as it goes; a newcomer carries on the
    leaver's card number unless `new_card` (progressive drives) gives them one of their own."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_SUBSTITUTES:
        errors["substitutes"] = Msg(
            'must be a list of at most %(max)d substitutes, such as [{"hand": 13, "out": "Bea", "in": "Zoe"}]',
            max=MAX_SUBSTITUTES,
        )
        return []
    out_list: list[tuple[int, str, str]] = []
    for i, entry in enumerate(value):
        if not isinstance(entry, Mapping) or set(entry) - {"hand", "out", "in", "lady_as_gent"}:
            errors["substitutes"] = Msg(
                'must be a list of substitutes, such as [{"hand": 13, "out": "Bea", "in": "Zoe"}]'
            )
            return out_list
        hand = entry.get("hand")
        if not is_int(hand) or not 1 <= hand <= hands:
            errors["substitutes"] = Msg(
                "a substitute takes over from a hand from %(low)d to %(high)d", low=1, high=hands
            )
            return out_list
        try:
            newcomer = check(entry.get("in"), Msg("the substitute's name"))
            leaver = check(entry.get("out"), Msg("the name of the player who leaves"))
        except ValueError as exc:
            errors["substitutes"] = message_of(exc)
            return out_list
        if any(p.name.casefold() == newcomer.casefold() for p in people):
            errors["substitutes"] = Msg("%(name)s is in the drive already", name=newcomer)
            return out_list
        holding = [p for p in people if p.name.casefold() == leaver.casefold() and p.first <= hand <= p.last]
        if not holding:
            errors["substitutes"] = Msg("%(name)s holds no seat in hand %(n)d", name=leaver, n=hand)
            return out_list
        old = holding[0]
        people[people.index(old)] = replace(old, last=hand - 1)
        number = max(p.number for p in people) + 1 if new_card and not couples else old.number
        people.append(Person(f"sub:{i}", newcomer, old.role, old.seat, hand, hands, number))
        # The one who left is listed only if they played a hand.
        if hand == 1:
            people.remove(replace(old, last=hand - 1))
        if entry.get("lady_as_gent") is True and old.role == "gent" and not couples:
            as_gents.append(newcomer)
        out_list.append((hand, leaver, newcomer))
    # Each holds the seat until the next one takes it, whatever order the substitutes were entered in.
    by_seat: dict[tuple[str, int], list[Person]] = {}
    for person in people:
        by_seat.setdefault((person.role, person.seat), []).append(person)
    for holders in by_seat.values():
        holders.sort(key=lambda p: p.first)
        for a, b in zip(holders, holders[1:]):
            if a.first == b.first:
                errors["substitutes"] = Msg("%(name)s holds no seat in hand %(n)d", name=a.name, n=b.first)
            people[people.index(a)] = replace(a, last=b.first - 1)
    return out_list


def make_drive(
    data: Any, max_tables: int | None = MAX_TABLES, max_hands: int | None = MAX_HANDS, stored: bool = False
) -> DriveSetup:
    """Check everything a drive is started with; raises InputError naming every wrong field. The bounds on tables and
    hands are the caller's (None: none, for a drive read back as it was stored); `stored`: its names are read back as
    they were kept (kept_name), not held to today's name rules."""
    check: Callable = kept_name if stored else check_name
    if not isinstance(data, Mapping):
        raise InputError({"body": Msg("must be a JSON object with the drive's format and players")})
    errors: dict[str, str] = {k: Msg("unknown field") for k in sorted(set(data) - set(FIELDS))}
    title = None
    try:
        title = check(data.get("title"), Msg("the title"), required=False, limit=TITLE_MAX)
    except ValueError as exc:
        errors["title"] = message_of(exc)
    format = data.get("format")
    ladies: list[str] = []
    gents: list[str] = []
    couples = format == "couples"
    if format == "progressive":
        if "pairs" in data:
            errors["pairs"] = Msg("is for a couples drive; a progressive drive takes ladies and gents")
        ladies = _names(data.get("ladies"), "ladies", lambda n: Msg("lady %(n)d's name", n=n), errors, check)
        gents = _names(data.get("gents"), "gents", lambda n: Msg("gent %(n)d's name", n=n), errors, check)
        _tables(len(ladies), len(gents), False, errors, max_tables)
    elif couples:
        for name in ("ladies", "gents", "ladies_as_gents"):
            if name in data:
                errors[name] = Msg("is for a progressive drive; a couples drive takes pairs")
        ladies, gents = _pairs(data.get("pairs"), errors, check)
        _tables(len(ladies), len(gents), True, errors, max_tables)
    else:
        errors["format"] = Msg("must be one of %(choices)s", choices=", ".join(FORMATS))
    people_field = "pairs" if couples else "ladies"
    if people_field not in errors and "gents" not in errors:
        counted = Counter(n.casefold() for n in ladies + gents)
        twice = sorted({n for n in ladies + gents if counted[n.casefold()] > 1})
        if twice:
            errors[people_field] = Msg("two players have the same name: %(names)s", names=", ".join(twice))
    hands = data.get("hands", DEFAULT_HANDS)
    if not is_int(hands) or hands < 1 or (max_hands is not None and hands > max_hands):
        if max_hands is None:
            errors["hands"] = Msg("must be a whole number, at least 1")
        else:
            errors["hands"] = Msg("must be a whole number from %(low)d to %(high)d", low=1, high=max_hands)
        hands = DEFAULT_HANDS
    trumps = data.get("trumps", list(DEFAULT_TRUMPS))
    if not isinstance(trumps, list) or not trumps or not all(isinstance(t, str) and t in TRUMPS for t in trumps):
        errors["trumps"] = Msg("must be a list of one or more of %(choices)s", choices=", ".join(TRUMPS))
        trumps = list(DEFAULT_TRUMPS)
    elif len(trumps) > MAX_TRUMPS:
        errors["trumps"] = Msg("may list at most %(max)d trumps", max=MAX_TRUMPS)
    interval = data.get("interval_after")
    if interval is not None and (not is_int(interval) or not 1 <= interval < hands):
        errors["interval_after"] = (
            Msg("a drive of one hand has no interval; leave it out")
            if hands < 2
            else Msg(
                "must be a hand before the last one, from 1 to %(last)d (or left out for no interval); "
                "half-way is %(half)d",
                last=hands - 1,
                half=hands // 2,
            )
        )
    tie_break = data.get("tie_break", "share")
    if tie_break not in TIE_BREAKS:
        errors["tie_break"] = Msg("must be one of %(choices)s", choices=", ".join(TIE_BREAKS))
    movement = data.get("movement", "winners")
    if movement not in MOVEMENTS:
        errors["movement"] = Msg("must be one of %(choices)s", choices=", ".join(MOVEMENTS))
    sit_out = data.get("sit_out", DEFAULT_SIT_OUT)
    if sit_out != SIT_OUT_AVERAGE and (not is_int(sit_out) or not 0 <= sit_out <= TRICKS):
        errors["sit_out"] = Msg('must be the tricks a player who sits out a hand scores, from 0 to 13, or "average"')
        sit_out = DEFAULT_SIT_OUT
    spare_seats = data.get("spare_seats", "dummy")
    if spare_seats not in SPARE_SEATS:
        errors["spare_seats"] = Msg("must be one of %(choices)s", choices=", ".join(SPARE_SEATS))
        spare_seats = "dummy"
    substitute_card = data.get("substitute_card", "continue")
    if substitute_card not in SUBSTITUTE_CARDS:
        errors["substitute_card"] = Msg("must be one of %(choices)s", choices=", ".join(SUBSTITUTE_CARDS))
        substitute_card = "continue"
    as_gents: list[str] = []
    if not couples and data.get("ladies_as_gents") is not None:
        as_gents = _names(
            data.get("ladies_as_gents"), "ladies_as_gents", lambda n: Msg("lady %(n)d's name", n=n), errors, check
        )
    people = _people(ladies, gents, couples, as_gents, hands)
    substitutes = (
        _substitutes(data.get("substitutes"), people, hands, couples, as_gents, errors, check, substitute_card == "new")
        if not errors
        else []
    )
    if "ladies_as_gents" not in errors and "gents" not in errors and as_gents:
        in_gent_seats = {p.name.casefold() for p in people if p.role == "gent"}
        strangers = [n for n in as_gents if n.casefold() not in in_gent_seats]
        if strangers:
            errors["ladies_as_gents"] = Msg(
                "must be names among the gents (a lady playing as gent is listed with the gents): %(names)s",
                names=", ".join(strangers),
            )
        marked = {n.casefold() for n in as_gents}
        people = [replace(p, lady_as_gent=p.role == "gent" and p.name.casefold() in marked) for p in people]
    if errors:
        raise InputError(errors)
    index: dict[tuple[str, int], list[Person]] = {}
    for person in sorted(people, key=lambda p: p.first):
        index.setdefault((person.role, person.seat), []).append(person)
    return DriveSetup(
        str(format),
        tuple(ladies),
        tuple(gents),
        hands,
        tuple(trumps),
        interval,
        tie_break,
        title,
        movement,
        sit_out,
        tuple(as_gents),
        tuple(substitutes),
        spare_seats=spare_seats,
        substitute_card=substitute_card,
        people=tuple(people),
        seat_index={k: tuple(v) for k, v in index.items()},
    )


def rename(setup: DriveSetup, old: Any, new: Any) -> DriveSetup:
    """The setup with a player (or substitute) renamed everywhere: a misspelt name put right. InputError naming
    `from` (no such player) or `to` (a bad name, or one already in the drive)."""
    person = setup.by_name(old) if isinstance(old, str) else None
    if person is None:
        raise InputError({"from": Msg("no player of that name in this drive")})
    try:
        name = check_name(new, Msg("the new name"))
    except ValueError as exc:
        raise InputError({"to": message_of(exc)}) from None
    other = setup.by_name(name)
    if other is not None and other.key != person.key:
        raise InputError({"to": Msg("%(name)s is in the drive already", name=name)})
    data = setup.as_dict()
    folded = person.name.casefold()

    def swap(n: str) -> str:
        return name if n.casefold() == folded else n

    if setup.couples:
        data["pairs"] = [[swap(a), swap(b)] for a, b in data["pairs"]]
    else:
        data["ladies"] = [swap(n) for n in data["ladies"]]
        data["gents"] = [swap(n) for n in data["gents"]]
        if "ladies_as_gents" in data:
            data["ladies_as_gents"] = [swap(n) for n in data["ladies_as_gents"]]
    if "substitutes" in data:
        data["substitutes"] = [{**s, "out": swap(s["out"]), "in": swap(s["in"])} for s in data["substitutes"]]
    return make_drive(data, max_tables=None, max_hands=None)


def substitute(setup: DriveSetup, out: Any, newcomer: Any, hand: Any, lady_as_gent: bool = False) -> DriveSetup:
    """The setup with `newcomer` in `out`'s seat from hand `hand` on; InputError naming `substitutes` if not."""
    data = setup.as_dict()
    entry: dict[str, Any] = {"hand": hand, "out": out, "in": newcomer}
    if lady_as_gent:
        entry["lady_as_gent"] = True
    data["substitutes"] = [*data.get("substitutes", []), entry]
    return make_drive(data, max_tables=None, max_hands=None)
