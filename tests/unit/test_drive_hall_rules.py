"""Issue 33, the hall: the drive's rules as an organiser of a village hall expects them (pure, no storage)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples
from scorekeeper.core.messages import InputError
from scorekeeper.drives.rules import PrizeRule, award, make_drive, play, substitute

LADIES = ["Ann", "Bea", "Cat", "Dot", "Eve", "Fay", "Gil", "Hil"]
GENTS = ["Al", "Ben", "Cy", "Dan", "Ed", "Fred", "Gus", "Hal"]


def drive_of(ladies, gents, **more):
    return make_drive({"format": "progressive", "ladies": ladies, "gents": gents, **more})


def every_table(drive, hand, tricks=(7, 6)):
    return {(hand, t.table): list(tricks) for t in drive.rounds[hand - 1].tables if t.plays != "out"}


# ---------------------------------------------------------------- M1: "after hand N" counts hands 1 … N


def test_the_standings_before_hand_1_count_nothing_not_the_sit_outs_to_come():
    setup = drive_of(LADIES[:7], GENTS[:7], hands=4)  # four tables, the last one's pair sits out hand 1
    drive = play(setup, {})
    assert any(t.plays == "out" for t in drive.rounds[0].tables)
    assert {s.total for s in drive.standings} == {0}
    assert {s.played for s in drive.standings} == {0}


def test_the_standings_after_hand_1_count_hand_1_only():
    setup = drive_of(LADIES[:7], GENTS[:7], hands=4)
    results = every_table(play(setup, {}), 1, (8, 5))
    drive = play(setup, results)
    assert drive.current == 2 and not drive.rounds[1].started
    assert max(s.total for s in drive.standings) == 8  # not 7 + the 7 of sitting out hand 2
    assert {s.played for s in drive.standings} == {1}
    # once a table sends hand 2, hand 2 counts (provisional), its sit-outs with it
    first = next(t for t in drive.rounds[1].tables if t.plays != "out")
    drive = play(setup, {**results, (2, first.table): [7, 6]})
    assert {s.played for s in drive.standings} == {2}


def test_a_substitute_before_their_first_hand_is_not_listed_as_having_played_it():
    setup = drive_of(LADIES[:4], GENTS[:4], hands=4, substitute_card="new")
    results = {**every_table(play(setup, {}), 1), (2, 1): [7, 6], (2, 2): [7, 6]}
    subbed = substitute(setup, "Bea", "Zoe", 3)
    drive = play(subbed, results)
    assert drive.current == 3
    assert "Zoe" not in [s.names[0] for s in drive.standings]  # not "played 1, total 0" before the hand
    bea = next(s for s in drive.standings if s.names == ("Bea",))
    assert bea.played == 2


# ---------------------------------------------------------------- M3: the substitute rule, the lucky draw


def test_by_default_the_substitute_continues_the_leavers_card():
    setup = drive_of(LADIES[:4], GENTS[:4], hands=4)
    assert setup.substitute_card == "continue"
    results = {(h, t): [8, 5] for h in (1, 2) for t in (1, 2)}
    subbed = substitute(setup, "Bea", "Zoe", 3)
    bea_number = setup.by_name("Bea").number
    assert subbed.by_name("Zoe").number == bea_number  # the same card: no new number
    before_hand_3 = play(subbed, results)
    card = next(s for s in before_hand_3.standings if s.number == bea_number)
    assert card.names == ("Zoe",) and card.formerly == ("Bea",)
    bea_so_far = next(s for s in play(setup, results).standings if s.names == ("Bea",))
    assert card.played == 2 and card.total == bea_so_far.total
    full = {**results, **{(h, t): [6, 7] for h in (3, 4) for t in (1, 2)}}
    drive = play(subbed, full)
    ladies = [s for s in drive.standings if s.role == "lady"]
    assert len(ladies) == 4 and all(s.place is not None for s in ladies)  # one card each, every card placed
    card = next(s for s in drive.standings if s.number == bea_number)
    plain = next(s for s in play(setup, full).standings if s.names == ("Bea",))
    assert card.by_hand == plain.by_hand and card.place is not None
    assert make_drive(subbed.as_dict()) == subbed


@pytest.mark.parametrize("rule", ["continue", "new"])
def test_the_lucky_number_is_drawn_among_the_entrants(rule):
    setup = drive_of(LADIES[:4], GENTS[:4], hands=2, substitute_card=rule)
    subbed = substitute(setup, "Bea", "Zoe", 2)
    drive = play(subbed, {(h, t): [7, 6] for h in (1, 2) for t in (1, 2)})
    (lucky,) = award(drive, [PrizeRule("lucky", "any")])
    assert lucky.status == "draw" and len(lucky.candidates) == 8  # 8 people at the tables, not 9 numbers


def test_the_substitute_rule_is_checked():
    with pytest.raises(InputError) as exc:
        drive_of(LADIES[:4], GENTS[:4], substitute_card="both")
    assert set(exc.value.errors) == {"substitute_card"}


# ---------------------------------------------------------------- H1: who was passed over, and why


def test_a_prize_says_who_was_passed_over_for_having_one_already():
    setup = drive_of(LADIES[:4], GENTS[:4], hands=2, interval_after=1)
    # hand 1: table 1's first pair (Ann & Al) 10, table 2's first pair (Cat & Cy) 9; hand 2 all 7–6
    results = {(1, 1): [10, 3], (1, 2): [9, 4]}
    drive = play(setup, results)
    results.update(every_table(drive, 2, (7, 6)))
    drive = play(setup, results)
    assert drive.finished
    rules = [PrizeRule("half_time", "gent", 1), PrizeRule("place", "gent", 1), PrizeRule("place", "gent", 2)]
    half, first, second = award(drive, rules, one_each=True)
    assert half.names == ("Al",)
    assert "Al" not in first.names
    assert first.passed == (("Al", 0),)  # passed over: he has prize 0, the half-time prize
    assert ("Al", 0) in second.passed
    # without one prize each, nobody is passed over
    assert all(not a.passed for a in award(drive, rules, one_each=False))


# ---------------------------------------------------------------- M7: the spare seats


def test_by_default_spare_seats_travel_and_tables_play_with_a_dummy():
    setup = drive_of(LADIES[:7], GENTS[:7], hands=4)
    results = {}
    for hand in range(1, 5):
        results.update(every_table(play(setup, results), hand, (8, 5)))
    drive = play(setup, results)
    assert setup.spare_seats == "dummy"
    assert any([t.plays for t in r.tables].count("dummy") == 2 for r in drive.rounds)


def test_one_table_sits_out_in_turn_when_the_organiser_says_so():
    setup = drive_of(LADIES[:7], GENTS[:7], hands=4, spare_seats="sit_out")
    results = {}
    for hand in range(1, 5):
        drive = play(setup, results)
        assert [t.plays for t in drive.rounds[hand - 1].tables].count("out") == 1
        assert "dummy" not in [t.plays for t in drive.rounds[hand - 1].tables]
        results.update(every_table(drive, hand, (8, 5)))
    drive = play(setup, results)
    # the two who sit out change from hand to hand
    sitting = [
        {n for t in r.tables if t.plays == "out" for p in t.pairs for n in setup.names(p, r.hand) if n}
        for r in drive.rounds
    ]
    assert all(len(s) == 2 for s in sitting) and len({frozenset(s) for s in sitting}) > 1
    assert make_drive(setup.as_dict()) == setup
    with pytest.raises(InputError) as exc:
        drive_of(LADIES[:7], GENTS[:7], spare_seats="ghosts")
    assert set(exc.value.errors) == {"spare_seats"}


@st.composite
def spare_drives(draw):
    tables = draw(st.integers(2, 9))
    ladies = draw(st.integers(2 * tables - 1, 2 * tables))
    gents = draw(st.integers(max(3, 2 * tables - 1), 2 * tables))
    hands = draw(st.integers(1, 12))
    movement = draw(st.sampled_from(["winners", "fresh"]))
    setup = drive_of(
        [f"L{i}" for i in range(ladies)],
        [f"G{i}" for i in range(gents)],
        hands=hands,
        movement=movement,
        spare_seats="sit_out",
    )
    firsts = draw(st.lists(st.integers(0, 13), min_size=hands * setup.tables, max_size=hands * setup.tables))
    results = {}
    for hand in range(1, hands + 1):
        for t in play(setup, results).rounds[hand - 1].tables:
            if t.plays != "out":
                a = firsts[len(results)]
                results[hand, t.table] = [a, 13 - a]
    return setup, results


@settings(max_examples=examples(150), deadline=None)
@given(spare_drives())
def test_under_sit_out_the_spare_seats_of_the_two_roles_stay_together(case):
    setup, results = case
    drive = play(setup, results)
    pairs_of_spares = min(setup.seats - len(setup.ladies), setup.seats - len(setup.gents))
    for r in drive.rounds:
        assert sorted(p[0] for t in r.tables for p in t.pairs) == list(range(setup.seats))
        assert sorted(p[1] for t in r.tables for p in t.pairs) == list(range(setup.seats))
        assert [t.plays for t in r.tables].count("out") == pairs_of_spares
        assert [t.plays for t in r.tables].count("dummy") == setup.empty_seats - 2 * pairs_of_spares
