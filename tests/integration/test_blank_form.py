"""The blank-sheet form, per variant: as many name fields as its largest table, its own house rules with the same
fields as the new-game page, and a mistake answered on the form with what was typed kept."""

import re

import pytest

from scorekeeper.core import VARIANTS
from scorekeeper.web import editors


def name_fields(html: str) -> int:
    return len(re.findall(r'<input[^>]*name="player"', html))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_each_variant_has_its_own_form_with_its_table_and_house_rules(client, variant):
    module = VARIANTS[variant]
    r = client.get(f"/blank/{variant}/form")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert name_fields(html) == max(module.PLAYER_COUNTS)
    new_game = client.get(f"/new/{variant}").get_data(as_text=True)
    for name in set(module.OPTIONS) - editors.covered(variant):  # the same house-rule fields as the new-game page
        assert f'name="opt_{name}"' in html and f'name="opt_{name}"' in new_game
    index = client.get("/blank/").get_data(as_text=True)
    assert f'href="/blank/{variant}/form"' in index


def test_a_classic_table_gets_the_honours_column_from_the_form(client):
    r = client.get("/blank/classic/form?player=Anna&player=Bo&player=Carl&player=Dina&opt_honours=y&make=1")
    assert r.status_code == 302
    assert "honours=1" in r.headers["Location"]
    sheet = client.get(r.headers["Location"]).get_data(as_text=True)
    assert ">Honours<" in sheet and "Anna" in sheet


def test_only_its_own_options_and_no_other_variants_tariff(client):
    html = client.get("/blank/german/form").get_data(as_text=True)
    assert "preset" not in html and "tariff" not in html.lower()
    assert 'id="card-matrix"' in client.get("/blank/danish/form").get_data(as_text=True)  # the club card's fields


def test_a_mistake_is_answered_on_the_form_with_what_was_typed(client):
    # German whist's form has two name fields (the old shared form had five: a third name lost the whole table).
    r = client.get("/blank/german/form?player=Åsa&player=åsa&title=Fredag&make=1")
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert 'value="Åsa"' in html and 'value="åsa"' in html and 'value="Fredag"' in html
    assert "two players have the same name" in html
    r = client.get("/blank/classic/form?player=Anna&opt_target=99&make=1")
    assert r.status_code == 400 and 'value="99"' in r.get_data(as_text=True)


def test_an_unticked_box_is_sent_as_off(client):
    r = client.get("/blank/classic/form?make=1")
    assert r.status_code == 302 and "honours" not in r.headers["Location"]  # the default stands
