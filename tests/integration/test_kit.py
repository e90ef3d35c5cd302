"""The conformance kit (scorekeeper/testing/kit.py) over every registered variant, with its test data
(tests/variants/<name>/, or its package's own examples.py): every page, paper, export and API answer with a deal in
progress, the example game played, after an edit and a delete, a finished game, in each language, the hand page's taps
and the offline phone's path. The kit's own tests: it fails a variant whose deal in progress answers 500 (issue 46: a
view that did so passed all 4,318 fast tests), and passes a well-made plug-in (tests/toys.py: THROWN)."""

from __future__ import annotations

import pytest
from toys import THROWN_FILES, THROWN_VIEW, register

from scorekeeper.core import VARIANTS
from scorekeeper.testing import kit
from variants import EXAMPLES


def finished_of(name: str) -> dict | None:
    """A game of `name` that ends, from its test data: the example game with its `deals` set to its hands, a long
    game to the lowest `target`, the example or the long game as they are."""
    data, rules = EXAMPLES[name], VARIANTS[name]
    game = data.GAME
    players, options = game.get("players") or data.PLAYERS, dict(game.get("options") or {})
    long_options = dict(data.LONG[0])
    candidates = []
    if "deals" in rules.OPTIONS:
        candidates.append({"players": players, "options": {**options, "deals": len(game["hands"])}, **_hands(game)})
        candidates.append(
            {"players": data.PLAYERS, "options": {**long_options, "deals": 3}, "hands": data.long_hands(3)}
        )
    if "target" in rules.OPTIONS:
        low = {"target": rules.OPTIONS["target"].low or 1}
        candidates.append({"players": data.PLAYERS, "options": {**long_options, **low}, "hands": data.long_hands(60)})
    candidates.append({"players": players, "options": options, **_hands(game)})
    candidates.append({"players": data.PLAYERS, "options": long_options, "hands": data.long_hands(80)})
    return kit.finishing(name, candidates)


def _hands(game: dict) -> dict:
    return {"hands": list(game["hands"])}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_variant_passes_the_kit(app, name):
    data = EXAMPLES.get(name)
    kit.check(app, name, kit.example_of(name, data, finished_of(name) if data is not None else None))


def test_every_built_in_variant_has_a_finished_game_in_its_test_data():
    assert {name: bool(finished_of(name)) for name in EXAMPLES} == dict.fromkeys(EXAMPLES, True)


def test_a_well_made_plug_in_passes_the_kit(app, monkeypatch, tmp_path):
    """THROWN as a package with its own examples.py (its bids first, a thrown-in deal): the kit takes its data
    from the package."""
    register(monkeypatch, tmp_path, app, "thrown", THROWN_FILES)
    example = kit.example_of("thrown")
    assert example.finished and example.form_hands and example.players == ["Ada", "Bea", "Cy"]
    kit.check(app, "thrown")


# A view whose fields of a hand read what only a scored hand has (its points): every answer that lists the deal in
# progress raised, while a game without bids entered first showed nothing wrong.
BROKEN_VIEW = THROWN_VIEW.replace(
    'return {"factor": ctx.state.factor}', 'return {"factor": ctx.state.factor, "won": max(hand.points)}'
)


def test_the_kit_fails_a_variant_whose_deal_in_progress_answers_500(app, monkeypatch, tmp_path):
    register(monkeypatch, tmp_path, app, "thrown", {**THROWN_FILES, "view.py": BROKEN_VIEW})
    with pytest.raises(AssertionError) as failed:
        kit.check(app, "thrown", languages=("en",))
    said = str(failed.value)
    assert "variant 'thrown' fails the kit" in said
    for url in ("GET /g/<id>?lang=en:", "GET /g/<id>/live?lang=en:", "GET /api/games/<id>?lang=en:"):
        assert f"a deal in progress: {url} raised AttributeError" in said, said
    assert "'OpenDeal' object has no attribute 'points'" in said
    assert "PUT /api/games/<id>/bids: raised" in said  # the bids' own answer lists the deal too
    assert "the example game:" not in said.replace("the example game: PUT", "")  # nothing else of the game fails


def test_the_kit_says_what_example_data_docs_and_words_a_package_lacks(app, monkeypatch, tmp_path):
    examples = "PLAYERS = ['Ada', 'Bea', 'Cy']\nGAME = {'options': {'deals': 5}, 'hands': [{'passed': True}]}\n"
    files = {**THROWN_FILES, "examples.py": examples, "translations/da/LC_MESSAGES/messages.po": 'msgid ""\n'}
    register(monkeypatch, tmp_path, app, "thrown", {k: v for k, v in files.items() if k != "rules.md"})
    with pytest.raises(AssertionError) as failed:
        kit.check(app, "thrown", languages=("en",))
    said = str(failed.value)
    assert "the example game has no hand whose bids come before its play" in said
    assert "no finished game: give the example data FINISHED" in said
    assert "the example data has no FORM_HANDS" in said
    assert "its package has no docs section: rules.md with '### thrown — <title>'" in said
    assert "translations/da is not compiled: pybabel compile" in said
