"""The prizes: the organiser's rules, awarded from the standings with the reasons a prize passes someone over."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.fields import is_int
from scorekeeper.core.messages import InputError, Msg
from scorekeeper.drives.rules.model import MAX_PLACE, Drive, DriveSetup, Standing
from scorekeeper.drives.rules.standings import countback_reason, rank_key

# ---------------------------------------------------------------- prizes

PRIZE_KINDS = ("place", "booby", "half_time", "lucky")
PRIZE_ROLES = ("lady", "gent", "pair", "any")
PRIZE_TIES = ("share", "cut")
# The prizes of drives started before prizes were a list (migration m108): one of each kind.
LEGACY_PRIZES = {
    "top_lady": ("place", "lady", 1),
    "top_gent": ("place", "gent", 1),
    "top_pair": ("place", "any", 1),
    "half_time": ("half_time", "any", 1),
    "booby": ("booby", "any", 1),
}


@dataclass(frozen=True, slots=True)
class PrizeRule:
    """A prize as the organiser wrote it: its kind, whom it is for and the place (1st, 2nd…; 1 for the rest)."""

    kind: str
    role: str
    place: int = 1


def check_prize(setup: DriveSetup, data: Any) -> PrizeRule:
    """A prize's kind, role and place, checked against the drive; InputError naming `kind`, `role` or `place`.

    kind: "place" (1st, 2nd, … of the final standings), "booby" (the last), "half_time" (a place at the interval)
    or "lucky" (a card number the app draws). role: "lady", "gent" (progressive), "pair" (couples) or "any".
    The old kinds top_lady, top_gent, top_pair are read as a 1st place."""
    if not isinstance(data, Mapping):
        raise InputError({"kind": Msg('must be an object with the prize\'s kind, such as {"kind": "place"}')})
    kind = data.get("kind")
    role = data.get("role")
    place = data.get("place", 1)
    if isinstance(kind, str) and kind in LEGACY_PRIZES and (role is None or kind in ("top_lady", "top_gent")):
        kind, role, place = LEGACY_PRIZES[kind][0], LEGACY_PRIZES[kind][1], data.get("place", 1)
    errors: dict[str, str] = {}
    if kind not in PRIZE_KINDS:
        errors["kind"] = Msg("must be one of %(choices)s", choices=", ".join(PRIZE_KINDS))
    if role is None:
        role = "pair" if setup.couples else "any"
    if role not in PRIZE_ROLES:
        errors["role"] = Msg("must be one of %(choices)s", choices=", ".join(PRIZE_ROLES))
    elif setup.couples and role in ("lady", "gent"):
        errors["role"] = Msg("a couples drive scores pairs: a prize is for a pair, not a lady or a gent")
    elif not setup.couples and role == "pair":
        errors["role"] = Msg("a progressive drive changes partners: a prize is for a lady, a gent or anyone")
    if setup.couples and role == "any":
        role = "pair"
    if kind in ("place", "half_time") and (not is_int(place) or not 1 <= place <= MAX_PLACE):
        errors["place"] = Msg("must be a place from %(low)d to %(high)d", low=1, high=MAX_PLACE)
    if kind == "half_time" and setup.interval_after is None:
        errors["kind"] = Msg("a half-time prize needs an interval: the drive has none")
    if errors:
        raise InputError(errors)
    return PrizeRule(str(kind), str(role), int(place) if kind in ("place", "half_time") else 1)


@dataclass(frozen=True, slots=True)
class Award:
    """A prize as the standings and the draws give it now.

    status: "won" (winners known), "waiting" (its standings are not final yet), "draw" (a cut or the lucky number
    is to be drawn among `candidates`), "none" (nobody left to give it to)."""

    rule: PrizeRule
    status: str
    winners: tuple[str, ...] = ()  # person keys (couples: "pair:<seat>")
    names: tuple[str, ...] = ()
    shared: bool = False
    reasons: tuple[Msg, ...] = ()
    candidates: tuple[str, ...] = ()
    drawn: bool = False  # the winner came from a draw (a cut or the lucky number)
    number: int | None = None  # the lucky number drawn
    total: int | None = None
    # One prize each: who the standings put at or ahead of the winners but has an earlier prize: (name, the index of
    # that prize in the list), so the pages can say "Cyril Cook passed over: has the half-time prize".
    passed: tuple[tuple[str, int], ...] = ()


def _ladder(rule: PrizeRule) -> tuple[str, str]:
    return rule.kind, rule.role


def _at_place(groups: list[list[Standing]], place: int) -> tuple[list[Standing], int] | None:
    """The group of equals that holds position `place` (from 1) and the position's offset within it."""
    position = 0
    for group in groups:
        if position < place <= position + len(group):
            return group, place - position - 1
        position += len(group)
    return None


def _groups(pool: list[Standing], countback: bool) -> list[list[Standing]]:
    groups: list[list[Standing]] = []
    for s in pool:
        if groups and rank_key(groups[-1][0], countback) == rank_key(s, countback):
            groups[-1].append(s)
        else:
            groups.append([s])
    return groups


