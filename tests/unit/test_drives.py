"""Whist drives (core/drives.py): the setup's checks, the movement against drives worked out by hand, and properties of
every drive hypothesis can think of: one lady and one gent a pair, everybody seated once a hand, standings = sums."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples
from scorekeeper.core.drives import OutOfTurn, SeatingChanged, accept, down, make_drive, play, seated_names, up
from scorekeeper.core.messages import InputError

LADIES = ["Ann", "Bea", "Cat", "Dot", "Eve", "Fay"]
GENTS = ["Al", "Ben", "Cy", "Dan", "Ed", "Fred"]
PAIRS = [[lady, gent] for lady, gent in zip(LADIES, GENTS)]
# The tricks of the first pair at tables 1, 2, 3 in hands 1–4 of the worked drives (the second took 13 − that).
TRICKS = [[8, 4, 7], [6, 10, 5], [7, 2, 9], [13, 6, 7]]


def results(rows=TRICKS):
    return {(h + 1, t + 1): [a, 13 - a] for h, row in enumerate(rows) for t, a in enumerate(row)}


def seated(drive, setup):
    """Each hand's tables as names: [[(lady, gent), (lady, gent)] per table]."""
    return [[[setup.names(p) for p in t.pairs] for t in r.tables] for r in drive.rounds]


def table_of(standings):
    return [(s.names, s.total, s.place) for s in standings]


def test_up_and_down_go_round():
    assert [up(t, 3) for t in (1, 2, 3)] == [2, 3, 1]
    assert [down(t, 3) for t in (1, 2, 3)] == [3, 1, 2]


def test_progressive_drive_worked_by_hand():
    setup = make_drive({"format": "progressive", "ladies": LADIES, "gents": GENTS, "hands": 4, "interval_after": 2})
    drive = play(setup, results())
    assert seated(drive, setup) == [
        # Hand 1: table t seats lady and gent 2t−1 against lady and gent 2t.
        [[("Ann", "Al"), ("Bea", "Ben")], [("Cat", "Cy"), ("Dot", "Dan")], [("Eve", "Ed"), ("Fay", "Fred")]],
        # 8–5, 4–9, 7–6: winners Ann+Al (t1), Dot+Dan (t2), Eve+Ed (t3); losers Bea+Ben, Cat+Cy, Fay+Fred stay and part.
        # t1 = (Bea, the winning gent of up(1) = t2: Dan), (the winning lady of down(1) = t3: Eve, Ben).
        # t2 = (Cat, t3's Ed), (t1's Ann, Cy).  t3 = (Fay, t1's Al), (t2's Dot, Fred).
        [[("Bea", "Dan"), ("Eve", "Ben")], [("Cat", "Ed"), ("Ann", "Cy")], [("Fay", "Al"), ("Dot", "Fred")]],
        # 6–7, 10–3, 5–8: winners Eve+Ben, Cat+Ed, Dot+Fred; losers Bea+Dan, Ann+Cy, Fay+Al.
        [[("Bea", "Ed"), ("Dot", "Dan")], [("Ann", "Fred"), ("Eve", "Cy")], [("Fay", "Ben"), ("Cat", "Al")]],
        # 7–6, 2–11, 9–4: winners Bea+Ed, Eve+Cy, Fay+Ben; losers Dot+Dan, Ann+Fred, Cat+Al.
        [[("Dot", "Cy"), ("Fay", "Dan")], [("Ann", "Ben"), ("Bea", "Fred")], [("Cat", "Ed"), ("Eve", "Al")]],
    ]
    assert [r.trump for r in drive.rounds] == ["hearts", "clubs", "diamonds", "spades"]
    assert drive.finished and drive.current == 4
    # Ann 8+3+2+6, Bea 5+6+7+7, Cat 4+10+4+7, Dot 9+8+6+13, Eve 7+7+11+6, Fay 6+5+9+0;
    # Al 8+5+4+6, Ben 5+7+9+6, Cy 4+3+11+13, Dan 9+6+6+0, Ed 7+10+7+7, Fred 6+8+2+7.
    assert table_of(drive.standings) == [
        (("Dot",), 36, 1),
        (("Eve",), 31, 2),
        (("Bea",), 25, 3),
        (("Cat",), 25, 3),
        (("Fay",), 20, 5),
        (("Ann",), 19, 6),
        (("Cy",), 31, 1),
        (("Ed",), 31, 1),
        (("Ben",), 27, 3),
        (("Al",), 23, 4),
        (("Fred",), 23, 4),
        (("Dan",), 21, 6),
    ]
    assert [s.role for s in drive.standings] == ["lady"] * 6 + ["gent"] * 6
    # After two hands: Dot 17, Cat 14, Eve 14, Ann, Bea and Fay 11; Ed 17, Dan 15, Fred 14, Al 13, Ben 12, Cy 7.
    assert table_of(drive.half_time)[:6] == [
        (("Dot",), 17, 1),
        (("Cat",), 14, 2),
        (("Eve",), 14, 2),
        (("Ann",), 11, 4),
        (("Bea",), 11, 4),
        (("Fay",), 11, 4),
    ]


