"""The honest floor for hand entry: a Flask route that stores the request body as one row in SQLite (WAL,
synchronous=FULL: acknowledged = on disk, as scorekeeper's hands) and answers 201. No validation, no scoring, no log.

bench/run.py serves it with the same gunicorn workers as scorekeeper and drives both with the same wrk load.
bench/night.py serves it under gunicorn with gunicorn's access log on (a line per INSERT, as the app logs a line per
request), beside nginx logging as deploy/nginx.conf logs.
"""

import os
import sqlite3
import threading

from flask import Flask, request

app = Flask(__name__)
DATABASE = os.environ.get("FLOOR_DATABASE", "floor.sqlite")
_local = threading.local()


def connection() -> sqlite3.Connection:
    conn = getattr(_local, "conn", None)
    if conn is None:
        conn = sqlite3.connect(DATABASE, timeout=5, isolation_level=None)  # each INSERT commits on its own
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("CREATE TABLE IF NOT EXISTS bodies (id INTEGER PRIMARY KEY, body BLOB NOT NULL)")
        _local.conn = conn
    return conn


@app.post("/floor")
def floor():
    connection().execute("INSERT INTO bodies (body) VALUES (?)", (request.get_data(),))
    return "", 201


@app.get("/floor")
def ready():
    return str(connection().execute("SELECT count(*) FROM bodies").fetchone()[0])
