"""Live pages without reloads: the protokoll, a drive table's page and the hall screen carry their state's tag
(data-live-tag) and the address of their light twin (`…/live`, data-live-url); static/live.js asks it every SECONDS
with If-None-Match. The twin reads only the rows the page is known by (no replay, no template): `304` with the tag
when nothing changed, otherwise the page itself, fresh, whose parts that show state the script puts in place.
Without JavaScript the pages keep their <noscript> meta refresh."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable

from flask import Response, current_app, request
from flask_babel import get_locale

from scorekeeper.games.sheets import kept_state
from scorekeeper.server import live_door

TAG_HEADER = "X-Live-Tag"  # live.js's question: the tag its page shows
# After the tag, live.js's mark on a page drawn for a reader once its browser has drawn an editor's page of the game
# (the phone may have taken the edit key since): deploy/nginx.conf's map takes only a bare tag, so the app answers it,
# as the phone now is, never nginx with a reader's answer (issue 43).
KEYED = "+key"
PARTS_HEADER = "X-Live-Parts"  # and that it takes what changed rather than the page (web/live_parts.py)
LIVE_URL = re.compile(r'data-live-url="([^"]+)"')
LIVE_EVERY = re.compile(r'data-live-every="([^"]+)"')
SECONDS = 5  # between two questions of a watching phone (the script doubles it after each error, up to a minute)
# A finished game's phones go on asking, more slowly: a deleted or edited last hand brings the game back (issue 43).
FINISHED_SECONDS = 30


def tag(parts: list) -> str:
    """The tag of what a page shows: its rows' versions and the rest it prints (`parts`, JSON; anything else as its
    text), the reader's language, the address it is read at, the time zone and the build. Asked every few seconds by
    every watching phone, so one small digest (the build's, kept_state's, is worked out once per app)."""
    return _digest(_text(parts))


def _text(parts: list) -> str:
    build = current_app.extensions.get("live.build")
    if build is None:
        build = current_app.extensions["live.build"] = kept_state([])
    return json.dumps([parts, str(get_locale()), request.host_url, build], default=str, separators=(",", ":"))


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


# Where `tags_with` puts the numbers it is given: one item of a list in `parts` (a character no name holds).
NUMBERS = "\x00"


def tags_with(parts: list) -> Callable[..., str] | None:
    """`tag` of `parts` for numbers given later in the place of its one NUMBERS item: `tags_with(parts)(3, 1)` is the
    tag of `parts` with the items 3 and 1 where NUMBERS stands, for the many states a phone's old tag may be of (the
    game's versions before a hand: games/pages/protokoll.py), a digest each without the JSON made anew. None if
    NUMBERS is not there once."""
    before, *after = _text(parts).split(json.dumps(NUMBERS))
    if len(after) != 1:
        return None
    return lambda *numbers: _digest(before + ",".join(str(int(n)) for n in numbers) + after[0])


def shown(value: str | None) -> str | None:
    """The tag a phone's page shows, from its X-Live-Tag (quotes and the KEYED mark taken off); None if it says none."""
    if value is None:
        return None
    value = value.strip()
    return (value[: -len(KEYED)] if value.endswith(KEYED) else value).strip('"')


def unchanged(state: str, scope: tuple[str, str] | None = None) -> Response | None:
    """The answer "nothing changed" if the asking page already shows `state` (`scope` names the page whose rows it is
    made of: server/live_door.py). live.js says its tag in X-Live-Tag and gets `200` with no body and Content-Length 0,
    a few hundred bytes of headers on a connection kept open (waitress closes it after every `304`, which has no
    Content-Length); an If-None-Match gets the `304` HTTP means by it."""
    asked = shown(request.headers.get(TAG_HEADER))
    if asked is not None:
        if asked != state:
            return None
        response = Response(b"", 200, headers={"Cache-Control": "no-store"})
    elif request.if_none_match.contains(state):
        response = Response(status=304, headers={"Cache-Control": "no-store"})
    else:
        return None
    live_door.mark(request.environ, scope)  # this answer is the request's and those rows' only: the door may repeat it
    response.set_etag(state)
    return response


def fresh(page: str, state: str, status: int = 200) -> Response:
    """The page as it is now, tagged with its state (the tag the page itself carries)."""
    response = Response(page, status, headers={"Cache-Control": "no-store"}, mimetype="text/html")
    response.set_etag(state)
    return response
