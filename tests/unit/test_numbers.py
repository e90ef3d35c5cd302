"""The one strict reader of money and tariff numbers (scorekeeper/core/numbers.py), and the house and the rate that
use it (issue 22, finding 1): ASCII digits only, a bounded length and exponent checked before any arithmetic, errors
in words that name the path."""

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import PLAYERS, examples
from scorekeeper.core import InputError, Setup, make_setup, play, stored_options
from scorekeeper.core.numbers import DENOMINATOR_MAX, DIGITS_MAX, TEXT_MAX, NumberError, read_number, small
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish import rules as danish
from variants.danish import QUARTER_CARD, house_games
from variants.danish.bounds import hostile_house, primes

HOSTILE = {
    "1e10000000": "long",
    "1e-10000000": "long",
    "9" * 5000: "long",
    "0." + "0" * 5000 + "1": "long",
    "١٢": "shape",  # Arabic-Indic digits: Decimal() reads them
    "１２": "shape",  # full-width digits
    "1_0": "shape",  # Decimal("1_0") is 10
    "²": "shape",
    "0x10": "shape",
    "Infinity": "shape",
    "NaN": "shape",
    "1/0": "shape",
}


def house_error(value, field="made"):
    """The error of a game started with `value` in one field of level 13 of the house."""
    house = {"levels": {"13": {"made": 1, "over": 1, "lost": 1} | {field: value}}}
    with pytest.raises(InputError) as exc:
        make_setup("danish", PLAYERS["danish"], 0, {"house": house})
    return exc.value.errors


@pytest.mark.parametrize("value", sorted(HOSTILE))
def test_a_hostile_house_number_is_refused_by_name_in_our_own_words(value):
    errors = house_error(value)
    assert list(errors) == ["options.house.levels.13.made"]
    message = errors["options.house.levels.13.made"]
    assert "set_int_max_str_digits" not in message and "Exceeds the limit" not in message
    assert message.template in (
        'must be a number from 0 to %(high)d (a whole number, a decimal or a fraction "1/2")',
        "has too many digits (at most %(digits)d, written out)",
    )


@pytest.mark.parametrize("value, kind", sorted(HOSTILE.items()))
def test_the_reader_says_why(value, kind):
    with pytest.raises(NumberError) as exc:
        read_number(value, "levels.13.made", high=1_000_000, fraction=True)
    assert exc.value.kind == kind and exc.value.path == "levels.13.made"


def test_a_huge_exponent_is_refused_by_its_length_not_its_value():
    # Before: Fraction(Decimal("1e10000000")) built a number of ten million digits, then found it out of range.
    for value in ("1e10000000", "1e-10000000", "1e999999", "5e-1000"):
        assert house_error(value)["options.house.levels.13.made"].template.startswith("has too many digits")


@pytest.mark.parametrize(
    "value, expected",
    [
        (7, Fraction(7)),
        (2.5, Fraction(5, 2)),
        (0.1, Fraction(1, 10)),  # as it was written, not the float's binary value
        ("12", Fraction(12)),
        (" 12.50 ", Fraction(25, 2)),
        ("+3", Fraction(3)),
        (".5", Fraction(1, 2)),
        ("1/3", Fraction(1, 3)),
        (" 7/4 ", Fraction(7, 4)),
        ("2.5e3", Fraction(2500)),
        ("1e-5", Fraction(1, 100000)),
        ("0", Fraction(0)),
    ],
)
def test_what_a_table_writes_is_read_exactly(value, expected):
    assert read_number(value, high=1_000_000, fraction=True) == expected


def test_fractions_and_exponents_only_where_the_caller_allows_them():
    with pytest.raises(NumberError):
        read_number("1/2", high=10)
    with pytest.raises(NumberError):
        read_number("1e3", high=10_000, exponent=False)
    assert read_number("1e3", high=10_000) == 1000


def test_bounds_are_checked_in_order_range_places_length():
    with pytest.raises(NumberError) as exc:
        read_number("-1", high=10)
    assert exc.value.kind == "range"
    with pytest.raises(NumberError) as exc:
        read_number("1.005", high=10, places=2)
    assert exc.value.kind == "places"
    with pytest.raises(NumberError) as exc:
        read_number(10**4000, high=10)  # an int is compared, never written out
    assert exc.value.kind == "range"
    with pytest.raises(NumberError) as exc:
        read_number("1" * (DIGITS_MAX + 1), high=10)
    assert exc.value.kind == "long"
    with pytest.raises(NumberError) as exc:
        read_number(" " + "1" * (TEXT_MAX + 1), high=10)
    assert exc.value.kind == "long"


