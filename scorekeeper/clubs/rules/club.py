"""A club's evenings and season: points, money and standings per member, added up from the scored tables.

Pure arithmetic over frozen dataclasses: no Flask, no SQL. The money uses settlement.to_cents and
settlement.payments, so an evening's cents add up exactly and its payments clear every balance.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from scorekeeper.clubs.rules.evening import Standing
from scorekeeper.core import VARIANTS
from scorekeeper.core.game import TableContext
from scorekeeper.core.numbers import Point
from scorekeeper.core.settlement import payments as _payments
from scorekeeper.core.settlement import to_cents

KITTY = "kitty"
SETTLEMENTS = ("pairwise", "kitty")
PARTNERS_SHOWN = 3


@dataclass(frozen=True)
class Hand:
    """One scored hand of a table: points per side, the seat that sat out, the input as the scorer normalised it."""

    points: tuple[Point, ...]
    sitting_out: int | None = None
    input: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Table:
    """A table of an evening: who sat in each seat (member ids), its sides and its scored hands.

    `money` tables are of a variant a club may play for money (its FOR_MONEY) and are settled at the evening's rate,
    each member by `money_points` (core.settlement_points: the totals of a zero-sum game); the others give standings:
    points and games won per side.
    """

    members: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    hands: tuple[Hand, ...] = ()
    money: bool = True
    games_won: tuple[int, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    money_points: tuple[Point, ...] = ()
    variant: str = ""
    half: int = 1  # the half of the evening it was played in

    def side_of(self, seat: int) -> int:
        return next(s for s, seats in enumerate(self.sides) if seat in seats)

    @property
    def totals(self) -> tuple[Point, ...]:
        return tuple(sum(h.points[s] for h in self.hands) for s in range(len(self.sides)))


@dataclass(frozen=True)
class Imported:
    """A member's evening as the club's own sheet kept it (an evening imported, issue 45): no table, no protokoll.

    `points` count as the money variant's (`money`) or as standings points; `cents` is the money before the fee as the
    sheet says it (None: the points at the evening's rate, as a table's are); `hands` only when the sheet counted them
    (None: the evening counts in points and money, not in hands); `table` the table's number the sheet gives."""

    member: int
    points: Point
    cents: int | None = None
    hands: int | None = None
    table: int | None = None
    money: bool = True


@dataclass(frozen=True)
class Evening:
    """A card evening: its tables, the rate it is played at (None: no money), the fee and how it settles.

    `settled` is what each party's net was when the evening was marked settled (member id or KITTY → cents),
    or None while it is not settled; `settled_fee` the fee it was settled with (None: not known, settled before it
    was kept). `currency` is the one the evening was played in: its money never adds up with another currency's.
    """

    id: int
    date: str
    tables: tuple[Table, ...]
    rate: Decimal | None = None
    fee_cents: int = 0
    settlement: str = "pairwise"
    settled: Mapping[Any, int] | None = None
    currency: str = ""
    settled_fee: int | None = None
    imported: tuple[Imported, ...] = ()  # an imported evening's members (it has no tables)

    @property
    def counts_money(self) -> bool:
        """Whether its places and statistics go by the money variant's points: a table for money, or imported ones."""
        return any(t.money for t in self.tables) or any(i.money for i in self.imported)


@dataclass(frozen=True)
class MemberResult:
    member: int
    tables: int
    hands: int
    points: Point  # from the money (Danish) tables (exact under rounding none)
    winnings: int  # cents: points × rate
    fee: int  # cents paid to the kitty
    net: int  # winnings − fee
    games_won: int  # from the standings tables
    standing_points: Point


@dataclass(frozen=True)
class Transfer:
    """A payment between parties: member ids, or KITTY."""

    payer: Any
    payee: Any
    cents: int


