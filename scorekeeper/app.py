"""The Flask application factory: configuration, the parts of the web layer, the blueprints."""

from __future__ import annotations

import gc
import os
import secrets
from pathlib import Path

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from scorekeeper import cli, storage
from scorekeeper import config as settings
from scorekeeper.clubs.pages import imports as club_imports
from scorekeeper.clubs.pages import views as clubs
from scorekeeper.core import NAME_MAX
from scorekeeper.drives import api as drives_api
from scorekeeper.drives import pages as drives
from scorekeeper.games import api, sheets
from scorekeeper.games import cache as kept_games
from scorekeeper.games import pages as games
from scorekeeper.server import db, door_guard, guard, health, live_door, live_tags, logs, security
from scorekeeper.variants import views as variant_views
from scorekeeper.web import editors, errors, i18n, offline

csrf = CSRFProtect()
# The templates are the project's top-level templates/ folder; a wheel carries them as scorekeeper/templates (setup.py).
_PACKAGED_TEMPLATES = Path(__file__).resolve().parent / "templates"
TEMPLATES = str(_PACKAGED_TEMPLATES if _PACKAGED_TEMPLATES.is_dir() else _PACKAGED_TEMPLATES.parents[1] / "templates")
MAX_BODY = settings.BY_NAME["MAX_CONTENT_LENGTH"].default


def _secret_key(instance: Path) -> str:
    """Kept in the instance folder, made on first start; never in the repository."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def create_app(config=None) -> Flask:
    app = Flask(
        "scorekeeper",
        instance_relative_config=True,
        instance_path=settings.instance_path(),
        template_folder=TEMPLATES,
    )
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(settings.defaults(instance))  # every key: scorekeeper/config.py
    app.config.from_prefixed_env("SCOREKEEPER")
    if config:
        app.config.update(config)
    settings.finish(app.config, app.testing)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)

    app.extensions["scorekeeper.factory"] = create_app  # server/heavy.py's drawing process makes its app with it
    db.init_app(app)
    cli.init_app(app)
    guard.init_app(app)
    security.init_app(app)
    editors.init_app(app)  # the larger form of the pages with an option editor, before the CSRF check reads it
    club_imports.init_app(app)  # the import's larger body (IMPORT_MAX_BYTES), before the CSRF check reads it
    csrf.init_app(app)
    # A variant package's own catalogues (its translations/), read before the app's: Flask-Babel merges them
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = ";".join(
        [*variant_views.translation_folders(), app.config.get("BABEL_TRANSLATION_DIRECTORIES") or "translations"]
    )
    i18n.init_app(app)
    app.jinja_loader = variant_views.template_loader(app.jinja_loader)  # and a variant package's own templates/
    app.jinja_env.globals["NAME_MAX"] = NAME_MAX  # the name boxes' maxlength: the bound check_name holds
    logs.init_app(app)
    if not os.path.exists(app.config["DATABASE"]) or app.config.get("MIGRATE_ON_START", True):
        # PRAGMA quick_check first: a damaged file raises storage.Damaged, naming `scorekeeper restore`
        storage.migrate(app.config["DATABASE"], checkpoints=not app.config["LITESTREAM"])
        health.record(app, [])  # the start's check, what /healthz answers until INTEGRITY_CHECK_EVERY has passed

    for blueprint in variant_views.static_blueprints():  # /static/variants/<name>/: a variant's own script and styles
        app.register_blueprint(blueprint)
    app.register_blueprint(api.bp)
    app.register_blueprint(health.bp)  # GET /healthz
    csrf.exempt(api.bp)  # JSON writes are guarded by the game's edit key instead
    app.register_blueprint(drives_api.bp)  # /api/drives: whist drives, guarded by the drive's edit key
    csrf.exempt(drives_api.bp)
    for blueprint in (games.bp, sheets.bp, clubs.bp):
        app.register_blueprint(blueprint)
    app.register_blueprint(drives.bp)  # /drives, /d/<id>: the whist drive's pages and paper
    csrf.exempt(drives.table.table)  # a table's page: its address carries the table's token, no cookie grants anything
    offline.init_app(app)  # GET /sw.js, /manifest.webmanifest; the offline script's words
    errors.init_app(app)
    kept_games.games.bound(
        app.config["KEPT_GAMES"], app.config["KEPT_HANDS"], app.config["KEPT_GAMES_BYTES"]
    )  # per worker
    live_tags.init_app(app)  # LIVE_TAGS: the tags nginx answers watching phones from, taken away after every write
    live_door.init_app(app)  # the outermost WSGI layer: a repeated live poll answered before Flask
    door_guard.init_app(app)  # outside it: one client's excess requests refused before Flask
    if app.config.get("GC_FREEZE", not app.testing):
        # The app as loaded (Flask, Jinja, Babel's catalogues, the modules: some 50,000 objects) lives as long as the
        # process: keep it out of the garbage collector's full passes, which otherwise stalled a request for 15–20 ms
        # every few hundred pages.
        gc.collect()
        gc.freeze()
    return app
