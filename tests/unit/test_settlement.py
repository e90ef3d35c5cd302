"""Settlement: points × rate in whole cents, who pays whom (RULES.md, danish "Settlement"; API.md)."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.core import format_cents, make_setup, play, settle, settlement_points
from scorekeeper.core.settlement import side_balances


def check(settlement, points, rate):
    b = settlement.balances
    assert sum(b) == 0
    for cents, p in zip(b, points):
        assert abs(Decimal(cents) - Decimal(p) * Decimal(str(rate)) * 100) <= 1
    left = list(b)
    for pay in settlement.payments:
        assert pay.cents > 0 and pay.payer != pay.payee
        left[pay.payer] += pay.cents
        left[pay.payee] -= pay.cents
    assert left == [0] * len(b)
    assert len(settlement.payments) <= max(len(b) - 1, 0)


def test_api_example_60_points_at_5_ore_is_3_kroner():
    s = settle([60, -60, 60, -60], 0.05)
    assert s.balances == (300, -300, 300, -300)
    assert {(p.payer, p.payee, p.cents) for p in s.payments} == {(1, 0, 300), (3, 2, 300)}
    assert [format_cents(c) for c in s.balances] == ["3.00", "-3.00", "3.00", "-3.00"]
    check(s, [60, -60, 60, -60], 0.05)


@pytest.mark.parametrize(
    "points, rate, balances",
    [
        ([180, -60, -60, -60], 0.05, (900, -300, -300, -300)),
        ([150, -50, -50, -50], 0.1, (1500, -500, -500, -500)),
        ([0, 0, 0, 0], 0.05, (0, 0, 0, 0)),
        ([30, -10, -10, -10, 0], 1, (3000, -1000, -1000, -1000, 0)),
        ([7, -7], "0.25", (175, -175)),
        ([1, -1], 0.005, (1, -1)),  # half a cent each: still adds up
        ([1, 1, -2], 0.005, None),
        ([3, 3, 3, -9], 0.0033, None),
    ],
)
def test_balances_in_whole_cents_adding_up(points, rate, balances):
    s = settle(points, rate)
    if balances is not None:
        assert s.balances == balances
    check(s, points, rate)


def test_one_debtor_pays_three():
    s = settle([-180, 60, 60, 60], 0.05)
    assert sorted((p.payer, p.payee, p.cents) for p in s.payments) == [(0, 1, 300), (0, 2, 300), (0, 3, 300)]


def test_nothing_to_pay():
    s = settle([0, 0, 0, 0], 0.05)
    assert s.payments == ()


def test_zero_rate():
    s = settle([60, -60, 60, -60], 0)
    assert s.balances == (0, 0, 0, 0) and s.payments == ()


def test_at_most_n_minus_1_payments_five_players():
    pts = [123, -77, 45, -200, 109]
    s = settle(pts, 0.07)
    check(s, pts, 0.07)


@pytest.mark.parametrize(
    "cents, text",
    [
        (0, "0.00"),
        (5, "0.05"),
        (-5, "-0.05"),
        (300, "3.00"),
        (-305, "-3.05"),
        (123456, "1234.56"),
        (-100, "-1.00"),
        (99, "0.99"),
    ],
)
def test_format_cents(cents, text):
    assert format_cents(cents) == text


def test_settlement_points_danish_are_the_totals():
    s = make_setup("danish", ["Anna", "Bo", "Carl", "Dina"])
    p = play(
        s,
        [
            {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "hearts", "partner": 2, "tricks": 10},
            {"bidder": 1, "bid": "sol", "tricks": 0},
        ],
    )
    assert tuple(settlement_points(p)) == tuple(p.totals) == (10, 90, 10, -110)
    st = settle(settlement_points(p), s.options["rate"])
    assert st.balances == (50, 450, 50, -550)
    check(st, settlement_points(p), s.options["rate"])


def test_settlement_points_danish_five_players():
    s = make_setup("danish", ["Anna", "Bo", "Carl", "Dina", "Erik"], 0, {"rate": 0.5})
    p = play(s, [{"bidder": 1, "bid": 7, "suffix": "plain", "trump": "hearts", "partner": 3, "tricks": 7}])
    assert tuple(settlement_points(p)) == (0, 10, -10, 10, -10)
    st = settle(settlement_points(p), 0.5)
    assert st.balances == (0, 500, -500, 500, -500)


def test_settlement_points_partners_share_the_sides_difference():
    s = make_setup("norwegian", ["Ola", "Kari", "Per", "Liv"], 0, {"rate": 1})
    p = play(s, [{"bid": "grand", "bidder": 0, "tricks": [9, 4]}, {"bid": "pass", "tricks": [9, 4]}])
    assert list(p.totals) == [3, 2]
    pts = settlement_points(p)
    assert tuple(pts) == (1, -1, 1, -1)
    assert sum(pts) == 0
    check(settle(pts, 1), pts, 1)


def test_settlement_points_german():
    s = make_setup("german", ["Anna", "Bo"])
    p = play(s, [{"tricks": [9, 4]}, {"tricks": [5, 8]}, {"tricks": [10, 3]}])
    assert tuple(settlement_points(p)) == (5, -5)


@st.composite
def sides_and_points(draw):
    """k sides of m seats each (seat s on side s mod k, or in blocks), and points per side."""
    k, m = draw(st.integers(2, 8)), draw(st.integers(1, 4))
    n = k * m
    if draw(st.booleans()):
        sides = tuple(tuple(range(i, n, k)) for i in range(k))
    else:
        sides = tuple(tuple(range(i * m, (i + 1) * m)) for i in range(k))
    return sides, n, draw(st.lists(st.integers(-10_000, 10_000), min_size=k, max_size=k))


@given(sides_and_points())
def test_side_balances_add_up_to_zero_for_any_number_of_sides(case):
    sides, n, points = case
    balances = side_balances(points, sides, n)
    assert sum(balances) == 0
    for i, seats in enumerate(sides):
        # Each player of side i: what side i scored against each other side, summed.
        against = sum(points[i] - points[j] for j in range(len(sides)) if j != i)
        assert all(balances[seat] == against for seat in seats)


@given(st.integers(-500, 500), st.integers(-500, 500))
def test_two_sides_of_partners_each_win_the_difference(a, b):
    assert side_balances([a, b], ((0, 2), (1, 3)), 4) == (a - b, b - a, a - b, b - a)


@given(st.lists(st.integers(-500, 500), min_size=2, max_size=8))
def test_players_alone_win_the_sum_of_their_differences_to_each_other(points):
    n = len(points)
    balances = side_balances(points, tuple((s,) for s in range(n)), n)
    assert balances == tuple(sum(p - q for q in points) for p in points)
