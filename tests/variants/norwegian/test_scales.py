"""Norwegian whist's scales (RULES.md): grand_value, pass_value, majority_loses, and Parlett's scale as a preset."""

import pytest

from scorekeeper.core import InputError, make_setup, play

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]


def points(inp, **options):
    return list(play(make_setup("norwegian", PLAYERS, 0, options), [inp]).hands[0].points)


@pytest.mark.parametrize(
    "options, inp, expected",
    [
        # a made grand: grand_value × (tricks − 6) = 4 × 3
        ({"grand_value": 4}, {"bid": "grand", "bidder": 0, "tricks": [9, 4]}, [12, 0]),
        # a failed grand: set_bonus × grand_value × (their tricks − 6) = 2 × 4 × 2
        ({"grand_value": 4}, {"bid": "grand", "bidder": 0, "tricks": [5, 8]}, [0, 16]),
        # pass under seven at pass_value 2: 2 × (7 − 4)
        ({"pass_value": 2, "pass_scoring": "under_seven"}, {"bid": "pass", "tricks": [4, 9]}, [6, 0]),
        # pass under six at pass_value 3: 3 × (6 − 5); the side with 8 scores nothing
        ({"pass_value": 3}, {"bid": "pass", "tricks": [5, 8]}, [3, 0]),
        # majority_loses: the side with 9 scores −(9 − 6); the other nothing
        ({"pass_scoring": "majority_loses"}, {"bid": "pass", "tricks": [9, 4]}, [-3, 0]),
        ({"pass_scoring": "majority_loses", "pass_value": 2}, {"bid": "pass", "tricks": [6, 7]}, [0, -2]),
        # Parlett: grand made with 8 is 4 × 2; a pass side with 3 tricks 2 × (7 − 3)
        ({"preset": "parlett"}, {"bid": "grand", "bidder": 1, "tricks": [5, 8]}, [0, 8]),
        ({"preset": "parlett"}, {"bid": "pass", "tricks": [3, 10]}, [8, 0]),
    ],
)
def test_scales(options, inp, expected):
    assert points(inp, **options) == expected


def test_parlett_is_a_preset_of_options_and_given_ones_go_over_it():
    options = make_setup("norwegian", PLAYERS, 0, {"preset": "parlett"}).options
    assert {k: options[k] for k in ("grand_value", "set_bonus", "pass_value", "pass_scoring", "target")} == {
        "grand_value": 4,
        "set_bonus": 2,
        "pass_value": 2,
        "pass_scoring": "under_seven",
        "target": 50,
    }
    assert make_setup("norwegian", PLAYERS, 0, {"preset": "parlett", "target": 30}).options["target"] == 30
    with pytest.raises(InputError) as caught:
        make_setup("norwegian", PLAYERS, 0, {"preset": "cheap"})
    assert "options.preset" in caught.value.errors


def test_options_stored_without_the_scales_score_as_before():
    setup = make_setup("norwegian", PLAYERS)
    old = {k: v for k, v in setup.options.items() if k not in ("grand_value", "pass_value", "preset")}
    s = type(setup)(setup.variant, setup.players, 0, old)
    assert play(s, [{"bid": "grand", "bidder": 0, "tricks": [5, 8]}]).hands[0].points == (0, 4)