def test_progressive_countback():
    setup = make_drive(
        {"format": "progressive", "ladies": LADIES, "gents": GENTS, "hands": 4, "tie_break": "countback"}
    )
    drive = play(setup, results())
    # Bea and Cat 25: both 7 in hand 4, then Bea 7, Cat 4 in hand 3. Cy and Ed 31: hand 4 13 against 7.
    # Al and Fred 23: hand 4 6 against 7.
    assert [(s.names[0], s.place) for s in drive.standings] == [
        ("Dot", 1),
        ("Eve", 2),
        ("Bea", 3),
        ("Cat", 4),
        ("Fay", 5),
        ("Ann", 6),
        ("Cy", 1),
        ("Ed", 2),
        ("Ben", 3),
        ("Fred", 4),
        ("Al", 5),
        ("Dan", 6),
    ]


def test_couples_drive_worked_by_hand():
    setup = make_drive({"format": "couples", "pairs": PAIRS, "hands": 4, "trumps": ["none", "spades"]})
    drive = play(setup, results())
    p1, p2, p3, p4, p5, p6 = (tuple(p) for p in PAIRS)
    assert seated(drive, setup) == [
        [[p1, p2], [p3, p4], [p5, p6]],
        # 8–5, 4–9, 7–6: winners p1, p4, p5. Table t seats its loser and the winner of down(t).
        [[p2, p5], [p3, p1], [p6, p4]],
        # 6–7, 10–3, 5–8: winners p5, p3, p4; losers p2, p1, p6.
        [[p2, p4], [p1, p5], [p6, p3]],
        # 7–6, 2–11, 9–4: winners p2, p5, p6; losers p4, p1, p3.
        [[p4, p6], [p1, p2], [p3, p5]],
    ]
    assert [r.trump for r in drive.rounds] == ["none", "spades", "none", "spades"]
    # p1 8+3+2+6, p2 5+6+7+7, p3 4+10+4+7, p4 9+8+6+13, p5 7+7+11+6, p6 6+5+9+0.
    assert table_of(drive.standings) == [
        (p4, 36, 1),
        (p5, 31, 2),
        (p2, 25, 3),
        (p3, 25, 3),
        (p6, 20, 5),
        (p1, 19, 6),
    ]
    assert {s.role for s in drive.standings} == {"pair"}
    assert drive.half_time is None


def test_countback_shares_only_when_equal_all_the_way_back():
    setup = make_drive({"format": "couples", "pairs": PAIRS[:4], "hands": 2, "tie_break": "countback"})
    # Hand 1: p1 7, p2 6, p3 7, p4 6. Hand 2 seats (p2, p3) and (p4, p1): 6–7 and 7–6.
    drive = play(setup, {(1, 1): [7, 6], (1, 2): [7, 6], (2, 1): [6, 7], (2, 2): [7, 6]})
    # p3 14 (7, 7), p1 13 (7, 6), p4 13 (6, 7), p2 12: p4 ahead of p1 on the last hand.
    assert [(s.names[0], s.total, s.place) for s in drive.standings] == [
        ("Cat", 14, 1),
        ("Dot", 13, 2),
        ("Ann", 13, 3),
        ("Bea", 12, 4),
    ]
    equal = play(setup, {(1, 1): [7, 6], (1, 2): [7, 6], (2, 1): [6, 7], (2, 2): [6, 7]})
    # Now (p4, p1) goes 6–7: p1 7, 7 and p3 7, 7, equal all the way back: they share first place.
    assert [(s.names[0], s.total, s.place) for s in equal.standings][:2] == [("Ann", 14, 1), ("Cat", 14, 1)]


