"""scoring/club.py: an evening's money and standings, the settlement, the ledger and the statistics, by hand."""

import ast
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples
from scorekeeper.clubs.rules import club
from scorekeeper.clubs.rules.club import KITTY, Evening, Hand, Table
from scorekeeper.variants.danish.rules import DEFAULT_SOLO_VALUES, DEFAULT_TARIFF

DANISH = {"tariff": list(DEFAULT_TARIFF), "lost": "flat", "solo_values": dict(DEFAULT_SOLO_VALUES)}
FOUR = tuple((i,) for i in range(4))
FIVE = tuple((i,) for i in range(5))
PAIRS = ((0, 2), (1, 3))


def danish_table(members, hands, n=4):
    return Table(tuple(members), FIVE if n == 5 else FOUR, tuple(hands), True, (0,) * n, DANISH, variant="danish")


def bid(bidder, bid, partner, tricks, points, suffix="plain", sitting_out=None):
    inp = {"bidder": bidder, "bid": bid, "tricks": tricks}
    if partner is not None:
        inp.update(suffix=suffix, trump="clubs" if suffix == "gode" else "hearts", partner=partner)
    return Hand(tuple(points), sitting_out, inp)


def clears(balances, transfers):
    left = club.apply_transfers(balances, transfers)
    return all(v == 0 for v in left.values())


def test_the_module_is_pure():
    tree = ast.parse(Path(club.__file__).read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {
        n.module.split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom)
        and n.level == 0
        and not n.module.startswith(("scorekeeper.core", "scorekeeper.clubs.rules"))
    }  # the pure core's own modules and the club's rules
    assert imported <= {"__future__", "collections", "dataclasses", "decimal", "typing"}


# Table 1: Anna(1) Bo(2) Carl(3) Dina(4); table 2: Eva(5) Finn(6) Anna(1) Gro(7) — Anna plays both.
T1 = danish_table(
    [1, 2, 3, 4],
    [
        bid(0, 8, 2, 10, [60, -60, 60, -60]),  # 20 + 2 × 20
        bid(1, "sol", None, 1, [-50, 150, -50, -50]),
    ],
)
T2 = danish_table(
    [5, 6, 1, 7],
    [
        bid(2, 9, 2, 9, [-40, -40, 120, -40]),  # selvmakker 9 made: 40 to each, three times to the bidder
    ],
)


def test_an_evening_by_hand():
    evening = Evening(1, "2026-01-08", (T1, T2), Decimal("0.05"), fee_cents=2000)
    r = club.evening_result(evening)
    by = {m.member: m for m in r.members}
    # Anna: 60 − 50 at table 1, +120 at table 2 = 130 points = 6.50; fee 20.00.
    assert (by[1].points, by[1].winnings, by[1].fee, by[1].net, by[1].tables, by[1].hands) == (
        130,
        650,
        2000,
        -1350,
        2,
        3,
    )
    assert (by[2].points, by[2].winnings, by[2].net) == (90, 450, -1550)
    assert (by[3].points, by[4].points, by[5].points, by[6].points, by[7].points) == (10, -110, -40, -40, -40)
    assert sum(m.points for m in r.members) == 0
    assert r.kitty == 7 * 2000
    assert sum(r.net().values()) == 0
    assert len(r.transfers) <= len(r.members)  # n − 1 over the members and the kitty
    assert clears(r.net(), r.transfers)


def test_kitty_settlement_losers_pay_the_kitty_and_the_kitty_pays_winners():
    evening = Evening(1, "2026-01-08", (T1,), Decimal("0.5"), fee_cents=1000, settlement="kitty")
    r = club.evening_result(evening)
    # Anna +10 points = 5.00 − 10.00 fee; Bo +90 = 45.00 − 10.00; Carl +10; Dina −110 = −55.00 − 10.00.
    assert {m.member: m.net for m in r.members} == {1: -500, 2: 3500, 3: -500, 4: -6500}
    assert set(r.transfers) == {
        club.Transfer(1, KITTY, 500),
        club.Transfer(3, KITTY, 500),
        club.Transfer(4, KITTY, 6500),
        club.Transfer(KITTY, 2, 3500),
    }
    left = club.apply_transfers(r.net(), r.transfers)
    assert all(left[m] == 0 for m in (1, 2, 3, 4))
    assert left[KITTY] == 0 and r.kitty == 4000  # the kitty keeps the four fees


