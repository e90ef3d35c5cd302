"""Languages: Danish, Norwegian (bokmål), Swedish and English, chosen from the browser or a cookie."""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import flask_babel
from flask import request
from flask_babel import Babel, get_locale

from scorekeeper.core.messages import FIELD_MESSAGE, Choices, Msg
from scorekeeper.core.numbers import VULGAR

LANGUAGES = {"da": "Dansk", "nb": "Norsk", "sv": "Svenska", "en": "English"}
DEFAULT_TIME_ZONE = "Europe/Copenhagen"  # config TIME_ZONE's default (config.py)


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


def asked_language() -> str | None:
    """The request's ?lang= when it names a language we speak, else None: what a link carries on and a kept page is
    known by (a made-up value must neither miss a cache nor make a new entry in it)."""
    chosen = request.args.get("lang")
    return chosen if chosen in LANGUAGES else None


def language() -> str:
    """The page's language as LANGUAGES names it (da, nb, sv, en): the region left out."""
    locale = get_locale()
    return locale.language if locale else "en"


def html_lang() -> str:
    """The page's language as <html lang> writes it: da, en-GB."""
    return str(get_locale() or "en").replace("_", "-")


def init_app(app) -> None:
    app.config.setdefault("TIME_ZONE", DEFAULT_TIME_ZONE)
    ZoneInfo(app.config["TIME_ZONE"])  # a zone zoneinfo does not know stops the start, naming it
    # The times Flask-Babel formats (an edit's time) are TIME_ZONE's too.
    # A Babel of its own per app: Flask-Babel keeps the catalogues it read in its instance's domain, by language only,
    # so two apps in one process (the tests'; one with a variant package's catalogues) would share what the first read.
    Babel(app, locale_selector=select_locale, timezone_selector=lambda: str(time_zone()))
    app.jinja_env.globals.update(LANGUAGES=LANGUAGES, get_locale=get_locale, language=language, html_lang=html_lang)
    app.jinja_env.filters.update(money=money, number=number, day=day, rate=rate)


def time_zone() -> ZoneInfo:
    """The time zone the tables play in (config TIME_ZONE): a sheet's date is the day there, not in UTC."""
    from flask import current_app

    return ZoneInfo(current_app.config.get("TIME_ZONE") or DEFAULT_TIME_ZONE)


def local_day(moment: str | datetime) -> date:
    """The day a stored moment (an ISO stamp in UTC, as the rows keep them, or an aware datetime) was in TIME_ZONE:
    a game started at 23:30 UTC on 4 December was started on the 5th in Copenhagen."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(time_zone()).date()


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


# A card's fractions (RULES.md "Exact points"): the vulgar fraction where Unicode has one, else ¹⁵⁄₁₆.
VULGAR_FRACTIONS = {(top, bottom): glyph for glyph, (top, bottom) in VULGAR.items()}
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def point(value, *, signed: bool = False) -> str:
    """A point or a total as a card prints it: 12, −3, ¾, 2½, −10¾ (a real minus sign); `signed` puts a + before a
    gain (+¾). The one formatter of points on the pages, the sheets and the PDF (an int or a Fraction)."""
    sign = MINUS if value < 0 else ("+" if signed and value > 0 else "")
    size = -value if value < 0 else value
    if isinstance(size, int) or size.denominator == 1:
        return f"{sign}{int(size)}"
    units, part = divmod(size.numerator, size.denominator)
    glyph = VULGAR_FRACTIONS.get((part, size.denominator))
    if glyph is None:
        glyph = f"{str(part).translate(_SUPERSCRIPT)}\u2044{str(size.denominator).translate(_SUBSCRIPT)}"
    return f"{sign}{units or ''}{glyph}"


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


def amount(cents: int, whole: bool = False) -> str:
    """Whole cents as a text box shows an amount, as the reader writes it: 20,00 in Danish, 20.00 in English, no
    thousands separator (the form reads a comma or a point back as the decimal mark, parse_money); `whole`: a whole
    amount without decimals (20)."""
    from decimal import Decimal

    from flask_babel import format_decimal

    pattern = "0" if whole and cents % 100 == 0 else "0.00"
    return format_decimal(Decimal(cents).scaleb(-2), format=pattern)


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