@given(
    st.integers(0, 10**6) | st.fractions(0, 10**6, max_denominator=10**12) | st.decimals(0, 10**6, places=12).map(str)
)
def test_every_number_kept_reads_back_the_same(value):
    """What the house keeps ("p/q", shown) is always a number the reader takes back: the form's house box shows it."""
    if isinstance(value, Fraction):
        value = model.shown(value)
    try:
        read = read_number(value, high=10**6, fraction=True)
    except NumberError as exc:
        assert exc.kind == "long"
        return
    assert read_number(model.shown(read), high=10**6, fraction=True) == read


def test_a_stored_house_keeps_scoring_whatever_the_old_rules_let_in():
    """A house stored before the bounds (a fraction of thousands of digits) still scores: stored numbers are not read
    again by the strict reader."""
    house = danish.build_house({})
    house["levels"]["7"]["made"] = f"1/{10**4000}"
    model.parse(house)  # no error


# ---------------------------------------------------------------- rate


@pytest.mark.parametrize(
    "rate", ["0_05", "0_0_5", "٠.٠٥", "０.０５", "1e10000000", "1e-10000000", "9" * 5000, "0.05.0"]
)
def test_the_rate_is_read_strictly(rate):
    # Before: Decimal("0_05") is 5, a hundred times the stake.
    with pytest.raises(InputError) as exc:
        make_setup("danish", PLAYERS["danish"], 0, {"rate": rate})
    assert list(exc.value.errors) == ["options.rate"]
    assert "set_int_max_str_digits" not in exc.value.errors["options.rate"]


@pytest.mark.parametrize("rate, kept", [("0.05", 0.05), ("0.5", 0.5), (0.25, 0.25), (2, 2), ("1000", 1000.0)])
def test_a_plain_rate_stays_as_it_was(rate, kept):
    assert make_setup("danish", PLAYERS["danish"], 0, {"rate": rate}).options["rate"] == kept


@pytest.mark.parametrize("rate, words", [("0.00005", "decimals"), ("1001", "1000"), ("-1", "1000")])
def test_a_rate_out_of_bounds_says_which_bound(rate, words):
    with pytest.raises(InputError) as exc:
        make_setup("danish", PLAYERS["danish"], 0, {"rate": rate})
    assert words in exc.value.errors["options.rate"]


def test_a_whole_number_option_of_thousands_of_digits_is_not_repeated_back():
    with pytest.raises(InputError) as exc:
        make_setup("classic", PLAYERS["classic"], 0, {"target": 10**4000})
    assert len(exc.value.errors["options.target"]) < 80


# ---------------------------------------------------------------- a fraction over JSON is API.md's "p/q" (issue 43)


@pytest.mark.parametrize(
    "value",
    [
        "1.5/3",  # before: read as 1/2
        "1.5/0.5",  # before: 3
        "1/3e2",  # before: 1/300
        "1e2/3",
        "+1/3",  # API.md writes the sign in front as "-" only
        "1/+3",
        "1/-3",
        "-1/-3",
        "1 / 3",  # "p/q", no spaces inside (the pages take them: ascii_written)
        "1/ 3",
        "/3",
        "1/",
        "1//3",
        "1/3/4",
        "+1 1/4",
        "1 +1/4",
        "0x1/3",
        "1/0",
        "1/000",
    ],
)
def test_a_fraction_is_an_integer_over_a_positive_integer_and_nothing_looser(value):
    with pytest.raises(NumberError) as exc:
        read_number(value, "levels.8.made", high=1_000_000, low=-1_000_000, fraction=True)
    assert exc.value.kind == "shape" and exc.value.path == "levels.8.made"


@pytest.mark.parametrize(
    "value, expected",
    [
        ("3/4", Fraction(3, 4)),
        ("-21/4", Fraction(-21, 4)),  # the sign in front, as the API writes a point
        ("0/7", Fraction(0)),
        ("6/4", Fraction(3, 2)),
        ("007/4", Fraction(7, 4)),
        (" 3/4 ", Fraction(3, 4)),  # the text's own surrounding spaces, as for every number
        ("1 1/4", Fraction(5, 4)),
        ("-1 1/4", Fraction(-5, 4)),
        ("1   1/4", Fraction(5, 4)),
        ("1" * DIGITS_MAX + "/" + "7" * DIGITS_MAX, Fraction(int("1" * DIGITS_MAX), int("7" * DIGITS_MAX))),
    ],
)
def test_what_api_md_writes_is_read(value, expected):
    assert read_number(value, high=10**DIGITS_MAX, low=-1_000_000, fraction=True) == expected


@pytest.mark.parametrize("value", ["1" * (DIGITS_MAX + 1) + "/7", "7/" + "1" * (DIGITS_MAX + 1)])
def test_a_fraction_of_too_many_digits_is_refused_by_its_length(value):
    with pytest.raises(NumberError) as exc:
        read_number(value, high=1_000_000, fraction=True)
    assert exc.value.kind == "long"


