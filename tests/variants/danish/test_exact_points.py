"""Exact points (RULES.md "Exact points", issue 32/36): `house.rounding: "none"` keeps quarter points exact in the
hands, the totals, the selvmakker share and the sol pool; money is rounded once per balance by largest remainder;
the numbers a treasurer types are read as written (core/numbers.py)."""

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import examples
from scorekeeper.core import InputError, make_setup, play, settle, settlement_points
from scorekeeper.core.numbers import NumberError, ascii_written, read_number, written
from scorekeeper.variants.danish import rules as danish
from variants.danish import (
    QUARTER_BALANCES,
    QUARTER_CARD,
    QUARTER_HANDS,
    QUARTER_PLAYERS,
    QUARTER_TOTALS,
    house_games,
)

SETTINGS = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def fractions(text):
    return [Fraction(x) for x in text.split()]


def quarter_game(**house):
    setup = make_setup("danish", QUARTER_PLAYERS, 0, {"house": QUARTER_CARD | house, "rate": 0.05})
    return setup, play(setup, [inp for inp, _points in QUARTER_HANDS])


# ---------------------------------------------------------------- the worked example


@pytest.mark.parametrize("number", range(1, len(QUARTER_HANDS) + 1))
def test_each_hand_of_the_worked_example_scores_exactly(number):
    _setup, p = quarter_game()
    assert list(p.hands[number - 1].points) == fractions(QUARTER_HANDS[number - 1][1])


def test_the_totals_are_exact_and_written_as_the_api_says():
    _setup, p = quarter_game()
    assert [written(t) for t in p.totals] == QUARTER_TOTALS
    assert sum(p.totals) == 0
    assert type(p.totals[4]) is int  # a whole total is an int, never Fraction(-14, 1)


def test_the_money_is_rounded_once_per_balance_by_largest_remainder():
    _setup, p = quarter_game()
    s = settle(settlement_points(p), 0.05)
    assert [f"{c / 100:.2f}" for c in s.balances] == QUARTER_BALANCES
    assert sum(s.balances) == 0
    rounded_per_hand = [sum(round(Fraction(x) * 5) for x in (h.points[i] for h in p.hands)) for i in range(5)]
    assert rounded_per_hand != list(s.balances)  # rounding each hand's money gives other sums


def test_the_default_rounding_rounds_the_same_card_to_whole_points():
    _setup, p = quarter_game(rounding="half_away")
    assert list(p.hands[0].points) == [0, 2, -2, 2, -2]  # ¾ → 1 each, made with one over
    assert list(p.hands[1].points) == [-3, 0, 9, -3, -3]  # sol 2½ → 3
    assert all(type(x) is int for h in p.hands for x in h.points)


def test_the_selvmakker_share_follows_an_exact_house_and_the_resolved_house_says_so():
    setup, p = quarter_game()
    assert setup.options["house"]["selvmakker"]["rounding"] == "none"
    assert setup.options["house"]["levels"]["8"]["made"] == "3/4"
    assert setup.options["house"]["overrides"]["8/gode"]["made"] == "7/4"
    # A factor of 2/3 under none: 1½ × 2/3 = 1 exactly; 8 with 9 alone: Q = 1, the bidder 3.
    house = QUARTER_CARD | {"selvmakker": {"factor": "2/3"}}
    setup = make_setup("danish", QUARTER_PLAYERS[:4], 0, {"house": house})
    assert setup.options["house"]["selvmakker"]["rounding"] == "none"
    hand = {"bidder": 1, "bid": 8, "suffix": "plain", "trump": "hearts", "partner": 1, "tricks": 10}
    assert list(play(setup, [hand]).hands[0].points) == [
        Fraction(-3, 2),
        Fraction(9, 2),
        Fraction(-3, 2),
        Fraction(-3, 2),
    ]


def test_a_selvmakker_rounding_given_is_kept_under_none():
    house = QUARTER_CARD | {"selvmakker": {"factor": 1, "rounding": "half_away"}}
    setup = make_setup("danish", QUARTER_PLAYERS, 0, {"house": house})
    hand = {"bidder": 1, "bid": 8, "suffix": "gode", "trump": "clubs", "partner": 1, "tricks": 10}
    assert list(play(setup, [hand]).hands[0].points) == [0, 15, -5, -5, -5]  # 5¼ rounded to 5


def test_the_winners_pool_is_exact_under_none_and_adds_up():
    house = QUARTER_CARD | {"gaa_med": "winners_pool", "sol": {"sol": {"max_tricks": 1, "won": 10, "lost": 10}}}
    setup = make_setup("danish", QUARTER_PLAYERS[:4], 0, {"house": house})
    hand = {"bidder": 1, "bid": "sol", "tricks": 0, "with": [{"seat": 2, "tricks": 3}]}
    points = play(setup, [hand]).hands[0].points  # one made of two: the three others pay 10 / 3 each
    assert list(points) == [Fraction(-10, 3), 10, Fraction(-10, 3), Fraction(-10, 3)]
    assert sum(points) == 0


def test_the_printed_matrix_has_the_exact_values():
    setup, _p = quarter_game()
    matrix = danish.tariff_matrix(setup.options)
    row = {(b, s): v for b, s, v in matrix["rows"]}[(8, "plain")]
    assert row[8] == Fraction(3, 4) and row[9] == Fraction(3, 2) and row[7] == Fraction(-3, 4)
    assert matrix["sol"]["sol"] == (Fraction(5, 2), Fraction(5, 2))


# ---------------------------------------------------------------- properties


