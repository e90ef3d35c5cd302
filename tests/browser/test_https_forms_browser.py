"""Issue 43: every kind of form goes in through its page on the deployments the docs describe, in Chromium at a phone's
size. Over TLS behind the real nginx (deploy/nginx.conf as shipped, tests/nginx_stack.py) in front of waitress with
PROXY_FIX=1, as docs/operations.md recommends: a new game, hands, bids, play again, a hand kept offline and sent
later, a club (its creation, members, settings, logout and login), an evening and its table, the typed table code, a
drive's organiser forms and a table's result; each is checked stored in the database file. Flask-WTF refuses a form
posted over HTTPS without a same-origin Referer (WTF_CSRF_SSL_STRICT): the pages send `Referrer-Policy: same-origin`,
and a refusal is said in the reader's language. nginx's access log holds no edit key, table code or token. And over
plain http, `make run`'s own server takes a new game and its hands the same way."""

import http.client
import json
import re
import shutil
import sqlite3
import ssl
import time

import pytest
from test_browser import Table
from test_offline import until, waiting_is_over

from helpers import CHROMIUM, CHROMIUM_ARGS, PHONE, call, serving, waitress_in_thread
from nginx_stack import nginx_in_front
from scorekeeper import create_app

pytestmark = [pytest.mark.browser, pytest.mark.needs_program]  # nginx and openssl

PASSWORD = "spar-dame-7"
SECRET_IN_PATH = re.compile(r"/(?:[gdc]/[^/\s\"?]+/k|d/[^/\s\"?]+/t/\d+)/([^/\s\"?\[]+)")


@pytest.fixture(scope="module")
def stack(tmp_path_factory, migrated_db):
    """nginx (TLS) → waitress → the app, PROXY_FIX=1, LIVE_TAGS as deploy/scorekeeper.service sets it: (base, db)."""
    tmp = tmp_path_factory.mktemp("https-forms")
    db = str(tmp / "scorekeeper.sqlite")
    shutil.copyfile(migrated_db, db)
    app = create_app(
        {
            "DATABASE": db,
            "SECRET_KEY": "https-forms",
            "GC_FREEZE": False,
            "READS_PER_SECOND": None,  # every phone of the test is 127.0.0.1
            "PROXY_FIX": 1,
            "LIVE_TAGS": str(tmp / "live-tags"),
        }
    )
    with (
        waitress_in_thread(app, threads=4, clear_untrusted_proxy_headers=False) as server,
        nginx_in_front(tmp, server.effective_port) as nginx,
    ):
        yield {**nginx, "db": db}


@pytest.fixture(scope="module")
def browser(playwright):
    """Chromium as conftest.py launches it, and told to take the test's self-signed certificate: with a certificate
    error Chromium registers no service worker (the context's ignore_https_errors notwithstanding), and the hand form
    posts through the service worker (sw.js) on a site with a real certificate."""
    chromium = playwright.chromium.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--ignore-certificate-errors"]
    )
    yield chromium
    chromium.close()


@pytest.fixture
def phone(browser, stack):
    """A new phone (a browser context of its own) on the https site: phone(locale="da-DK") for another language."""
    contexts = []

    def make(**extra):
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, ignore_https_errors=True, **extra
        )
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def rows(db, sql, *args):
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def inputs(db, game):
    return [json.loads(i) for (i,) in rows(db, "SELECT input FROM hands WHERE game_id = ? ORDER BY id", game)]


def result(db, drive, table):
    """Hand 1's stored result at `table`."""
    sql = "SELECT tricks FROM drive_results WHERE drive_id = ? AND hand = 1 AND table_number = ?"
    return [json.loads(t) for (t,) in rows(db, sql, drive, table)][0]


def game_id(page) -> str:
    return re.search(r"/g/([^/?#]+)", page.url)[1]


def no_error(page):
    assert page.locator(".error, .error-box").count() == 0, page.content()[:3000]


