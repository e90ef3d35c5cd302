"""Words that hold (issue 44): a made bid is won whatever it is worth ("8 ♣ … 9 stik tabt" was printed for a made bid
worth 0), and where squares have values of their own the rules in words (a sheet's head, the printed card) never
state a rule the squares contradict ("Hvert overstik: 1, ½, 1, 2, 4, 8, 128" where the card gives 0 for an 8's
overtricks): they say the squares have their own values."""

import re

from scorekeeper.core import make_setup, play, table_for
from scorekeeper.games.paper import tariff_view
from scorekeeper.variants.danish import rules as danish
from scorekeeper.variants.views import VIEWS

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]
VIEW = VIEWS["danish"]
# The 8 as a matrix card prints it: lost by 1–4 is −1, by 5–8 −2, made is 0 whatever the overtricks.
EIGHT = {f"8/plain/-{d}": 1 if d <= 4 else 2 for d in range(1, 9)} | {f"8/plain/+{d}": 0 for d in range(6)}


def game(house, hands):
    setup = make_setup("danish", PLAYERS, 0, {"house": house})
    return setup, play(setup, hands)


def words(app, options, lang="en"):
    with app.test_request_context(f"/?lang={lang}"):
        return dict(VIEW.house_rules(table_for("danish", options)))


def test_a_made_bid_worth_nothing_is_made_not_lost():
    hand = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "clubs", "partner": 2, "tricks": 9}
    setup, p = game({"cells": EIGHT}, [hand])
    assert list(p.hands[0].points) == [0, 0, 0, 0]
    ctx = table_for("danish", setup.options)
    assert VIEW.outcome(p.hands[0].input, p.hands[0].points, ctx) == "made"
    lost = hand | {"tricks": 7}
    _setup, p = game({"cells": EIGHT}, [lost])
    assert VIEW.outcome(p.hands[0].input, p.hands[0].points, ctx) == "lost"


def test_a_made_bid_worth_nothing_is_vundet_on_the_protokoll(client):
    r = client.post(
        "/api/games", json={"variant": "danish", "players": PLAYERS, "options": {"house": {"cells": EIGHT}}}
    )
    game_id, key = r.json["id"], {"X-Edit-Key": r.json["edit_key"]}
    hand = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "clubs", "partner": 2, "tricks": 9}
    assert client.post(f"/api/games/{game_id}/hands", json=hand, headers=key).json["points"] == [0, 0, 0, 0]
    page = client.get(f"/g/{game_id}?lang=da").get_data(as_text=True)
    assert re.findall(r'<span class="outcome (\w+)">(\w+)</span>', page) == [("made", "vundet")]
    assert "8 ♣, makker Carl, 9 stik" in page


def test_the_printed_table_marks_a_made_square_worth_nothing_as_made(app):
    setup, _p = game({"cells": EIGHT}, [])
    with app.test_request_context("/?lang=en"):
        printed = tariff_view("danish", setup.options)
    eight = next(row for row in printed["rows"] if row["bid"] == "8")
    assert [c["made"] for c in eight["cells"]] == [t >= 8 for t in range(14)]


def test_the_rules_in_words_do_not_state_an_overtrick_rule_the_squares_contradict(app):
    """The standard card with the 8 of the issue's card: "each trick over 20" is false for the 8 (0 whatever the
    tricks), and "lost by one trick 40" too (−1): the words say the 8 has its own values."""
    setup, _p = game({"cells": EIGHT}, [])
    said = words(app, setup.options)
    assert said["Plain bid made (points)"].startswith("10, 0, 40")  # the made squares, as a hand scores them
    over = said.get("Each trick over", said["Plain bid made (points)"])
    assert "8: own values (in the table)" in over or "own values" in over
    assert "20" not in over.split(";")[0].split(",")[1]  # never "20" for the 8
    assert said["Lost by one trick"].split(", ")[1] == "1"
    assert "own values" in said["Exceptions"]


def test_a_card_of_squares_only_says_so_instead_of_a_rule(app):
    """Every plain square of its own (a matrix card): no overtrick or missing-trick rule is stated at all."""
    cells = {}
    for n in range(7, 14):
        cells |= {f"{n}/plain/+{d}": n - 7 + d for d in range(14 - n)}
        cells |= {f"{n}/plain/-{d}": d * 2 for d in range(1, n + 1)}
    setup, p = game({"cells": cells, "suffixes": {"plain": {"base": 1, "trick": 1}}}, [])
    said = words(app, setup.options)
    for n in range(7, 14):
        house = danish.house_of(setup.options)
        assert house.trick_value(n, "plain", n) == n - 7
    assert "each trick over the same again" not in said["Plain bid made (points)"]
    assert said["Each trick over"] == "own values (in the table)"
    assert said.get("Each further trick short", "own values (in the table)") == "own values (in the table)"
    assert words(app, setup.options, "da")["Hvert overstik"] == "egne værdier (i tabellen)"


def test_squares_that_follow_the_rule_leave_the_rule_standing(app):
    """A square of its own equal to what the rule gives contradicts nothing: the rule is still said."""
    setup, _p = game({"cells": {"8/plain/+1": 40, "8/plain/-1": 40}}, [])
    said = words(app, setup.options)
    assert said["Plain bid made (points)"] == "10, 20, 40, 80, 160, 320, 640; each trick over the same again"
