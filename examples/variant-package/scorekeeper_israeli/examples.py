"""Israeli whist's example data, the hook the conformance kit reads (scorekeeper/testing/kit.py: example_of) and the
app's tests read for a variant that is installed (tests/variants/__init__.py): the names a variant's test data has.

- PLAYERS; GAME: a short game ({"options", "hands"}): its bids first, a deal thrown in, a doubled deal after it;
- FORM_HANDS: the hand page's taps for a game with the default options (the last player's tricks filled in);
- FINISHED: a game that ends (a deal thrown in counts for none of the game's deals);
- BLANK_COLUMNS, LONG and long_hands, hand (a hypothesis strategy), OPTION_SETS, CONTEXT_FREE, from_csv: for the
  app's property, cost and CSV tests.
"""

from __future__ import annotations

PLAYERS = ["Avi", "Noa", "Eli", "Tal"]
GAME = {
    "options": {"deals": 3},
    "hands": [
        # Noa wins the auction with 6 spades; Avi calls last and makes it 12 (under). Avi exact: 2² + 10.
        {"declarer": 1, "bid": 6, "trump": "spades", "predictions": [2, 6, 3, 1], "tricks": [2, 5, 4, 2]},
        {"passed": True},  # all passed: thrown in, counts for none of the 3 deals, the next counts double
        # Eli 5 no trump; 14 called (over). Avi's exact nothing over: 25; Noa 4² + 10; Eli 5² + 10; Tal one off: -10.
        {"declarer": 2, "bid": 5, "trump": "none", "predictions": [0, 4, 5, 5], "tricks": [0, 4, 5, 4]},
    ],
}
GAME_POINTS = [[14, -10, -10, -10], [0, 0, 0, 0], [50, 52, 70, -20]]
FORM_HANDS = [
    {"declarer": "0", "bid": "5", "trump": "hearts", "p0": "5", "p1": "3", "p2": "2", "p3": "2"}
    | {"t0": "5", "t1": "3", "t2": "2"},
    {"passed": "1"},
    {"declarer": "2", "bid": "6", "trump": "none", "p0": "1", "p1": "1", "p2": "6", "p3": "1"}
    | {"t0": "1", "t1": "2", "t2": "6", "t3": "4"},
]
FINISHED = {
    "options": {"deals": 1},
    "hands": [
        {"passed": True},
        {"declarer": 3, "bid": 7, "trump": "hearts", "predictions": [1, 2, 3, 8], "tricks": [1, 2, 3, 7]},
    ],
}
BLANK_COLUMNS = ["Declarer", "Bid", "Trump"]
LONG = ({"deals": 100}, None)  # deals thrown in make no deal of the game: no most
OPTION_SETS = [{}, {"thrown_doubles": False}, {"min_bid": 4, "zero_over": 0, "deals": 5}]
CONTEXT_FREE = False  # a deal after one thrown in counts double


def long_hands(n: int, seed: int = 1) -> list[dict]:
    """Hands that keep a game going, a deal thrown in now and then."""
    out: list[dict] = []
    for k in range(n):
        if (k + seed) % 7 == 3:
            out.append({"passed": True})
            continue
        declarer = (k + seed) % 4
        calls = [2, 3, 3, 3]
        calls[declarer] = 6  # the declarer calls its bid: 6 + 9 = 15, over
        tricks = [3, 3, 3, 3]
        tricks[declarer] = 4
        out.append({"declarer": declarer, "bid": 5 + k % 2, "trump": "hearts", "predictions": calls, "tricks": tricks})
    return out


def hand(draw, setup, index):
    """One valid hand for any hand of any game (a hypothesis draw): a deal thrown in, or an auction and calls."""
    from hypothesis import strategies as st

    if draw(st.integers(0, 5)) == 0:
        return {"passed": True}
    n, low = len(setup.players), setup.options.get("min_bid", 5)
    declarer = draw(st.integers(0, n - 1))
    bid = draw(st.integers(low, 13))
    calls = [draw(st.integers(0, 13)) for _ in range(n)]
    calls[declarer] = max(calls[declarer], bid)
    if sum(calls) == 13:
        last = (declarer + n - 1) % n
        calls[last] = calls[last] + 1 if calls[last] < 13 else calls[last] - 1
        if last == declarer and calls[last] < bid:
            calls[last] += 2
    cuts = sorted(draw(st.integers(0, 13)) for _ in range(n - 1))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, 13])]
    trump = draw(st.sampled_from(["hearts", "diamonds", "clubs", "spades", "none"]))
    return {"declarer": declarer, "bid": bid, "trump": trump, "predictions": calls, "tricks": tricks}


TRUMP_CODES = {"♥": "hearts", "♦": "diamonds", "♣": "clubs", "♠": "spades", "NT": "none"}


def from_csv(row: dict, game: dict) -> dict:
    """A hand's input read back from its CSV row (the declarer's name back to a seat)."""
    if row.get("passed") == "yes":
        return {"passed": True}
    players = list(game["players"])
    return {
        "declarer": players.index(row["declarer"]),
        "bid": int(row["bid"]),
        "trump": TRUMP_CODES.get(row["trump"], row["trump"]),
        "predictions": [int(row[f"call {p}"]) for p in players],
        "tricks": [int(row[f"tricks {p}"]) for p in players],
    }
