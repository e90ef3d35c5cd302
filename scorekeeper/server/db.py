"""Each request's database connection: one per thread, kept between requests (opening one costs more than scoring a
hand), rolled back at the end of every request."""

from __future__ import annotations

import os
import threading

from flask import current_app, g

from scorekeeper.storage import Database, close, connect

_thread = threading.local()


def _kept_connection(path: str, checkpoints: bool) -> Database:
    """This thread's connection, kept between requests: opening one costs more than scoring a hand.

    One per thread and process (a forked worker opens its own); a different database file replaces it.
    """
    key = (os.getpid(), path, checkpoints)
    if getattr(_thread, "key", None) != key:
        old = getattr(_thread, "db", None)
        if old is not None and getattr(_thread, "key", (None,))[0] == os.getpid():
            close(old)
        _thread.db, _thread.key = connect(path, checkpoints=checkpoints), key
    return _thread.db


def get_db() -> Database:
    if "db" not in g:
        path = current_app.config["DATABASE"]
        checkpoints = not current_app.config.get("LITESTREAM")  # Litestream owns checkpointing (config.py)
        g.db = (
            _kept_connection(path, checkpoints)
            if current_app.config.get("KEEP_CONNECTION", True)
            else connect(path, checkpoints=checkpoints)
        )
        clock = current_app.config.get("CLOCK")
        if clock is not None:
            g.db.clock = clock
        elif "clock" in vars(g.db):
            del g.db.clock
    return g.db


def close_db(exc=None):
    db = g.pop("db", None)
    if db is None:
        return
    if current_app.config.get("KEEP_CONNECTION", True):
        db.rollback()  # never carry an open transaction into the next request
    else:
        close(db)


def init_app(app) -> None:
    app.teardown_appcontext(close_db)