@dataclass(frozen=True)
class EveningResult:
    evening: Evening
    members: tuple[MemberResult, ...]
    kitty: int  # cents the kitty gains this evening: the fees
    transfers: tuple[Transfer, ...]
    has_money: bool
    has_standings: bool

    def net(self) -> dict[Any, int]:
        """Every party's net cents, the kitty included; they add up to zero."""
        out: dict[Any, int] = {m.member: m.net for m in self.members}
        out[KITTY] = self.kitty
        return out

    @property
    def changed_since_settled(self) -> bool:
        settled = self.evening.settled
        if settled is None:
            return False
        return {k: v for k, v in settled.items() if v} != {k: v for k, v in self.net().items() if v}

    @property
    def money_changed_since_settled(self) -> tuple[str, ...]:
        """Why the balances differ from those settled: "hands" (the points, or who played) and/or "fee"; () if not.

        The members' winnings when it was settled are their settled nets plus the fee it was settled with; for an
        evening settled before that fee was kept, the fee is the settled kitty shared out over the members.
        """
        settled = self.evening.settled
        if settled is None or not self.changed_since_settled:
            return ()
        players = [p for p in settled if p != KITTY]
        fee = self.evening.settled_fee
        if fee is None:
            kitty = settled.get(KITTY, 0)
            if players and kitty % len(players) == 0:
                fee = kitty // len(players)
            else:
                return ("hands",)
        winnings = {m.member: m.winnings for m in self.members}
        out = []
        if set(players) != set(winnings) or any(settled[p] + fee != winnings[p] for p in players):
            out.append("hands")
        if fee != self.evening.fee_cents:
            out.append("fee")
        return tuple(out) or ("hands",)

    def unsettled(self, party) -> int:
        """What is still owed to (positive) or by (negative) a party for this evening."""
        now = self.net().get(party, 0)
        if self.evening.settled is None:
            return now
        return now - self.evening.settled.get(party, 0)


def _present(tables: Iterable[Table], imported: Iterable[Imported] = ()) -> list[int]:
    return sorted({m for t in tables for m in t.members} | {i.member for i in imported})


def evening_result(evening: Evening) -> EveningResult:
    """Per member the points of all their tables, the money at the evening's rate, the fee; and who pays whom."""
    present = _present(evening.tables, evening.imported)
    tables: Counter[int] = Counter()
    hands: Counter[int] = Counter()
    points: defaultdict[int, Point] = defaultdict(int)  # exact under rounding none: a member's ¾ add up first
    games_won: Counter[int] = Counter()
    standing_points: defaultdict[int, Point] = defaultdict(int)
    has_money = has_standings = False
    for table in evening.tables:
        totals = table.totals
        has_money |= table.money
        has_standings |= not table.money
        for seat, member in enumerate(table.members):
            tables[member] += 1
            hands[member] += sum(1 for h in table.hands if h.sitting_out != seat)
            side = table.side_of(seat)
            if table.money:
                points[member] += table.money_points[seat] if table.money_points else totals[side]
            else:
                standing_points[member] += totals[side]
                games_won[member] += table.games_won[side] if table.games_won else 0
    given: dict[int, int] = {}  # an imported member's money as the sheet says it
    for row in evening.imported:
        tables[row.member] += 1 if row.table is not None else 0
        hands[row.member] += row.hands or 0
        has_money |= row.money
        has_standings |= not row.money
        if row.money:
            points[row.member] += row.points
        else:
            standing_points[row.member] += row.points
        if row.cents is not None:
            given[row.member] = row.cents
    at_rate = [m for m in present if m not in given]
    if evening.rate is not None and has_money:
        winnings = dict(zip(at_rate, to_cents([points[m] for m in at_rate], evening.rate)))
    else:
        winnings = dict.fromkeys(at_rate, 0)
    winnings.update(given)
    fee = evening.fee_cents
    members = tuple(
        MemberResult(
            m, tables[m], hands[m], points[m], winnings[m], fee, winnings[m] - fee, games_won[m], standing_points[m]
        )
        for m in present
    )
    kitty = fee * len(present)
    net = {m.member: m.net for m in members}
    transfers = kitty_transfers(net) if evening.settlement == "kitty" else pairwise_transfers(net, kitty)
    shows_money = has_money and (evening.rate is not None or bool(given))
    return EveningResult(evening, members, kitty, transfers, shows_money, has_standings)


def pairwise_transfers(net: Mapping[int, int], kitty: int = 0) -> tuple[Transfer, ...]:
    """Who pays whom among everyone present (the kitty one of them when it takes fees): at most n − 1 payments."""
    parties = list(net) + ([KITTY] if kitty else [])
    balances = [net[p] for p in net] + ([kitty] if kitty else [])
    return tuple(Transfer(parties[p.payer], parties[p.payee], p.cents) for p in _payments(balances))


def kitty_transfers(net: Mapping[int, int]) -> tuple[Transfer, ...]:
    """Losers pay the kitty, the kitty pays winners; the fees stay in the kitty."""
    losers = [Transfer(m, KITTY, -c) for m, c in net.items() if c < 0]
    winners = [Transfer(KITTY, m, c) for m, c in net.items() if c > 0]
    return tuple(losers + winners)


def apply_transfers(balances: Mapping[Any, int], transfers: Iterable[Transfer]) -> dict[Any, int]:
    """The balances after the transfers are paid: a payer's balance rises, a payee's falls."""
    left = dict(balances)
    for t in transfers:
        left[t.payer] = left.get(t.payer, 0) + t.cents
        left[t.payee] = left.get(t.payee, 0) - t.cents
    return left


