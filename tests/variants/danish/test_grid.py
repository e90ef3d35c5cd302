"""Issue 32: a Danish club's card as printed (variants/danish/grid.py) is the house of RULES.md and back."""

from fractions import Fraction

import pytest

from scorekeeper.variants.danish import grid
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish import rules as danish

LAEDER = grid.Grid(
    columns=(
        grid.Column("almindelig, vip (1. kort vendt)", ("plain", "vip")),
        grid.Column("vip (2. kort vendt), sans, halve", ("vip2", "sans", "halve")),
        grid.Column("vip (3. kort vendt), gode", ("vip3", "gode")),
    ),
    levels=(8, 9, 10, 11, 12, 13),
    values={
        8: (Fraction(3, 4), Fraction(5, 4), Fraction(7, 4)),
        9: (2, 3, 4),
        10: (5, 7, 9),
        11: (12, 16, 20),
        12: (28, 36, 44),
        13: (64, 80, 96),
    },
    made="over",
    lost="per_trick",
)


def complete(parts):
    return model.check_house(model.merged(danish.build_house({}), parts))


@pytest.mark.parametrize("preset", list(danish.PRESETS))
def test_every_preset_opens_as_a_grid_that_is_the_same_house(preset):
    house = danish.preset_house(preset)
    found, exact = grid.grid_of(house)
    assert exact
    assert complete(model.merged(house, grid.house_parts(found))) == house
    assert danish.preset_of_house(model.merged(house, grid.house_parts(found))) == preset


def test_the_issues_card_is_its_squares_and_opens_as_itself():
    parts = grid.house_parts(LAEDER)
    house = complete(parts)
    parsed = model.parse(house)
    for n, row in LAEDER.values.items():
        for column, v in zip(LAEDER.columns, row):
            for s in column.suffixes:
                assert parsed.level(n, s) == model.Level(v, v, 0, v)
    assert 7 not in parsed.levels and "staerke" not in parsed.suffixes
    back, exact = grid.grid_of(house, grid.names_of(LAEDER))
    assert exact and back.columns == LAEDER.columns and back.made == "over" and back.lost == "per_trick"
    assert {n: tuple(Fraction(v) for v in row) for n, row in back.values.items()} == LAEDER.values


def test_a_column_that_is_a_multiple_is_a_factor_and_one_that_is_not_is_overrides():
    two = grid.Grid((grid.Column("", ("plain",)), grid.Column("", ("vip",))), (7, 8), {7: (10, 20), 8: (20, 45)})
    assert grid.house_parts(two)["suffixes"]["vip"] == {"base": 1, "trick": 1}
    assert set(grid.house_parts(two)["overrides"]) == {"7/vip", "8/vip"}
    even = grid.Grid((grid.Column("", ("plain",)), grid.Column("", ("vip",))), (7, 8), {7: (10, 25), 8: (20, 50)})
    assert grid.house_parts(even)["suffixes"]["vip"] == {"base": "5/2", "trick": "5/2"}
    assert grid.house_parts(even)["overrides"] == {}


def test_the_clubs_layout_is_kept_only_where_it_fits_the_house():
    house = danish.preset_house("standard")
    names = {"columns": [{"heading": "alm.", "suffixes": ["plain"]}, {"heading": "resten", "suffixes": ["vip"]}]}
    found, _exact = grid.grid_of(house, names)  # gode, sans, halve are left out: not the club's card any more
    assert [c.suffixes for c in found.columns] == [("plain",), ("vip", "gode", "sans", "halve")]
    assert [c.heading for c in found.columns] == ["", ""]


def test_a_house_no_rule_of_the_grid_gives_says_so():
    house = danish.preset_house("standard")
    house["levels"]["9"] = {"made": 20, "over": 7, "lost": 3, "short": 0}
    _found, exact = grid.grid_of(house)
    assert not exact


@pytest.mark.parametrize(
    "names",
    [
        "x",
        {"columns": [{"heading": "a", "suffixes": ["plain", "plain"]}]},
        {"columns": [{"heading": "a", "suffixes": ["plain"]}, {"heading": "b", "suffixes": ["plain"]}]},
        {"columns": [{"heading": "a", "suffixes": ["joker"]}]},
        {"sol": {"grand": "x"}},
        {"sol": {"sol": "x" * 61}},
        {"sol": {"sol": "a\nb"}},
    ],
)
def test_names_are_checked(names):
    with pytest.raises(ValueError):
        grid.check_names(names)