def _reasons(pool: list[Standing], chosen: list[Standing], countback: bool) -> tuple[Msg, ...]:
    """The countback that put the winners where they are: against the one just ahead and the one just behind, when
    their totals are equal."""
    if not countback or not chosen:
        return ()
    out = []
    first, last = pool.index(chosen[0]), pool.index(chosen[-1])
    if first > 0:
        reason = countback_reason(pool[first - 1], chosen[0])
        if reason is not None:
            out.append(
                Msg(
                    "%(ahead)s ahead of %(behind)s on countback: %(why)s",
                    ahead=" & ".join(pool[first - 1].names),
                    behind=" & ".join(chosen[0].names),
                    why=reason,
                )
            )
    if last + 1 < len(pool):
        reason = countback_reason(chosen[-1], pool[last + 1])
        if reason is not None:
            out.append(
                Msg(
                    "%(ahead)s ahead of %(behind)s on countback: %(why)s",
                    ahead=" & ".join(chosen[-1].names),
                    behind=" & ".join(pool[last + 1].names),
                    why=reason,
                )
            )
    return tuple(out)


def _cut(draws: Sequence[Mapping[str, Any]], among: list[str]) -> list[str] | None:
    wanted = sorted(among)
    for d in draws:
        if d.get("kind") == "cut" and sorted(d.get("among", [])) == wanted:
            return list(d.get("order", []))
    return None


def award(
    drive: Drive,
    rules: Sequence[PrizeRule],
    one_each: bool = False,
    ties: str = "share",
    draws: Sequence[Mapping[str, Any]] = (),
) -> tuple[Award, ...]:
    """Who wins each prize, in the order the organiser listed them.

    The standings' tie-break orders equal totals (under countback, by the last hand, then the one before…). A prize
    for a place that several share (equal all the way back, or under `share`) goes to all of them under `ties`
    "share", or by a cut the app draws and records (`draws`: {"kind": "cut", "among", "order"}) under "cut". A
    lucky-number prize goes to the card number drawn ({"kind": "lucky", "prize": index, "key"}). With `one_each`,
    someone who has a prize listed earlier is passed over for the others (the next in the standings takes it);
    places of the same kind and role (1st, 2nd, 3rd lady) are counted among the same people. Prizes go only to
    those who played every hand counted. A draw that no longer fits (a correction changed the tie) is drawn again.
    """
    setup = drive.setup
    countback = setup.tie_break == "countback"
    taken: dict[str, tuple[str, str]] = {}  # key → the ladder it won in
    won_at: dict[str, int] = {}  # key → the first prize it won
    out: list[Award] = []
    for index, rule in enumerate(rules):
        if rule.kind == "lucky":
            pool = [
                s
                for s in drive.standings
                if s.played
                and not s.left
                and (rule.role == "any" or s.role == rule.role)
                and not (one_each and s.key in taken)
            ]
            if one_each and any(a.status in ("waiting", "draw") for a in out):
                out.append(Award(rule, "waiting"))
                continue
            drawn = next((d for d in draws if d.get("kind") == "lucky" and d.get("prize") == index), None)
            winner = next((s for s in pool if drawn is not None and s.key == drawn.get("key")), None)
            if winner is None:
                out.append(Award(rule, "draw" if pool else "none", candidates=tuple(s.key for s in pool)))
                continue
            taken[winner.key] = _ladder(rule)
            won_at.setdefault(winner.key, index)
            out.append(Award(rule, "won", (winner.key,), (" & ".join(winner.names),), drawn=True, number=winner.number))
            continue
        table = drive.half_time if rule.kind == "half_time" else (drive.standings if drive.finished else None)
        if table is None:
            out.append(Award(rule, "waiting"))
            continue
        ladder = _ladder(rule)
        pool = [
            s
            for s in table
            if (rule.role == "any" or s.role == rule.role)
            and s.full
            and not (one_each and s.key in taken and taken[s.key] != ladder)
        ]
        pool.sort(key=lambda s: rank_key(s, countback), reverse=True)  # "any": the ladies' and gents' together
        groups = _groups(pool, countback)
        if not groups:
            out.append(Award(rule, "none"))
            continue
        found = (groups[-1], len(groups[-1]) - 1) if rule.kind == "booby" else _at_place(groups, rule.place)
        if found is None:
            out.append(Award(rule, "none"))
            continue
        group, offset = found
        if len(group) == 1:
            chosen, shared, by_draw = group, False, False
        elif ties == "share":
            chosen, shared, by_draw = group, True, False
        else:
            order = _cut(draws, [s.key for s in group])
            if order is None or sorted(order) != sorted(s.key for s in group):
                out.append(Award(rule, "draw", candidates=tuple(s.key for s in group), total=group[0].total))
                continue
            by_key = {s.key: s for s in group}
            chosen, shared, by_draw = [by_key[order[offset]]], False, True
        for s in chosen:
            taken.setdefault(s.key, ladder)
            won_at.setdefault(s.key, index)
        mark = rank_key(group[0], countback)
        passed = tuple(
            (" & ".join(s.names), won_at[s.key])
            for s in sorted(table, key=lambda s: rank_key(s, countback), reverse=rule.kind != "booby")
            if one_each
            and (rule.role == "any" or s.role == rule.role)
            and s.full
            and s.key in won_at
            and taken[s.key] != ladder
            and (rank_key(s, countback) <= mark if rule.kind == "booby" else rank_key(s, countback) >= mark)
        )
        out.append(
            Award(
                rule,
                "won",
                tuple(s.key for s in chosen),
                tuple(" & ".join(s.names) for s in chosen),
                shared,
                _reasons(pool, group, countback),
                drawn=by_draw,
                total=chosen[0].total,
                passed=passed,
            )
        )
    return tuple(out)
