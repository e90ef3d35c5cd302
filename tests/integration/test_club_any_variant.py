"""A club of any variant keeps every house rule its tables may use: the rule set is checked as a whole when the club
is made (it must fit some table of the variant), what depends on the table's size when a table starts. A Scotch-whist
club playing in two teams starts a table of four (and of six), and a table of five is refused naming the house rule;
a Plump club's tables are dealt for their own size."""

import re

import pytest

from helpers import PASSWORD, dump, token
from scorekeeper.clubs import service as club_service
from scorekeeper.core import InputError
from scorekeeper.games import service

NAMES = ["Anna", "Bo", "Carl", "Dina", "Eva", "Finn", "Gro", "Hans"]


def text(r) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


def make_club(db, variant, **options):
    club_id = club_service.create_club(
        db, {"name": f"{variant} club", "currency": "SEK", "variant": variant, "options": options, "password": PASSWORD}
    )
    ids = [club_service.add_member(db, club_id, n) for n in NAMES]
    return club_id, ids, club_service.create_evening(db, club_id, "2026-03-05")


def test_a_scotch_club_in_two_teams_starts_a_table_of_four_and_refuses_one_of_five(db, db_path):
    club_id, ids, evening_id = make_club(db, "scotch", teams=2)
    assert club_service.get_club(db, club_id).options["teams"] == 2
    game_id, _key, _n = club_service.add_table(db, club_id, evening_id, ids[:4])
    assert service.load(db, game_id).protokoll.sides == ((0, 2), (1, 3))
    six, _key, _n = club_service.add_table(db, club_id, evening_id, ids[:6])
    assert service.load(db, six).protokoll.sides == ((0, 2, 4), (1, 3, 5))
    before = dump(db_path)
    with pytest.raises(InputError) as refused:
        club_service.add_table(db, club_id, evening_id, ids[:5])
    assert "options.teams" in refused.value.errors
    assert dump(db_path) == before


def test_a_rule_set_that_fits_no_table_is_refused_by_its_field(db):
    with pytest.raises(InputError) as refused:
        club_service.create_club(
            db,
            {
                "name": "Five teams",
                "currency": "SEK",
                "variant": "scotch",
                "options": {"teams": 5},
                "password": PASSWORD,
            },
        )
    assert "options.teams" in refused.value.errors


def test_a_plump_club_deals_each_table_for_its_own_size(db):
    """The most cards (10, or 52 ÷ players) is the table's, not the smallest table's."""
    club_id, ids, evening_id = make_club(db, "plump")
    for n, most in ((2, 10), (6, 8), (8, 6)):
        game_id, _key, _n = club_service.add_table(db, club_id, evening_id, ids[:n])
        assert service.load(db, game_id).game.options["max_cards"] == most


def test_the_pages_a_scotch_club_in_teams_and_a_table_of_five_refused_naming_the_rule(client, db):
    csrf = token(client, "/clubs/new?variant=scotch")
    page = client.get("/clubs/new?variant=scotch").get_data(as_text=True)
    assert 'name="opt_teams"' in page
    form = {"csrf_token": csrf, "name": "Catch the Ten", "currency": "SEK", "password": "long enough"}
    r = client.post("/clubs/new?variant=scotch", data={**form, "password2": "long enough", "opt_teams": "2"})
    assert r.status_code == 302, text(r)[:3000]
    club_id = r.location.rsplit("/", 1)[-1]
    assert club_service.get_club(db, club_id).options["teams"] == 2
    for name in NAMES[:5]:
        assert client.post(f"/c/{club_id}/members", data={"name": name, "csrf_token": csrf}).status_code == 302
    ids = {m.name: m.id for m in club_service.members(db, club_id).values()}
    r = client.post(f"/c/{club_id}/evenings/new", data={"date": "2026-03-05", "fee": "", "csrf_token": csrf})
    evening_id = int(r.location.rsplit("/", 1)[-1])
    five = {f"seat{i}": ids[n] for i, n in enumerate(NAMES[:5])}
    r = client.post(
        f"/c/{club_id}/e/{evening_id}/tables", data={**five, "variant": "scotch", "dealer": "0", "csrf_token": csrf}
    )
    assert r.status_code == 400
    assert "Teams (none: each plays alone): 5 players cannot play in teams" in text(r)
    four = {f"seat{i}": ids[n] for i, n in enumerate(NAMES[:4])}
    r = client.post(
        f"/c/{club_id}/e/{evening_id}/tables", data={**four, "variant": "scotch", "dealer": "0", "csrf_token": csrf}
    )
    assert r.status_code == 302
    (table,) = club_service.evening(db, club_id, evening_id).tables
    assert service.load(db, table.record.game_id).protokoll.sides == ((0, 2), (1, 3))
