"""The installable app: the web app manifest, the service worker at /sw.js, and the words the offline script shows.

The service worker comes from the app's own origin (scope /) and loads nothing from elsewhere; its cache is named
after a hash of the static files, so a changed script or stylesheet replaces the cached copies. The words the script
shows are rendered into each page from the catalogues (templates/_offline.html), never written in English in the JS.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app, url_for
from flask_babel import get_translations
from werkzeug.datastructures import MultiDict

from scorekeeper.core import VARIANTS, InputError, game_context
from scorekeeper.core.messages import Msg
from scorekeeper.variants.views import VIEWS, static_folders
from scorekeeper.web.i18n import gettext as _

bp = Blueprint("offline", __name__)

THEME = "#0b6e4f"  # app.css --accent
BACKGROUND = "#f6f7f4"  # app.css --bg
# Copied into the service worker's cache when it installs: what every page needs, and the icons; precache() adds
# the variants' own files.
PRECACHE = ("app.css", "app.js", "queue.js", "offline.js", "live.js", "icons/icon-192.png")


def precache() -> list[str]:
    """The static files the installed app keeps: the shared ones and each variant's own stylesheet and script."""
    own = [f for view in VIEWS.values() for f in (view.STYLESHEET, view.SCRIPT) if f]
    return list(PRECACHE) + list(dict.fromkeys(own))


@cache
def _version(*folders: Path) -> str:
    """A hash of the static files (the app's and the variants'): a new one makes a new service worker and a fresh
    cache."""
    digest = hashlib.sha256()
    for static in folders:
        for path in sorted(Path(static).rglob("*")):
            if path.is_file():
                digest.update(path.relative_to(static).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@bp.get("/sw.js")
def service_worker():
    static = current_app.static_folder
    assert static is not None  # the app is made with scorekeeper/static
    version = _version(Path(static), *static_folders())
    source = (Path(static) / "sw.js").read_text(encoding="utf-8")
    source = source.replace('"__VERSION__"', json.dumps(version)).replace(
        '"__PRECACHE__"', json.dumps([url_for("static", filename=name) for name in precache()])
    )
    # Browsers check for a new worker on navigation; no-cache makes them ask the server each time.
    return Response(
        source,
        mimetype="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@bp.get("/manifest.webmanifest")
def manifest():
    body = {
        "name": "scorekeeper",
        "short_name": "scorekeeper",
        "description": _("Keep score at the card table"),
        "start_url": url_for("games.home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": url_for("static", filename="icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": url_for("static", filename="icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": url_for("static", filename="icons/maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    return Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")


def words() -> dict[str, str]:
    """What the offline script may show, in the page's language; %(n)d and %(num)d are filled in by the script."""
    catalogue = get_translations()
    return {
        "hand": _("Hand %(n)d"),
        "enter": _("Enter hand %(n)d"),
        "waiting": _("waiting to be sent — no points yet"),
        "kept": _("No network: hand %(n)d is kept on this phone and is sent when the network is back."),
        "server_full": _(
            "The server's storage is full: hand %(n)d was not saved there. It is kept on this phone and is sent when "
            "the server can take it."
        ),
        "server_down": _(
            "The server could not save hand %(n)d just now. It is kept on this phone and is sent when the server "
            "answers again."
        ),
        "waiting_one": catalogue.ungettext("%(num)d hand waiting to be sent", "%(num)d hands waiting to be sent", 1),
        "waiting_other": catalogue.ungettext("%(num)d hand waiting to be sent", "%(num)d hands waiting to be sent", 2),
        "conflict": _("Hand %(n)d was entered on another phone meanwhile. Your hand is kept here:"),
        "refused": _("Hand %(n)d was not accepted:"),
        "held": _("Hand %(n)d waits for the hand before it. Your hand is kept here:"),
        "forbidden": _(
            "Hand %(n)d was not sent: this phone may no longer change this game. Open the game's edit link on this "
            "phone to enter it again. Your hand is kept here:"
        ),
        "deleted": _(
            "Hand %(n)d was saved, then deleted on another phone. It was not saved again, and is not sent again:"
        ),
        "seen": _("OK"),
        "next": _("Enter it as the next hand"),
        "drop": _("Drop it"),
        "drop_confirm": _("Drop this hand for good? It was never saved."),
        "edit_offline": _(
            "No network: nothing was saved. Your taps are kept here; save again when the network is back."
        ),
        "restored": _("The taps you had entered are back."),
        "bids": _("Bids of hand %(n)d"),
        "bids_kept": _(
            "No network: the bids of hand %(n)d are kept on this phone and are sent when the network is back."
        ),
    }


def posted_hand(scored_game, fields: dict) -> dict:
    """The scorer's input from a hand entry page's fields as a phone kept them offline ({"bid": "9-gode", …}): read
    by the variant's own hand form, exactly as the page's POST would be."""
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in fields.items()):
        raise InputError({"form": Msg("must map field names to text")})
    view = VIEWS[scored_game.game.variant]
    p = scored_game.protokoll
    ctx = game_context(VARIANTS[scored_game.game.variant], p, len(p.hands) + 1)  # a kept hand is sent as the next one
    formdata = MultiDict(fields)
    form = view.HandForm(formdata=formdata)
    form.total = view.tricks_total(ctx)
    return form.submitted(formdata, ctx)


def init_app(app) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals["offline_words"] = words


def posted_bids(scored_game, fields: dict) -> dict:
    """The bids of the next deal from the bids page's fields as a phone kept them: read by the variant's own hand form
    (the bids page is the hand page without the tricks), exactly as the page's POST would be."""
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in fields.items()):
        raise InputError({"form": Msg("must map field names to text")})
    view, rules = VIEWS[scored_game.game.variant], VARIANTS[scored_game.game.variant]
    p = scored_game.protokoll
    ctx = game_context(rules, p, len(p.hands) + 1)
    form = view.HandForm(formdata=MultiDict(fields))
    form.total = view.tricks_total(ctx)
    return form.bids_input(ctx, rules.BID_FIELDS)
