"""Issue 23, finding 3 as a property: for random houses, the words a sheet's head and a club's page print (the
plain bids made and lost by one trick, the sol bids) and every square of the printed bid × tricks table are the
points `bid_value` gives — the words and the paper are drawn from the house that scores, never from the shorthands.
"""

import re
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import examples
from scorekeeper import create_app
from scorekeeper.core import VARIANTS, table_for, variant_options
from scorekeeper.games.paper import tariff_view
from scorekeeper.variants.danish import grid as danish_grid
from scorekeeper.variants.danish import rules as danish
from scorekeeper.variants.danish.card import column_heading
from scorekeeper.variants.danish.words import bid_name, solo_name
from scorekeeper.variants.views import VIEWS
from variants.danish import houses

APP = create_app({"TESTING": True, "DATABASE": tempfile.mkstemp(suffix=".sqlite")[1], "SECRET_KEY": "t"})
SETTINGS = settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
SHORTHANDS = st.fixed_dictionaries(
    {"tariff": st.lists(st.integers(1, 999), min_size=7, max_size=7), "lost": st.sampled_from(["flat", "per_trick"])}
)


def number(text: str) -> int:
    return int(text.replace("\u2212", "-"))


def values(text: str, levels: list[int]) -> dict[int, int]:
    """ "10, 20, 40 …" (every bid) or "8: 20, 9: 40", a remark after ";" left out."""
    items = [item.strip() for item in text.split(";")[0].split(",")]
    if all(":" in item for item in items):
        return {int(n): number(v) for n, v in (item.split(":") for item in items)}
    return dict(zip(levels, map(number, items)))


def signed(inp, options) -> int:
    value, made = danish.bid_value(inp, options)
    return value if made else -value


@SETTINGS
@given(houses(), SHORTHANDS)
def test_the_words_and_the_printed_table_are_the_points_bid_value_gives(house, shorthands):
    options, errors = variant_options(VARIANTS["danish"], shorthands | {"house": house})
    assert not errors
    levels = sorted(int(n) for n in options["house"]["levels"])
    with APP.test_request_context("/?lang=en"):
        words = dict(VIEWS["danish"].house_rules(table_for("danish", options)))
        printed = tariff_view("danish", options)
    made = values(words["Plain bid made (points)"], levels)
    lost = values(words["Lost by one trick"], levels)
    for n in levels:
        assert made[n] == abs(danish.bid_value({"bid": n, "suffix": "plain", "tricks": n}, options)[0])
        assert lost[n] == abs(danish.bid_value({"bid": n, "suffix": "plain", "tricks": n - 1}, options)[0])
    sol_words = words.get("Sol bids (made / lost)", "")
    said = {
        name.strip(): (number(w), number(lo)) for name, w, lo in re.findall(r"([a-zæø ]+) (\S+)/([^,\s]+)", sol_words)
    }
    for bid, entry in options["house"]["sol"].items():
        top = entry["max_tricks"]
        won = danish.bid_value({"bid": bid, "tricks": top}, options)[0]
        paid = danish.bid_value({"bid": bid, "tricks": top + 1}, options)[0] if top < 13 else None
        with APP.test_request_context("/?lang=en"):
            name = solo_name(bid)
        assert said[name][0] == won and (paid is None or said[name][1] == paid)
    # Every printed square (issue 32): a row per bid and column of the card, named by the column's heading; a suffix
    # whose squares differ from its column's has a row of its own. No factor is printed.
    assert printed["multiples"] == ""
    rows = {row["bid"]: [number(c["value"]) for c in row["cells"]] for row in printed["rows"]}
    found, _exact = danish_grid.grid_of(options["house"], options.get("card_names"))
    for n, s in danish.ladder(danish.house_of(options)):
        if s is None:
            continue
        column = next(c for c in found.columns if s in c.suffixes)
        with APP.test_request_context("/?lang=en"):
            plain_only = not column.heading and column.suffixes == ("plain",)
            shared = str(n) if plain_only else f"{n} {column_heading(column.heading, column.suffixes)}"
            own = bid_name(n, s) if s != "plain" else f"{n} plain"
        wanted = [signed({"bid": n, "suffix": s, "tricks": t}, options) for t in range(14)]
        assert rows[own] == wanted if own in rows and own != shared else rows[shared] == wanted, (n, s)
