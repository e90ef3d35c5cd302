"""The hand form's header says who leads as the rules do (core `leader`), following the taps; the classic revoke's
penalty buttons name the sides instead of "us" and "them" on a phone both sides share."""

import pytest
from browser.test_browser import Table

pytestmark = pytest.mark.browser


def leads(page) -> str:
    return page.locator(".hand-head .who b").nth(1).inner_text()


def save_and_edit_the_first_hand(page) -> None:
    page.click("button.save")
    page.wait_for_selector(".standing")
    page.click("#tbody-1 a.edit" if page.locator("#tbody-1").count() else "#hand-1 a.edit")
    page.wait_for_selector("form.hand")


def test_the_header_follows_the_bid_for_a_norwegian_grand(page, live_server):
    table = Table(page, live_server[0])
    table.start("norwegian", ["Ola", "Kari", "Per", "Liv"])
    page.click("#enter-hand")
    assert leads(page) == "Kari"  # Ola deals; before a bid, the dealer's left
    page.click("label[for='bid-grand-2']")
    assert leads(page) == "Kari"  # a grand by Per: the player on his right leads (core norwegian.leader)
    page.click("label[for='bid-grand-0']")
    assert leads(page) == "Liv"
    page.click("label[for='bid-pass']")
    assert leads(page) == "Kari"
    page.click("label[for='bid-grand-0']")
    page.click("label[for='tricks-8']")
    save_and_edit_the_first_hand(page)
    assert leads(page) == "Liv"  # editing: the stored hand's leader


def test_the_header_follows_the_first_red_card_in_firemannswhist(page, live_server):
    table = Table(page, live_server[0])
    table.start("swedish", ["Åsa", "Björn", "Örjan", "Märta"])
    page.click("#enter-hand")
    page.click("label[for='red-3']")
    assert leads(page) == "Örjan"  # Märta showed red: the player on her right leads
    page.click("label[for='red-black']")
    assert leads(page) == "Björn"


def test_the_header_follows_an_abundance_declared_and_its_bidder_in_solo_whist(page, live_server):
    table = Table(page, live_server[0])
    table.start("solo", ["Ann", "Bo", "Cy", "Di"])
    page.click("#enter-hand")
    assert leads(page) == "Bo"  # Ann deals: the dealer's left
    page.click("label[for='bid-abundance_declared']")
    assert leads(page) == "Bo"  # no bidder yet
    page.click("label[for='bidder-3']")
    assert leads(page) == "Di"  # the bidder leads an abundance declared (core solo.leader)
    page.click("label[for='bidder-2']")
    assert leads(page) == "Cy"
    page.click("label[for='bid-misere']")
    assert leads(page) == "Bo"  # any other contract: the dealer's left, whoever bid it
    page.click("label[for='bid-abundance_declared']")
    page.click("label[for='tricks-13']")
    save_and_edit_the_first_hand(page)
    assert leads(page) == "Cy"  # editing: the stored hand's leader


def test_the_revoke_penalty_names_the_sides(page, live_server):
    table = Table(page, live_server[0])
    table.start("classic", ["Anna", "Bo", "Carl", "Dina"])
    page.click("#enter-hand")
    page.click("details.revoke summary")
    labels = page.locator("#f-revoke_penalty label").all_inner_texts()
    assert not any(word in " ".join(labels) for word in ("to us", "to them"))
    page.click("label[for='revoke_side-0']")  # Anna & Carl revoked
    labels = page.locator("#f-revoke_penalty label").all_inner_texts()
    assert labels == ["move 3 tricks", "+3 points to Bo & Dina", "−3 points to Anna & Carl"]
    page.click("label[for='revoke_side-1']")
    labels = page.locator("#f-revoke_penalty label").all_inner_texts()
    assert labels == ["move 3 tricks", "+3 points to Anna & Carl", "−3 points to Bo & Dina"]