# ---------------------------------------------------------------- the season


@dataclass(frozen=True)
class LedgerEntry:
    """One member's evening in the ledger."""

    evening: int
    points: Point
    net: int


@dataclass(frozen=True)
class LedgerLine:
    """A member's season. Money is added up per currency (`by_currency`: currency → (net, unsettled)); `net` and
    `unsettled` are those sums when every evening with money was played in one currency, else None."""

    member: int
    evenings: int
    hands: int
    points: Point
    net: int | None
    unsettled: int | None
    games_won: int
    standing_points: Point
    entries: tuple[LedgerEntry | None, ...]  # aligned with Ledger.results; None where the member was absent
    by_currency: Mapping[str, tuple[int, int]] = field(default_factory=dict)  # only currencies with any money


@dataclass(frozen=True)
class Ledger:
    """The season; `currencies` are those of its evenings with money, in the order first played. The kitty's
    totals are None, as the lines' are, when there is more than one."""

    results: tuple[EveningResult, ...]
    lines: tuple[LedgerLine, ...]
    kitty: int | None
    kitty_unsettled: int | None
    currencies: tuple[str, ...] = ()
    kitty_by_currency: Mapping[str, tuple[int, int]] = field(default_factory=dict)


def _has_money(r: EveningResult) -> bool:
    return r.has_money or any(r.net().values()) or any((r.evening.settled or {}).values())


def _sums(by_currency: Mapping[str, tuple[int, int]], currencies: tuple[str, ...]) -> tuple[int | None, int | None]:
    """The one currency's (net, unsettled); (0, 0) with no money at all; (None, None) with several currencies."""
    if len(currencies) > 1:
        return None, None
    return by_currency.get(currencies[0], (0, 0)) if currencies else (0, 0)


def _nonzero(by_currency: Mapping[str, tuple[int, int]]) -> dict[str, tuple[int, int]]:
    return {c: v for c, v in by_currency.items() if any(v)}


def ledger(results: Iterable[EveningResult], members: Iterable[int] = ()) -> Ledger:
    """Per member: evenings, hands, points and money per evening and in total per currency, what is unsettled; the
    kitty."""
    results = tuple(sorted(results, key=lambda r: (r.evening.date, r.evening.id)))
    currencies = tuple(dict.fromkeys(r.evening.currency for r in results if _has_money(r)))
    everyone = sorted(set(members) | {m.member for r in results for m in r.members})
    lines = []
    for member in everyone:
        entries, rows = [], []
        money: dict[str, tuple[int, int]] = {}
        for r in results:
            row = next((m for m in r.members if m.member == member), None)
            rows.append(row)
            entries.append(LedgerEntry(r.evening.id, row.points, row.net) if row else None)
            if r.evening.currency in currencies:
                net, unsettled = money.get(r.evening.currency, (0, 0))
                money[r.evening.currency] = (net + (row.net if row else 0), unsettled + r.unsettled(member))
        played = [row for row in rows if row]
        lines.append(
            LedgerLine(
                member,
                len(played),
                sum(r.hands for r in played),
                sum(r.points for r in played),
                *_sums(money, currencies),
                sum(r.games_won for r in played),
                sum(r.standing_points for r in played),
                tuple(entries),
                _nonzero(money),
            )
        )
    kitty: dict[str, tuple[int, int]] = {}
    for r in results:
        if r.evening.currency in currencies:
            net, unsettled = kitty.get(r.evening.currency, (0, 0))
            kitty[r.evening.currency] = (net + r.kitty, unsettled + r.unsettled(KITTY))
    return Ledger(results, tuple(lines), *_sums(kitty, currencies), currencies, _nonzero(kitty))


# ---------------------------------------------------------------- statistics


@dataclass(frozen=True)
class MemberStats:
    member: int
    bids: int  # bids with a partner or called partner as bidder (Danish 7–13, solo's prop), by the variant's bid_result
    bids_made: int
    sol_bids: int  # bids played alone (Danish sol bids; solo's solo, misère, abundance)
    sol_made: int
    selvmakker: int  # bids whose bidder was its own partner (Danish: called its own ace)
    selvmakker_made: int
    evenings: int  # evenings with a table counted: those played for money where the evening has any, else all
    points: Point
    average: Decimal | None  # points per such evening, to one decimal
    partners: tuple[tuple[int, int], ...]  # (member, hands together), most frequent first


