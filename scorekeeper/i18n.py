"""Languages: Danish, Norwegian (bokmål), Swedish and English, chosen from the browser or a cookie."""
from __future__ import annotations

from flask import request
from flask_babel import Babel, get_locale

LANGUAGES = {"da": "Dansk", "nb": "Norsk", "sv": "Svenska", "en": "English"}
babel = Babel()


def select_locale() -> str:
    chosen = request.args.get("lang") or request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), "en")


def init_app(app) -> None:
    app.config.setdefault("BABEL_DEFAULT_TIMEZONE", "Europe/Copenhagen")
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.globals.update(LANGUAGES=LANGUAGES, get_locale=get_locale)
