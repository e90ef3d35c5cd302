"""The club pages made quicker: several members at once, a ledger range the wrong way round, one way to settle,
a table seated in fewer taps."""

import re

import pytest

from helpers import PASSWORD, dump, log_in, token
from scorekeeper.clubs import service as club_service
from scorekeeper.games import service


@pytest.fixture
def club(client, db):
    """A Danish club with its admin logged in on `client`."""
    club_id = club_service.create_club(
        db, {"name": "Kløver", "currency": "DKK", "variant": "danish", "password": PASSWORD}
    )
    assert log_in(client, club_id).status_code == 302
    return club_id


def names(db, club_id):
    return [m.name for m in club_service.members(db, club_id).values()]


def add(client, club_id, text):
    return client.post(f"/c/{club_id}/members", data={"csrf_token": token(client, f"/c/{club_id}"), "names": text})


def test_several_members_at_once(client, db, club):
    r = add(client, club, "Anna\n  Bo  \n\nCarl Nielsen\r\nDina\n")
    assert r.status_code == 302 and r.location.endswith("?more=1")
    assert names(db, club) == ["Anna", "Bo", "Carl Nielsen", "Dina"]
    page = client.get(r.location).get_data(as_text=True)
    assert "Anna, Bo, Carl Nielsen, Dina are members." in page
    assert re.search(r'<textarea name="names" id="names"[^>]* autofocus>', page)  # ready for the next names
    assert "autofocus" not in client.get(f"/c/{club}").get_data(as_text=True)


@pytest.mark.parametrize(
    "text,messages",
    [
        ("Eva\nanna", ["anna: the club already has a member called Anna"]),
        ("Eva\nFinn\neva", ["eva: Eva is in the list twice"]),
        ("Eva\n" + "x" * 65, ["x" * 65 + ": "]),  # NAME_MAX is 64
        ("\n \n", ["Enter a name."]),
    ],
)
def test_a_wrong_name_adds_nobody_and_keeps_the_list(client, db, db_path, club, text, messages):
    add(client, club, "Anna")
    before = dump(db_path)
    r = add(client, club, text)
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    box = re.search(r'<div class="error-box" role="alert" id="first-error">(.*?)</div>', page, re.S).group(1)
    for message in messages:
        assert message in box
    assert re.search(r'<textarea name="names" id="names"[^>]* autofocus>', page)
    if text.strip():
        assert text.split("\n")[0] in page.split('id="names"', 1)[1].split("</textarea>", 1)[0]
    assert dump(db_path) == before


def test_one_name_as_before(client, db, club):
    r = client.post(f"/c/{club}/members", data={"csrf_token": token(client, f"/c/{club}"), "name": "Gro"})
    assert r.status_code == 302 and names(db, club) == ["Gro"]


def test_a_ledger_range_the_wrong_way_round_is_refused(client, season):
    club_id = season["club"]
    r = client.get(f"/c/{club_id}/ledger?from=2026-06-30&to=2026-01-01")
    page = r.get_data(as_text=True)
    assert r.status_code == 400
    assert "The end date is before the start date" in page
    assert 'id="ledger-table"' not in page  # no ledger at all, rather than an empty one
    assert 'value="2026-06-30"' in page and 'value="2026-01-01"' in page  # the dates as typed, to correct
    assert client.get(f"/c/{club_id}/ledger.csv?from=2026-06-30&to=2026-01-01").status_code == 400
    assert client.get(f"/c/{club_id}/ledger?from=2026-01-01&to=2026-01-01").status_code == 200


@pytest.fixture
def evening(client, db, club):
    ids = club_service.add_members(db, club, ["Anna", "Bo", "Carl", "Dina", "Eva", "Finn"])
    evening_id = club_service.create_evening(db, club, "2026-02-05", "10")
    game_id, key, _ = club_service.add_table(db, club, evening_id, ids[:4])
    service.add_hand(db, game_id, {"bidder": 1, "bid": 8, "trump": "spades", "partner": 2, "tricks": 10}, key)
    return {"id": evening_id, "ids": ids, "url": f"/c/{club}/e/{evening_id}"}


def test_the_result_has_one_form_one_choice_one_button(client, db, club, evening):
    page = client.get(evening["url"] + "/result").get_data(as_text=True)
    form = re.search(r'<form [^>]*id="settle-form">(.*?)</form>', page, re.S).group(1)
    assert len(re.findall(r"<button", form)) == 1 and 'id="mark-settled"' in form
    assert re.findall(r'type="radio" name="settlement" id="way-(\w+)"', form) == ["pairwise", "kitty"]
    assert "?settlement=" not in page and "save-settlement" not in page  # no second button, no link
    # Each way shows what it pays, to choose between them.
    assert "pays" in form.split('id="way-pairwise"')[1].split("way-kitty")[0]
    assert "the kitty" in form.split('id="way-kitty"')[1]
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form).group(1)
    r = client.post(evening["url"] + "/settle", data={"csrf_token": csrf, "settlement": "kitty", "action": "settle"})
    assert r.status_code == 302
    record = club_service.get_evening(db, club, evening["id"])
    assert record.settled and record.settlement == "kitty"
    page = client.get(evening["url"] + "/result").get_data(as_text=True)
    form = re.search(r'<form [^>]*id="settle-form">(.*?)</form>', page, re.S).group(1)
    assert len(re.findall(r"<button", form)) == 1 and 'id="unsettle"' in form and 'type="radio"' not in form


def selected(page):
    """The member preselected in each seat (seats left to "nobody" left out)."""
    chosen = {}
    for seat, options in re.findall(r'<select name="(seat\d)"[^>]*>(.*?)</select>', page, re.S):
        value = re.search(r'<option value="([^"]*)" selected', options)
        if value and value.group(1):
            chosen[seat] = value.group(1)
    return chosen


def test_a_new_table_is_seated_with_the_members_not_yet_playing(client, db, club, evening):
    page = client.get(evening["url"]).get_data(as_text=True)
    ids = evening["ids"]
    # Anna, Bo, Carl and Dina are at table 1: Eva and Finn are offered, the other seats left to fill.
    assert selected(page) == {"seat0": str(ids[4]), "seat1": str(ids[5])}
    club_service.add_members(db, club, ["Gro", "Hans"])
    page = client.get(evening["url"]).get_data(as_text=True)
    gro, hans = (m.id for m in club_service.members(db, club).values() if m.name in ("Gro", "Hans"))
    assert selected(page) == {"seat0": str(ids[4]), "seat1": str(ids[5]), "seat2": str(gro), "seat3": str(hans)}
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    seats = {f"seat{i}": v for i, v in enumerate([ids[4], ids[5], gro, hans])}
    r = client.post(evening["url"] + "/tables", data={**seats, "variant": "danish", "dealer": "0", "csrf_token": csrf})
    assert r.status_code == 302
    assert selected(client.get(evening["url"]).get_data(as_text=True)) == {}  # everyone is playing
