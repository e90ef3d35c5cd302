"""The Flask application factory: configuration, the parts of the web layer, the blueprints."""
from __future__ import annotations

import gc
import os
import secrets
from pathlib import Path

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from scorekeeper import cli, storage
from scorekeeper.web import db, guard, i18n, security

csrf = CSRFProtect()
MAX_BODY = 64 * 1024


def _secret_key(instance: Path) -> str:
    """Kept in the instance folder, made on first start; never in the repository."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def create_app(config=None) -> Flask:
    app = Flask("scorekeeper", instance_relative_config=True)
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE=str(instance / "scorekeeper.sqlite"),
        MAX_CONTENT_LENGTH=MAX_BODY,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        WTF_CSRF_TIME_LIMIT=None,
        MAX_HANDS=500,  # the most hands a game takes (service.add_hand, import_game): it bounds a PDF's cost
        PROXY_FIX=0,  # reverse proxies in front whose X-Forwarded-For/-Proto/-Host to believe (proxy.py)
        PUBLIC_URL=None,  # e.g. "https://whist.example.org": every absolute link uses it, never the Host header
        HSTS="max-age=31536000",  # sent over HTTPS only; None sends none
    )
    app.config.from_prefixed_env("SCOREKEEPER")
    if config:
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)

    db.init_app(app)
    cli.init_app(app)
    guard.init_app(app)
    security.init_app(app)
    csrf.init_app(app)
    i18n.init_app(app)
    if not os.path.exists(app.config["DATABASE"]) or app.config.get("MIGRATE_ON_START", True):
        storage.migrate(app.config["DATABASE"])

    from scorekeeper.web import errors
    from scorekeeper.web.api import views as api
    from scorekeeper.web.clubs import views as clubs
    from scorekeeper.web.games import views as games
    from scorekeeper.web.sheets import views as sheets

    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # JSON writes are guarded by the game's edit key instead
    for blueprint in (games.bp, sheets.bp, clubs.bp):
        app.register_blueprint(blueprint)
    errors.init_app(app)
    if app.config.get("GC_FREEZE", not app.testing):
        # The app as loaded (Flask, Jinja, Babel's catalogues, the modules: some 50,000 objects) lives as long as the
        # process: keep it out of the garbage collector's full passes, which otherwise stalled a request for 15–20 ms
        # every few hundred pages.
        gc.collect()
        gc.freeze()
    return app
