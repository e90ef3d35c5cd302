"""Live pages without reloads: the protokoll, a drive table's page and the hall screen answer a small conditional
request (`/live` with If-None-Match: 304 and a few hundred bytes when nothing changed, the fresh page when something
did), and the 50-hand protokoll stays under 30 KB. The browser half is tests/browser/test_live_browser.py."""

from __future__ import annotations

import pytest

from helpers import PLAYERS
from scorekeeper.services import games as service
from scorekeeper.web.db import get_db
from variants import EXAMPLES

PAGE_HANDS = 50
PAGE_BYTES = 30_000


def imported(app, variant: str, n: int, title: str = "Thursday at Bo's") -> tuple[str, str]:
    data = {
        "format": service.EXPORT_FORMAT,
        "variant": variant,
        "title": title,
        "players": list(PLAYERS[variant]),
        "dealer": 0,
        "options": dict(EXAMPLES[variant].LONG[0]),
        "hands": EXAMPLES[variant].long_hands(n, 1),
    }
    with app.app_context():
        return service.import_game(get_db(), data)


@pytest.mark.parametrize("editor", [False, True], ids=["read-only", "editor"])
def test_protokoll_of_fifty_hands_is_under_30_kb(app, editor):
    game_id, key = imported(app, "danish", PAGE_HANDS)
    client = app.test_client()
    if editor:
        client.get(f"/g/{game_id}/k/{key}")
    page = client.get(f"/g/{game_id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert html.count('class="hand') >= PAGE_HANDS and "<svg" in html  # every hand and the chart are there
    assert len(page.data) < PAGE_BYTES, len(page.data)
