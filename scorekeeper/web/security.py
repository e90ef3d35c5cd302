"""Security headers on every response, and edit keys kept out of the request logs."""

from __future__ import annotations

import logging
import re

from flask import current_app
from flask.sessions import SecureCookieSessionInterface

from scorekeeper.web import proxy

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the edit link never leaks as a referrer
    "X-Frame-Options": "DENY",
}
# The edit pages /g/<id>/k/<key> and /d/<id>/k/<key> (drives): the key is the right to edit, so no log may keep it.
EDIT_PATH = re.compile(r"(/[gd]/[^/\s?#\"']+/k/)[^/\s?#\"']+")
LOGGERS = ("werkzeug", "gunicorn.access", "gunicorn.error", "waitress")


def redact(text: str) -> str:
    return EDIT_PATH.sub(r"\1[redacted]", text)


class RedactEditKeys(logging.Filter):
    """Rewrites a log record whose message carries an edit page's path."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


def _add_filter(logger: logging.Logger) -> None:
    if not any(isinstance(f, RedactEditKeys) for f in logger.filters):
        logger.addFilter(RedactEditKeys())


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