def test_the_drive_seats_the_next_hand_only_when_every_table_is_in():
    setup = make_drive({"format": "progressive", "ladies": LADIES[:4], "gents": GENTS[:4], "hands": 3})
    drive = play(setup, {(1, 1): [9, 4]})
    assert drive.current == 1 and len(drive.rounds) == 1 and not drive.finished
    assert [s.total for s in drive.standings if s.names[0] in ("Ann", "Bea")] == [9, 4]
    drive = play(setup, {(1, 1): [9, 4], (1, 2): [3, 10]})
    assert drive.current == 2 and len(drive.rounds) == 2 and drive.rounds[1].tables[0].tricks is None


@pytest.mark.parametrize(
    "data,field",
    [
        ({"format": "progressive", "ladies": LADIES, "gents": GENTS[:4]}, "gents"),
        ({"format": "progressive", "ladies": LADIES[:2], "gents": GENTS[:2]}, "ladies"),
        ({"format": "progressive", "ladies": LADIES[:5], "gents": GENTS[:5]}, "ladies"),
        ({"format": "progressive", "ladies": ["Ann", "Bea", "Cat", "ann"], "gents": GENTS[:4]}, "ladies"),
        (
            {"format": "progressive", "ladies": ["Ann", "Bea", "Cat", "Dot"], "gents": ["Al", "Ann", "Cy", "Dan"]},
            "ladies",
        ),
        ({"format": "progressive", "ladies": ["Ann", "", "Cat", "Dot"], "gents": GENTS[:4]}, "ladies"),
        ({"format": "progressive", "ladies": ["Ann", "<b>", "Cat", "Dot"], "gents": GENTS[:4]}, "ladies"),
        ({"format": "progressive", "ladies": LADIES[:4], "gents": GENTS[:4], "pairs": PAIRS}, "pairs"),
        ({"format": "couples", "pairs": PAIRS[:3]}, "pairs"),
        ({"format": "couples", "pairs": PAIRS[:2]}, "pairs"),
        ({"format": "couples", "pairs": [["Ann"], ["Bea", "Ben"], ["Cat", "Cy"], ["Dot", "Dan"]]}, "pairs"),
        ({"format": "couples", "pairs": PAIRS[:4], "ladies": LADIES}, "ladies"),
        ({"format": "couples", "pairs": PAIRS[:4], "hands": 0}, "hands"),
        ({"format": "couples", "pairs": PAIRS[:4], "hands": 101}, "hands"),
        ({"format": "couples", "pairs": PAIRS[:4], "hands": True}, "hands"),
        ({"format": "couples", "pairs": PAIRS[:4], "trumps": []}, "trumps"),
        ({"format": "couples", "pairs": PAIRS[:4], "trumps": ["hearts", "nt"]}, "trumps"),
        ({"format": "couples", "pairs": PAIRS[:4], "hands": 12, "interval_after": 12}, "interval_after"),
        ({"format": "couples", "pairs": PAIRS[:4], "interval_after": 0}, "interval_after"),
        ({"format": "couples", "pairs": PAIRS[:4], "tie_break": "coin"}, "tie_break"),
        ({"format": "couples", "pairs": PAIRS[:4], "title": "x" * 81}, "title"),
        ({"format": "couples", "pairs": PAIRS[:4], "colour": "red"}, "colour"),
        ({"format": "rubber", "pairs": PAIRS[:4]}, "format"),
    ],
)
def test_the_setup_is_refused_naming_the_field(data, field):
    with pytest.raises(InputError) as exc:
        make_drive(data)
    assert field in exc.value.errors, exc.value.errors


def test_the_defaults_and_the_stored_form():
    setup = make_drive({"format": "couples", "pairs": PAIRS[:4], "title": "  Village   hall "})
    assert (setup.hands, setup.trumps, setup.interval_after, setup.tie_break, setup.title) == (
        24,
        ("hearts", "clubs", "diamonds", "spades"),
        None,
        "share",
        "Village hall",
    )
    assert make_drive(setup.as_dict()) == setup


