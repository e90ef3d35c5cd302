"""The table never loses a hand, in real Chromium at a phone's size: hands entered with no network are kept, shown and
sent once when it returns; Save, Back, Save stores one hand; a draft survives a reload; a hand someone else entered
meanwhile is caught and offered again; the edit form asks before "Passed out" replaces a played hand."""

import json
import urllib.request

import pytest

pytestmark = pytest.mark.browser


def server_hands(base, game_id):
    with urllib.request.urlopen(f"{base}/api/games/{game_id}") as r:
        return json.load(r)["hands"]


def start(page, base, variant="german", players=("Anna", "Bo")):
    """A new game through the pages; answers its id once the service worker holds the protokoll and its form."""
    page.goto(f"{base}/")
    page.click("#new-game")
    page.click(f"#variant-{variant}")
    for i, name in enumerate(players):
        page.fill(f"#player{i}", name)
    page.click("#start")
    page.wait_for_selector(".standing")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_selector("html[data-offline-ready]", state="attached")
    return page.url.rsplit("/", 1)[1]


def claim(page, base, variant, players):
    """A game started over the API, opened on this phone by its edit link."""
    body = json.dumps({"variant": variant, "players": list(players)}).encode()
    request = urllib.request.Request(f"{base}/api/games", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as r:
        game = json.load(r)
    page.goto(base + game["edit_page"])
    page.wait_for_selector(".standing")
    return game["id"]


def enter(page, *labels, wait=".standing"):
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    for value in labels:
        page.click(f"label[for='{value}']")
    page.click("button.save")
    page.wait_for_selector(wait)


def test_two_hands_offline_survive_a_reload_and_are_sent_once(page, context, live_server):
    base, _ = live_server
    game_id = start(page, base)
    context.set_offline(True)
    enter(page, "tricks-8", wait="tbody.pending")
    assert "hand 1" in page.inner_text(".offline-note").lower()
    enter(page, "tricks-5", wait="#pending-2")
    assert page.locator("tbody.pending").count() == 2
    assert "8" in page.inner_text("#pending-1") and "5" in page.inner_text("#pending-2")
    assert page.inner_text("#enter-hand").endswith("3")

    page.reload()
    page.wait_for_selector("#pending-2")
    assert page.locator("tbody.pending").count() == 2
    assert server_hands(base, game_id) == []
    page.goto(f"{base}/")
    page.wait_for_selector("#waiting-note:not([hidden])")
    assert "2 hands waiting" in page.inner_text("#waiting-note")

    context.set_offline(False)
    page.goto(f"{base}/g/{game_id}")
    page.wait_for_selector("#hand-2")
    page.wait_for_selector("tbody.pending", state="detached")
    hands = server_hands(base, game_id)
    assert [h["input"]["tricks"] for h in hands] == [[8, 5], [5, 8]]
    page.reload()
    page.wait_for_selector("#hand-2")
    assert len(server_hands(base, game_id)) == 2


def test_back_online_on_the_same_page_sends_them(page, context, live_server):
    base, _ = live_server
    game_id = start(page, base)
    context.set_offline(True)
    enter(page, "tricks-8", wait="tbody.pending")
    context.set_offline(False)  # the page's "online" event sends the hand and reloads
    page.wait_for_selector("#hand-1")
    assert page.locator("tbody.pending").count() == 0
    assert len(server_hands(base, game_id)) == 1


def test_save_back_save_stores_one_hand(page, live_server):
    base, _ = live_server
    game_id = start(page, base)
    enter(page, "tricks-8")
    assert page.locator("#hand-1.saved").count() == 1
    assert "saved" in page.inner_text(".flashes").lower()
    page.go_back()
    page.wait_for_selector("form.hand")
    assert page.input_value("input[name=number]") == "2"
    assert page.locator("form.hand input:checked").count() == 0, "Back brought the saved taps back"
    page.click("button.save")
    page.wait_for_load_state()
    assert len(server_hands(base, game_id)) == 1


def test_a_draft_survives_a_reload_and_goes_on_cancel(page, live_server):
    base, _ = live_server
    start(page, base)
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    page.click("label[for='tricks-9']")
    page.reload()
    page.wait_for_selector("form.hand")
    page.wait_for_selector(".offline-note")
    assert page.is_checked("#tricks-9")
    page.click(".actions a.button:not(.danger)")  # Cancel
    page.wait_for_selector(".standing")
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    assert page.locator("form.hand input:checked").count() == 0


def test_a_hand_someone_else_entered_meanwhile_is_kept_and_offered_again(page, context, live_server):
    base, _ = live_server
    game_id = start(page, base)
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    key = page.get_attribute("form.hand", "data-edit-key")
    page.go_back()
    page.wait_for_selector(".standing")
    context.set_offline(True)
    enter(page, "tricks-10", wait="tbody.pending")

    other = urllib.request.Request(
        f"{base}/api/games/{game_id}/hands",
        data=json.dumps({"tricks": [6, 7]}).encode(),
        headers={"Content-Type": "application/json", "X-Edit-Key": key, "X-Hand-Number": "1"},
    )
    urllib.request.urlopen(other).close()

    context.set_offline(False)
    page.wait_for_selector(".kept-hand")
    assert "hand 1" in page.inner_text(".kept-hand").lower()
    assert "10" in page.inner_text(".kept-hand .kept-labels")
    assert [h["input"]["tricks"] for h in server_hands(base, game_id)] == [[6, 7]]
    page.click(".kept-hand a.again")
    page.wait_for_selector("form.hand")
    assert page.input_value("input[name=number]") == "2"
    assert page.is_checked("#tricks-10")
    page.click("button.save")
    page.wait_for_selector("#hand-2")
    assert [h["input"]["tricks"] for h in server_hands(base, game_id)] == [[6, 7], [10, 3]]
    assert page.locator(".kept-hand").count() == 0


def test_passed_out_asks_before_replacing_a_played_hand(page, live_server):
    base, _ = live_server
    game_id = claim(page, base, "danish", ("Anna", "Bo", "Carl", "Dina"))
    enter(page, "bidder-1", "bid-9-gode", "partner-3", "tricks-10")
    assert page.inner_text("#hand-1 .outcome") == "made"
    page.click("#hand-1 a.edit")
    page.wait_for_selector("form.hand")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("button.passed")
    assert page.locator("form.hand").count() == 1
    assert server_hands(base, game_id)[0]["input"].get("passed") is None
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button.passed")
    page.wait_for_selector(".standing")
    assert server_hands(base, game_id)[0]["input"] == {"passed": True}
    hand = page.locator("#hand-1").bounding_box()
    standing = page.locator(".standing").bounding_box()
    assert hand["y"] >= standing["y"] + standing["height"] - 1, "the edited row is under the sticky standing"


def test_passed_out_asks_without_javascript_too(browser, live_server):
    base, _ = live_server
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        game_id = claim(page, base, "danish", ("Anna", "Bo", "Carl", "Dina"))
        enter(page, "bidder-1", "bid-9-gode", "trump-clubs", "partner-3", "tricks-10")
        page.click("#hand-1 a.edit")
        page.click("button.passed")
        page.wait_for_selector("#confirm-passed")
        assert server_hands(base, game_id)[0]["input"].get("passed") is None
        page.click("#passed-confirmed")
        page.wait_for_selector(".standing")
        assert server_hands(base, game_id)[0]["input"] == {"passed": True}
    finally:
        context.close()
