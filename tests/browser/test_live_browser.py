"""Live pages in headless Chromium at a phone's size (390×844): a phone following the read-only protokoll sees a hand
entered on another phone appear in place, without a reload; a drive table's page keeps a tap not yet sent while the
drive moves on around it; a hidden page asks nothing; without JavaScript the pages reload by their meta refresh.
The only times here are generous waits for an update to appear (live.js asks every few seconds)."""

import re
import shutil

import pytest

from helpers import PHONE, Api, call, waitress_in_thread
from nginx_stack import nginx_in_front
from scorekeeper import create_app

pytestmark = pytest.mark.browser

UPDATE_MS = 20_000  # generous: live.js asks every 5 s
MARK = "() => { window.__sameDocument = 'yes'; }"
SAME = "() => window.__sameDocument === 'yes' && performance.getEntriesByType('navigation').length === 1"


def new_game(base, variant="german", players=("Anna", "Bo")):
    status, game = call(f"{base}/api/games", "POST", {"variant": variant, "players": list(players)})
    assert status == 201, game
    return game


def hand(base, game, body):
    status, answer = call(
        f"{base}/api/games/{game['id']}/hands", "POST", body, headers={"X-Edit-Key": game["edit_key"]}
    )
    assert status == 201, answer
    return answer


def test_the_read_only_protokoll_shows_a_hand_entered_elsewhere_without_a_reload(live_server, browser):
    base, _db = live_server
    game = new_game(base)
    hand(base, game, {"tricks": [9, 4]})
    watcher = browser.new_context(viewport=PHONE).new_page()
    watcher.goto(f"{base}/g/{game['id']}")
    assert watcher.locator("#enter-hand").count() == 0 and watcher.locator("#hand-1").count() == 1
    # the meta refresh is inside <noscript>: with scripts on it is text, not an element, so nothing reloads
    assert watcher.locator("meta[http-equiv=refresh]").count() == 0
    watcher.evaluate(MARK)
    totals_before = watcher.locator(".totals .total").all_inner_texts()
    # the scorer's phone: a second browser with the edit link enters hand 2 on the form
    scorer = browser.new_context(viewport=PHONE).new_page()
    scorer.goto(f"{base}/g/{game['id']}/k/{game['edit_key']}")
    scorer.click("#enter-hand")
    scorer.wait_for_selector("form.hand")
    scorer.click("label[for='tricks-3']")
    scorer.click("button.save")
    scorer.wait_for_selector(".standing")
    assert scorer.locator("#hand-2").count() == 1
    watcher.wait_for_selector("#hand-2", timeout=UPDATE_MS)
    assert watcher.evaluate(SAME), "the watching phone reloaded"
    assert watcher.evaluate("() => window.skLive.updates") >= 1
    assert watcher.locator(".totals .total").all_inner_texts() != totals_before
    assert "Hand 3" in watcher.locator(".next").inner_text()
    # nothing changed since: the questions go on and are answered 304, the page stays as it is
    polls = watcher.evaluate("() => window.skLive.polls")
    watcher.wait_for_function(f"() => window.skLive.polls > {polls}", timeout=UPDATE_MS)
    assert watcher.evaluate("() => window.skLive.updates") == 1 and watcher.evaluate(SAME)
    watcher.context.close()
    scorer.context.close()


def test_a_hidden_page_asks_nothing_and_asks_again_when_shown(live_server, browser):
    base, _db = live_server
    game = new_game(base)
    page = browser.new_context(viewport=PHONE).new_page()
    page.clock.install()
    page.goto(f"{base}/g/{game['id']}")
    page.clock.fast_forward(6_000)
    page.wait_for_function("() => window.skLive.polls >= 1", timeout=UPDATE_MS)
    page.evaluate(
        """() => { Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
                   document.dispatchEvent(new Event('visibilitychange')); }"""
    )
    polls = page.evaluate("() => window.skLive.polls")
    page.clock.fast_forward(120_000)  # two minutes in the pocket
    assert page.evaluate("() => window.skLive.polls") == polls
    hand(base, game, {"tricks": [9, 4]})
    page.evaluate(
        """() => { Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
                   document.dispatchEvent(new Event('visibilitychange')); }"""
    )
    page.clock.fast_forward(1_000)
    page.wait_for_selector("#hand-1", timeout=UPDATE_MS)  # asked at once when shown again
    assert page.evaluate("() => window.skLive.polls") == polls + 1
    page.context.close()


def test_without_javascript_the_protokoll_reloads_itself(live_server, browser):
    base, _db = live_server
    game = new_game(base)
    page = browser.new_context(viewport=PHONE, java_script_enabled=False).new_page()
    page.goto(f"{base}/g/{game['id']}")
    assert page.locator("meta[http-equiv=refresh]").count() == 1  # <noscript> is markup without scripts
    hand(base, game, {"tricks": [9, 4]})
    with page.expect_navigation(timeout=45_000):  # the meta refresh: 20 s
        pass
    page.wait_for_selector("#hand-1")
    page.context.close()


# ---------------------------------------------------------------- a drive table's page