def test_accept_takes_the_current_hand_and_the_last_one_until_the_next_has_a_result():
    setup = make_drive({"format": "couples", "pairs": PAIRS[:4], "hands": 2})
    drive = play(setup, {})
    assert accept(drive, 1, 2, [6, 7]) == (1, 2, (6, 7))
    with pytest.raises(OutOfTurn):
        accept(drive, 2, 1, [6, 7])
    drive = play(setup, {(1, 1): [7, 6], (1, 2): [7, 6]})
    assert accept(drive, 1, 1, [6, 7])[0] == 1 and accept(drive, 2, 1, [6, 7])[0] == 2
    drive = play(setup, {(1, 1): [7, 6], (1, 2): [7, 6], (2, 1): [7, 6]})
    with pytest.raises(OutOfTurn):
        accept(drive, 1, 1, [6, 7])
    finished = play(setup, {(1, 1): [7, 6], (1, 2): [7, 6], (2, 1): [7, 6], (2, 2): [0, 13]})
    assert finished.finished and accept(finished, 2, 2, [1, 12])[0] == 2
    with pytest.raises(OutOfTurn):
        accept(finished, 3, 1, [6, 7])
    for table, tricks, field in [
        (3, [7, 6], "table"),
        (0, [7, 6], "table"),
        (1, [7, 7], "tricks"),
        (1, [14, -1], "tricks"),
    ]:
        with pytest.raises(InputError) as exc:
            accept(drive, 2, table, tricks)
        assert not isinstance(exc.value, OutOfTurn) and field in exc.value.errors


def test_the_bounds_are_the_callers():
    people = {"format": "progressive", "ladies": [f"L{i}" for i in range(8)], "gents": [f"G{i}" for i in range(8)]}
    assert make_drive({**people, "hands": 30}, max_tables=4, max_hands=30).tables == 4
    with pytest.raises(InputError) as exc:
        make_drive({**people, "hands": 31}, max_tables=3, max_hands=30)
    assert sorted(exc.value.errors) == ["hands", "ladies"]
    big = make_drive({**people, "hands": 500}, max_tables=None, max_hands=None)  # read back as it was stored
    assert big.hands == 500 and make_drive(big.as_dict(), max_tables=None, max_hands=None) == big
    with pytest.raises(InputError):
        make_drive({**people, "hands": 0}, max_tables=None, max_hands=None)


def test_a_result_sent_for_a_seating_that_changed_is_refused():
    """Hand 2 is seated from hand 1's results: a correction of hand 1 that turns a table's winner round seats hand 2
    anew, and a result carrying the pairs shown before is SeatingChanged; one that keeps the winners keeps them."""
    setup = make_drive({"format": "progressive", "ladies": LADIES[:4], "gents": GENTS[:4], "hands": 3})
    shown = play(setup, {(1, 1): [8, 5], (1, 2): [8, 5]})
    pairs = seated_names(setup, shown.rounds[1].tables[0])
    assert pairs == [["Bea", "Cy"], ["Cat", "Ben"]]
    assert accept(shown, 2, 1, [7, 6], pairs) == (2, 1, (7, 6))
    same_winners = play(setup, {(1, 1): [9, 4], (1, 2): [8, 5]})
    assert seated_names(setup, same_winners.rounds[1].tables[0]) == pairs
    turned = play(setup, {(1, 1): [5, 8], (1, 2): [8, 5]})
    assert seated_names(setup, turned.rounds[1].tables[0]) != pairs
    with pytest.raises(SeatingChanged) as exc:
        accept(turned, 2, 1, [7, 6], pairs)
    assert isinstance(exc.value, OutOfTurn) and list(exc.value.errors) == ["pairs"]
    assert accept(turned, 2, 1, [7, 6]) == (2, 1, (7, 6))  # no pairs sent: taken for whoever sits there
    assert accept(turned, 2, 1, [7, 6], seated_names(setup, turned.rounds[1].tables[0]))[0] == 2
    for wrong in (7, "", [["Ann", "Al"]], [["Ann", "Al"], ["Bea"]], [["Ann", 1], ["Bea", "Ben"]]):
        with pytest.raises(InputError) as bad:
            accept(turned, 2, 1, [7, 6], wrong)
        assert not isinstance(bad.value, OutOfTurn) and list(bad.value.errors) == ["pairs"]


