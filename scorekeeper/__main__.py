"""`scorekeeper` (the console script) and `python -m scorekeeper`: serve, init-db, backup, restore, config.

init-db, backup and restore are the very commands of `flask --app scorekeeper` (scorekeeper/cli.py): this group makes
the app for them from the environment (SCOREKEEPER_*), as `flask` does, and only when one of them runs.
"""

from __future__ import annotations

from pathlib import Path

import click
from flask.cli import ScriptInfo

from scorekeeper import cli, create_app
from scorekeeper import config as settings
from scorekeeper.server import serve as server
from scorekeeper.storage import Unusable


def _make_app():
    try:
        return create_app()
    except Unusable as exc:  # the start's checks (damaged, not writable): say so and what to do, without a traceback
        raise click.ClickException(str(exc)) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.pass_context
def main(ctx: click.Context) -> None:
    """Keeps the score sheet (protokoll) for whist. Configuration: SCOREKEEPER_* environment variables
    (`scorekeeper config` lists them)."""
    ctx.obj = ScriptInfo(create_app=_make_app, set_debug_flag=False, load_dotenv_defaults=False)


@main.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on (0.0.0.0: every address).")
@click.option("--port", default=5000, show_default=True, type=int, help="Port.")
@click.option(
    "--threads", default=server.SETTINGS["threads"], show_default=True, type=int, help="Requests served at once."
)
@click.option(
    "--workers",
    default=None,
    type=int,
    help="Processes serving, each with its threads (default: SERVER_WORKERS; 0: one per core).",
)
@click.option(
    "--port-per-worker/--no-port-per-worker",
    default=None,
    help="Worker k (k = 1..N) also listens on port + k, which no other worker accepts from, for a proxy that sends "
    "each table to one worker (deploy/nginx.conf) [default: SERVER_PORT_PER_WORKER, false].",
)
def serve_command(host: str, port: int, threads: int, workers: int | None, port_per_worker: bool | None) -> None:
    """Serve the app with waitress until stopped, one process per core; one log line per request on stderr."""
    server.run(host, port, threads, workers, port_per_worker=port_per_worker)


@main.command("config")
@click.option("--markdown", is_flag=True, help="Print the table of docs/operations.md instead.")
def config_command(markdown: bool) -> None:
    """Every configuration key: its environment variable, default and current value (secrets hidden)."""
    if markdown:
        click.echo(settings.markdown(), nl=False)
        return
    from flask import Flask

    instance = Path(
        Flask("scorekeeper", instance_relative_config=True, instance_path=settings.instance_path()).instance_path
    )
    values = settings.from_environment()
    click.echo(f"instance folder: {instance}")
    rows = [
        (
            k.name,
            settings.environment_variable(k) or "-",
            settings.shown_default(k),
            settings.current(k, values, instance),
        )
        for k in settings.KEYS
    ]
    widths = [max(len(row[i]) for row in rows + [("key", "environment", "default", "current")]) for i in range(3)]
    for row in [("key", "environment", "default", "current"), *rows]:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3])
    unknown = sorted(set(values) - settings.BY_NAME.keys())
    if unknown:
        click.echo("set in the environment but no key of scorekeeper's (Flask's own, or a typo): " + ", ".join(unknown))


for command in (cli.init_db_command, cli.backup_command, cli.restore_command):
    main.add_command(command)


if __name__ == "__main__":
    main(prog_name="scorekeeper")
