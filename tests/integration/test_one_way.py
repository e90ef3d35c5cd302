"""One way for each thing: money from cents to the reader's text, house rules from text (a form or a query string)."""

import pytest

from helpers import PLAYERS
from scorekeeper.core import VARIANTS


@pytest.mark.parametrize(
    "lang,cents,currency,signed,text",
    [
        ("en", -1250, None, False, "\u221212.50"),
        ("en", 300, None, True, "+3.00"),
        ("en", 0, None, True, "0.00"),
        ("da", 123450, None, False, "1.234,50"),
        ("da", 2850, "DKK", False, "28,50\xa0kr."),
        ("en", 2850, "DKK", False, "DKK\xa028.50"),
        ("en", -2850, "EUR", True, "\u2212€28.50"),
    ],
)
def test_money_is_cents_in_the_readers_language(app, lang, cents, currency, signed, text):
    from scorekeeper.web.i18n import money

    with app.test_request_context(f"/?lang={lang}"):
        assert money(cents, currency, signed=signed) == text


@pytest.mark.parametrize(
    "variant,texts,options,errors",
    [
        (
            "classic",
            {"target": " 7 ", "honours": "y", "deals": "none"},
            {"target": 7, "honours": True, "deals": None},
            set(),
        ),
        ("classic", {"target": "", "honours": "", "deals": ""}, {"honours": False, "deals": None}, set()),
        ("classic", {"target": "７", "honours": "maybe"}, {"target": "７", "honours": "maybe"}, {"target"}),
        (
            "danish",
            {"tariff": "5; 10, 20,40,80 ,160,320", "rate": "0,10"},
            {"tariff": [5, 10, 20, 40, 80, 160, 320], "rate": "0.10"},
            set(),
        ),
        ("danish", {"solo_values": "1,2,3"}, {}, {"solo_values"}),
        (
            "danish",
            {"solo_values": "50, 100, 150, 200", "lost": " per_trick "},
            {
                "solo_values": {"sol": 50, "ren_sol": 100, "bordlaegger": 150, "ren_bordlaegger": 200},
                "lost": "per_trick",
            },
            set(),
        ),
    ],
)
def test_house_rules_from_text(app, variant, texts, options, errors):
    from scorekeeper.web.options import options_from_text

    with app.test_request_context("/"):
        got, wrong = options_from_text(VARIANTS[variant], texts)
    assert got == options and set(wrong) == errors


@pytest.mark.parametrize(
    "query,form",
    [("target=7", {"opt_target": "7"}), ("rate=0,10", {"opt_rate": "0,10"}), ("deals=none", {"opt_deals": "none"})],
)
def test_a_form_and_a_query_string_give_the_same_house_rules(client, api, query, form):
    variant = "danish" if "rate" in query else "classic"
    blank = client.get(f"/blank/{variant}?{query}")
    assert blank.status_code == 200
    page = client.get(f"/new/{variant}").get_data(as_text=True)
    from helpers import fields

    data = {**fields(page), "dealer": "0", **{f"player{i}": n for i, n in enumerate(PLAYERS[variant])}, **form}
    r = client.post(f"/new/{variant}", data=data)
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]


def test_a_whole_number_rate_is_shown_as_it_is(client, api):
    game = api.create("danish", options={"rate": 1})
    api.hand(game, {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2, "tricks": 10})
    html = client.get(f"/g/{game['id']}").get_data(as_text=True)
    assert "<small>DKK\xa01.00 per point</small>" in html and "0.01" not in html
    assert client.get(f"/api/games/{game['id']}/settlement").json["balances"] == ["60.00", "-60.00", "60.00", "-60.00"]
