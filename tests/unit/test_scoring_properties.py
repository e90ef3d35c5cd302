"""Property tests of the scoring core: random valid games per variant, edits and deletions, the settlement."""

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from helpers import examples
from scorekeeper.core import VARIANTS as REGISTRY
from scorekeeper.core import GameOver, InputError, make_setup, play, play_on, settle, table_context
from strategies import CONTEXT_FREE, VARIANTS, games, one_hand

SETTINGS = settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def sums(hands, width):
    return tuple(sum(h.points[s] for h in hands) for s in range(width))


def assert_totals_are_sums(p):
    width = len(p.sides)
    if p.games_won is None:
        running = (0,) * width
        for h in p.hands:
            running = tuple(r + x for r, x in zip(running, h.points))
            assert tuple(h.totals) == running
        assert tuple(p.totals) == sums(p.hands, width)
        return
    # classic rubber: per game
    games_played = sorted({h.game for h in p.hands})
    assert games_played == list(range(1, len(games_played) + 1))
    won = [0, 0]
    for g in games_played:
        hands = [h for h in p.hands if h.game == g]
        running = (0, 0)
        for h in hands:
            running = tuple(r + x for r, x in zip(running, h.points))
            assert tuple(h.totals) == running
        target = p.setup.options["target"]
        reached = [s for s in (0, 1) if running[s] >= target]
        if reached:
            won[reached[0]] += 1
        else:
            assert g == games_played[-1]  # only the game in progress is unfinished
    assert tuple(p.games_won) == tuple(won)
    current = sum(won) + (0 if p.finished else 1)
    assert tuple(p.totals) == sums([h for h in p.hands if h.game == current], 2)


def alone(setup, index, inp):
    """The points of `inp` scored as a lone hand with the dealer it has as hand index + 1."""
    s = make_setup(setup.variant, list(setup.players), (setup.dealer + index) % setup.n, dict(setup.options))
    return play(s, [inp]).hands[0].points


def assert_same_as_incremental(setup, inputs, p):
    """Entering the hands one at a time gives the same sheet as replaying the whole list."""
    for j in range(len(inputs) + 1):
        q = play(setup, inputs[:j])
        assert q.hands == p.hands[:j]


# ------------------------------------------------------------------ Danish zero sum


@pytest.mark.parametrize("n", [4, 5])
@SETTINGS
@given(data=st.data())
def test_danish_every_hand_and_the_totals_sum_to_zero(n, data):
    setup, inputs = data.draw(games("danish", n=n, max_hands=20))
    p = play(setup, inputs)
    for h in p.hands:
        assert sum(h.points) == 0
        assert sum(h.totals) == 0
        if n == 5:
            assert h.sitting_out == h.dealer and h.points[h.dealer] == 0
            assert h.input.get("bidder") != h.dealer and h.input.get("partner") != h.dealer
    assert sum(p.totals) == 0


# ------------------------------------------------------------------ totals


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(data=st.data())
def test_totals_are_the_sum_of_the_hands_points(variant, data):
    setup, inputs = data.draw(games(variant))
    p = play(setup, inputs)
    assert len(p.hands) == len(inputs)
    assert [h.number for h in p.hands] == list(range(1, len(inputs) + 1))
    assert [h.dealer for h in p.hands] == [(setup.dealer + i) % setup.n for i in range(len(inputs))]
    assert p.next_dealer == (setup.dealer + len(inputs)) % setup.n
    assert_totals_are_sums(p)
    if p.finished:
        with pytest.raises(GameOver):
            play(setup, inputs + [one_hand(data.draw, setup, len(inputs))])


@pytest.mark.parametrize("variant", VARIANTS)
@FEW
@given(data=st.data())
def test_hand_by_hand_equals_replay(variant, data):
    setup, inputs = data.draw(games(variant, max_hands=10))
    assert_same_as_incremental(setup, inputs, play(setup, inputs))


def outcome(f):
    """What a replay gives: the protokoll, or the kind, hand number and fields of the error it raises."""
    try:
        return f()
    except InputError as exc:
        return (type(exc).__name__, exc.number, sorted(exc.errors))


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(data=st.data())
def test_going_on_from_a_protokoll_equals_replaying_everything(variant, data):
    """play_on (what the store's cached protokoll uses to add a hand) gives exactly what a full replay gives: the
    same hands, totals, game state, and for a hand that does not fit or comes after the end, the same error."""
    setup, inputs = data.draw(games(variant, max_hands=16))
    cut = data.draw(st.integers(0, len(inputs)))
    more = list(inputs[cut:])
    if data.draw(st.booleans()):  # one more hand at the end: past a finished game, or a wrong one
        extra = one_hand(data.draw, setup, len(inputs))
        if data.draw(st.booleans()):
            extra = dict(extra, tricks=[14, 0]) if "tricks" in extra else dict(extra, bid=99)
        more.append(extra)
    first = play(setup, inputs[:cut])
    whole = outcome(lambda: play(setup, inputs[:cut] + more))
    assert outcome(lambda: play_on(first, more)) == whole
    if not isinstance(whole, tuple):  # and the protokoll it gives goes on in turn
        assert play_on(play_on(first, more[:1]), more[1:]) == whole
        assert whole.match == play_on(first, more).match