def test_a_game_its_hands_play_again_and_a_hand_kept_offline(stack, phone):
    base, db = stack["base"], stack["db"]
    page = phone()
    table = Table(page, base)
    table.start("german", ["Anna", "Bo"])  # the new-game page's form
    first = game_id(page)
    assert [(v, json.loads(p)) for v, p in rows(db, "SELECT variant, players FROM games WHERE id = ?", first)] == [
        ("german", ["Anna", "Bo"])
    ]
    # The hand form posts through the service worker (sw.js: a hand the server cannot take is kept): it must carry the
    # page's referrer on.
    until(page, "() => navigator.serviceWorker.controller !== null")
    for tricks in ("tricks-9", "tricks-5", "tricks-10"):
        table.hand(tricks, limit=3)
    assert inputs(db, first) == [{"tricks": [9, 4]}, {"tricks": [5, 8]}, {"tricks": [10, 3]}]
    assert "Anna won" in page.inner_text(".banner")

    page.click("#play-again")
    page.wait_for_selector("#enter-hand")
    again = game_id(page)
    assert again != first
    assert json.loads(rows(db, "SELECT players FROM games WHERE id = ?", again)[0][0]) == ["Anna", "Bo"]

    # No network: the hand is kept on the phone, then sent by offline.js when it returns (the API, the page's CSRF
    # token and the session), through nginx like the rest.
    page.wait_for_selector("html[data-offline-ready]", state="attached")
    page.context.set_offline(True)
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    page.click("label[for='tricks-7']")
    page.click("button.save")
    page.wait_for_selector("tbody.pending")
    assert rows(db, "SELECT count(*) FROM hands WHERE game_id = ?", again) == [(0,)]
    page.context.set_offline(False)  # the page's "online" event sends it and reloads
    page.wait_for_selector("#hand-1")
    waiting_is_over(page)
    assert inputs(db, again) == [{"tricks": [7, 6]}]


def test_bids_before_play_then_the_tricks(stack, phone):
    base, db = stack["base"], stack["db"]
    page = phone()
    Table(page, base).start("danish", ["Anna", "Bo", "Carl", "Dina"])
    game = game_id(page)
    page.click("#enter-bids")
    page.wait_for_selector("form.hand[data-kind=bids]")
    for label in ("bidder-1", "bid-9-gode", "ace-hearts", "partner-3"):
        page.click(f"label[for='{label}']")
    page.click("button.save")
    page.wait_for_selector("#open-deal")
    no_error(page)
    ((stored,),) = rows(db, "SELECT input FROM open_deals WHERE game_id = ?", game)
    bids = {"bidder": 1, "bid": 9, "suffix": "gode", "trump": "clubs", "ace": "hearts", "partner": 3}
    assert json.loads(stored) == bids
    page.click("#enter-hand")
    page.wait_for_selector("form.hand")
    page.click("label[for='tricks-10']")
    page.click("button.save")
    page.wait_for_selector("#hand-1")
    no_error(page)
    assert inputs(db, game) == [{**bids, "tricks": 10}]
    assert rows(db, "SELECT input FROM open_deals WHERE game_id = ?", game) == [(None,)]  # the deal is played


