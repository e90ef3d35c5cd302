"""No square ever lost (issue 44), the paths that are no page: the largest Danish card the model has — every bid 7–13 ×
every suffix × tricks 0–13 (784 squares of their own, written as whole numbers, fractions, mixed numbers and
decimals), an override for every bid and suffix, slam factors for every number of tricks, every sol bid with its own
gå med rule and the club's words at their longest — goes in and comes back whole, square by square, through the club's
card file (export and import), the club's settings (the service's save), the game options of the API (POST, GET,
export and import) and the evening's tables; or is refused in words naming what, never cut."""

import io
import json

import pytest
from werkzeug.datastructures import FileStorage

from helpers import PASSWORD
from scorekeeper.clubs import service as club_service
from scorekeeper.core import make_setup
from scorekeeper.core.numbers import written
from scorekeeper.games import service
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish import rules as danish
from scorekeeper.variants.danish.card import CardEditor
from scorekeeper.web import cards
from variants.danish import ALL_SUFFIXES, SOLO_BIDS, cells_of, largest_card, signed_matrix, squares

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]
MEMBERS = ["Anna", "Bo", "Carl", "Dina", "Eva", "Finn", "Gro", "Hans"]


@pytest.fixture(scope="module")
def card():
    return largest_card()


@pytest.fixture(scope="module")
def expected(card):
    """Every square as the card scores it, made from the options as given (checked once, by the scorer)."""
    return squares(make_setup("danish", PLAYERS, 0, card).options)


def assert_whole(options, card, expected):
    """The card came back whole: every square scores as given, the house is the one given (normalised), its words too."""
    got = squares(options)
    lost = [key for key in expected if got.get(key) != expected[key]]
    assert not lost, f"{len(lost)} squares changed, first {lost[:5]}"
    given = model.check_house(card["house"])
    assert options["house"]["cells"] == given["cells"] and len(options["house"]["cells"]) == 784
    assert {k: options["house"][k] for k in given} == given
    assert options["card_names"] == card["card_names"]


def test_the_largest_card_is_every_square_and_each_scores_as_written(card, expected):
    matrix = signed_matrix()
    assert len(matrix) == 784 == len(card["house"]["cells"]) == len({k for k in expected if len(k) == 3})
    house = danish.house_of(make_setup("danish", PLAYERS, 0, card).options)
    from fractions import Fraction

    from scorekeeper.core.numbers import read_number

    for (n, s, t), typed in matrix.items():
        text = typed if isinstance(typed, str) else str(typed)
        sign = -1 if text.startswith("-") else 1
        value = sign * Fraction(read_number(text.lstrip("-"), "", high=10**6, fraction=True))
        assert house.trick_value(n, s, t) == value, (n, s, t, typed)
    assert {bid: house.gaa_med_of(bid) for bid in SOLO_BIDS} == {
        "sol": "independent",
        "ren_sol": "vs_non_participants",
        "bordlaegger": "winners_pool",
        "ren_bordlaegger": None,
    }


def test_a_square_is_a_size_negative_or_wrong_is_refused_naming_the_square():
    """A square's value is its size (RULES.md: the key says made or lost); a negative or unreadable one is refused by
    the square's path, never dropped."""
    for value in (-1, "-3/4", "1/0", "¾", "x"):
        with pytest.raises(Exception) as caught:
            make_setup("danish", PLAYERS, 0, {"house": {"cells": {"8/vip/-2": value}}})
        assert "options.house.cells.8/vip/-2" in caught.value.errors
    assert cells_of({(8, "vip", 6): "-3/4"}) == {"8/vip/-2": "3/4"}


# ---------------------------------------------------------------- the API


def test_the_api_takes_the_largest_card_and_gives_it_back_whole(client, card, expected):
    body = {"variant": "danish", "players": PLAYERS, "options": card}
    assert len(json.dumps(body).encode()) < 64 * 1024  # within the body any request may have
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.json
    game_id, key = r.json["id"], {"X-Edit-Key": r.json["edit_key"]}
    assert_whole(r.json["options"], card, expected)
    assert_whole(client.get(f"/api/games/{game_id}").json["options"], card, expected)
    hand = {"bidder": 0, "bid": 13, "suffix": "staerke", "trump": "spades", "partner": 2, "tricks": 0}
    points = client.post(f"/api/games/{game_id}/hands", json=hand, headers=key).json["points"]
    assert points[0] == written(expected[(13, "staerke", 0)])
    exported = client.get(f"/api/games/{game_id}/export").json
    again = client.post("/api/games/import", json=exported)
    assert again.status_code == 201, again.json
    back = client.get(f"/api/games/{again.json['id']}").json
    assert_whole(back["options"], card, expected)
    assert back["totals"] == client.get(f"/api/games/{game_id}").json["totals"]