def member_stats(evenings: Iterable[Evening], members: Iterable[int] = ()) -> tuple[MemberStats, ...]:
    """What each member bid and how it went (the variant's bid_result), their points per evening and their partners.

    The tables counted are an evening's tables played for money when it has any, else all its tables (as the
    evening's standings count them); a member's points at a table are their side's. Partners are those a member sat
    on one side with, hand by hand, where the sides are fixed partnerships (two seats or more a side: classic,
    norwegian, bid whist …), else the bidder and the partner the bid named (Danish, solo)."""
    counts: dict[str, Counter] = {
        k: Counter() for k in ("bids", "bids_made", "sol", "sol_made", "self", "self_made", "evenings")
    }
    points_of: defaultdict[Any, Point] = defaultdict(int)  # exact points (a Fraction under rounding none)
    partners: dict[int, Counter] = {}
    seen = set(members)
    for evening in evenings:
        played = set()
        money = evening.counts_money
        for row in evening.imported:  # an imported evening counts in points, not in bids (it kept no hands)
            if row.money == money:
                played.add(row.member)
                points_of[row.member] += row.points
        for table in evening.tables:
            if table.money != money:
                continue
            totals = table.totals
            for seat, member in enumerate(table.members):
                played.add(member)
                points_of[member] += totals[table.side_of(seat)]
            rules = VARIANTS.get(table.variant)
            ctx = TableContext(variant=table.variant, n_players=len(table.members), options=table.options)
            fixed = [side for side in table.sides if len(side) > 1]
            for hand in table.hands:
                for side in fixed:  # fixed partnerships: a side's seats are partners every hand (not one sitting out)
                    for a in side:
                        for b in side:
                            if a != b and hand.sitting_out not in (a, b):
                                partners.setdefault(table.members[a], Counter())[table.members[b]] += 1
                result = rules.bid_result(hand.input, ctx) if rules is not None else None
                if result is None:
                    continue
                bidder, made = table.members[result.bidder], result.made
                if result.alone:
                    counts["sol"][bidder] += 1
                    counts["sol_made"][bidder] += made
                    continue
                counts["bids"][bidder] += 1
                counts["bids_made"][bidder] += made
                if result.partner == result.bidder:
                    counts["self"][bidder] += 1
                    counts["self_made"][bidder] += made
                elif result.partner is not None and not fixed:
                    partner = table.members[result.partner]
                    partners.setdefault(bidder, Counter())[partner] += 1
                    partners.setdefault(partner, Counter())[bidder] += 1
        for member in played:
            counts["evenings"][member] += 1
        seen |= played
    out = []
    for m in sorted(seen):
        n = counts["evenings"][m]
        points = points_of[m]  # an int, or a Fraction (exact points), which Decimal does not take
        average = (
            (Decimal(points.numerator) / points.denominator / n).quantize(Decimal("0.1"), ROUND_HALF_UP) if n else None
        )
        best = sorted(partners.get(m, Counter()).items(), key=lambda kv: (-kv[1], kv[0]))[:PARTNERS_SHOWN]
        out.append(
            MemberStats(
                m,
                counts["bids"][m],
                counts["bids_made"][m],
                counts["sol"][m],
                counts["sol_made"][m],
                counts["self"][m],
                counts["self_made"][m],
                n,
                points_of[m],
                average,
                tuple(best),
            )
        )
    return tuple(out)


# ---------------------------------------------------------------- the evening's standings


def standings(result: EveningResult, halves: int = 1) -> tuple[Standing, ...]:
    """Per member the points the evening's places go by (those of the tables of a variant played for money when it
    has any, else the standings tables'), per half, and the figures of the extra prizes: bids made as bidder and bids played alone made."""
    money = result.evening.counts_money
    count = max([halves, *(t.half for t in result.evening.tables)])
    per_half: dict[int, list[Point]] = {m.member: [0] * count for m in result.members}
    for row in result.evening.imported:
        if row.money == money:
            per_half[row.member][0] += row.points
    for table in result.evening.tables:
        if table.money != money:
            continue
        totals = table.totals
        h = max(table.half, 1) - 1
        for seat, member in enumerate(table.members):
            if table.money and table.money_points:
                per_half[member][h] += table.money_points[seat]
            else:
                per_half[member][h] += totals[table.side_of(seat)]
    stats = {s.member: s for s in member_stats([result.evening])}
    out = []
    for m in result.members:
        s = stats.get(m.member)
        figures = {"bids_made": s.bids_made, "alone_made": s.sol_made} if s else {}
        points = m.points if money else m.standing_points
        out.append(Standing(m.member, points, tuple(per_half[m.member]), figures))
    return tuple(out)
