"""Every club's statistics page, in its variant's words: a classic club's members with their points per evening and
the partners they sat with (it said "No classic tables played yet" after a season, since only tables played for
money were counted), a solo club's prop and cop and its solos, no Danish word where the variant has none."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from helpers import PASSWORD, log_in
from scorekeeper.clubs import service as club_service
from scorekeeper.games import service
from variants import EXAMPLES

NAMES = ["Anna", "Bo", "Carl", "Dina"]
MORE = ["Erik", "Frida", "Gro"]
DANISH_WORDS = ("Bids 7–13", "Sol bids", "Selvmakker")


def a_club(db, variant: str, hands: list[dict], evenings: int = 1, seats: int = 4) -> tuple[str, dict, list[str]]:
    """A club of `seats` members (NAMES first) playing `variant` with its long games' house rules (no game ends
    before `hands`), `evenings` evenings of one table each, every table the same hands."""
    options = {k: v for k, v in EXAMPLES[variant].LONG[0].items() if k not in ("rate", "currency")}
    club_id = club_service.create_club(
        db,
        {
            "name": f"The {variant} club",
            "currency": "GBP",
            "variant": variant,
            "options": options,
            "password": PASSWORD,
        },
    )
    names = (NAMES + MORE)[:seats]
    ids = {name: club_service.add_member(db, club_id, name) for name in names}
    games = []
    for n in range(evenings):
        evening = club_service.create_evening(db, club_id, f"2026-11-{n + 10:02d}", 0, "pairwise")
        game_id, key, _ = club_service.add_table(db, club_id, evening, [ids[m] for m in names], 0, variant)
        for hand in hands:
            service.add_hand(db, game_id, hand, key)
        games.append(game_id)
    return club_id, ids, games


def section(html: str, name: str) -> str:
    return re.search(rf"<h2>{name}</h2>(.*?)</section>", html, re.S).group(1)


def test_a_classic_clubs_members_have_their_points_and_partners(db, client):
    hands = EXAMPLES["classic"].long_hands(6, 1)
    club_id, _ids, games = a_club(db, "classic", hands, evenings=2)
    scored = service.load(db, games[0])
    sides = scored.protokoll.sides
    totals = scored.protokoll.hands[-1].totals
    log_in(client, club_id)
    assert 'id="stats"' in client.get(f"/c/{club_id}").get_data(as_text=True)  # the page is offered
    r = client.get(f"/c/{club_id}/stats")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "No classic tables played yet" not in html
    assert not any(word in html for word in DANISH_WORDS)  # classic whist has no bids to count
    for seat, name in enumerate(NAMES):
        side = next(s for s, seats in enumerate(sides) if seat in seats)
        partner = NAMES[next(other for other in sides[side] if other != seat)]
        mine = section(html, name)
        assert "2 evenings" in mine
        shown = re.search(r"Average per evening</dt><dd>([+−]?[\d.]+) points", mine).group(1)
        assert Decimal(shown.replace("−", "-")) == totals[side]  # the same table both evenings: its side's points
        assert f"{partner} <small>({2 * len(hands)})</small>" in mine  # every hand of both evenings together


def test_a_solo_clubs_page_speaks_of_prop_and_cop_and_its_solos(db, client):
    hands = [
        {"bid": "prop", "bidder": 0, "partner": 2, "tricks": 8},
        {"bid": "solo", "bidder": 1, "tricks": 5},
        {"bid": "misere", "bidder": 1, "tricks": 1},
    ]
    club_id, _ids, _games = a_club(db, "solo", hands)
    log_in(client, club_id)
    html = client.get(f"/c/{club_id}/stats").get_data(as_text=True)
    assert "Prop and cop as proposer" in html and "Solos, misères and abundances" in html
    assert not any(word in html for word in DANISH_WORDS)
    assert "1 of 1 made" in section(html, "Anna")  # her prop and cop: 8 tricks
    bo = section(html, "Bo")
    assert "1 of 2 made" in bo  # a solo made (5), a misère lost (1 trick)
    assert "Carl <small>(1)</small>" in section(html, "Anna") and "Anna <small>(1)</small>" in section(html, "Carl")


@pytest.mark.parametrize("variant", sorted(EXAMPLES))
def test_every_variants_club_has_a_statistics_page(db, client, variant):
    example = EXAMPLES[variant]
    seats = len(example.PLAYERS)
    club_id, _ids, _games = a_club(db, variant, example.long_hands(3, 1), seats=seats)
    log_in(client, club_id)
    r = client.get(f"/c/{club_id}/stats")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "tables played yet" not in html and html.count('class="member-stats"') == seats
    if variant != "danish":
        assert not any(word in html for word in DANISH_WORDS)
