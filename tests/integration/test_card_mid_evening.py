"""A card fixed during an evening (issue 44): the club's card corrected while an evening is open reaches that evening's
tables on the treasurer's word — each game's house replaced, its hands rescored by replay, the change in its edit log,
the standings, prizes and money following — or is left alone; the evening page says which card each table plays; a
table started after the change plays the new card. In-process, through the real SQLite file."""

import html
import re

import pytest

from helpers import PASSWORD, log_in
from scorekeeper.clubs import service as club_service
from scorekeeper.core import InputError
from scorekeeper.games import service

MEMBERS = ["Anna", "Bo", "Carl", "Dina", "Eva", "Finn", "Gro", "Hans", "Ida", "Jens", "Kim", "Lis"]
# The card first typed wrong (the standard tariff) and as the club prints it: a lost bid pays twice the tariff per
# missing trick, a sol 2 with everyone when two play it, a ren sol 5 only with those not playing along.
WRONG = {"rate": "0.05"}
RIGHT = {
    "rate": "0.05",
    "preset": "per_trick",
    "house": {
        "gaa_med": None,
        "sol": {
            "sol": {"max_tricks": 1, "won": 2, "lost": 2, "gaa_med": "independent"},
            "ren_sol": {"max_tricks": 0, "won": 5, "lost": 5, "gaa_med": "vs_non_participants"},
        },
    },
}
FORMAT = {"halves": 1, "deals": "", "places": 3, "prizes": ["bids_made"]}
# Two tables' hands: every one fits both cards (no gå med: the wrong card has none).
HANDS = [
    [
        {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "hearts", "partner": 2, "tricks": 6},
        {"bidder": 1, "bid": 9, "suffix": "vip", "trump": "spades", "partner": 3, "tricks": 10},
        {"bidder": 2, "bid": "sol", "tricks": 0},
        {"bidder": 3, "bid": 10, "suffix": "plain", "trump": "clubs", "partner": 3, "tricks": 7},
    ],
    [
        {"bidder": 2, "bid": 7, "suffix": "plain", "trump": "diamonds", "partner": 0, "tricks": 4},
        {"bidder": 0, "bid": "ren_sol", "tricks": 1},
        {"bidder": 1, "bid": 8, "suffix": "gode", "trump": "clubs", "partner": 2, "tricks": 9},
    ],
]


def evening_played(db, card, date="2026-12-03"):
    """A club on `card`, an evening of two tables of four, their hands entered."""
    club_id = club_service.create_club(
        db, {"name": "Klør Es", "currency": "DKK", "variant": "danish", "options": card, "password": PASSWORD}
    )
    club_service.set_format(db, club_id, FORMAT)
    ids = [club_service.add_member(db, club_id, name) for name in MEMBERS]
    evening_id = club_service.create_evening(db, club_id, date, "20")
    games = []
    for t, hands in enumerate(HANDS):
        game_id, key, _n = club_service.add_table(db, club_id, evening_id, ids[4 * t : 4 * t + 4])
        for hand in hands:
            service.add_hand(db, game_id, hand, key)
        games.append((game_id, key))
    return club_id, evening_id, ids, games


def outcome(db, club_id, evening_id):
    """What the evening comes to: each table's totals, each member's net money, the standings and the prizes."""
    data = club_service.evening(db, club_id, evening_id)
    return {
        "totals": [list(t.scored_game.protokoll.totals) for t in data.tables],
        "net": data.result.net(),
        "standings": [(s.member, s.points) for s in data.standings],
        "prizes": [(p.kind, p.winners, p.value) for p in data.prizes],
    }


def correct_the_card(db, club_id):
    club_service.update_club(db, club_id, {"name": "Klør Es", "currency": "DKK", "variant": "danish", "options": RIGHT})


@pytest.fixture
def evenings(db):
    """The same evening twice: on the wrong card (then corrected), and on the right card from the start."""
    wrong = evening_played(db, WRONG)
    right = evening_played(db, RIGHT)
    correct_the_card(db, wrong[0])
    return wrong, right


def by_position(result, ids):
    """An outcome with member ids made positions, to compare two clubs' evenings."""
    where = {m: i for i, m in enumerate(ids)}
    return {
        "totals": result["totals"],
        "net": {where.get(k, k): v for k, v in result["net"].items()},
        "standings": [(where[m], p) for m, p in result["standings"]],
        "prizes": [(kind, tuple(where[w] for w in winners), value) for kind, winners, value in result["prizes"]],
    }


def test_a_corrected_card_not_applied_leaves_the_evening_as_it_was(db):
    club, evening_id, ids, games = evening_played(db, WRONG)
    before = by_position(outcome(db, club, evening_id), ids)
    assert [t["card"] for t in club_service.table_cards(db, club, evening_id)] == ["club", "club"]
    correct_the_card(db, club)
    assert [t["card"] for t in club_service.table_cards(db, club, evening_id)] == ["older", "older"]
    assert by_position(outcome(db, club, evening_id), ids) == before
    assert all(e["action"] == "added" for g, _k in games for e in service.edit_log(db, g))


