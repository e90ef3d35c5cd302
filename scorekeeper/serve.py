"""`python -m scorekeeper.serve`: the app under waitress, the server `make run` starts.

Why waitress: its channels read each request whole (headers and body) in one asynchronous loop, and only a complete
request reaches one of the worker threads. A phone on a bad Wi-Fi, or a stranger sending one header line every few
seconds, holds a socket, not a worker: gunicorn's sync workers, which `make run` used before, gave each slow client a
whole worker until its 30 s timeout, and two such clients took the app away from everyone (README, "Running it on a
server"). Figures: bench/run.py, row "slow clients".
"""

from __future__ import annotations

import argparse
import logging

from scorekeeper import create_app

# A request is at most 64 KiB (the app refuses more); a body larger than this is not even read into memory or a file.
MAX_BODY = 1024 * 1024
SETTINGS = {
    "threads": 8,  # requests served at once; a hand entry takes a few ms, a kept PDF a file read
    "connection_limit": 1000,  # open sockets (slow clients included) before new ones wait in the backlog
    "asyncore_use_poll": True,  # select() cannot watch more than 1,024 sockets
    "channel_timeout": 30,  # a connection that sends nothing for this long is closed
    "cleanup_interval": 10,
    "max_request_body_size": MAX_BODY,
    "max_request_header_size": 64 * 1024,
    "ident": "scorekeeper",
    # X-Forwarded-* reach the app, which believes them only from the PROXY_FIX proxies in front (proxy.py).
    "clear_untrusted_proxy_headers": False,
}


# One line per record: time, level, logger, message; a request is `GET /path 200 3.1ms` (scorekeeper/web/logs.py).
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def serve(app, host: str = "0.0.0.0", port: int = 5000, **overrides) -> None:
    import waitress

    waitress.serve(app, host=host, port=port, **{**SETTINGS, **overrides})


def run(host: str = "0.0.0.0", port: int = 5000, threads: int = SETTINGS["threads"]) -> None:
    """Log to stderr (LOG_FORMAT; the app's own level is LOG_LEVEL), make the app and serve it until stopped."""
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    serve(create_app(), host=host, port=port, threads=threads)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scorekeeper.serve", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every address)")
    parser.add_argument("--port", type=int, default=5000, help="port (default: 5000)")
    parser.add_argument("--threads", type=int, default=SETTINGS["threads"], help="worker threads (default: 8)")
    args = parser.parse_args(argv)
    run(args.host, args.port, args.threads)


if __name__ == "__main__":
    main()