LADIES = ["Ann", "Bea", "Cat", "Dot", "Eve", "Fay"]
GENTS = ["Al", "Ben", "Cy", "Dan", "Ed", "Fred"]


def drive_result(base, drive, table, tricks, hand_number=1):
    status, answer = call(
        f"{base}/api/drives/{drive['id']}/hands/{hand_number}/tables/{table}",
        "POST",
        {"tricks": [tricks, 13 - tricks]},
        headers={"X-Edit-Key": drive["edit_key"]},
    )
    assert status == 201, answer


def table_urls(browser, base, drive) -> dict[int, str]:
    organiser = browser.new_context(viewport=PHONE).new_page()
    organiser.goto(base + drive["edit_page"])
    organiser.goto(f"{base}/d/{drive['id']}/cards")
    links = organiser.locator("a[data-table]").evaluate_all(
        "els => els.map(a => [Number(a.dataset.table), new URL(a.href).pathname])"
    )
    organiser.context.close()
    return {t: base + path for t, path in links}


def test_a_half_entered_tap_on_a_drive_table_survives_the_updates_around_it(live_server, browser):
    base, _db = live_server
    status, drive = call(f"{base}/api/drives", "POST", {"format": "progressive", "ladies": LADIES, "gents": GENTS})
    assert status == 201, drive
    urls = table_urls(browser, base, drive)
    assert sorted(urls) == [1, 2, 3]
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(urls[2])
    phone.click("label[for='tricks-6']")
    phone.click("#send")
    phone.wait_for_selector("#sent")
    assert "1, 3" in phone.locator("#sent").inner_text()
    phone.evaluate(MARK)
    # a second thought, not sent yet: 7 instead of 6
    phone.click("label[for='tricks-7']")
    assert phone.is_visible("#unsent")
    # another table's phone sends: this page says whom it still waits for, and keeps the tap
    drive_result(base, drive, 1, 8)
    phone.wait_for_function("() => !document.getElementById('sent').innerText.includes('1, 3')", timeout=UPDATE_MS)
    assert phone.is_checked("#tricks-7") and phone.is_visible("#unsent") and phone.evaluate(SAME)
    # the last table sends: the drive moves on to hand 2 around the tap, which is still there until it is put back
    drive_result(base, drive, 3, 5)
    phone.wait_for_function("() => document.getElementById('here').innerText.includes('hand 2')", timeout=UPDATE_MS)
    assert phone.is_checked("#tricks-7") and phone.is_visible("#unsent") and phone.evaluate(SAME)
    assert phone.input_value("input[name=hand]") == "1"  # the form is the one the tap was made on
    # put back as stored: the form follows the drive (hand 2, nothing tapped), still without a reload
    phone.click("label[for='tricks-6']")
    phone.wait_for_function("() => document.querySelector('input[name=hand]').value === '2'", timeout=UPDATE_MS)
    assert phone.locator("input[name=tricks]:checked").count() == 0 and not phone.is_visible("#unsent")
    assert phone.evaluate(SAME)
    phone.context.close()


def test_the_hall_screen_takes_a_result_at_the_end_of_its_cycle_without_a_reload(live_server, browser):
    base, _db = live_server
    status, drive = call(f"{base}/api/drives", "POST", {"format": "progressive", "ladies": LADIES, "gents": GENTS})
    assert status == 201, drive
    hall = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    hall.goto(f"{base}/d/{drive['id']}/screen?seconds=1")
    hall.evaluate(MARK)
    assert hall.locator("#provisional").count() == 0
    drive_result(base, drive, 1, 8)
    hall.wait_for_selector("#provisional", state="attached", timeout=UPDATE_MS)
    assert hall.evaluate(SAME), "the screen reloaded"
    hall.context.close()


def test_a_watching_phone_puts_what_changed_in_place_and_shows_what_a_fresh_page_shows(live_server, browser):
    """Issue 37: after a hand the phone is sent only what changed (the new row, the standing, the chart…); once put in
    place its protokoll is the page a fresh load shows, row for row. A deleted hand's row goes."""
    base, _db = live_server
    game = new_game(base, "danish", ("Anna", "Bo", "Carl", "Dina"))  # a game that goes on (a German one ends)
    danish = {"bidder": 0, "bid": 8, "suffix": "plain", "trump": "spades", "partner": 2}
    for tricks in (9, 8, 10):
        hand(base, game, {**danish, "tricks": tricks})
    context = browser.new_context(viewport=PHONE)
    watcher = context.new_page()
    answers = []
    watcher.on("response", lambda r: answers.append(r) if r.url.endswith("/live") else None)
    watcher.goto(f"{base}/g/{game['id']}")
    watcher.evaluate(MARK)
    hand(base, game, {**danish, "tricks": 7})
    watcher.wait_for_selector("#hand-4", timeout=UPDATE_MS)
    fresh = context.new_page()

    def same_as_fresh():
        fresh.goto(f"{base}/g/{game['id']}")
        watcher.wait_for_function("() => !window.skLive.pending()", timeout=UPDATE_MS)
        # the blank between two blocks is no part of either (a block put in place brings none)
        shown, loaded = (re.sub(r">\s+<", "><", p.locator("#live").inner_html()) for p in (watcher, fresh))
        return shown == loaded

    assert same_as_fresh()
    assert watcher.evaluate(SAME), "the watching phone reloaded"
    changed = [r for r in answers if r.status == 200 and r.body()]
    assert changed and all(b"data-live-delta" in r.body() for r in changed)
    status, _ = call(f"{base}/api/games/{game['id']}/hands/4", "DELETE", headers={"X-Edit-Key": game["edit_key"]})
    assert status == 200
    watcher.wait_for_selector("#hand-4", state="detached", timeout=UPDATE_MS)
    assert same_as_fresh() and watcher.evaluate(SAME)
    context.close()


