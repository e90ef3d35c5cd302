"""The rules of Solo and Plump (their packages' rules.md) give one hand per house rule of issue 36: each row, played
with its options, scores as the row says."""

import json
import re
from pathlib import Path

import pytest

from scorekeeper.core import make_setup, play

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| (solo|plump) \| (`[^`]+`|ten players) \| `([^`]+)`[^|]*\| `(\[[^`]+\])` \|$")
RULES = [ROOT / "scorekeeper" / "variants" / name / "rules.md" for name in ("solo", "plump")]
ROWS = [m.groups() for path in RULES for line in path.read_text().splitlines() if (m := ROW.match(line))]


def test_every_new_option_has_its_hand():
    options = " ".join(o for _v, o, _h, _p in ROWS)
    for name in ("overtricks", "undertricks", "prop_slam", "prop_undertricks", "up_down_twice", "down_up_twice"):
        assert name in options, name
    for name in ("bonus_round_zero", "minus_made"):
        assert name in options, name
    assert any(o == "ten players" for _v, o, _h, _p in ROWS)


@pytest.mark.parametrize("variant, options, hand, points", ROWS)
def test_the_row_scores_as_written(variant, options, hand, points):
    inp = json.loads(hand)
    n = len(inp["bids"]) if variant == "plump" else 4
    given = {} if options == "ten players" else json.loads(options.strip("`"))
    setup = make_setup(variant, [f"P{i}" for i in range(n)], 0, given)
    assert list(play(setup, [inp]).hands[0].points) == json.loads(points)