def test_a_card_too_large_for_a_request_is_refused_in_words(client, card):
    big = json.loads(json.dumps(card))
    big["house"]["cells"] = dict.fromkeys(big["house"]["cells"], "999999/999983")
    big["padding"] = "x" * (64 * 1024)
    r = client.post("/api/games", json={"variant": "danish", "players": PLAYERS, "options": big})
    assert r.status_code == 413 and "64 KiB" in r.json["errors"]["body"]


# ---------------------------------------------------------------- the club: settings, card file, evening's tables


def make_club(db, options):
    return club_service.create_club(
        db, {"name": "Klør Es", "currency": "DKK", "variant": "danish", "options": options, "password": PASSWORD}
    )


def test_the_club_settings_keep_the_largest_card_whole(db, card, expected):
    club_id = make_club(db, {"rate": "0.05"})
    settings = {"name": "Klør Es", "currency": "DKK", "variant": "danish", "options": card}
    club_service.update_club(db, club_id, settings)
    assert_whole(club_service.get_club(db, club_id).options, card, expected)
    # Saved again as it is read (the settings page's round trip): nothing changes.
    again = club_service.get_club(db, club_id).options
    club_service.update_club(db, club_id, settings | {"options": again, "name": "Klør Es og Hjerter"})
    assert club_service.get_club(db, club_id).options == again


def test_the_club_card_file_carries_the_largest_card_out_and_back_in(client, db, card, expected):
    club_id = make_club(db, card)
    r = client.get(f"/c/{club_id}/card.json")
    assert r.status_code == 200
    text = r.get_data(as_text=True)
    assert len(text.encode()) <= cards.FILE_MAX, len(text.encode())
    read = cards.read_card(text, "danish")
    assert_whole(make_setup("danish", PLAYERS, 0, read["options"]).options, card, expected)
    # Into another club (the service, as the new-club page saves what a card file brought) …
    other = make_club(db, read["options"])
    assert_whole(club_service.get_club(db, other).options, card, expected)
    # … and into the card editor's import, which fills the fields from it: its options are the card, whole.
    upload = FileStorage(io.BytesIO(text.encode()), filename="card.json", content_type="application/json")
    with client.application.test_request_context("/?lang=da"):
        state = CardEditor().imported(upload, {})
    assert not state.errors, state.errors
    assert_whole(make_setup("danish", PLAYERS, 0, state.options).options, card, expected)


def test_a_card_file_over_its_bound_is_refused_in_words(client):
    raw = json.dumps(
        {
            "format": "scorekeeper-card",
            "version": 1,
            "variant": "danish",
            "name": "x",
            "options": {"house": {}},
            "padding": "y" * cards.FILE_MAX,
        }
    ).encode()
    upload = FileStorage(io.BytesIO(raw), filename="card.json")
    with client.application.test_request_context("/?lang=en"):
        state = CardEditor().imported(upload, {})
    assert state.options is None and "too large" in str(state.errors["card.file"])


def test_the_evenings_tables_play_the_largest_card_whole(db, card, expected):
    club_id = make_club(db, card)
    ids = [club_service.add_member(db, club_id, name) for name in MEMBERS]
    evening_id = club_service.create_evening(db, club_id, "2026-12-03")
    game_id, key, _n = club_service.add_table(db, club_id, evening_id, ids[:4])
    assert_whole(service.load(db, game_id).game.options, card, expected)
    club_service.add_table(db, club_id, evening_id, ids[4:])
    for table in club_service.evening_tables(db, evening_id):
        assert_whole(service.load(db, table.game_id).game.options, card, expected)
    # A joined ren sol on that card settles only with those not playing along (its own rule).
    hand = {"bidder": 1, "bid": "ren_sol", "tricks": 0, "with": [{"seat": 2, "tricks": 1}]}
    assert list(service.add_hand(db, game_id, hand, key).points) == [0, 10, -10, 0]
    ledger = club_service.evening(db, club_id, evening_id)
    assert ledger.tables and all(len(t.scored_game.game.options["house"]["cells"]) == 784 for t in ledger.tables)


