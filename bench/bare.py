"""The framework's ceiling: a bare Flask app with one route that answers a short JSON object.

bench/run.py serves it with the same gunicorn workers as scorekeeper and drives both with the same wrk load.
"""

from flask import Flask, jsonify

app = Flask(__name__)


@app.route("/ping", methods=["GET", "POST"])
def ping():
    return jsonify({"ok": True})
