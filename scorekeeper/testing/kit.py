"""The conformance kit: one suite every variant runs — the nine built-in ones (tests/integration/test_kit.py) and an
installed plug-in's own tests alike (examples/variant-package/tests/) — as pytest and Datasette hold their plug-ins
with tests they ship.

`check(app, name)` plays variant `name` through the app as the tables do and asks every page, paper, export and API
answer at each stage of a game (and of an installed package, its docs section and compiled catalogues): a deal in progress (its bids entered first, where the variant has BID_FIELDS), the
example game played, after an edit and after a delete (through the pages and the API), a finished game, in each
language the app speaks; the hand page's taps through the page and through the offline phone's path (the API taking the
page's fields); a new game started from its page. A variant that answers 500 anywhere — or raises, as a test app
(TESTING) lets an error through — fails the kit, with every such answer listed.

What it plays comes from the variant's example data (`example_of`): its package's own `examples.py`, else the data the
caller passes (the app's tests/variants/<name>/): PLAYERS, GAME ({"options", "hands"}, maybe "players"), FORM_HANDS
(its hand page's taps, for a game with the default options) and FINISHED (a game that ends; else the kit tries GAME
with its `deals` option set to its hands). No pytest here: plain functions that raise AssertionError, so a plug-in's
tests call them from any runner.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType
from typing import Any

from scorekeeper import create_app
from scorekeeper.core import PACKAGES, VARIANTS, InputError, make_setup, play
from scorekeeper.variants.views import package_folder
from scorekeeper.web.i18n import LANGUAGES

OK = (200,)


@dataclass(frozen=True)
class Example:
    """What the kit plays a variant with: its table (`players`), its example game, the taps of its hand page (for a
    game of `players` with the default options) and a game that ends."""

    players: list[str]
    game: dict[str, Any]
    form_hands: list[dict[str, str]] = field(default_factory=list)
    finished: dict[str, Any] | None = None


def example_of(name: str, data: ModuleType | None = None, finished: Mapping[str, Any] | None = None) -> Example:
    """Variant `name`'s example data: its package's own `examples.py` where it has one, else `data` (a module with
    PLAYERS, GAME and maybe FORM_HANDS, FINISHED); `finished` for a game that ends when the data has none."""
    module = package_examples(name) or data
    if module is None:
        raise AssertionError(f"variant {name!r} has no example data: give its package an examples.py")
    players = list(module.PLAYERS)
    game = dict(module.GAME)
    game.setdefault("players", players)
    game.setdefault("options", {})
    return Example(
        players=players,
        game=game,
        form_hands=list(getattr(module, "FORM_HANDS", [])),
        finished=dict(getattr(module, "FINISHED", None) or finished or {}) or None,
    )


def package_examples(name: str) -> ModuleType | None:
    """An installed variant's own example data (its package's `examples.py`), None when its package has none."""
    package = PACKAGES.get(name)
    if package is None:
        return None
    try:
        return importlib.import_module(f"{package}.examples")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.examples":
            raise
        return None


def make_app(folder: Path, **config: Any):
    """An app over a fresh SQLite file in `folder`, for a plug-in's own tests."""
    return create_app(
        {"TESTING": True, "DATABASE": str(Path(folder) / "kit.sqlite"), "SECRET_KEY": "kit", "GC_FREEZE": False}
        | config
    )


def check(app, name: str, example: Example | None = None, languages: Iterable[str] = tuple(LANGUAGES)) -> None:
    """Run the kit on variant `name`; raises AssertionError listing every answer that failed."""
    kit = Kit(app, name, example or example_of(name), tuple(languages))
    kit.run()
    if kit.problems:
        raise AssertionError(
            f"variant {name!r} fails the kit ({len(kit.problems)}):\n" + "\n".join(dict.fromkeys(kit.problems))
        )