@SETTINGS
@given(house_games())
def test_exact_totals_add_up_to_zero_under_none(game):
    setup, inputs = game
    house = dict(setup.options["house"]) | {"rounding": "none", "selvmakker": {"factor": 1, "rounding": "none"}}
    exact = make_setup("danish", list(setup.players), setup.dealer, dict(setup.options) | {"house": house})
    p = play(exact, inputs)
    for h in p.hands:
        assert sum(h.points) == 0  # the winners' pool too
        assert all(type(x) is int or x.denominator > 1 for x in h.points)
    assert sum(p.totals) == 0
    assert p.totals == tuple(sum(h.points[i] for h in p.hands) for i in range(setup.n))


@SETTINGS
@given(house_games(), st.sampled_from(["0.05", "0.25", "0.01", "1", "0.333", "2"]))
def test_the_money_adds_up_to_zero_ore_and_is_each_balance_rounded_once(game, rate):
    setup, inputs = game
    house = dict(setup.options["house"]) | {"rounding": "none"}
    exact = make_setup("danish", list(setup.players), setup.dealer, dict(setup.options) | {"house": house})
    p = play(exact, inputs)
    if sum(p.totals) != 0:
        return  # a winners' pool under an explicit selvmakker rounding may not add up
    s = settle(settlement_points(p), rate)
    assert sum(s.balances) == 0
    for cents, points in zip(s.balances, settlement_points(p)):
        assert abs(cents - Fraction(points) * Fraction(rate) * 100) < 1


# ---------------------------------------------------------------- numbers as written

ON_PAPER = [
    ("3", Fraction(3)),
    ("0,75", Fraction(3, 4)),
    ("0.75", Fraction(3, 4)),
    ("¾", Fraction(3, 4)),
    ("1¼", Fraction(5, 4)),
    ("1 ¼", Fraction(5, 4)),
    ("1 1/4", Fraction(5, 4)),
    ("1  1/4", Fraction(5, 4)),
    ("1/2", Fraction(1, 2)),
    ("3/4", Fraction(3, 4)),
    ("2½", Fraction(5, 2)),
    ("2 1/2", Fraction(5, 2)),
    (" 1\u00a01/4 ", Fraction(5, 4)),
    ("1⁄4", Fraction(1, 4)),  # the fraction slash
    ("12,5", Fraction(25, 2)),
]
OVER_JSON = [("3", Fraction(3)), ("0.75", Fraction(3, 4)), ("3/4", Fraction(3, 4)), ("1 1/4", Fraction(5, 4))]
REFUSED_OVER_JSON = ["0,75", "¾", "1¼", "1 5/4", "1/0", "1 1/0", "1 4/4", "11 /4x", "1 1.5/4", "1 -1/4"]
REFUSED_ON_PAPER = ["1 5/4", "1/0", "1,2,3", "1.234,5", "¾¾", "1 ¾ 1", "x¾", "½1", "1,5/2"]


@pytest.mark.parametrize("text, value", ON_PAPER)
def test_the_pages_read_what_a_card_prints(text, value):
    assert read_number(ascii_written(text), high=100, fraction=True) == value
    assert danish.model.number(text, "levels.8.made", on_paper=True) == value


@pytest.mark.parametrize("text, value", OVER_JSON)
def test_the_api_reads_the_ascii_forms(text, value):
    assert danish.model.number(text, "levels.8.made") == value


@pytest.mark.parametrize("text", REFUSED_OVER_JSON)
def test_the_api_refuses_the_paper_forms_naming_the_path(text):
    house = {"levels": {"8": {"made": text, "over": 1, "lost": 1}}}
    with pytest.raises(InputError) as exc:
        make_setup("danish", QUARTER_PLAYERS, 0, {"house": house})
    assert list(exc.value.errors) == ["options.house.levels.8.made"]


@pytest.mark.parametrize("text", REFUSED_ON_PAPER)
def test_the_pages_refuse_what_is_no_number(text):
    with pytest.raises(NumberError):
        danish.model.number(text, "levels.8.made", on_paper=True)


def test_a_mixed_number_is_never_read_as_digits_run_together():
    assert danish.model.number("1 1/4", "x", on_paper=True) == Fraction(5, 4)  # before: 11/4 on the pages
    with pytest.raises(NumberError) as exc:
        read_number("1 5/4", high=10, fraction=True)
    assert exc.value.kind == "mixed"
    with pytest.raises(NumberError) as exc:
        read_number("1 " + "1" * 40 + "/" + "2" * 40, high=10, fraction=True)
    assert exc.value.kind == "long"  # bounded before any arithmetic


def written_forms(value: Fraction) -> list[str]:
    """The ways a card may write a number from 0 up: "p/q", "w p/q", a decimal with a point or a comma, a vulgar
    fraction."""
    whole, part = divmod(value, 1)
    forms = [f"{value.numerator}/{value.denominator}"]
    if part:
        forms.append(
            f"{whole} {part.numerator}/{part.denominator}" if whole else f"{part.numerator}/{part.denominator}"
        )
        glyph = {Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾", Fraction(1, 3): "⅓"}.get(part)
        if glyph:
            forms.append(f"{whole or ''}{glyph}")
    for places in range(0, 5):
        if (value * 10**places).denominator == 1:
            text = f"{value.numerator / value.denominator:.{places}f}" if places else str(int(value))
            forms += [text, text.replace(".", ",")]
            break
    return forms


@given(st.fractions(0, 10_000, max_denominator=12))
def test_reading_the_written_form_of_a_number_gives_it_back(value):
    for text in written_forms(value):
        assert danish.model.number(text, "x", high=10_000, on_paper=True) == value, text
    assert (
        read_number(written(value) if isinstance(written(value), str) else str(value), high=10_000, fraction=True)
        == value
    )
