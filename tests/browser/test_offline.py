"""The table never loses a hand, in real Chromium at a phone's size: hands entered with no network are kept, shown and
sent once when it returns; Save, Back, Save stores one hand; a draft survives a reload; a hand someone else entered
meanwhile is caught and offered again; the edit form asks before "Passed out" replaces a played hand."""

import json
import time
import urllib.request

import pytest

from helpers import artifact

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

    with page.expect_navigation():  # the waiting note's page sends them and reloads itself: a goto now would abort
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
    game_id, key = editor(page, base)
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


# ------------------------------------------------------------------ what the phone keeps, and for whom

# Everything the pages and the service worker left on the phone: Cache Storage (every cache, every entry with its
# body), IndexedDB (every database, every store), localStorage and sessionStorage, as one JSON text.
KEPT_ON_THE_PHONE = """async () => {
  const out = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      out.push({cache: name, url: request.url, body: await response.text()});
    }
  }
  const asked = (r) => new Promise((ok, no) => { r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  for (const info of await indexedDB.databases()) {
    const db = await asked(indexedDB.open(info.name));
    for (const name of Array.from(db.objectStoreNames)) {
      const store = db.transaction(name).objectStore(name);
      out.push({db: info.name, store: name, keys: await asked(store.getAllKeys()), values: await asked(store.getAll())});
    }
    db.close();
  }
  for (const storage of [localStorage, sessionStorage]) {
    for (let i = 0; i < storage.length; i++) out.push({key: storage.key(i), value: storage.getItem(storage.key(i))});
  }
  return JSON.stringify(out);
}"""

KEPT_PAGES = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) out[request.url] = await (await cache.match(request)).text();
  }
  return out;
}"""


def editor(page, base, variant="german", players=("Anna", "Bo")):
    """A game started over the API and opened on this phone by its edit link, the service worker in control; answers
    (game id, edit key)."""
    body = json.dumps({"variant": variant, "players": list(players)}).encode()
    request = urllib.request.Request(f"{base}/api/games", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as r:
        game = json.load(r)
    page.goto(base + game["edit_page"])
    until(page, "() => navigator.serviceWorker.controller !== null")
    page.goto(f"{base}/g/{game['id']}")
    page.wait_for_selector("html[data-offline-ready]", state="attached")
    return game["id"], game["edit_key"]


def until(page, script, arg=None, timeout=15):
    """Until `script` (a function run in the page, perhaps async) answers something true; its answer. The pages'
    policy (script-src 'self') refuses wait_for_function's eval, so this asks from here."""
    deadline = time.monotonic() + timeout
    while True:
        answer = page.evaluate(script, arg)
        if answer or time.monotonic() > deadline:
            assert answer, f"still not: {script}"
            return answer
        time.sleep(0.1)


def kept(page, base, *paths):
    """The kept pages once every one of `paths` is kept (the service worker keeps them after answering)."""
    until(
        page,
        "async (urls) => { for (const u of urls) { if (!(await caches.match(u))) return false; } return true; }",
        [base + p for p in paths],
    )
    return page.evaluate(KEPT_PAGES)


def waiting_is_over(page):
    """Until no kept hand is waiting to be sent any more (sent, or held back with the server's answer)."""
    until(page, "() => skQueue.all().then((items) => items.every((i) => i.status !== 'waiting'))")


def test_the_next_user_of_the_phone_gets_no_edit_link_and_no_key(page, context, live_server):
    base, _ = live_server
    game_id, key = editor(page, base)
    enter(page, "tricks-8")
    page.click("#enter-hand")  # the editor's form, kept for a lost network
    page.wait_for_selector("form.hand")
    page.goto(f"{base}/")
    page.goto(f"{base}/g/{game_id}")
    page.wait_for_selector("html[data-offline-ready]", state="attached")
    kept(page, base, "/", f"/g/{game_id}", f"/g/{game_id}/hands/new")
    assert key not in page.evaluate(KEPT_ON_THE_PHONE), "the edit key is kept on the phone"

    context.clear_cookies()  # the editor is done with this phone; the next user finds it offline
    context.set_offline(True)
    stranger = context.new_page()
    for path in ("/", f"/g/{game_id}", f"/g/{game_id}/hands/new", f"/g/{game_id}?changed=1"):
        stranger.goto(base + path)
        stranger.wait_for_selector("main")
        html = stranger.content()
        assert key not in html and "/k/" not in html, path
        assert stranger.locator("#edit-link").count() == 0
    everything = stranger.evaluate(KEPT_ON_THE_PHONE)
    assert key not in everything and f"/g/{game_id}/k/" not in everything

    # The kept form takes a hand offline; it is never stored for the stranger, whose phone holds no key.
    stranger.goto(f"{base}/g/{game_id}/hands/new")
    stranger.click("label[for='tricks-3']")
    stranger.click("button.save")
    stranger.wait_for_selector("tbody.pending")
    context.set_offline(False)
    stranger.goto(f"{base}/")
    waiting_is_over(stranger)
    assert [h["input"]["tricks"] for h in server_hands(base, game_id)] == [[8, 5]]
    assert stranger.evaluate("() => skQueue.all().then((items) => items.map((i) => i.reason))") == ["forbidden"]


