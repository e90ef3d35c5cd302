"""Languages: Danish, Norwegian (bokmål), Swedish and English, chosen from the browser or a cookie."""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar

import flask_babel
from flask import request
from flask_babel import Babel, get_locale

from scorekeeper.core.messages import FIELD_MESSAGE, Choices, Msg

LANGUAGES = {"da": "Dansk", "nb": "Norsk", "sv": "Svenska", "en": "English"}
babel = Babel()


ALIASES = {"no": "nb", "nn": "nb", "nb": "nb", "da": "da", "sv": "sv", "en": "en"}


def select_locale() -> str:
    """The language chosen on the page (cookie), else the browser's first one we speak; Norwegian in any form is bokmål.

    English takes the region the browser asks for (en-GB: 30/11/2026, 23:14), so that dates and numbers are its own."""
    from flask import g

    chosen = request.args.get("lang")
    if chosen in LANGUAGES:
        return _regional(chosen)
    if g.get("sheet_language") in LANGUAGES:
        return _regional(g.sheet_language)
    chosen = request.cookies.get("lang")
    if chosen in LANGUAGES:
        return _regional(chosen)
    for value, _quality in request.accept_languages:
        code = ALIASES.get(value.lower().replace("_", "-").split("-")[0])
        if code:
            return _regional(code)
    return "en"


def _regional(code: str) -> str:
    """English as the browser's region writes it (en_GB, en_AU …) when it asks for one Babel knows; else `code`."""
    if code != "en":
        return code
    from babel import localedata

    for value, _quality in request.accept_languages:
        parts = value.replace("_", "-").split("-")
        if parts[0].lower() == "en" and len(parts) > 1 and len(parts[1]) == 2:
            regional = f"en_{parts[1].upper()}"
            if localedata.exists(regional):
                return regional
    return code


def language() -> str:
    """The page's language as LANGUAGES names it (da, nb, sv, en): the region left out."""
    return get_locale().language if get_locale() else "en"


def html_lang() -> str:
    """The page's language as <html lang> writes it: da, en-GB."""
    return str(get_locale() or "en").replace("_", "-")


def init_app(app) -> None:
    app.config.setdefault("BABEL_DEFAULT_TIMEZONE", "Europe/Copenhagen")
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.globals.update(LANGUAGES=LANGUAGES, get_locale=get_locale, language=language, html_lang=html_lang)
    app.jinja_env.filters.update(money=money, number=number, day=day, rate=rate)


def say(message, with_field=None, choice_words=None) -> str:
    """A message in the request's language: a scorer's Msg by its template and values, nested ones too; a
    "field: message" Msg goes to `with_field(field, message)` when given (web/messages.py names the field in words),
    else its field is left as the API spells it; the Choices it lists go to `choice_words(choices)` when given."""
    if isinstance(message, Msg) and message.template == FIELD_MESSAGE and with_field is not None:
        return with_field(message.values["field"], message.values["message"])
    if isinstance(message, Msg):
        values = {
            k: "; ".join(say(x, with_field, choice_words) for x in v)
            if isinstance(v, (list, tuple))
            else say(v, with_field, choice_words)
            if isinstance(v, Msg)
            else choice_words(v)
            if isinstance(v, Choices) and choice_words is not None
            else v
            for k, v in message.values.items()
        }
        return gettext(message.template, **values) if values else gettext(message.template)
    if isinstance(message, str):
        return message
    return str(message)


# ---------------------------------------------------------------- many words, one catalogue

_catalogue: ContextVar = ContextVar("catalogue", default=None)


@contextmanager
def one_catalogue():
    """Translate many words with the request's catalogue looked up once.

    flask_babel looks it up again on every call (about 10 µs): most of the time of a 1,000-hand protokoll.
    """
    token = _catalogue.set(flask_babel.get_translations())
    try:
        yield
    finally:
        _catalogue.reset(token)


_wtforms: dict[str, object] = {}


def wtforms_translations():
    """WTForms' own messages ("Not a valid choice") in the request's language: each catalogue read once per process.

    Flask-WTF reads the catalogue file again on every request that makes a form (about 0.25 ms, the slowest part of
    a hand entered by the form)."""
    from babel.support import Translations
    from wtforms.i18n import messages_path

    locale = str(get_locale())
    found = _wtforms.get(locale)
    if found is None:
        found = _wtforms[locale] = Translations.load(messages_path(), [locale], domain="wtforms")
    return found


def gettext(string: str, **variables) -> str:
    """flask_babel's gettext; cheap inside one_catalogue()."""
    catalogue = _catalogue.get()
    if catalogue is None:
        return flask_babel.gettext(string, **variables)
    text = catalogue.ugettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables) -> str:
    """flask_babel's ngettext; cheap inside one_catalogue()."""
    catalogue = _catalogue.get()
    if catalogue is None:
        return flask_babel.ngettext(singular, plural, num, **variables)
    variables.setdefault("num", num)
    return catalogue.ungettext(singular, plural, num) % variables


MINUS = "\u2212"  # the one minus sign of points and money on a page (CSV files keep "-")


def money(cents: int, currency: str | None = None, *, signed: bool = False) -> str:
    """Whole cents as the reader's language writes money: with its currency 1.234,50 kr. in Danish, without it 1.234,50
    (two decimals); `signed` puts a + before a gain; a loss has a real minus sign, as points have.

    The one money formatter (the `money` filter): pages and PDFs get integer cents and show them through it."""
    from decimal import Decimal

    from flask_babel import format_currency, format_decimal

    value = Decimal(cents).scaleb(-2)
    if currency:
        # English writes the code straight onto the number (DKK28.50): give it a no-break space.
        text = re.sub(r"^(-?[A-Z]{3})(?=\d)", "\\1\xa0", format_currency(value, currency))
    else:
        text = format_decimal(value, format="#,##0.00")
        text = "+" + text if signed and cents > 0 else text
    return text.replace("-", MINUS) if cents < 0 else text


def rate(value, currency: str | None = None) -> str:
    """Money per point as the reader's language writes an amount, with as many decimals as it has: 0,05 kr. in Danish,
    DKK 0.05 in English, 0,025 kr. Without a currency just the number (a text box's value)."""
    from decimal import Decimal, InvalidOperation

    from babel import numbers

    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    locale = get_locale() or "en"
    if not currency:
        return numbers.format_decimal(amount, format="0.00##", locale=locale, decimal_quantization=False)
    text = numbers.format_currency(amount, currency, locale=locale, decimal_quantization=False)
    return re.sub(r"^(-?[A-Z]{3})(?=\d)", "\\1\xa0", text)


def signed_number(value) -> str:
    """A decimal such as an average with its sign and the locale's separators: +270, −12,5."""
    from decimal import Decimal

    from flask_babel import format_decimal

    text = format_decimal(Decimal(str(value)), format="#,##0.#")
    if value > 0:
        return "+" + text
    return text.replace("-", MINUS)


def number(value) -> str:
    """A rate or other decimal (0.05, "0.05") in the reader's number format: 0,05 in Danish."""
    from decimal import Decimal, InvalidOperation

    from flask_babel import format_decimal

    try:
        return format_decimal(Decimal(str(value)))
    except InvalidOperation:
        return str(value)


def day(value) -> str:
    """An ISO date (2026-03-05) as the reader's language writes it: 5. mar. 2026 in Danish."""
    from datetime import date

    from flask_babel import format_date

    try:
        return format_date(date.fromisoformat(str(value)[:10]), "medium")
    except ValueError:
        return str(value)
