"""Security headers on every response, and edit keys and table tokens kept out of the logs."""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote

from flask import current_app
from flask.sessions import SecureCookieSessionInterface

from scorekeeper.server import proxy

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    # The full address as referrer to this site only, never to another (the edit link never leaks): Flask-WTF's CSRF
    # check over HTTPS (WTF_CSRF_SSL_STRICT) refuses a form posted without a Referer from this very host.
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
# The secrets that travel in a path: the edit pages' keys, /g/<id>/k/<key> and /d/<id>/k/<key>, and the drive tables'
# tokens, /d/<id>/t/<table>/<token>. A log line must keep none of them, however the path was spelt: with doubled
# slashes or backslashes (/g/<id>//k/<key>, /g/<id>/k//<key>), in another case (/g/<id>/K/<key>), percent-encoded
# (%6B, %2F), with "." segments, inside a query string (?next=%2Fg%2F…%2Fk%2F…), or with its head taken for a host
# (//g/<id>/k/<key> read as http://g/<id>/k/<key>). So whatever follows a "k" segment, or a "t" segment and the one
# after it, is a secret: no other route has such segments.
_SEP = r"[/\\]+(?:\.[/\\]+)*"
_PART = r"[^/\\\s?#&;\"'<>]+"
SECRET_PATHS = (
    re.compile(rf"(?i)([/\\]k{_SEP}){_PART}"),
    re.compile(rf"(?i)([/\\]t{_SEP}{_PART}{_SEP}){_PART}"),
)
# Query parameters that would carry a key or token under their own name.
SECRET_PARAMS = re.compile(r"(?i)([?&;](?:key|edit_key|token|k)=)[^&;#\s\"'<>]+")
# A path and its query string in a log line: from a slash up to a space, a quote or an angle bracket.
_URLISH = re.compile(r"[/\\][^\s\"'<>]*")
LOGGERS = ("werkzeug", "gunicorn.access", "gunicorn.error", "waitress", "scorekeeper")
REDACTED = "[redacted]"


def _unquoted(text: str) -> str:
    """Percent-decoded until nothing changes (a relay may have encoded it twice), at most three times."""
    for _ in range(3):
        decoded = unquote(text)
        if decoded == text:
            break
        text = decoded
    return text


def _redact_url(match: re.Match) -> str:
    raw = match.group()
    decoded = _unquoted(raw) if "%" in raw else raw
    clean = decoded
    for pattern in SECRET_PATHS:
        clean = pattern.sub(rf"\g<1>{REDACTED}", clean)
    clean = SECRET_PARAMS.sub(rf"\g<1>{REDACTED}", clean)
    return raw if clean == decoded else clean  # a path with nothing secret stays as it was written


# What any secret above needs somewhere in the text: a "k" or "t" segment between slashes, a backslash, a percent
# sign, or a query's separator. Without one there is nothing to redact (every request's log line asks, twice: the
# line's own path and the handlers' filter), which one scan tells (tests/integration/test_log_redaction.py holds it
# equal to the full redaction).
_MAY_HOLD_SECRET = re.compile(r"(?i)[\\%?&;]|/[kt]/")


def redact(text: str) -> str:
    """The text with every edit key and table token in a path or query replaced by [redacted] (such a path is shown
    percent-decoded)."""
    if not _MAY_HOLD_SECRET.search(text):
        return text
    return redact_fully(text)


def redact_fully(text: str) -> str:
    """redact() without its quick look first."""
    return _URLISH.sub(_redact_url, text)


class RedactEditKeys(logging.Filter):
    """Rewrites a log record whose message carries a secret path (an edit page, a drive table's page)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


def _add_filter(target) -> None:
    if not any(isinstance(f, RedactEditKeys) for f in target.filters):
        target.addFilter(RedactEditKeys())


def redact_handlers(logger: logging.Logger) -> None:
    """The filter on a logger's handlers too: a logger's own filters miss the records its children pass up (a
    library's logger under "werkzeug.…", any "scorekeeper.…" module's)."""
    for handler in logger.handlers:
        _add_filter(handler)


def add_headers(response):
    headers = response.headers
    headers.extend([(name, value) for name, value in HEADERS.items() if name not in headers])
    hsts = current_app.config.get("HSTS")
    if hsts and "Strict-Transport-Security" not in headers and proxy.is_secure():
        headers["Strict-Transport-Security"] = hsts  # only over HTTPS: plain http on a LAN must stay reachable
    return response


class Sessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions; a request without the cookie (every API call) gets an empty one without
    building the signer first."""

    def open_session(self, app, request):
        if self.get_cookie_name(app) not in request.cookies:
            return self.session_class()
        return super().open_session(app, request)

    def get_cookie_secure(self, app) -> bool:
        """Secure over HTTPS (or with an https PUBLIC_URL); over plain http on a LAN a Secure cookie would be dropped
        and the phone would lose its edit keys."""
        return bool(app.config["SESSION_COOKIE_SECURE"]) or proxy.is_secure()


def init_app(app) -> None:
    app.session_interface = Sessions()
    proxy.init_app(app)
    app.after_request(add_headers)
    for name in LOGGERS + (app.logger.name,):
        _add_filter(logging.getLogger(name))
