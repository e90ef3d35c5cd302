#!/usr/bin/env python3
"""The changed poll without the page (issue 47): the CPU of a watching phone's first poll after a hand, the one the
app answers per table and hand behind nginx, as it was (the whole protokoll drawn and cut into parts, those of the
page the phone showed remembered per worker, and the two diffed: scorekeeper/testing/page_parts.changes) and as it is (the new rows,
the standing, the chart … drawn from the scored game by the protokoll's own macros: games/pages/protokoll.py
`_delta`). A benchmark row, not a test.

Both in one process and one run, on the same database, interleaved poll by poll (a hand added to a game of each,
then each one's phone asks): "before" is this tree with the protokoll's template of BEFORE (`git show BEFORE:…`, its one
template then) and the route's old way in place of `_delta` (the page drawn as `_kept_protokoll` draws it, its parts
remembered as REMEMBERED did, the parts of the page the phone showed read from there); "after" is the route as it is.
For each: the CPU of the request in this process (time.process_time: the other processes on the machine do not
count, its caches and clock do), the median over the polls; the answer's bytes; whole pages among the answers; and
the memory the remembered parts held at the end (what each worker kept per table watched).

    .venv/bin/python bench/changed_poll.py [--hands 20 50] [--games 10] [--rounds 4]
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from html import unescape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from jinja2 import ChoiceLoader, DictLoader  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.games.pages import protokoll  # noqa: E402
from scorekeeper.testing import page_parts  # noqa: E402  (the old way's cutter and diff)
from scorekeeper.web import live, phone  # noqa: E402
from variants import EXAMPLES  # noqa: E402  (tests/variants: the hands bench/run.py plays)

TAG = re.compile(r'data-live-tag="([^"]+)"')
TEMPLATE = "games/protokoll.html"
BEFORE = "b334012"  # the last commit whose protokoll was answered the old way (its template drew the page whole)


class Remembered:
    """What each worker kept before issue 47: the parts of the pages it drew, by (game, tag)."""

    def __init__(self) -> None:
        self.kept: dict = {}

    def remember(self, game_id, tag, page):
        if (game_id, tag) not in self.kept:
            self.kept[(game_id, tag)] = (page_parts.parts_of(page), len(page))
        return self.kept[(game_id, tag)][0]

    def known(self, game_id, tag):
        found = self.kept.get((game_id, tag))
        return None if found is None else found[0]


REMEMBERED = Remembered()


def old_delta(game, club_table, asked: str, state: str) -> str | None:
    """The route's answer as it was (BEFORE's protokoll_live after its unchanged check, for a plain reader that takes
    parts): the page drawn, its parts remembered, diffed against the remembered parts of the phone's page."""
    page, _ = protokoll._kept_protokoll(game, state, phone.game_key(game.id))
    text = page.decode("utf-8") if isinstance(page, bytes) else page
    new = REMEMBERED.remember(game.id, state, page)
    old = REMEMBERED.known(game.id, asked)
    found, every = live.LIVE_URL.search(text), live.LIVE_EVERY.search(text)
    if found is None:
        return text
    answer = page_parts.changes(old, new, unescape(found.group(1)), state, every.group(1) if every else None)
    return answer if answer is not None else text


class Mode:
    """One way of answering: its own games, its phones, what they cost."""

    def __init__(self, name: str, app, loader, delta, games: int, hands: int, rounds: int):
        self.name, self.app, self.loader, self.delta = name, app, loader, delta
        self.cpu: list[float] = []
        self.sizes: list[int] = []
        self.pages = 0
        self.tables = []
        data = EXAMPLES["danish"].long_hands(hands + rounds, 1)
        self.later = data[hands:]
        with self.using():
            for _ in range(games):
                client = app.test_client()
                game = client.post("/api/games", json={"variant": "danish", "players": ["A", "B", "C", "D"]}).json
                key = {"X-Edit-Key": game["edit_key"]}
                for hand in data[:hands]:
                    assert client.post(f"/api/games/{game['id']}/hands", json=hand, headers=key).status_code == 201
                viewer = app.test_client()
                page = viewer.get(f"/g/{game['id']}").get_data(as_text=True)
                tag = TAG.search(page).group(1)
                if self.delta is old_delta:  # BEFORE's page route remembered the parts of the page it drew
                    REMEMBERED.remember(game["id"], tag, page)
                self.tables.append([game, key, client, viewer, tag])

    def using(self):
        app, loader, delta = self.app, self.loader, self.delta

        class Using:
            def __enter__(self):
                app.jinja_env.loader = loader
                protokoll._delta = delta

            def __exit__(self, *exc):
                return False

        return Using()

    def round(self, index: int, table: list) -> None:
        game, key, client, viewer, tag = table
        with self.using():
            assert client.post(f"/api/games/{game['id']}/hands", json=self.later[index], headers=key).status_code == 201
            started = time.process_time()
            r = viewer.get(f"/g/{game['id']}/live", headers={"X-Live-Tag": tag, "X-Live-Parts": "1"})
            self.cpu.append((time.process_time() - started) * 1000)
        assert r.status_code == 200 and r.data, r.status_code
        self.sizes.append(len(r.data))
        self.pages += b"data-live-delta" not in r.data[:100]
        table[4] = r.headers["ETag"].strip('"')


def run(hands: int, games: int, rounds: int) -> dict:
    folder = tempfile.mkdtemp(prefix="changed-poll-")
    app = create_app(
        {"DATABASE": os.path.join(folder, "bench.sqlite"), "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False}
    )
    logging.getLogger("scorekeeper.request").disabled = True
    head = subprocess.run(
        ["git", "show", f"{BEFORE}:templates/{TEMPLATE}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    now = app.jinja_env.loader
    then = ChoiceLoader([DictLoader({TEMPLATE: head}), now])
    REMEMBERED.kept.clear()
    real = protokoll._delta
    try:
        before = Mode("before", app, then, old_delta, games, hands, rounds)
        after = Mode("after", app, now, real, games, hands, rounds)
        for index in range(rounds):
            for b, a in zip(before.tables, after.tables):
                before.round(index, b)
                after.round(index, a)
    finally:
        app.jinja_env.loader, protokoll._delta = now, real
    remembered = sum(size for _parts, size in REMEMBERED.kept.values())
    return {
        "hands": hands,
        "polls": len(after.cpu),
        "before_ms": statistics.median(before.cpu),
        "after_ms": statistics.median(after.cpu),
        "before_kb": statistics.median(before.sizes) / 1000,
        "after_kb": statistics.median(after.sizes) / 1000,
        "before_pages": before.pages,
        "after_pages": after.pages,
        "remembered_kb": remembered / len(REMEMBERED.kept) / 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[20, 50])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}\n")
    print(
        "| hands in the game | polls | CPU per changed poll, before | after | after ÷ before | answer, before / after "
        "| whole pages, before / after | parts remembered per state, before |"
    )
    print("|---:|---:|---:|---:|---:|---|---|---:|")
    for hands in args.hands:
        r = run(hands, args.games, args.rounds)
        print(
            f"| {r['hands']} | {r['polls']} | {r['before_ms']:.2f} ms | {r['after_ms']:.2f} ms "
            f"| {r['after_ms'] / r['before_ms']:.2f} | {r['before_kb']:.1f} / {r['after_kb']:.1f} KB "
            f"| {r['before_pages']} / {r['after_pages']} | {r['remembered_kb']:.1f} KB |"
        )
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