def test_pairwise_without_fee_needs_no_kitty():
    r = club.evening_result(Evening(1, "d", (T1,), Decimal("0.05")))
    assert KITTY not in {t.payer for t in r.transfers} | {t.payee for t in r.transfers}
    assert len(r.transfers) <= 3 and clears(r.net(), r.transfers)


def test_five_at_a_table_the_dealer_sits_out():
    table = danish_table(
        [1, 2, 3, 4, 5],
        [
            bid(1, 8, 3, 8, [0, 20, -20, 20, -20], sitting_out=0),
            bid(2, 7, 2, 7, [-10, -10, 30, 0, -10], sitting_out=3),
        ],
        n=5,
    )
    r = club.evening_result(Evening(1, "d", (table,), Decimal("1")))
    assert {m.member: m.hands for m in r.members} == {1: 1, 2: 2, 3: 2, 4: 1, 5: 2}
    assert {m.member: m.winnings for m in r.members} == {1: -1000, 2: 1000, 3: 1000, 4: 2000, 5: -3000}


def test_partnership_tables_give_standings_not_money():
    classic = Table((1, 2, 3, 4), PAIRS, (Hand((2, 0)), Hand((0, 3)), Hand((4, 0))), False, (1, 0))
    r = club.evening_result(Evening(1, "d", (T1, classic), Decimal("0.05"), fee_cents=500))
    by = {m.member: m for m in r.members}
    assert (by[1].games_won, by[1].standing_points, by[3].games_won, by[3].standing_points) == (1, 6, 1, 6)
    assert (by[2].games_won, by[2].standing_points) == (0, 3)
    assert by[1].points == 10 and by[1].hands == 5  # money only from the Danish table
    assert r.has_money and r.has_standings and sum(r.net().values()) == 0


def test_no_rate_no_money_but_fees():
    r = club.evening_result(Evening(1, "d", (T1,), None, fee_cents=300))
    assert not r.has_money
    assert {m.winnings for m in r.members} == {0} and r.kitty == 1200 and sum(r.net().values()) == 0


@pytest.mark.parametrize("rate", ["0.0125", "0.0033", "0.07", "1"])
def test_cents_add_up_at_any_rate(rate):
    r = club.evening_result(Evening(1, "d", (T1, T2), Decimal(rate), fee_cents=125))
    assert sum(r.net().values()) == 0
    for m in r.members:
        assert abs(Decimal(m.winnings) - Decimal(m.points) * Decimal(rate) * 100) <= 1
    assert clears(r.net(), r.transfers)


def test_ledger_sums_and_what_is_unsettled():
    e1 = club.evening_result(Evening(1, "2026-01-08", (T1,), Decimal("0.05"), fee_cents=1000))
    settled = e1.net()
    e1 = club.evening_result(Evening(1, "2026-01-08", (T1,), Decimal("0.05"), fee_cents=1000, settled=settled))
    e2 = club.evening_result(Evening(2, "2026-01-15", (T2,), Decimal("0.05")))
    ledger = club.ledger([e2, e1], members=[1, 2, 3, 4, 5, 6, 7, 8])
    assert [r.evening.id for r in ledger.results] == [1, 2]
    lines = {line.member: line for line in ledger.lines}
    anna = lines[1]
    assert (anna.evenings, anna.hands, anna.points) == (2, 3, 130)
    assert anna.net == (10 * 5 - 1000) + 120 * 5
    assert anna.unsettled == 120 * 5  # evening 1 is settled
    assert anna.entries == (club.LedgerEntry(1, 10, -950), club.LedgerEntry(2, 120, 600))
    assert lines[8] == club.LedgerLine(8, 0, 0, 0, 0, 0, 0, 0, (None, None))
    assert ledger.kitty == 4000 and ledger.kitty_unsettled == 0
    assert sum(line.net for line in ledger.lines) + ledger.kitty == 0
    assert not e1.changed_since_settled