def test_a_club_its_settings_a_login_an_evening_and_a_table_by_its_typed_code(stack, phone):
    base, db = stack["base"], stack["db"]
    admin = phone()
    admin.goto(f"{base}/clubs/new")
    admin.fill("#name", "Kløverklubben")
    admin.fill("#password", PASSWORD)
    admin.fill("#password2", PASSWORD)
    admin.click("#save-club")
    admin.wait_for_selector("#add-member")
    club = re.search(r"/c/([^/?#]+)", admin.url)[1]
    assert rows(db, "SELECT name FROM clubs WHERE id = ?", club) == [("Kløverklubben",)]
    admin.fill("#names", "Anna\nBo\nCarl\nDina")
    admin.click("#add-members")
    admin.wait_for_selector(".member-list li")
    assert rows(db, "SELECT count(*) FROM club_members WHERE club_id = ?", club) == [(4,)]

    admin.goto(f"{base}/c/{club}/settings")
    admin.fill("#name", "Kløverklubben af 1911")
    with admin.expect_response(lambda r: r.request.method == "POST") as preview:  # tariff.js's live table
        admin.fill("#card-cell-13-0", "500")
    assert preview.value.status == 200
    admin.click("#save-club")
    admin.wait_for_selector("#add-member")
    no_error(admin)
    assert rows(db, "SELECT name FROM clubs WHERE id = ?", club) == [("Kløverklubben af 1911",)]
    assert "500" in rows(db, "SELECT options FROM clubs WHERE id = ?", club)[0][0]

    admin.click("#logout")
    admin.wait_for_selector("#add-member", state="detached")
    admin.goto(f"{base}/c/{club}/login")
    admin.fill("#password", PASSWORD)
    admin.click("#log-in")
    admin.wait_for_selector("#new-evening")  # an admin again
    no_error(admin)

    admin.click("#new-evening")
    admin.fill("#date", "2026-03-05")
    admin.click("#make-evening")
    admin.wait_for_selector("#start-table")
    assert rows(db, "SELECT date FROM club_evenings WHERE club_id = ?", club) == [("2026-03-05",)]
    admin.click("#start-table")  # the first four members, filled in
    admin.wait_for_selector("#table-1")
    code = admin.locator("#code-1").inner_text()
    tables = "SELECT count(*) FROM club_tables t JOIN club_evenings e ON e.id = t.evening_id WHERE e.club_id = ?"
    assert rows(db, tables, club) == [(1,)]

    scorer = phone()  # the table's scorer types the code the host shows
    scorer.goto(f"{base}/k")
    scorer.fill("#code", code)
    scorer.click("#open-table")
    scorer.wait_for_selector("#enter-hand")
    no_error(scorer)
    table_game = game_id(scorer)
    scorer.click("#enter-hand")
    scorer.wait_for_selector("form.hand")
    for label in ("bidder-1", "bid-sol", "tricks-0"):
        scorer.click(f"label[for='{label}']")
    scorer.click("button.save")
    scorer.wait_for_selector("#hand-1")
    no_error(scorer)
    assert rows(db, "SELECT count(*) FROM hands WHERE game_id = ?", table_game) == [(1,)]


def test_a_drive_its_organiser_forms_and_a_tables_result(stack, phone):
    base, db = stack["base"], stack["db"]
    org = phone()
    org.goto(f"{base}/drives/new")
    org.fill("input[name=title]", "Village hall")
    org.fill("textarea[name=ladies]", "Ann\nBea\nCat\nDot")
    org.fill("textarea[name=gents]", "Al\nBen\nCy\nDan")
    org.fill("input[name=hands]", "4")
    org.fill("input[name=interval_after]", "2")
    org.click("#start-drive")
    org.wait_for_selector(".drive-head")
    drive = org.url.split("#")[0].rsplit("/", 1)[-1]
    assert rows(db, "SELECT title FROM drives WHERE id = ?", drive) == [("Village hall",)]
    org.click("#cards-link")
    links = org.locator(".card-url a")
    urls = {int(links.nth(i).get_attribute("data-table")): links.nth(i).get_attribute("href") for i in range(2)}
    assert all(url.startswith(base + "/d/") for url in urls.values()), urls

    table = phone()  # table 1's phone, from its card's address
    table.goto(urls[1])
    table.click("label[for='tricks-8']")
    table.click("#send")
    table.wait_for_selector("#sent")
    no_error(table)
    assert result(db, drive, 1) == [8, 5]

    org.goto(f"{base}/d/{drive}")  # table 2's card came back on paper: the organiser enters it
    org.click("#result-1-2 summary")
    org.click("label[for='c1-2-6']")
    org.click("#result-1-2 button[type=submit]")
    org.wait_for_selector("#notice")
    no_error(org)
    assert result(db, drive, 2) == [6, 7]

    org.goto(f"{base}/d/{drive}")  # a correction: table 1 took 9, not 8
    org.click("#result-1-1 summary")
    org.click("label[for='c1-1-9']")
    org.click("#result-1-1 button[type=submit]")
    org.wait_for_selector("#preview")
    org.click("#save")
    org.wait_for_selector("#notice")
    no_error(org)
    assert result(db, drive, 1) == [9, 4]

    org.click("#people-link")
    org.select_option("select[name=old]", "Bea")
    org.fill("input[name=new]", "Beatrice")
    org.click("#rename-save")
    org.wait_for_selector("#notice")
    no_error(org)
    assert "Beatrice" in rows(db, "SELECT setup FROM drives WHERE id = ?", drive)[0][0]

    org.goto(f"{base}/d/{drive}/prizes")
    org.fill("input[name=prize0_name]", "Vin")
    org.click("#save-prizes")
    org.wait_for_selector(".drive-head")
    no_error(org)
    assert "Vin" in rows(db, "SELECT money FROM drives WHERE id = ?", drive)[0][0]


