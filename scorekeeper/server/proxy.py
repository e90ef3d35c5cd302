"""Behind a reverse proxy: whom to believe about the client and the scheme (PROXY_FIX), the app's own address
(PUBLIC_URL) for the links it hands out, which Host headers to answer (TRUSTED_HOSTS), and when a request is HTTPS."""

from __future__ import annotations

import socket
from ipaddress import ip_address
from urllib.parse import urlsplit

from flask import current_app, has_request_context, request, url_for
from werkzeug.exceptions import BadHost, SecurityError
from werkzeug.middleware.proxy_fix import ProxyFix


def _public(app) -> tuple[str, str, str] | None:
    """PUBLIC_URL as (scheme, host[:port], path prefix without the trailing slash), or None."""
    url = app.config.get("PUBLIC_URL")
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"PUBLIC_URL must look like https://whist.example.org[/prefix], not {url!r}")
    return parts.scheme, parts.netloc, parts.path.rstrip("/")


def external_url(endpoint: str, **values) -> str:
    """An absolute URL for the share link, the edit link and the QR code: under PUBLIC_URL when it is set (the Host
    header and the scheme of the request do not matter then), else the address the phone itself used."""
    public = _public(current_app)
    if public is None:
        return url_for(endpoint, _external=True, **values)
    scheme, netloc, prefix = public
    adapter = current_app.url_map.bind(netloc, script_name=prefix or "/", url_scheme=scheme)
    return adapter.build(endpoint, values, force_external=True)


def lan_address() -> str | None:
    """This machine's address on its network (the one its traffic leaves by: 192.168.1.20 on a hall's Wi-Fi), or
    None when it has none but its own loopback. A UDP socket's connect sends nothing: it only picks the route."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): never a real host
            address = probe.getsockname()[0]
    except OSError:
        return None
    ip = ip_address(address)
    return None if ip.is_loopback or ip.is_unspecified or ip.is_link_local else address


def reached_at(url: str, host: str) -> str:
    """`url` with its host put to `host`, its port kept."""
    parts = urlsplit(url)
    return parts._replace(netloc=host + (f":{parts.port}" if parts.port else "")).geturl()


def is_secure() -> bool:
    """HTTPS: the request came over TLS (as the trusted proxy says, with PROXY_FIX) or the app is public on https."""
    public = _public(current_app)
    if public is not None and public[0] == "https":
        return True
    return has_request_context() and request.is_secure


def _with_prefix(wsgi_app, prefix: str):
    """PUBLIC_URL with a path (https://example.org/whist): the app's links carry the prefix, whether the proxy passes
    the path on with the prefix or without it."""

    def app(environ, start_response):
        path = environ.get("PATH_INFO", "")
        if path == prefix or path.startswith(prefix + "/"):
            environ["PATH_INFO"] = path[len(prefix) :]
        environ["SCRIPT_NAME"] = prefix
        return wsgi_app(environ, start_response)

    return app


def _warn_unforwarded(wsgi_app, logger):
    """PROXY_FIX set, but a request without X-Forwarded-For: either it bypassed the proxy or the server threw the
    headers away (waitress does unless told --no-clear-untrusted-proxy-headers). Then every client looks like the
    proxy and no request like HTTPS: say so once."""
    warned: list[bool] = []

    def app(environ, start_response):
        if not warned and "HTTP_X_FORWARDED_FOR" not in environ:
            warned.append(True)
            logger.warning(
                "PROXY_FIX is set but a request from %s came without X-Forwarded-For; is the server "
                "dropping the proxy's headers?",
                environ.get("REMOTE_ADDR"),
            )
        return wsgi_app(environ, start_response)

    return app


def _answer_untrusted_hosts(app) -> None:
    """Flask 3.1 refuses a Host outside TRUSTED_HOSTS while it makes the URL adapter, and werkzeug one it cannot
    encode (a label over 63 characters, an empty one in "a..b": BadHost); then there is no adapter, so the error
    page (it links the style sheet) failed with a 500. Here the refusal stays a 400 and the page is built for a
    trusted host."""
    make_adapter = app.create_url_adapter

    def create_url_adapter(req):
        try:
            return make_adapter(req)
        except (SecurityError, BadHost) as exc:
            if req is None:
                raise
            public = _public(app)
            hosts = app.config.get("TRUSTED_HOSTS") or ["localhost"]
            req.host = public[1] if public else hosts[0].lstrip(".")
            req.routing_exception = exc
            return app.url_map.bind(
                req.host,
                script_name=req.script_root or "/",
                url_scheme=req.scheme,
                path_info=req.path,
                default_method=req.method,
            )

    app.create_url_adapter = create_url_adapter


def init_app(app) -> None:
    public = _public(app)  # a malformed PUBLIC_URL stops the start
    hops = int(app.config.get("PROXY_FIX") or 0)
    if public and public[2]:
        app.wsgi_app = _with_prefix(app.wsgi_app, public[2])
    if hops > 0:
        # X-Forwarded-For, -Proto and -Host, the last `hops` values of each (the ones our own proxies wrote; anything
        # further left came from the client). Not -Port (the host carries the port) nor -Prefix (PUBLIC_URL does):
        # a proxy that does not overwrite those would let a client choose them.
        app.wsgi_app = _warn_unforwarded(
            ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=0, x_prefix=0), app.logger
        )
    _answer_untrusted_hosts(app)
