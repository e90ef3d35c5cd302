"""The SQLite connection (one per thread, kept between requests), the schema's migrations, `init-db`, `backup` and
`restore`."""
from __future__ import annotations

import os
import secrets
import sqlite3
import threading
import time
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import click
import sqlite_utils
from flask import current_app, g
from flask.cli import with_appcontext

try:
    import fcntl
except ImportError:  # Windows: writers then wait in SQLite's busy handler, and SQLite flushes each commit
    fcntl = None
GROUP_FLUSH = fcntl is not None  # writing() flushes the WAL after the commit, outside the lock (see connect)

migrations = sqlite_utils.Migrations("scorekeeper")


@migrations()
def m001_games_and_hands(db):
    db.execute("""
        CREATE TABLE games (
            id TEXT PRIMARY KEY,
            variant TEXT NOT NULL,
            title TEXT,
            players TEXT NOT NULL,
            dealer INTEGER NOT NULL,
            options TEXT NOT NULL,
            edit_key_hash TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 0
        )""")
    db.execute("""
        CREATE TABLE hands (
            id INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            input TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        )""")
    db.execute("CREATE INDEX hands_game ON hands(game_id, id)")


@migrations()
def m002_edit_log_and_idempotency(db):
    """The edit log (every hand added, edited or deleted) and the idempotency keys of retried writes."""
    db.execute("""
        CREATE TABLE edits (
            id INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            at TEXT NOT NULL,
            action TEXT NOT NULL CHECK (action IN ('added', 'edited', 'deleted')),
            number INTEGER NOT NULL,
            hand_id INTEGER,
            before TEXT,
            after TEXT
        )""")
    db.execute("CREATE INDEX edits_game ON edits(game_id, id)")
    # The hands already kept start the log as they stand now.
    db.execute("""
        INSERT INTO edits (game_id, at, action, number, hand_id, before, after)
        SELECT game_id, created, 'added', ROW_NUMBER() OVER (PARTITION BY game_id ORDER BY id), id, NULL, input
        FROM hands ORDER BY id""")
    db.execute("""
        CREATE TABLE idempotency_keys (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            action TEXT NOT NULL,
            request TEXT NOT NULL,
            hand_id INTEGER,
            created TEXT NOT NULL,
            PRIMARY KEY (game_id, key)
        )""")


@migrations()
def m003_game_language(db):
    """A game may name the language its printed sheets speak."""
    db.execute("ALTER TABLE games ADD COLUMN language TEXT")