def test_a_refused_form_is_told_in_the_readers_language(stack, phone):
    """A phone whose browser sends no Referer at all is refused (Flask-WTF's strict check over HTTPS), in its own
    language, and nothing is stored."""
    base, db = stack["base"], stack["db"]
    page = phone(locale="da-DK")
    page.goto(f"{base}/new/german")
    page.fill("#player0", "Anna")
    page.fill("#player1", "Bo")
    page.evaluate(
        "() => { const m = document.createElement('meta'); m.name = 'referrer'; m.content = 'no-referrer';"
        " document.head.append(m); }"
    )
    before = rows(db, "SELECT count(*) FROM games")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.click("#start")
    assert answer.value.status == 400
    assert "Formularen er udløbet eller kom et andet sted fra" in page.inner_text("main")
    assert rows(db, "SELECT count(*) FROM games") == before


# However a path holding a secret is spelt (the app's own log redaction takes the same list: server/security.py), and a
# Referer that holds one.
SECRET = "Zq7notInTheLog7qZ"
SPELLINGS = [
    f"/g/abc/k/{SECRET}",
    f"/g/abc/k/{SECRET}?saved=1",
    f"/g/abc//k//{SECRET}",
    f"//g/abc/k/{SECRET}",
    f"/g/abc/K/{SECRET}",
    f"/g/abc/./k/./{SECRET}",
    f"/g/abc/%6B/{SECRET}",
    f"/g/abc/k%2F{SECRET}",
    f"/g/abc\\k\\{SECRET}",
    f"/c/club/k/{SECRET}",
    f"/d/abc/k/{SECRET}",
    f"/d/abc/t/1/{SECRET}",
    f"/d/abc/t/1/{SECRET}/live",
    f"/d/abc/t/1/./{SECRET}",
    f"/d/abc/T/1/{SECRET}",
    f"/g/abc?key={SECRET}",
    f"/d/abc?token={SECRET}",
    f"/c/club/login?next=/g/abc/k/{SECRET}",
    f"/c/club/login?next=%2Fg%2Fabc%2Fk%2F{SECRET}",
]


def test_the_pages_send_a_same_origin_referrer_and_the_access_log_keeps_no_secret(stack, phone):
    """Every edit link, table code and token the flows above used went through nginx, in a path or a Referer (this one
    opens an edit link itself), as did the odd spellings of such a path: none is in nginx's access log."""
    base, port = stack["base"], stack["tls"]
    page = phone()
    answer = page.goto(f"{base}/")
    assert answer.headers["referrer-policy"] == "same-origin"
    page.goto(f"{base}/new/german")
    page.fill("#player0", "Anna")
    page.fill("#player1", "Bo")
    page.click("#start")
    page.wait_for_selector(".standing")
    page.click("#show-edit-link")
    edit_link = page.get_attribute("#edit-link", "href")
    page.goto(edit_link)
    page.wait_for_selector("#enter-hand")
    with page.expect_request(lambda r: r.url.endswith("/hands/new")) as hand_form:
        page.click("#enter-hand")
    assert hand_form.value.headers["referer"].startswith(base + "/g/")  # the whole address, to this site
    unverified = ssl._create_unverified_context()
    for path in [*SPELLINGS, "/?lang=da"]:
        conn = http.client.HTTPSConnection("localhost", port, context=unverified, timeout=10)
        conn.request("GET", path, headers={"Referer": f"{base}/g/abc/k/{SECRET}"})
        conn.getresponse().read()
        conn.close()
    conn = http.client.HTTPConnection("127.0.0.1", stack["http"], timeout=10)  # the redirect to https logs too
    conn.request("GET", f"/g/abc/k/{SECRET}")
    assert conn.getresponse().status == 301
    conn.close()
    time.sleep(0.2)  # nginx writes each line as its request ends
    log = stack["access"].read_text()
    assert SECRET not in log
    assert edit_link.rsplit("/", 1)[1] not in log
    leaked = {m[1] for m in SECRET_IN_PATH.finditer(log)} - {"[redacted]"}
    assert not leaked, f"the access log holds {leaked}"
    assert log.count("[redacted]") >= len(SPELLINGS) + 1
    assert '"GET /?lang=da HTTP/1.1" 200' in log  # a path without a secret is logged as it was asked for
    assert "https://localhost" not in log, "the access log keeps the Referer"


