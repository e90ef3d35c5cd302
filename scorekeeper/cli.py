"""The command line: `flask --app scorekeeper init-db | backup PATH | restore BACKUP`."""

from __future__ import annotations

import sqlite3

import click
from flask import current_app
from flask.cli import with_appcontext

from scorekeeper.server import live_tags
from scorekeeper.storage import Unusable, migrate
from scorekeeper.storage.backup import backup, restore


@click.command("init-db")
@with_appcontext
def init_db_command():
    """Check the database (PRAGMA quick_check), then create it or bring its schema up to date; a damaged file is
    refused, pointing to `scorekeeper restore`."""
    try:
        applied = migrate(current_app.config["DATABASE"])
    except Unusable as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(
        f"Database {current_app.config['DATABASE']}: "
        + ("applied " + ", ".join(applied) if applied else "schema up to date")
    )


@click.command("backup")
@click.argument("path", type=click.Path(file_okay=True, dir_okay=True, writable=True))
@with_appcontext
def backup_command(path):
    """Copy the database to PATH (a file, or a folder for a dated file) while the app runs."""
    try:
        written = backup(current_app.config["DATABASE"], path)
    except (RuntimeError, sqlite3.Error, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Backed up {current_app.config['DATABASE']} to {written}")


@click.command("restore")
@click.argument("backup_file", metavar="BACKUP", type=click.Path(exists=True, dir_okay=False))
@click.option("--yes", is_flag=True, help="Do not ask before replacing the database.")
@with_appcontext
def restore_command(backup_file, yes):
    """Replace the database with BACKUP, a file made by `backup`. Stop the app first: its workers keep scored sheets."""
    target = current_app.config["DATABASE"]
    if not yes:
        click.confirm(f"Replace every game and club in {target} with {backup_file}?", abort=True)
    try:
        applied = restore(backup_file, target)
    except (RuntimeError, sqlite3.Error, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    tags = live_tags.publisher(current_app)
    if tags is not None:  # the files nginx answers from are of before the restore: gone now, not at a worker's look
        tags.tick()
    click.echo(f"Restored {target} from {backup_file}" + (f"; applied {', '.join(applied)}" if applied else ""))


def init_app(app) -> None:
    for command in (init_db_command, backup_command, restore_command):
        app.cli.add_command(command)
