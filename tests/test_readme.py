"""The README against the code: every variant and option is documented, and its examples score as it says."""
import json
import re
from pathlib import Path

import pytest

from scorekeeper.core import VARIANTS, make_setup, play

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_readme_starts_with_the_two_commands():
    first = README.split("```sh", 1)[1].split("```", 1)[0]
    assert "make run" in first and "make test" in first


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_and_option_is_documented(variant):
    section = README.split(f"### {variant} — ", 1)
    assert len(section) == 2, f"no README section for {variant}"
    text = section[1].split("\n### ", 1)[0]
    for option in VARIANTS[variant].OPTIONS:
        assert f"`{option}`" in text, f"{variant}: option {option} is not documented"


EXAMPLES = [
    ("classic", {"honours": True}, '{"trump": "hearts", "tricks": [8, 5], "honours": [3, 1], "revoke": {"side": 1, "penalty": "tricks"}}', [5, 0]),
    ("norwegian", {}, '{"bid": "grand", "bidder": 2, "tricks": [5, 8]}', [0, 4]),
    ("danish", {}, '{"bidder": 1, "bid": "sol", "tricks": 1}', [-50, 150, -50, -50]),
    ("danish", {}, '{"bidder": 0, "bid": 9, "suffix": "gode", "partner": 0, "tricks": 9}', [240, -80, -80, -80]),
    ("german", {}, '{"tricks": [9, 4]}', [3, 0]),
    ("swedish", {}, '{"red": 3, "tricks": [5, 8]}', [0, 2]),
    ("swedish", {}, '{"red": null, "tricks": [4, 9]}', [3, 0]),
]


@pytest.mark.parametrize("variant,options,hand,points", EXAMPLES)
def test_readme_hand_examples_score_as_written(variant, options, hand, points):
    assert f"`{hand}`" in README
    players = ["A", "B"] if variant == "german" else ["A", "B", "C", "D"]
    protokoll = play(make_setup(variant, players, 0, options), [json.loads(hand)])
    assert list(protokoll.hands[0].points) == points
    assert re.search(re.escape(f"`{points}`".replace(", ", ", ")), README)
