"""What changed after a hand, drawn from the scored game (issue 47), put in place by static/live.js in headless
Chromium: a phone watching a game with bids first (plump) through its deal in progress before the first hand, the
first hand (the sheet whole), hands added, bids changed, an edit (the changes' block drawn for the first time), the
last hand deleted and the bids cleared, its protokoll after each the page a fresh load shows, every answer what
changed, never a reload. tests/integration/test_live_delta.py holds the same for random games of every variant by
live.js's rules in Python."""

import re

import pytest

from helpers import PHONE, call
from variants import EXAMPLES

pytestmark = pytest.mark.browser

UPDATE_MS = 20_000
MARK = "() => { window.__sameDocument = 'yes'; }"


def test_a_phone_follows_a_deal_in_progress_hands_an_edit_and_a_deletion_by_what_changed(live_server, browser):
    base, _db = live_server
    options, _ = EXAMPLES["plump"].LONG
    status, game = call(
        f"{base}/api/games",
        "POST",
        {"variant": "plump", "players": list(EXAMPLES["plump"].PLAYERS), "options": options},
    )
    assert status == 201, game
    hands = EXAMPLES["plump"].long_hands(4, 1)
    key = {"X-Edit-Key": game["edit_key"]}

    def write(method: str, path: str, body=None) -> None:
        status, answer = call(f"{base}/api/games/{game['id']}{path}", method, body, headers=key)
        assert status < 300, (method, path, answer)

    context = browser.new_context(viewport=PHONE)
    watcher = context.new_page()
    answers = []
    watcher.on("response", lambda r: answers.append(r) if r.url.endswith("/live") else None)
    watcher.clock.install()
    watcher.goto(f"{base}/g/{game['id']}")
    watcher.evaluate(MARK)
    fresh = context.new_page()

    def shown_after(step: str) -> None:
        updates = watcher.evaluate("() => window.skLive.updates")
        watcher.clock.fast_forward(6_000)
        watcher.wait_for_function(f"() => window.skLive.updates > {updates}", timeout=UPDATE_MS)
        watcher.wait_for_function("() => !window.skLive.pending()", timeout=UPDATE_MS)
        fresh.goto(f"{base}/g/{game['id']}")
        # the blank between two blocks is no part of either (a block put in place brings none)
        shown, loaded = (re.sub(r">\s+<", "><", p.locator("#live").inner_html()) for p in (watcher, fresh))
        assert shown == loaded, step
        assert watcher.evaluate("() => window.__sameDocument === 'yes'"), f"the phone reloaded at {step}"

    steps = [
        ("bids before the first hand", "PUT", "/bids", {"bids": hands[0]["bids"]}),
        ("the first hand", "POST", "/hands", hands[0]),
        ("a hand", "POST", "/hands", hands[1]),
        ("the bids of the next", "PUT", "/bids", {"bids": hands[2]["bids"]}),
        ("its tricks", "POST", "/hands", hands[2]),
        ("an edit", "PUT", "/hands/2", EXAMPLES["plump"].long_hands(4, 2)[1]),
        ("the last hand deleted", "DELETE", "/hands/3", None),
        ("bids", "PUT", "/bids", {"bids": hands[3]["bids"]}),
        ("the bids cleared", "DELETE", "/bids", None),
    ]
    for step, method, path, body in steps:
        write(method, path, body)
        shown_after(step)
        if step == "the first hand":
            assert watcher.locator("#no-hands").count() == 0 and watcher.locator("#chart").count() == 1
        if step == "an edit":
            assert watcher.locator("#changes li").count() == 1
    changed = [r for r in answers if r.status == 200 and r.body()]
    assert len(changed) >= len(steps) and all(b"data-live-delta" in r.body() for r in changed)
    context.close()