@pytest.mark.parametrize(
    "written, read", [("3 / 4", Fraction(3, 4)), ("1 1 / 4", Fraction(5, 4)), ("¾", Fraction(3, 4)), ("0,75", "3/4")]
)
def test_the_pages_still_read_a_fraction_as_a_treasurer_types_it(written, read):
    assert model.number(written, "levels.8.made", on_paper=True) == Fraction(read)


# ---------------------------------------------------------------- exact points in bounds (issue 43)


def start_refused(house) -> dict:
    with pytest.raises(InputError) as exc:
        make_setup("danish", PLAYERS["danish"], 0, {"house": house})
    return exc.value.errors


P, Q = primes(2, 10**4)  # two primes of five digits: their product passes the bound, each alone does not


@pytest.mark.parametrize(
    "house, path",
    [
        (hostile_house(), "levels.7.made"),
        ({"rounding": "none", "levels": {"7": {"made": f"1/{P}", "over": f"1/{Q}", "lost": 1}}}, "levels.7.over"),
        ({"rounding": "none", "levels": {"7": {"made": f"1/{P}", "over": 1, "lost": 1}},
          "suffixes": {"plain": {"base": f"1/{Q}", "trick": 1}}}, "suffixes.plain.base"),
        ({"rounding": "none", "sol": {"sol": {"max_tricks": 1, "won": f"1/{P}", "lost": 1}},
          "selvmakker": {"factor": f"1/{Q}"}}, "selvmakker.factor"),
        ({"rounding": "none", "levels": {"13": {"made": f"1/{P}", "over": 1, "lost": 1}},
          "slam": {"made_factor": {"13": f"1/{Q}"}}}, "slam.made_factor.13"),
        ({"rounding": "none", "levels": {"13": {"made": f"1/{P}", "over": 1, "lost": 1}},
          "slam": {"made_extra": {"13": f"1/{Q}"}}}, "slam.made_extra.13"),
        ({"rounding": "half_away", "selvmakker": {"factor": f"1/{P * Q}", "rounding": "none"}}, "selvmakker.factor"),
    ],
)  # fmt: skip
def test_a_house_whose_exact_points_could_grow_past_the_bound_is_refused_naming_the_field(house, path):
    errors = start_refused(house)
    path = f"options.house.{path}"
    assert list(errors) == [path], errors
    assert errors[path].template.startswith("with the house's other fractions"), errors[path]
    assert errors[path].values == {"max": DENOMINATOR_MAX}


@pytest.mark.parametrize(
    "house",
    [
        QUARTER_CARD,  # RULES.md's worked example: quarter points
        # a house may keep points as fine as it likes when they are rounded: every point is whole
        {"rounding": "half_away", "levels": {"7": {"made": f"1/{P * Q}", "over": f"1/{P}", "lost": f"1/{Q}"}}},
        # right at the bound: 6 (the winners' pool's thirds and halves) × 1,000 × 2 × 83 = 996,000
        {"rounding": "none", "levels": {"7": {"made": "1/1000", "over": "7/8", "lost": 1}},
         "suffixes": {"plain": {"base": "1/2", "trick": 1}}, "selvmakker": {"factor": "1/83"}},
    ],
)  # fmt: skip
def test_a_house_in_bounds_starts(house):
    setup = make_setup("danish", PLAYERS["danish"], 0, {"house": house})
    assert model.points_denominator(setup.options["house"]) <= DENOMINATOR_MAX


def test_a_stored_house_past_the_bound_still_scores():
    """A house stored before the bound is scored as it was: only a new game, club or card is checked."""
    house = danish.build_house({}) | model.check_house(hostile_house())
    options = stored_options("danish", {"house": house}, 4)
    assert options["house"] == house
    setup = Setup("danish", tuple(PLAYERS["danish"]), 0, options)
    hand = {"bidder": 0, "bid": 7, "suffix": "vip", "trump": "hearts", "partner": 2, "tricks": 9}
    below = primes(30)  # levels 7 to 13 take the first 28; the override 7/vip made and over the next two
    assert play(setup, [hand]).totals[0] == Fraction(1, below[28]) + 2 * Fraction(1, below[29])


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(house_games())
def test_every_total_is_a_whole_number_of_the_houses_denominator(game):
    """What docs/operations.md promises: every point and total of a house is a whole multiple of 1 / D, D the house's
    points_denominator, at most DENOMINATOR_MAX; so a total of MAX_HANDS hands has at most a few dozen digits."""
    setup, inputs = game
    denominator = model.points_denominator(setup.options["house"])
    assert denominator <= DENOMINATOR_MAX
    for hand in play(setup, inputs).hands:
        for value in hand.points + hand.totals:
            assert (Fraction(value) * denominator).denominator == 1, (value, denominator)
            assert small(value)