@pytest.fixture(scope="module")
def make_run(tmp_path_factory):
    """`make run`'s server (python -m scorekeeper.server.serve: waitress, plain http, no proxy): its base URL."""
    with serving(tmp_path_factory.mktemp("make-run"), READS_PER_SECOND="null") as (base, _port):
        yield base


def test_over_plain_http_make_runs_server_takes_a_new_game_and_its_hands(make_run, browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    table = Table(page, make_run)
    table.start("german", ["Anna", "Bo"])
    table.hand("tricks-9", limit=3)
    table.hand("tricks-4", limit=3)
    status, game = call(f"{make_run}/api/games/{game_id(page)}")
    assert status == 200 and [h["input"]["tricks"] for h in game["hands"]] == [[9, 4], [4, 9]]
    context.close()


def test_a_tables_watching_phones_follow_its_hands_by_what_changed_through_nginx(stack, phone):
    """Issue 47 where a club hosts it: three phones of one table (one address, as a hall's) watch its protokoll over TLS
    through nginx with LIVE_TAGS while the scorer's phone enters hands through the JSON API; after each hand every
    watcher's page is the page a fresh load shows, put in place without a reload, and the changed polls are answered
    with what changed (drawn by the app for the first phone, given to the others by nginx from the kept answer)."""
    from variants import EXAMPLES

    scorer = phone()
    created = scorer.request.post(
        f"{stack['base']}/api/games", data={"variant": "danish", "players": list(EXAMPLES["danish"].PLAYERS)}
    )
    assert created.status == 201, created.text()
    game = created.json()
    watchers = []
    for _ in range(3):
        page = phone()
        page.clock.install()
        page.goto(f"{stack['base']}/g/{game['id']}")
        page.evaluate("() => { window.__sameDocument = 'yes'; }")
        watchers.append(page)
    answers: list[str] = []
    for page in watchers:
        page.on("response", lambda r: answers.append(r.text()) if r.url.endswith("/live") and r.status == 200 else 0)
    fresh = phone()
    for number, hand in enumerate(EXAMPLES["danish"].long_hands(3, 1), 1):
        counts = [page.evaluate("() => window.skLive.updates") for page in watchers]
        sent = scorer.request.post(
            f"{stack['base']}/api/games/{game['id']}/hands", data=hand, headers={"X-Edit-Key": game["edit_key"]}
        )
        assert sent.status == 201, sent.text()
        fresh.goto(f"{stack['base']}/g/{game['id']}")
        loaded = re.sub(r">\s+<", "><", fresh.locator("#live").inner_html())
        for page, count in zip(watchers, counts):
            page.clock.fast_forward(6_000)
            page.wait_for_function(f"() => window.skLive.updates > {count}", timeout=20_000)
            page.wait_for_function("() => !window.skLive.pending()", timeout=20_000)
            assert re.sub(r">\s+<", "><", page.locator("#live").inner_html()) == loaded, number
            assert page.evaluate("() => window.__sameDocument === 'yes'"), f"a phone reloaded after hand {number}"
    changed = [a for a in answers if a]
    assert changed and all("data-live-delta" in a for a in changed), [a[:200] for a in changed]