# ------------------------------------------------------------------ properties


@st.composite
def drives(draw, format=None):
    format = format or draw(st.sampled_from(["progressive", "couples"]))
    tables = draw(st.integers(2, 7))
    hands = draw(st.integers(1, 12))
    ladies = [f"L{i}" for i in range(2 * tables)]
    gents = [f"G{i}" for i in range(2 * tables)]
    people = (
        {"ladies": ladies, "gents": gents}
        if format == "progressive"
        else {"pairs": list(map(list, zip(ladies, gents)))}
    )
    tie_break = draw(st.sampled_from(["share", "countback"]))
    setup = make_drive({"format": format, **people, "hands": hands, "tie_break": tie_break})
    played = draw(st.integers(0, hands * tables))
    tricks = draw(st.lists(st.integers(0, 13), min_size=played, max_size=played))
    entered = {(i // tables + 1, i % tables + 1): [a, 13 - a] for i, a in enumerate(tricks)}
    return setup, entered


@settings(max_examples=examples(150), deadline=None)
@given(drives("progressive"))
def test_progressive_every_pair_is_a_lady_and_a_gent_and_everybody_sits_once(case):
    setup, entered = case
    drive = play(setup, entered)
    everybody = set(range(len(setup.ladies)))
    for r in drive.rounds:
        ladies = [pair[0] for t in r.tables for pair in t.pairs]
        gents = [pair[1] for t in r.tables for pair in t.pairs]
        # Each partnership is (lady index, gent index): every lady and every gent exactly once, at one table.
        assert sorted(ladies) == sorted(everybody) and sorted(gents) == sorted(everybody)
        assert len(r.tables) == setup.tables and [t.table for t in r.tables] == list(range(1, setup.tables + 1))


@settings(max_examples=examples(150), deadline=None)
@given(drives())
def test_standings_are_the_sums_of_the_tricks_taken(case):
    setup, entered = case
    drive = play(setup, entered)
    expected: dict[tuple[str, str], int] = {}
    for r in drive.rounds:
        for t in r.tables:
            for pair, tricks in zip(t.pairs, t.tricks or (0, 0)):
                lady, gent = setup.names(pair)
                if setup.couples:
                    expected["pair", lady] = expected.get(("pair", lady), 0) + tricks
                else:
                    expected["lady", lady] = expected.get(("lady", lady), 0) + tricks
                    expected["gent", gent] = expected.get(("gent", gent), 0) + tricks
    assert {(s.role, s.names[0]): s.total for s in drive.standings} == {
        k: expected.get(k, 0) for k in {(s.role, s.names[0]) for s in drive.standings}
    }
    assert sum(s.total for s in drive.standings) == 13 * len(entered) * (1 if setup.couples else 2)
    for role in {s.role for s in drive.standings}:
        ranked = [s for s in drive.standings if s.role == role]
        assert [s.total for s in ranked] == sorted((s.total for s in ranked), reverse=True)
        assert ranked[0].place == 1
        for before, after in zip(ranked, ranked[1:]):
            same = before.total == after.total and (
                setup.tie_break == "share" or before.by_hand[::-1] == after.by_hand[::-1]
            )
            assert after.place == (before.place if same else ranked.index(after) + 1)
            if setup.tie_break == "countback" and before.total == after.total:
                assert before.by_hand[::-1] >= after.by_hand[::-1]


@settings(max_examples=examples(100), deadline=None)
@given(drives("couples"))
def test_ladies_of_a_progressive_drive_move_as_the_pairs_of_a_couples_drive(case):
    """The winning lady moves up as the winning pair does, the losing one stays as the losing pair does."""
    setup, entered = case
    couples = play(setup, entered)
    progressive = play(
        make_drive(
            {"format": "progressive", "ladies": list(setup.ladies), "gents": list(setup.gents), "hands": setup.hands}
        ),
        entered,
    )
    assert [[[p[0] for p in t.pairs] for t in r.tables] for r in couples.rounds] == [
        [[p[0] for p in t.pairs] for t in r.tables] for r in progressive.rounds
    ]
    assert (couples.current, couples.finished) == (progressive.current, progressive.finished)
    rounds_complete = len(entered) // setup.tables
    assert couples.finished == (rounds_complete == setup.hands)
