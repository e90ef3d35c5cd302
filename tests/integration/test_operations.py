"""What an operator leans on: GET /healthz (the database writable now, no secrets, no rate limit), one log line per
request with the edit key redacted, and the systemd unit's promises."""

import logging
import os
from pathlib import Path

from nginx_stack import deployed_workers
from scorekeeper import create_app

ROOT = Path(__file__).resolve().parents[2]


def test_healthz_says_ok_when_the_database_can_be_written(client, api):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json["status"] == "ok" and response.json["database"] == "writable"
    assert response.headers["Cache-Control"] == "no-store"
    assert "sqlite" not in response.get_data(as_text=True) and "test" not in response.get_data(as_text=True)


def test_healthz_answers_503_with_a_reason_when_the_database_cannot_be_opened(app, client, tmp_path):
    assert client.get("/healthz").status_code == 200
    app.config["DATABASE"] = str(tmp_path / "unmounted" / "scorekeeper.sqlite")  # its disk gone
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json == {"status": "unavailable", "reason": "OperationalError: unable to open database file"}


def test_healthz_is_never_rate_limited(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "db.sqlite"),
            "SECRET_KEY": "t",
            "RATELIMIT_ENABLED": True,
            "LIMIT_NEW_GAMES": "1 per minute",
        }
    )
    client = app.test_client()
    assert all(client.get("/healthz").status_code == 200 for _ in range(30))


def test_one_log_line_per_request_with_the_edit_key_redacted(client, api, caplog):
    game = client.post("/api/games", json={"variant": "german", "players": ["Anna", "Bo"]}).json
    key = game["edit_key"]
    with caplog.at_level(logging.INFO, logger="scorekeeper.request"):
        caplog.clear()
        client.get(f"/g/{game['id']}/k/{key}")
        client.get("/healthz?probe=1")
    lines = [r.getMessage() for r in caplog.records if r.name == "scorekeeper.request"]
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"GET /g/{game['id']}/k/[redacted] ") and key not in lines[0]
    method, path, status, took = lines[1].split()
    assert (method, path, status) == ("GET", "/healthz?probe=1", "200") and took.endswith("ms")


def test_log_level_warning_leaves_requests_out(tmp_path, caplog):
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "t", "LOG_LEVEL": "WARNING"}
    )
    try:
        with caplog.at_level(logging.NOTSET):
            app.test_client().get("/healthz")
        assert not [r for r in caplog.records if r.name == "scorekeeper.request"]
    finally:
        logging.getLogger("scorekeeper").setLevel(logging.INFO)


def test_the_systemd_unit_runs_the_command_hardened():
    unit = (ROOT / "deploy" / "scorekeeper.service").read_text()
    lines = {
        line.split("=", 1)[0]: line.split("=", 1)[1]
        for line in unit.splitlines()
        if "=" in line and not line.startswith("#")
    }
    # issue 47: as many workers as deploy/nginx.conf's upstream lists, each with its own port (5001, 5002, ...)
    workers = deployed_workers()
    command = f"/bin/scorekeeper serve --host 127.0.0.1 --port 5000 --workers {workers} --port-per-worker"
    assert lines["ExecStart"].endswith(command) and workers >= 2
    assert lines["EnvironmentFile"].endswith("scorekeeper.env") and lines["Restart"] == "on-failure"
    assert lines["NoNewPrivileges"] == "yes" and lines["ProtectSystem"] == "strict" and lines["PrivateTmp"] == "yes"
    assert lines["User"] and lines["WorkingDirectory"] and lines["ReadWritePaths"]
    assert os.path.exists(ROOT / "deploy" / "scorekeeper.env.example")