def test_a_finished_games_phone_follows_it_again_when_its_last_hand_is_deleted(live_server, browser):
    """Issue 43 (low): a game's last hand made the phone's answer a page with no live address, and live.js stopped for
    good, so a deleted last hand never reached the phones. A finished game's page goes on asking, more slowly
    (data-live-every), and one drawn finished does too; the deleted hand brings both back to the game in place."""
    base, _db = live_server
    game = new_game(base)
    hand(base, game, {"tricks": [8, 5]})
    watching = browser.new_context(viewport=PHONE).new_page()  # open while the game goes on
    watching.clock.install()
    watching.goto(f"{base}/g/{game['id']}")
    watching.evaluate(MARK)
    assert watching.locator(".banner").count() == 0
    numbers = 1
    while call(f"{base}/api/games/{game['id']}")[1]["finished"] is False:
        numbers += 1
        hand(base, game, {"tricks": [8, 5]})
    watching.clock.fast_forward(6_000)
    watching.wait_for_selector(".banner", timeout=UPDATE_MS)  # Game over, in place
    finished = browser.new_context(viewport=PHONE).new_page()  # opened once it is over
    finished.clock.install()
    finished.goto(f"{base}/g/{game['id']}")
    finished.evaluate(MARK)
    assert finished.locator(".banner").count() == 1 and finished.locator(f"#hand-{numbers}").count() == 1
    slower = [
        p.evaluate("() => Number(document.getElementById('live').dataset.liveEvery || 5)") for p in (watching, finished)
    ]
    assert all(s > 5 for s in slower), slower
    status, _ = call(
        f"{base}/api/games/{game['id']}/hands/{numbers}", "DELETE", headers={"X-Edit-Key": game["edit_key"]}
    )
    assert status == 200
    for page in (watching, finished):
        page.clock.fast_forward(max(slower) * 1000 + 1_000)
        page.wait_for_selector(f"#hand-{numbers}", state="detached", timeout=UPDATE_MS)
        assert page.locator(".banner").count() == 0 and page.locator(".next").count() == 1
        # (the clock installed fakes `performance`: its navigation entries are not there to count)
        assert page.evaluate("() => window.__sameDocument === 'yes'"), "the phone reloaded"
        assert page.evaluate("() => Number(document.getElementById('live').dataset.liveEvery || 5)") == 5
        page.context.close()


@pytest.mark.needs_program  # nginx and openssl
def test_a_page_drawn_before_its_phone_took_the_key_gets_the_edit_buttons_behind_nginx(browser, tmp_path, migrated_db):
    """Issue 43 (low): behind nginx as deployed (LIVE_TAGS), a phone's page drawn for a reader asked with the readers'
    tag after the phone took the edit key in another tab, and nginx answered it from the readers' files: no edit
    buttons until a reload. The editor's page drawn in the other tab tells live.js, which asks the app (its tag
    marked, web/live.KEYED): the page in place becomes the editor's."""
    db = tmp_path / "scorekeeper.sqlite"
    shutil.copyfile(migrated_db, db)
    settings = {"DATABASE": str(db), "SECRET_KEY": "keyed", "GC_FREEZE": False, "READS_PER_SECOND": None}
    app = create_app({**settings, "PROXY_FIX": 1, "LIVE_TAGS": str(tmp_path / "live-tags")})
    game = Api(app.test_client()).create("german")
    with (
        waitress_in_thread(app, threads=4, clear_untrusted_proxy_headers=False) as server,
        nginx_in_front(tmp_path, server.effective_port) as nginx,
    ):
        phone = browser.new_context(viewport=PHONE, ignore_https_errors=True)
        page = phone.new_page()
        page.goto(f"{nginx['base']}/g/{game['id']}")
        assert page.locator("#enter-hand").count() == 0
        page.evaluate(MARK)
        page.wait_for_function("() => window.skLive.polls >= 1", timeout=UPDATE_MS)  # answered by nginx's file
        other_tab = phone.new_page()
        other_tab.goto(f"{nginx['base']}/g/{game['id']}/k/{game['edit_key']}")
        assert other_tab.locator("#enter-hand").count() == 1
        page.wait_for_selector("#enter-hand", timeout=UPDATE_MS)
        assert page.evaluate(SAME), "the phone reloaded"
        polls = page.evaluate("() => window.skLive.polls")
        page.wait_for_function(f"() => window.skLive.polls > {polls}", timeout=UPDATE_MS)
        assert page.locator("#enter-hand").count() == 1  # its tag now the editor's own
        phone.close()