def test_applied_the_tables_and_the_money_are_those_of_the_right_card_from_the_start(db, evenings):
    (club, evening_id, ids, games), (rclub, revening, rids, _rgames) = evenings
    wrong_before = by_position(outcome(db, club, evening_id), ids)
    changed = club_service.apply_card(db, club, evening_id)
    assert changed == 2
    after = by_position(outcome(db, club, evening_id), ids)
    expected = by_position(outcome(db, rclub, revening), rids)
    assert after == expected and after != wrong_before
    assert [t["card"] for t in club_service.table_cards(db, club, evening_id)] == ["club", "club"]
    for game_id, _key in games:
        log = service.edit_log(db, game_id)
        assert [e["action"] for e in log][-1] == "card"
        assert log[-1]["before"]["options"]["house"] != log[-1]["after"]["options"]["house"]
        assert log[-1]["number"] == len(service.load(db, game_id).hands)
    assert club_service.apply_card(db, club, evening_id) == 0  # nothing left to apply


def test_after_the_card_is_applied_an_edit_and_a_new_hand_score_by_it(db, evenings):
    (club, evening_id, _ids, games), _right = evenings
    club_service.apply_card(db, club, evening_id)
    game_id, key = games[0]
    # A ren sol played along on table 1 (the wrong card had no gå med): Anna made, Bo lost, ±10 only.
    joined = {"bidder": 0, "bid": "ren_sol", "tricks": 0, "with": [{"seat": 1, "tricks": 1}]}
    assert list(service.add_hand(db, game_id, joined, key).points) == [10, -10, 0, 0]
    edited = service.replace_hand(db, game_id, 1, HANDS[0][0] | {"tricks": 5}, key)  # 8 lost by 3, per trick
    assert list(edited.points) == [-120, 120, -120, 120]


def test_a_table_started_after_the_change_plays_the_new_card(db, evenings):
    (club, evening_id, ids, _games), _right = evenings
    game_id, _key, _n = club_service.add_table(db, club, evening_id, ids[8:12])
    cards = {t["game_id"]: t["card"] for t in club_service.table_cards(db, club, evening_id)}
    assert cards[game_id] == "club" and list(cards.values()).count("older") == 2
    house = service.load(db, game_id).game.options["house"]
    assert house["sol"]["ren_sol"]["gaa_med"] == "vs_non_participants"


def test_a_settled_evening_or_a_card_its_hands_do_not_fit_is_refused_and_nothing_changes(db, evenings):
    (club, evening_id, ids, games), _right = evenings
    before = by_position(outcome(db, club, evening_id), ids)
    # The card without bid 7: table 2's first hand bid 7, so it cannot be scored by it.
    no_seven = {
        "rate": "0.05",
        "preset": "per_trick",
        "house": {"levels": {str(n): {"made": 20, "over": 20, "lost": 0, "short": 40} for n in range(8, 14)}},
    }
    club_service.update_club(db, club, {"name": "Klør Es", "currency": "DKK", "variant": "danish", "options": no_seven})
    with pytest.raises(InputError) as caught:
        club_service.apply_card(db, club, evening_id)
    message = str(next(iter(caught.value.errors.values())))
    assert "2" in message and "hand 1" in message
    assert by_position(outcome(db, club, evening_id), ids) == before  # table 1 was not changed either
    assert all(e["action"] != "card" for g, _k in games for e in service.edit_log(db, g))
    correct_the_card(db, club)
    club_service.set_settled(db, club, evening_id, "pairwise", True)
    with pytest.raises(InputError) as caught:
        club_service.apply_card(db, club, evening_id)
    assert "settled" in str(next(iter(caught.value.errors.values())))


# ---------------------------------------------------------------- the evening page


def test_the_evening_page_says_which_card_each_table_plays_and_the_admin_applies_it(client, db, evenings):
    (club, evening_id, _ids, _games), _right = evenings
    url = f"/c/{club}/e/{evening_id}"
    page = client.get(url + "?lang=en").get_data(as_text=True)
    assert page.count("an older card") == 2 and 'id="apply-card"' not in page  # not for a reader
    assert log_in(client, club).status_code == 302
    page = client.get(url + "?lang=da").get_data(as_text=True)
    assert 'id="apply-card"' in page and "Brug klubbens kort" in page
    token = re.search(r'action="[^"]*/card"><input[^>]*name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    assert client.post(url + "/card", data={}).status_code == 400  # no CSRF token: refused
    r = client.post(url + "/card?lang=en", data={"csrf_token": token})
    assert r.status_code == 302
    page = html.unescape(client.get(url + "?lang=en").get_data(as_text=True))
    assert "2 tables now play the club's card" in page
    assert page.count("the club's card") >= 2 and "an older card" not in page and 'id="apply-card"' not in page


def test_the_tables_page_says_the_card_was_applied_in_its_changes(client, db, evenings):
    (club, evening_id, _ids, games), _right = evenings
    club_service.apply_card(db, club, evening_id)
    page = html.unescape(client.get(f"/g/{games[0][0]}?lang=en").get_data(as_text=True))
    assert "The club's card applied" in page and "every hand rescored by it" in page
    log = client.get(f"/api/games/{games[0][0]}/log").json["log"]
    assert log[-1]["action"] == "card" and log[-1]["after"]["options"]["house"]["sol"]["ren_sol"]["gaa_med"] == (
        "vs_non_participants"
    )