# ------------------------------------------------------------------ edits


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(data=st.data())
def test_replacing_a_hand_equals_replaying_with_the_change(variant, data):
    setup, inputs = data.draw(games(variant))
    assume(inputs)
    old = play(setup, inputs)
    k = data.draw(st.integers(0, len(inputs) - 1))
    edited = list(inputs)
    edited[k] = one_hand(data.draw, setup, k)
    try:
        new = play(setup, edited)
    except GameOver as exc:
        # the edit ended the game earlier: the hands before the one refused make a finished game
        assert exc.number > k + 1
        edited = edited[: exc.number - 1]
        new = play(setup, edited)
        assert new.finished
    # the hands before the edit are untouched
    assert new.hands[:k] == old.hands[:k]
    assert_totals_are_sums(new)
    assert_same_as_incremental(setup, edited, new)
    if variant in CONTEXT_FREE:
        assert new.hands[k].points == alone(setup, k, edited[k])
        # every other hand keeps its points; the totals after the edit move by the edit's difference
        delta = [a - b for a, b in zip(new.hands[k].points, old.hands[k].points)]
        for j in range(k + 1, len(new.hands)):
            assert new.hands[j].points == old.hands[j].points
            assert list(new.hands[j].totals) == [t + d for t, d in zip(old.hands[j].totals, delta)]


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(data=st.data())
def test_deleting_a_hand_equals_replaying_without_it(variant, data):
    setup, inputs = data.draw(games(variant))
    assume(inputs)
    old = play(setup, inputs)
    k = data.draw(st.integers(0, len(inputs) - 1))
    shorter = inputs[:k] + inputs[k + 1 :]
    try:
        new = play(setup, shorter)
    except GameOver as exc:
        assert exc.number > k
        shorter = shorter[: exc.number - 1]
        new = play(setup, shorter)
        assert new.finished
    except InputError as exc:
        rules, table = REGISTRY[variant], table_context(setup)
        if rules.cards(exc.number, table) != old.hands[exc.number].cards:
            return  # a deal whose size follows its place: the hand moved up into a deal of another size (plump)
        # else only a five-player Danish game can make a later hand invalid: its bidder or partner now deals
        assert variant == "danish" and setup.n == 5, exc.errors
        assert set(exc.errors) <= {"bidder", "partner"}
        bad = shorter[exc.number - 1]
        dealer = (setup.dealer + exc.number - 1) % setup.n
        assert dealer in (bad.get("bidder"), bad.get("partner"))
        return
    assert new.hands[:k] == old.hands[:k]
    assert_totals_are_sums(new)
    assert_same_as_incremental(setup, shorter, new)
    # the hands after it move up one number, the dealers follow
    for j in range(k, len(new.hands)):
        h = new.hands[j]
        assert h.number == j + 1
        assert h.dealer == (setup.dealer + j) % setup.n
        assert h.input == old.hands[j + 1].input
        if variant in CONTEXT_FREE:
            assert h.points == alone(setup, j, shorter[j])
            if not (variant == "danish" and setup.n == 5):
                assert h.points == old.hands[j + 1].points
    if not new.finished:
        assert new.next_dealer == (setup.dealer + len(shorter)) % setup.n


# ------------------------------------------------------------------ settlement


rates = st.one_of(
    st.sampled_from([0.05, 0.1, 0.25, 1, 0.01, 0.005, 0.0033, 2.5]),
    st.decimals(min_value=Decimal("0"), max_value=Decimal("100"), places=4),
)


@st.composite
def zero_sum_points(draw):
    n = draw(st.integers(2, 6))
    head = draw(st.lists(st.integers(-100_000, 100_000), min_size=n - 1, max_size=n - 1))
    return head + [-sum(head)]


@SETTINGS
@given(points=zero_sum_points(), rate=rates)
def test_settle_balances_add_up_and_payments_clear_them(points, rate):
    s = settle(points, rate)
    assert len(s.balances) == len(points)
    assert sum(s.balances) == 0
    for cents, p in zip(s.balances, points):
        assert isinstance(cents, int)
        assert abs(Decimal(cents) - Decimal(p) * Decimal(str(rate)) * 100) <= 1
    left = list(s.balances)
    for pay in s.payments:
        assert isinstance(pay.cents, int) and pay.cents > 0
        assert pay.payer != pay.payee
        left[pay.payer] += pay.cents
        left[pay.payee] -= pay.cents
    assert left == [0] * len(points)
    assert len(s.payments) <= len(points) - 1


@pytest.mark.parametrize("n", [4, 5])
@FEW
@given(data=st.data())
def test_settle_a_danish_evening(n, data):
    setup, inputs = data.draw(games("danish", n=n, max_hands=20))
    p = play(setup, inputs)
    rate = setup.options["rate"]
    s = settle(p.totals, rate)
    assert sum(s.balances) == 0
    for cents, t in zip(s.balances, p.totals):
        assert abs(Decimal(cents) - Decimal(t) * Decimal(str(rate)) * 100) <= 1
    assert len(s.payments) <= n - 1