def finishing(name: str, candidates: Iterable[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The first candidate game ({"players", "options", "hands"}) that ends, cut at the hand it ends with; None if
    none does. Scored by the core, no app: for a variant's data that says no finished game of its own."""
    for candidate in candidates:
        try:
            setup = make_setup(name, list(candidate["players"]), 0, dict(candidate.get("options") or {}))
        except InputError:
            continue
        hands: list = []
        for hand in candidate["hands"]:
            hands.append(hand)
            try:
                protokoll = play(setup, hands)
            except InputError:
                break
            if protokoll.finished:
                return {**candidate, "hands": list(hands)}
    return None


class Kit:
    """One run of the kit over one variant: a test client, and the problems found."""

    def __init__(self, app, name: str, example: Example, languages: tuple[str, ...]):
        self.app, self.name, self.example, self.languages = app, name, example, languages
        self.rules = VARIANTS[name]
        self.client = app.test_client()
        self.problems: list[str] = []
        self.stage = "no game yet"

    # ------------------------------------------------------------ asking

    def _said(self, method: str, url: str, status: int | None, note: str = "") -> None:
        shown = re.sub(r"/(g|api/games)/[\w-]{6,}", r"/\1/<id>", url)
        what = f"raised {note}" if status is None else f"answered {status}{note}"
        self.problems.append(f"{self.stage}: {method} {shown}: {what}")

    def ask(self, method: str, url: str, expect: tuple[int, ...] = OK, **kw) -> Any:
        """A request through the test client: an answer of 500 or more, one not in `expect`, or an error raised
        through it is a problem. Answers the response, its body read (None when it raised)."""
        try:
            r = self.client.open(url, method=method, **kw)
        except Exception as exc:  # a test app lets the view's error through: that is the 500 the kit looks for
            self._said(method, url, None, f"{type(exc).__name__}: {exc}")
            return None
        r.get_data()
        r.close()
        if r.status_code >= 500 or r.status_code not in expect:
            self._said(method, url, r.status_code, f" (expected {', '.join(map(str, expect))})")
        return r

    def get(self, url: str, expect: tuple[int, ...] = OK):
        return self.ask("GET", url, expect)

    def api(self, method: str, url: str, game: dict, body: Any = None, expect: tuple[int, ...] = (200, 201), **headers):
        r = self.ask(method, url, expect, json=body, headers={"X-Edit-Key": game["edit_key"], **headers})
        return r.json if r is not None and r.is_json else None

    def form(self, url: str, taps: Mapping[str, str], expect: tuple[int, ...] = (302,)):
        """A page's first posting form as a browser sends it, with `taps` over it."""
        page = self.get(url)
        if page is None or page.status_code != 200:
            return None
        return self.ask("POST", url, expect, data={**form_data(page.get_data(as_text=True)), **taps})

    # ------------------------------------------------------------ the game

    def create(self, game: Mapping[str, Any]) -> dict | None:
        body = {"variant": self.name, "players": list(game["players"]), "options": dict(game.get("options") or {})}
        made = self.ask("POST", "/api/games", (201,), json=body)
        if made is None or made.status_code != 201:
            return None
        answer = made.json
        self.get(f"/g/{answer['id']}/k/{answer['edit_key']}", (302,))  # this phone may edit it, as a table's would
        return answer

    def play(self, game: dict, hands: Iterable[Any]) -> None:
        for hand in hands:
            self.api("POST", f"/api/games/{game['id']}/hands", game, hand, (201,))

    def state(self, game: dict) -> dict:
        r = self.get(f"/api/games/{game['id']}")
        return r.json if r is not None and r.status_code == 200 else {}

    # ------------------------------------------------------------ the surfaces

    def surfaces(self, game: dict, stage: str, languages: tuple[str, ...], papers: bool) -> None:
        """Every page, paper, export and API answer of the game as it stands, in each of `languages`."""
        self.stage, gid = stage, game["id"]
        now = self.state(game)
        finished, hands = bool(now.get("finished")), len(now.get("hands") or [])
        bids = "open_deal" in now
        for lang in languages:
            q = f"?lang={lang}"
            for url in (
                f"/g/{gid}",
                f"/g/{gid}/live",
                f"/g/{gid}/print",
                f"/g/{gid}/blank",
                f"/g/{gid}/hands.csv",
                f"/g/{gid}/game.json",
                f"/g/{gid}/qr.svg",
                f"/api/games/{gid}",
                f"/api/games/{gid}/log",
                f"/api/games/{gid}/export",
            ):
                self.get(url + q)
            self.get(f"/api/games/{gid}/bids{q}", (200,) if bids else (404,))
            self.get(f"/api/games/{gid}/settlement{q}", (200, 404))
            self.get(f"/g/{gid}/hands/new{q}", (302,) if finished else OK)
            if self.rules.BID_FIELDS:
                self.get(f"/g/{gid}/bids{q}", (302,) if finished else OK)
            if hands:
                self.get(f"/g/{gid}/hands/1{q}")
                self.get(f"/g/{gid}/hands/{hands}/delete{q}")
            if papers:
                self.get(f"/g/{gid}/hands.xlsx{q}")
                self.get(f"/g/{gid}/sheet.pdf{q}")
                self.get(f"/g/{gid}/blank.pdf{q}")

    def pages_without_a_game(self) -> None:
        for lang in self.languages:
            q = f"?lang={lang}"
            for url in ("/", "/new", f"/new/{self.name}", "/blank/", f"/blank/{self.name}", f"/blank/{self.name}/form"):
                self.get(url + q)
        self.get(f"/blank/{self.name}.pdf")

    # ------------------------------------------------------------ the run

    def package(self) -> None:
        """The package's own docs section (`rules.md`: its heading, each option) and compiled catalogues: a built-in
        variant's and an installed one's alike (docs/rules.md links the built-ins')."""
        folder = package_folder(self.name)
        docs = folder / "rules.md"
        text = docs.read_text(encoding="utf-8") if docs.is_file() else ""
        section = text.split(f"### {self.name} — ", 1)
        if len(section) != 2:
            self.problems.append(f"its package has no docs section: rules.md with '### {self.name} — <title>'")
        else:
            body = section[1].split("\n### ", 1)[0]
            lacking = [name for name in self.rules.OPTIONS if f"`{name}`" not in body]
            if lacking:
                self.problems.append(f"rules.md does not name the options {', '.join(lacking)}")
        for po in sorted((folder / "translations").glob("*/LC_MESSAGES/*.po")):
            if not po.with_suffix(".mo").is_file():
                self.problems.append(f"translations/{po.parent.parent.name} is not compiled: pybabel compile")

    def run(self) -> None:
        self.package()
        self.pages_without_a_game()
        example = self.example
        self.stage = "the example game"
        game = self.create(example.game)
        if game is None:
            return
        hands = list(example.game["hands"])
        first = self.deal_in_progress(game, hands)
        self.play(game, hands[first:])
        self.surfaces(game, "played", ("en",), papers=True)
        self.edit(game, hands)
        self.surfaces(game, "edited", self.languages, papers=False)
        self.delete(game)
        self.surfaces(game, "deleted", self.languages, papers=False)
        self.finish(game)
        self.form_hands()

    def deal_in_progress(self, game: dict, hands: list) -> int:
        """Its bids entered first (the first hand of the example whose bids come before its play), then every surface
        with the deal in progress; answers how many of the example's hands were played."""
        fields = self.rules.BID_FIELDS
        self.stage = "bids first"
        if not fields:
            return 0
        at = next((i for i, h in enumerate(hands) if _bids_and_play(h, fields)), None)
        if at is None:
            self.problems.append("the example game has no hand whose bids come before its play (BID_FIELDS)")
            return 0
        self.play(game, hands[:at])
        bids = {k: v for k, v in hands[at].items() if k in fields}
        self.api("PUT", f"/api/games/{game['id']}/bids", game, bids, (201,))
        self.surfaces(game, "a deal in progress", self.languages, papers=True)
        return at

    def edit(self, game: dict, hands: list) -> None:
        """A played hand edited through its page (its form as data_from fills it, sent back) and the API."""
        self.stage = "editing"
        played = next((i + 1 for i, h in enumerate(hands) if isinstance(h, Mapping) and not h.get("passed")), None)
        if played is None:
            return
        self.form(f"/g/{game['id']}/hands/{played}", {})
        self.api("PUT", f"/api/games/{game['id']}/hands/{played}", game, hands[played - 1], (200,))

    def delete(self, game: dict) -> None:
        """The last hand deleted through its page, then the one before it through the API."""
        count = len(self.state(game).get("hands") or [])
        self.stage = "deleting"
        if count:
            self.form(f"/g/{game['id']}/hands/{count}/delete", {})
        if count > 1:
            self.api("DELETE", f"/api/games/{game['id']}/hands/{count - 1}", game, None, (200,))

    def finish(self, game: dict) -> None:
        """A finished game: the example's own, else the example game with its `deals` option set to its hands."""
        example = self.example
        self.stage = "finishing"
        ending = example.finished
        if ending is None and "deals" in self.rules.OPTIONS:
            game_data = example.game
            ending = finishing(
                self.name, [{**game_data, "options": {**game_data["options"], "deals": len(game_data["hands"])}}]
            )
        if ending is None:
            self.problems.append("no finished game: give the example data FINISHED, a game that ends")
            return
        ending = {"players": example.game["players"], "options": {}, **ending}
        done = self.create(ending)
        if done is None:
            return
        self.play(done, ending["hands"])
        if not self.state(done).get("finished"):
            self.problems.append("FINISHED: the game did not end with its hands")
        self.surfaces(done, "finished", self.languages, papers=True)

    def form_hands(self) -> None:
        """A game started from the new-game page, its hands tapped on the hand page; the same taps sent as the
        offline phone sends them (the page's fields to the API) to a second game store the same hands."""
        taps = self.example.form_hands
        self.stage = "tapping"
        if not taps:
            self.problems.append("the example data has no FORM_HANDS: its hand page's taps")
            return
        new = self.get(f"/new/{self.name}")
        if new is None or new.status_code != 200:
            return
        data = {**form_data(new.get_data(as_text=True)), "dealer": "0"}
        data.update({f"player{i}": name for i, name in enumerate(self.example.players)})
        started = self.ask("POST", f"/new/{self.name}", (302,), data=data)
        if started is None or started.status_code != 302:
            return
        paged = started.headers["Location"].rsplit("/", 1)[-1]
        for hand in taps:
            self.form(f"/g/{paged}/hands/new", hand)
        offline = self.create({"players": self.example.players, "options": {}})
        if offline is None:
            return
        for k, hand in enumerate(taps):
            self.api(
                "POST",
                f"/api/games/{offline['id']}/hands",
                offline,
                {"form": hand},
                (201,),
                **{"Idempotency-Key": f"form:kit-{k}", "X-Hand-Number": str(k + 1)},
            )
        by_page = [h["input"] for h in self.state({"id": paged}).get("hands", [])]
        by_phone = [h["input"] for h in self.state(offline).get("hands", [])]
        if by_page != by_phone or len(by_page) != len(taps):
            self.problems.append(f"the hand page stored {by_page}, the offline phone's path {by_phone}")
        self.surfaces({"id": paged}, "tapped", ("en",), papers=False)


def _bids_and_play(hand: Any, fields: tuple[str, ...]) -> bool:
    """A hand entered in two steps: some of its bid fields, and more (its play) besides; not a one-tap hand."""
    if not isinstance(hand, Mapping) or hand.get("passed"):
        return False
    return any(k in fields for k in hand) and any(k not in fields for k in hand)


class _FormReader(HTMLParser):
    """What a browser sends for the first form on a page that posts: text and hidden inputs as they stand, checked
    boxes and radios, each select's selected (else first) option, textareas' text; no button."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.data: list[tuple[str, str]] = []
        self.inside = self.done = False
        self.select: str | None = None
        self.textarea: str | None = None
        self.options: list[tuple[str, bool]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and not self.done and (a.get("method") or "get").lower() == "post":
            self.inside = True
        if not self.inside:
            return
        name = a.get("name")
        if tag == "input" and name and "disabled" not in a:
            kind = (a.get("type") or "text").lower()
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.data.append((name, a.get("value", "on")))  # as a browser: value="" sends "", none "on"
            elif kind not in ("submit", "button", "image", "reset", "file"):
                self.data.append((name, a.get("value", "")))
        elif tag == "select" and name:
            self.select, self.options = name, []
        elif tag == "option" and self.select:
            self.options.append((a.get("value", ""), "selected" in a))
        elif tag == "textarea" and name:
            self.textarea, self.text = name, []

    def handle_data(self, data: str) -> None:
        if self.textarea:
            self.text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.inside:
            self.inside, self.done = False, True
        elif tag == "select" and self.select:
            chosen = [v for v, selected in self.options if selected] or [v for v, _ in self.options[:1]]
            self.data += [(self.select, v) for v in chosen[:1]]
            self.select = None
        elif tag == "textarea" and self.textarea:
            self.data.append((self.textarea, "".join(self.text).removeprefix("\n")))
            self.textarea = None


def form_data(html: str) -> dict[str, str]:
    """The first posting form of a page as a browser would send it untouched (a default-on checkbox included); the
    app's tests read their forms with it too (tests/helpers.py)."""
    reader = _FormReader()
    reader.feed(html)
    return dict(reader.data)
