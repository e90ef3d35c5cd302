"""German whist's test data (tests/variants/__init__.py says what each name is for)."""

from hypothesis import strategies as st

PLAYERS = ["Anna", "Bo"]
GAME = {"options": {"count": "all26", "target": 3}, "hands": [{"tricks": [14, 12]}, {"tricks": [13, 13]}]}
FORM_HANDS = [{"tricks": "9"}]
BLANK_COLUMNS = ["Tricks"]
LONG = ({"count": "all26", "target": 100}, None)
OPTION_SETS = [{}, {"count": "all26"}, {"target": 30}, {"count": "all26", "target": 12}]
CONTEXT_FREE = True


def long_hands(n: int, seed: int = 1) -> list[dict]:
    """All 26 tricks: 13–13 scores nothing, every tenth deal one point, to each player in turn."""
    del seed
    return [{"tricks": ([14, 12] if (i // 10) % 2 == 0 else [12, 14]) if i % 10 == 9 else [13, 13]} for i in range(n)]


def hand(draw, setup, index):
    total = 26 if setup.options.get("count") == "all26" else 13
    a = draw(st.integers(0, total))
    return {"tricks": [a, total - a]}


def from_csv(row, game):
    sides = [" & ".join(game["players"][s] for s in side) for side in game["sides"]]
    return {"tricks": [int(row[f"tricks {s}"]) for s in sides]}