def test_a_query_string_neither_makes_nor_changes_a_kept_copy(page, context, live_server):
    base, _ = live_server
    game_id, key = editor(page, base)
    enter(page, "tricks-8")  # lands on ?saved=1#hand-1
    other = urllib.request.Request(
        f"{base}/api/games/{game_id}/hands",
        data=json.dumps({"tricks": [6, 7]}).encode(),
        headers={"Content-Type": "application/json", "X-Edit-Key": key},
    )
    urllib.request.urlopen(other).close()  # hand 2 from another phone: the copy kept from here on holds it
    page.goto(f"{base}/g/{game_id}?changed=1")
    page.goto(f"{base}/g/{game_id}?saved=2&x=%3Cb%3E")
    until(
        page,
        "async (u) => { const r = await caches.match(u); return !!r && (await r.text()).includes('id=\"hand-2\"'); }",
        f"{base}/g/{game_id}",
    )
    pages = page.evaluate(KEPT_PAGES)
    assert [u for u in pages if "?" in u or "#" in u] == []
    scored_game = pages[f"{base}/g/{game_id}"]
    assert "hand changed" not in scored_game and "hand saved" not in scored_game and "&lt;b&gt;" not in scored_game

    context.set_offline(True)
    page.goto(f"{base}/g/{game_id}?changed=2&saved=1")
    page.wait_for_selector("#hand-2")
    assert page.locator("tbody.changed, tbody.saved, .mark:not(.waiting)").count() == 0


@pytest.fixture
def failing(monkeypatch):
    """The server's hand writes answer as told ({"status": 507}, 503 or 500) until told None: the page's POST and the
    API alike, as a full disk, a busy server or a bug would."""
    from werkzeug.exceptions import ServiceUnavailable

    from scorekeeper.games import service as games
    from scorekeeper.server.guard import StorageFull

    told = {"status": None}
    real, real_adding = games.add_hand, games.adding_hand

    def refuse():
        status = told["status"]
        if status == 507:
            raise StorageFull()
        if status == 503:
            raise ServiceUnavailable()
        if status == 500:
            raise RuntimeError("disk I/O error")

    def add_hand(*args, **kwargs):  # the page's POST
        refuse()
        return real(*args, **kwargs)

    def adding_hand(*args, **kwargs):  # the API's (the offline queue's), its answer drawn inside the write
        refuse()
        return real_adding(*args, **kwargs)

    monkeypatch.setattr(games, "add_hand", add_hand)
    monkeypatch.setattr(games, "adding_hand", adding_hand)
    return told


@pytest.mark.parametrize("status", [507, 503, 500])
def test_a_hand_the_server_could_not_store_is_kept_and_sent_once_later(page, live_server, failing, status):
    base, _ = live_server
    game_id = start(page, base)
    enter(page, "tricks-9")
    failing["status"] = status
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    page.click("label[for='tricks-8']")
    page.click("button.save")
    page.wait_for_selector("#pending-2")
    assert "8" in page.inner_text("#pending-2"), "the taps are kept with the hand"
    assert "2" in page.inner_text(".offline-note")
    if status == 507:
        assert "storage is full" in page.inner_text(".offline-note")
        page.screenshot(path=str(artifact("offline-storage-full.png")))
    assert [h["input"]["tricks"] for h in server_hands(base, game_id)] == [[9, 4]]
    page.reload()  # tried again on every page load while the server still cannot take it: still kept
    page.wait_for_selector("#pending-2")
    waiting = page.evaluate("() => skQueue.all().then((items) => items.map((i) => [i.number, i.status]))")
    assert waiting == [[2, "waiting"]]

    failing["status"] = None
    page.reload()
    page.wait_for_selector("#hand-2")
    page.wait_for_selector("tbody.pending", state="detached")
    assert [h["input"]["tricks"] for h in server_hands(base, game_id)] == [[9, 4], [8, 5]]
    page.reload()
    page.wait_for_selector("#hand-2")
    assert len(server_hands(base, game_id)) == 2


def test_a_kept_hand_that_was_saved_and_deleted_since_is_not_offered_again(page, live_server, monkeypatch):
    """Issue 34, F-E1: the hand was stored but its answer lost (a 500), so the phone kept it; meanwhile another phone
    deleted that hand; sent again, the server says it was deleted (404): the phone says so and offers nothing to
    enter again."""
    from scorekeeper.games import service as games

    base, _ = live_server
    game_id, key = editor(page, base)
    enter(page, "tricks-9")
    real, lost = games.add_hand, {"answer": True}

    def add_hand(db, game, *args, **kwargs):
        scored = real(db, game, *args, **kwargs)
        if lost["answer"]:
            lost["answer"] = False
            games.delete_hand(db, game, scored.number, key)  # another phone, before this phone hears back
            raise RuntimeError("the answer was lost after the hand was stored")
        return scored

    monkeypatch.setattr(games, "add_hand", add_hand)
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    page.click("label[for='tricks-8']")
    page.click("button.save")
    page.wait_for_selector(".kept-hand")
    text = page.inner_text(".kept-hand")
    assert "deleted on another phone" in text and "hand 2" in text.lower(), text
    assert page.locator(".kept-hand a.again").count() == 0, "the deleted hand is offered to be entered again"
    assert [h["input"]["tricks"] for h in server_hands(base, game_id)] == [[9, 4]]
    page.click(".kept-hand button.seen")
    page.wait_for_selector(".kept-hand", state="detached")
    assert page.evaluate("() => skQueue.all().then((items) => items.length)") == 0
    page.reload()
    page.wait_for_selector(".standing")
    assert page.locator(".kept-hand, tbody.pending").count() == 0
    assert len(server_hands(base, game_id)) == 1
