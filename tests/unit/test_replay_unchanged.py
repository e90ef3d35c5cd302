"""The variant contract was reshaped (issue 26) without changing a score: 750 random games of the five variants,
recorded with the replay as it was before (tests/unit/replay_before.json.gz: setup, inputs and everything the
protokoll said), replay today to the same protokoll and the same settlement."""

import gzip
import json
from pathlib import Path

import pytest

from scorekeeper.core import Setup, play, settlement_points

CASES = json.loads(gzip.decompress((Path(__file__).parent / "replay_before.json.gz").read_bytes()))


def summary(p):
    return {
        "sides": [list(s) for s in p.sides],
        "hands": [
            [
                h.number,
                h.dealer,
                dict(h.input),
                list(h.points),
                list(h.totals),
                h.leader,
                h.sitting_out,
                h.game,
                h.trump,
            ]
            for h in p.hands
        ],
        "totals": list(p.totals),
        "next_dealer": p.next_dealer,
        "next_leader": p.next_leader,
        "finished": p.finished,
        "winner": p.winner,
        "games_won": list(p.games_won) if p.games_won else None,
        "rubber_points": list(p.rubber_points) if p.rubber_points else None,
        "deals_left": p.deals_left,
        "game": p.game,
        "next_trump": p.next_trump,
        "settlement": list(settlement_points(p)),
    }


def test_the_record_holds_every_variant_and_many_hands():
    assert {c["variant"] for c in CASES} == {"classic", "norwegian", "danish", "german", "swedish"}
    assert sum(len(c["inputs"]) for c in CASES) > 4000
    assert any(c["scored"]["games_won"] for c in CASES) and any(c["scored"]["finished"] for c in CASES)


@pytest.mark.parametrize("variant", ["classic", "norwegian", "danish", "german", "swedish"])
def test_every_recorded_game_replays_as_before(variant):
    for case in (c for c in CASES if c["variant"] == variant):
        setup = Setup(variant, tuple(case["players"]), case["dealer"], case["options"])
        scored = json.loads(json.dumps(summary(play(setup, case["inputs"]))))
        assert scored == case["scored"], (setup, case["inputs"])