def connect(path: str) -> sqlite_utils.Database:
    """A connection with foreign keys on, WAL, and a busy timeout for concurrent phones."""
    conn = sqlite3.connect(path, timeout=10, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA busy_timeout=10000")
    # WAL is kept in the file: set it only once, since switching takes a lock that racing workers may hold.
    if path != ":memory:" and db.conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        for attempt in range(50):  # the switch does not wait in SQLite's busy handler: wait here, up to ~5 s
            try:
                db.enable_wal()
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == 49:
                    raise
                time.sleep(0.1)
    # A write is on disk before its answer goes out, but not by synchronous=FULL: that flushes the WAL inside the
    # commit, while the write lock is held, so every writer would wait for the others' disk flushes one by one. The
    # commit runs with synchronous=NORMAL (just as safe against a crash of the program; only the flush is left out)
    # and writing() then flushes the WAL itself after letting go of the lock: the flushes of several workers overlap,
    # and one flush covers every commit written before it (a group commit).
    db.execute("PRAGMA synchronous=NORMAL" if GROUP_FLUSH and path != ":memory:" else "PRAGMA synchronous=FULL")
    db.scorekeeper_file = None if path == ":memory:" else os.path.realpath(path)
    # A file object, not a bare descriptor: a connection dropped without close() (a thread that ends) closes it too.
    db.scorekeeper_lock = None if fcntl is None or path == ":memory:" else \
        open(db.scorekeeper_file + ".lock", "ab", buffering=0, opener=lambda name, flags: os.open(name, flags, 0o600))
    return db


def close(db: sqlite_utils.Database) -> None:
    """Close a connection made by `connect`, and its lock file."""
    lock = getattr(db, "scorekeeper_lock", None)
    if lock is not None:
        lock.close()
        db.scorekeeper_lock = None
    db.conn.close()


def file_of(db: sqlite_utils.Database) -> str | None:
    """The database file a connection made by `connect` opened (None in memory): what cached sheets are kept under."""
    return getattr(db, "scorekeeper_file", None)


def migrate(path: str) -> list[str]:
    """Create or upgrade the schema; answer the names of the migrations applied."""
    db = connect(path)
    try:
        with writing(db):  # one process at a time: workers starting together must not both apply a migration
            pending = [m.name for m in migrations.pending(db)]
            migrations.apply(db)
        return pending
    finally:
        close(db)


@contextmanager
def writing(db: sqlite_utils.Database):
    """One write transaction that takes the write lock at once (BEGIN IMMEDIATE), so two phones queue instead of deadlocking.

    Writers first queue on a lock file beside the database (flock): the kernel wakes the next one the moment the
    last one commits. SQLite's own busy handler sleeps instead (1, 2, 5, 10, 15, 20, 25 … ms between tries), which
    with a few workers writing at once made most of a hand entry's time. The busy timeout still covers writers that
    do not take the lock file (another program on the same database).
    """
    with _queued(db):
        db.conn.execute("BEGIN IMMEDIATE")  # sqlite-utils sees the open transaction: its writes neither commit nor nest
        try:
            yield db
        except BaseException:
            db.rollback()
            raise
        db.commit()
    flush(db)


@contextmanager
def _queued(db: sqlite_utils.Database):
    """Hold the writers' lock file of the connection's database (nothing to hold where there is no fcntl)."""
    lock = getattr(db, "scorekeeper_lock", None)
    if lock is not None:
        fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        yield
    finally:
        if lock is not None:
            fcntl.flock(lock, fcntl.LOCK_UN)


def flush(db: sqlite_utils.Database) -> None:
    """Put what was committed on the disk (fsync of the WAL file): after it, not even a power cut loses it.

    Called by writing() after each commit, before the answer goes out; see connect() for why not synchronous=FULL.
    """
    path = getattr(db, "scorekeeper_file", None)
    if not GROUP_FLUSH or path is None:
        return  # synchronous=FULL flushed inside the commit
    try:
        fd = os.open(path + "-wal", os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:  # not in WAL mode (yet): the commit went to the database file itself
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
        # A WAL file made since this connection last flushed (SQLite deletes it when the last connection closes, and
        # makes a new one) needs its directory entry on the disk too, or a power cut could lose the whole file.
        made = os.fstat(fd).st_ino
        if getattr(db, "scorekeeper_wal", None) != made:
            directory = os.open(os.path.dirname(path), os.O_RDONLY | os.O_CLOEXEC)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
            db.scorekeeper_wal = made
    finally:
        os.close(fd)


@contextmanager
def reading(db: sqlite_utils.Database):
    """Several reads from one snapshot of the database (a deferred transaction), or those of the transaction open now."""
    if db.conn.in_transaction:
        yield db
        return
    db.conn.execute("BEGIN")
    try:
        yield db
    finally:
        db.conn.execute("COMMIT")  # nothing written: ends the snapshot


_thread = threading.local()


def _kept_connection(path: str) -> sqlite_utils.Database:
    """This thread's connection, kept between requests: opening one costs more than scoring a hand.

    One per thread and process (a forked worker opens its own); a different database file replaces it.
    """
    key = (os.getpid(), path)
    if getattr(_thread, "key", None) != key:
        old = getattr(_thread, "db", None)
        if old is not None and getattr(_thread, "key", (None,))[0] == os.getpid():
            close(old)
        _thread.db, _thread.key = connect(path), key
    return _thread.db


def get_db() -> sqlite_utils.Database:
    if "db" not in g:
        path = current_app.config["DATABASE"]
        g.db = _kept_connection(path) if current_app.config.get("KEEP_CONNECTION", True) else connect(path)
    return g.db


def close_db(exc=None):
    db = g.pop("db", None)
    if db is None:
        return
    if current_app.config.get("KEEP_CONNECTION", True):
        db.rollback()  # never carry an open transaction into the next request
    else:
        close(db)


@click.command("init-db")
@with_appcontext
def init_db_command():
    """Create the database or bring its schema up to date."""
    applied = migrate(current_app.config["DATABASE"])
    click.echo(f"Database {current_app.config['DATABASE']}: " + (
        "applied " + ", ".join(applied) if applied else "schema up to date"))


def backup(source: str, target: str) -> Path:
    """A consistent copy of a live database by SQLite's online backup API, written beside the target and renamed into place."""
    if not os.path.isfile(source):
        raise RuntimeError(f"there is no database at {source}")
    path = Path(target)
    if path.is_dir():
        path = path / f"scorekeeper-{datetime.now().strftime('%Y%m%d-%H%M%S')}.sqlite"
    partial = path.with_name(f".{path.name}.{secrets.token_hex(4)}.partial")
    try:
        src = sqlite3.connect(source, timeout=10)
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # all pages in one step: one snapshot, while writers go on (WAL)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            check = dst.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            dst.close()
            src.close()
        if check != "ok":
            raise RuntimeError(f"the copy failed its integrity check: {check}")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return path


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


def restore(source: str, target: str) -> list[str]:
    """Put a backup made by `backup` back as the database at `target`; answers the migrations it then needed.

    The backup is checked first (a whole SQLite file of scorekeeper's that passes its integrity check) and left as it
    is. It is copied in by SQLite's backup API under the writers' lock file and SQLite's write lock, so the database
    is never half old, half restored, and the WAL and shared-memory files stay right (nothing to delete by hand). A
    backup from an older version of the app is then brought up to the current schema.
    """
    if not os.path.isfile(source):
        raise RuntimeError(f"there is no backup at {source}")
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        try:
            check = src.execute("PRAGMA integrity_check").fetchone()[0]
            tables = {r[0] for r in src.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as exc:
            raise RuntimeError(f"{source} is not an SQLite database: {exc}") from None
        if check != "ok":
            raise RuntimeError(f"the backup failed its integrity check: {check}")
        if not {"games", "hands", "_sqlite_migrations"} <= tables:
            raise RuntimeError(f"{source} is not a scorekeeper database")
        db = connect(target)
        try:
            with _queued(db):  # the app's writers queue behind the lock file while the pages go in
                src.backup(db.conn)  # takes SQLite's own locks on the database; one step, all pages
                db.conn.execute("PRAGMA journal_mode=WAL")  # the backup's DELETE journal mode came in with its pages
                flush(db)
        finally:
            close(db)
    finally:
        src.close()
    return migrate(target)


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
    click.echo(f"Restored {target} from {backup_file}" + (f"; applied {', '.join(applied)}" if applied else ""))


def init_app(app):
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)


# ---------------------------------------------------------------- clubs (m100 onwards; see scorekeeper/clubs.py)


@migrations()
def m100_clubs(db):
    """Clubs with their default rule set and hashed admin password, and their members (ids, so renames follow)."""
    db.execute("""
        CREATE TABLE clubs (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            currency TEXT NOT NULL,
            variant TEXT NOT NULL,
            options TEXT NOT NULL,
            password_hash TEXT NOT NULL,
            failed_logins INTEGER NOT NULL DEFAULT 0,
            locked_until REAL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        )""")
    db.execute("""
        CREATE TABLE club_members (
            id INTEGER PRIMARY KEY,
            club_id TEXT NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            retired TEXT,
            created TEXT NOT NULL
        )""")
    db.execute("CREATE UNIQUE INDEX club_members_name ON club_members(club_id, name COLLATE NOCASE)")


@migrations()
def m101_club_evenings(db):
    """Card evenings, the games that are their tables, and which member sat in which seat."""
    db.execute("""
        CREATE TABLE club_evenings (
            id INTEGER PRIMARY KEY,
            club_id TEXT NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
            date TEXT NOT NULL,
            fee_cents INTEGER NOT NULL DEFAULT 0,
            rate TEXT,
            settlement TEXT NOT NULL DEFAULT 'pairwise' CHECK (settlement IN ('pairwise', 'kitty')),
            settled TEXT,
            settled_balances TEXT,
            created TEXT NOT NULL
        )""")
    db.execute("CREATE INDEX club_evenings_date ON club_evenings(club_id, date)")
    db.execute("""
        CREATE TABLE club_tables (
            game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            evening_id INTEGER NOT NULL REFERENCES club_evenings(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            UNIQUE (evening_id, number)
        )""")
    db.execute("""
        CREATE TABLE club_seats (
            game_id TEXT NOT NULL REFERENCES club_tables(game_id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            member_id INTEGER NOT NULL REFERENCES club_members(id),
            PRIMARY KEY (game_id, seat)
        )""")
    db.execute("CREATE INDEX club_seats_member ON club_seats(member_id)")


@migrations()
def m102_club_language(db):
    """A club may name the language its tables' printed sheets speak."""
    db.execute("ALTER TABLE clubs ADD COLUMN language TEXT")


@migrations()
def m103_hand_changes_bump_the_version(db):
    """Any change to a game's hands bumps the game's version in the database itself, whoever makes it (the app, or
    someone with sqlite3 at the file): the version is what a worker's kept sheet is checked against (cache.py)."""
    db.execute("""
        CREATE TRIGGER hands_added AFTER INSERT ON hands BEGIN
            UPDATE games SET version = version + 1, updated = NEW.updated WHERE id = NEW.game_id;
        END""")
    db.execute("""
        CREATE TRIGGER hands_changed AFTER UPDATE ON hands BEGIN
            UPDATE games SET version = version + 1, updated = NEW.updated WHERE id = NEW.game_id;
            UPDATE games SET version = version + 1, updated = NEW.updated
                WHERE id = OLD.game_id AND OLD.game_id != NEW.game_id;
        END""")
    db.execute("""
        CREATE TRIGGER hands_deleted AFTER DELETE ON hands BEGIN
            UPDATE games SET version = version + 1, updated = strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now')
                WHERE id = OLD.game_id;
        END""")


@migrations()
def m104_club_logins_per_address(db):
    """Wrong admin passwords are counted per club and client address (club_service.login), so wrong ones from one
    address never lock out the admin at another. The per-club counter of m100 (clubs.failed_logins, locked_until)
    is no longer read; it is cleared here so an old lock is not left looking current."""
    db.execute("""
        CREATE TABLE club_logins (
            club_id TEXT NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
            address TEXT NOT NULL,
            failures INTEGER NOT NULL DEFAULT 0,
            locked_until REAL,
            expires REAL NOT NULL,
            PRIMARY KEY (club_id, address)
        )""")
    db.execute("CREATE INDEX club_logins_expires ON club_logins(expires)")
    db.execute("UPDATE clubs SET failed_logins = 0, locked_until = NULL")


@migrations()
def m105_evening_currency(db):
    """An evening keeps the currency it was played in, as it keeps its rate: the club's currency when it was made
    (the evenings made before this are given their club's currency as it is now)."""
    db.execute("ALTER TABLE club_evenings ADD COLUMN currency TEXT")
    db.execute("UPDATE club_evenings SET currency = (SELECT currency FROM clubs WHERE clubs.id = club_evenings.club_id)")


@migrations()
def m106_evening_settled_terms(db):
    """What an evening was settled on besides the balances (its date, fee and way of settling up), so its result can
    say what was changed since."""
    db.execute("ALTER TABLE club_evenings ADD COLUMN settled_terms TEXT")