def test_every_suffix_and_sol_of_the_card_can_be_bid(card):
    house = danish.house_of(make_setup("danish", PLAYERS, 0, card).options)
    ladder = danish.ladder(house)
    assert {(n, s) for n, s in ladder if s is not None} == {(n, s) for n in range(7, 14) for s in ALL_SUFFIXES}
    assert [b for b, s in ladder if s is None] == SOLO_BIDS


def test_a_card_file_whose_words_are_wrong_is_refused_in_words_not_stripped_of_them(client, card):
    """The club's words (card_names) were dropped without a word when they could not be read; now the file is refused
    naming them, and the fields keep what they held."""
    wrong = json.loads(json.dumps(card))
    wrong["card_names"]["sol"]["sol"] = "x" * 61
    text = cards.card_file("Klør Es", "danish", wrong, {"fee_cents": 0, "settlement": "pairwise"})
    upload = FileStorage(io.BytesIO(text.encode()), filename="card.json")
    with client.application.test_request_context("/?lang=en"):
        state = CardEditor().imported(upload, {})
        message = str(state.errors.get("card.file"))
    assert state.options is None and "card_names" in message and "60" in message


def test_the_card_as_data_changed_keeps_the_clubs_words_typed_in_the_fields(client, card):
    """The data box holds the house only: a change there kept the squares but emptied the club's column headings and
    sol names (texts_of without the words)."""
    from werkzeug.datastructures import MultiDict

    from scorekeeper.variants.danish import card_fields
    from scorekeeper.variants.danish.card import BOX, SHOWN, box_text

    options = make_setup("danish", PLAYERS, 0, {"preset": "standard", "card_names": card["card_names"]}).options
    with client.application.test_request_context("/?lang=da"):
        texts = card_fields.texts_of(options["house"], options["card_names"])
        shown = box_text(options["house"])
        changed = json.loads(shown) | {"gaa_med": "independent"}
        form = MultiDict(texts | {card_fields.MARK: "1", BOX: json.dumps(changed), SHOWN: shown})
        state = CardEditor().read(form)
    assert not state.errors, state.errors
    assert state.options["house"]["gaa_med"] == "independent"
    assert state.options["card_names"]["sol"] == card["card_names"]["sol"]
    assert state.texts[card_fields.name("sol", "sol", "name")] == card["card_names"]["sol"]["sol"]


def test_a_square_of_its_own_counts_in_the_fineness_of_the_points():
    """A square's own size is never rounded, so its fraction is a point's under any rounding: the points' denominator
    counts it, and a square finer than a game keeps exactly is refused by its path."""
    assert model.points_denominator(model.merged(danish.build_house({}), {"cells": {"8/plain/+0": "3/4"}})) == 4
    with pytest.raises(Exception) as caught:
        make_setup("danish", PLAYERS, 0, {"house": {"cells": {"8/plain/+0": "1/999983", "9/vip/-1": "1/7"}}})
    assert list(caught.value.errors) == ["options.house.cells.9/vip/-1"]


def test_the_clubs_blank_sheet_link_is_short_and_its_sheet_is_the_whole_card(client, db, card, expected):
    """The club card page's "A blank sheet with this card" carried the whole card in its address: some 40 KB for this
    card, past nginx's 8 KB request line (a 414 behind deploy/nginx.conf). The link names the club; the sheet and its
    PDF read the club's card, every square of it."""
    import re
    from urllib.parse import urlencode

    club_id = make_club(db, card)
    page = client.get(f"/c/{club_id}/card").get_data(as_text=True)
    link = re.search(r'id="card-blank" href="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert len(link) < 200, f"the link is {len(link)} characters"
    sheet = client.get(link)
    assert sheet.status_code == 200
    html = sheet.get_data(as_text=True)
    pdf_link = re.search(r'href="([^"]+\.pdf[^"]*)"', html).group(1).replace("&amp;", "&")
    assert len(pdf_link) < 200 and client.get(pdf_link).data[:5] == b"%PDF-"
    named = client.get(link + "?player=Anna&player=Bo&player=Carl&player=Dina&title=Torsdag")
    assert named.status_code == 200 and "Torsdag" in named.get_data(as_text=True)
    # What the sheet prints is the club's card, square by square: the same tariff table as the long address gave.
    from scorekeeper.clubs.pages.access import blank_args

    with client.application.test_request_context():
        long = "/blank/danish?" + urlencode(blank_args(club_service.get_club(db, club_id)))
    table = re.compile(r'<table class="matrix">.*?</table>', re.S)
    assert table.search(html).group() == table.search(client.get(long).get_data(as_text=True)).group()