def test_a_hand_changed_after_settling_shows_as_unsettled():
    snapshot = club.evening_result(Evening(1, "d", (T1,), Decimal("0.05"))).net()
    changed = Table(
        T1.members, T1.sides, T1.hands[:1], True, (0,) * 4, DANISH, variant="danish"
    )  # the sol hand deleted
    r = club.evening_result(Evening(1, "d", (changed,), Decimal("0.05"), settled=snapshot))
    assert r.changed_since_settled
    assert r.unsettled(2) == -300 - 450 and r.unsettled(1) == 300 - (10 * 5)


def test_member_stats():
    e1 = Evening(1, "d1", (T1, T2), Decimal("0.05"))
    lost = danish_table(
        [1, 2, 3, 4],
        [
            bid(0, 8, 2, 6, [-40, 40, -40, 40]),
            bid(0, "ren_sol", None, 1, [-600, 200, 200, 200]),
            Hand((0, 0, 0, 0), None, {"passed": True}),
            bid(0, 7, 0, 8, [60, -20, -20, -20]),
        ],
    )
    e2 = Evening(2, "d2", (lost,), Decimal("0.05"))
    stats = {s.member: s for s in club.member_stats([e1, e2], members=[1, 2, 3, 4, 5, 6, 7, 9])}
    anna = stats[1]
    assert (anna.bids, anna.bids_made, anna.sol_bids, anna.sol_made) == (4, 3, 1, 0)
    assert (anna.selvmakker, anna.selvmakker_made) == (2, 2)
    assert anna.evenings == 2 and anna.points == 130 - 580 and anna.average == Decimal("-225.0")
    assert anna.partners == ((3, 2),)  # Carl twice; selvmakker is no partnership
    assert (stats[2].sol_bids, stats[2].sol_made) == (1, 1)
    assert stats[9].evenings == 0 and stats[9].average is None


# ---------------------------------------------------------------- properties


@st.composite
def evenings(draw):
    n_members = draw(st.integers(4, 9))
    tables = []
    for _ in range(draw(st.integers(1, 3))):
        n = draw(st.sampled_from([4, 5]))
        members = draw(st.permutations(range(1, n_members + 1)))[:n] if n_members >= n else None
        if members is None:
            continue
        hands = []
        for _ in range(draw(st.integers(0, 6))):
            pts = draw(st.lists(st.integers(-640, 640), min_size=n - 1, max_size=n - 1))
            hands.append(Hand(tuple(pts) + (-sum(pts),)))
        tables.append(Table(tuple(members), FIVE if n == 5 else FOUR, tuple(hands), True, (0,) * n))
    rate = draw(st.sampled_from([None, Decimal("0.05"), Decimal("0.0125"), Decimal("0.33"), Decimal("2")]))
    fee = draw(st.sampled_from([0, 0, 1, 2000, 2550]))
    return Evening(1, "d", tuple(tables), rate, fee, draw(st.sampled_from(club.SETTLEMENTS)))


@settings(max_examples=examples(150), deadline=None)
@given(evenings())
def test_money_adds_up_to_zero_and_the_payments_clear_it(evening):
    r = club.evening_result(evening)
    net = r.net()
    assert sum(net.values()) == 0
    left = club.apply_transfers(net, r.transfers)
    assert all(v == 0 for v in left.values())
    assert all(t.cents > 0 and t.payer != t.payee for t in r.transfers)
    parties = sum(1 for v in net.values() if v)
    if evening.settlement == "pairwise":
        assert len(r.transfers) <= max(parties - 1, 0)
    else:
        assert len(r.transfers) == sum(1 for m in r.members if m.net)
