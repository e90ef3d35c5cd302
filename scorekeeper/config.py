"""Every configuration key in one place: its default, its type and what it does.

create_app takes its defaults from here, `scorekeeper config` prints the keys with their current values, and the table
in docs/operations.md is `scorekeeper config --markdown` (a test holds them equal). Loads no Flask: the command line
reads it before there is an app.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PREFIX = "SCOREKEEPER_"
MiB = 1024**2


@dataclass(frozen=True)
class Key:
    name: str
    default: Any
    type: str
    meaning: str
    shown: str | None = None  # the default in words, where it depends on where or how the app runs
    testing: Any = None  # the default under TESTING, where it differs (see `finish`)
    in_instance: str | None = None  # the default is this file in the instance folder
    secret: bool = False  # never printed
    applied: bool = True  # False: documented here, but the code that reads it holds the default (CLUB_CLOCK)
    environment: bool = True  # False: a Python object, set by the caller of create_app only


KEYS: tuple[Key, ...] = (
    Key(
        "INSTANCE_PATH",
        None,
        "absolute path",
        "the instance folder (the database, secret_key, pdf/ by default); from the environment only",
        shown="instance/ in a checkout, <venv>/var/scorekeeper-instance installed",
        applied=False,
    ),
    Key(
        "DATABASE",
        None,
        "path",
        "the SQLite file (the lock file, the WAL and pdf/ sit beside it)",
        shown="instance/scorekeeper.sqlite",
        in_instance="scorekeeper.sqlite",
    ),
    Key(
        "SECRET_KEY",
        None,
        "string",
        "signs the sessions (the phones' edit rights, a club's login)",
        shown="made on first start, kept in instance/secret_key",
        secret=True,
    ),
    Key("MAX_CONTENT_LENGTH", 64 * 1024, "int", "bytes a request body may have; more is refused with 413"),
    # A club's season sheet is some 10-50 KiB; the import's own routes take more than MAX_CONTENT_LENGTH (issue 45).
    Key(
        "IMPORT_MAX_BYTES",
        2 * MiB,
        "int",
        "bytes a club's imported sheet (.xlsx, .ods, .xls, CSV) may have; its two routes (the preview, which sends the "
        "file back base64'd, and the import) take 4/3 of it and 256 KiB more, every other route MAX_CONTENT_LENGTH; "
        "larger is refused with 413 before it is read (clubs/pages/imports.py)",
        shown="2097152 (2 MiB)",
    ),
    Key(
        "MAX_FORM_PARTS",
        1000,
        "int",
        "fields and files a form may have (Flask's own key); the pages with a card editor take up to 1,500 (a matrix "
        "card's 784 squares: web/editors.py FORM_PARTS), more is refused with 413",
    ),
    Key("SESSION_COOKIE_SAMESITE", "Lax", "string", "the session cookie's SameSite"),
    Key("SESSION_COOKIE_HTTPONLY", True, "bool", "no script reads the session cookie"),
    Key("SESSION_COOKIE_SECURE", False, "bool", "always Secure cookies; over HTTPS they are Secure anyway"),
    Key(
        "WTF_CSRF_TIME_LIMIT",
        None,
        "int or null",
        "seconds a form's CSRF token lives; null: a hand form left open all evening still saves",
    ),
    Key("MAX_HANDS", 500, "int", "the most hands a game takes (entry and import); it bounds a PDF's cost"),
    Key(
        "KEPT_GAMES",
        10_000,
        "int",
        "scored games each worker keeps, so that a hand scores one hand, not the whole game again (a game not kept "
        "replays its hands, some 3-5 ms of CPU for 30 hands of the card games: bench/kept_games.py); a night's machine keeps every "
        "game its tables play",
    ),
    Key(
        "KEPT_HANDS",
        None,
        "int or null",
        "scored hands each worker keeps in those games at most; null: no bound of their own (KEPT_GAMES_BYTES bounds "
        "them)",
    ),
    Key(
        "KEPT_GAMES_BYTES",
        96 * MiB,
        "int",
        "bytes of scored games each worker keeps at most, a game counted at what it holds (2 KB and some 0.65 KB a "
        "hand: games/cache.py): 4,000 tables of 30 hands are counted as 87 MB; more tables or hands want more",
        shown="100663296 (96 MiB)",
    ),
    # A big village-hall drive is 25–30 tables of 24 hands. A drive's score cards cost the PDF renderer about 0.2 s a
    # card of 24–30 hands (docs/benchmark.md): 30 tables of 30 hands, 120 cards, draw in about half a minute.
    Key(
        "DRIVE_MAX_TABLES",
        30,
        "int",
        "the most tables a new drive takes (API and page, 400); a drive stored with more prints no score or tally cards",
    ),
    Key(
        "DRIVE_MAX_HANDS",
        30,
        "int",
        "the most hands a new drive (and a blank drive card) takes; a drive stored with more prints no score or tally cards",
    ),
    Key("PROXY_FIX", 0, "int", "reverse proxies in front whose X-Forwarded-For, -Proto and -Host to believe"),
    Key("PUBLIC_URL", None, "URL or null", "the address every absolute link is made from, never the Host header"),
    Key("TRUSTED_HOSTS", None, "list or null", "Host headers answered; any other gets 400 (null: every host)"),
    Key(
        "HSTS", "max-age=31536000", "string or null", "the Strict-Transport-Security value over HTTPS; null sends none"
    ),
    # Twenty phones of a club behind one address start an evening's ten tables in a minute, each perhaps twice.
    Key(
        "LIMIT_NEW_GAMES",
        "30 per minute; 300 per hour",
        "limits",
        "new games per client (an address, an IPv6 /64): by the API, the page, play again or a club's table",
    ),
    Key("LIMIT_IMPORTS", "10 per minute; 60 per hour", "limits", "imports per client address"),
    Key("LIMIT_NEW_CLUBS", "5 per minute; 20 per hour", "limits", "new clubs per client address"),
    Key("LIMIT_NEW_EVENINGS", "10 per minute; 60 per hour", "limits", "new club evenings per client address"),
    Key(
        "LIMIT_NEW_MEMBERS",
        "30 per minute; 200 per hour",
        "limits",
        "posts that add club members (one or many names) per client address",
    ),
    Key("LIMIT_NEW_DRIVES", "5 per minute; 30 per hour", "limits", "new whist drives per client address"),
    Key(
        "LIMIT_LOGINS",
        "30 per minute; 200 per hour",
        "limits",
        "club login posts per client address, on top of the per-club throttle",
    ),
    # A hall's phones behind one address scan their tables' codes at the break; a code is 6 of 31 characters.
    Key(
        "LIMIT_TABLE_CODES",
        "60 per minute; 300 per hour",
        "limits",
        "wrong club table codes (scanned or typed) per client address, an IPv6 one whole: a right one gives a table's "
        "edit right and is not counted",
    ),
    Key(
        "LIMIT_TABLE_CODES_NETWORK",
        "240 per minute; 1200 per hour",
        "limits",
        "wrong club table codes per IPv6 /64 (one client taking many of its addresses; IPv4: as LIMIT_TABLE_CODES)",
    ),
    # Tests create hundreds of games a minute from one address; the rate limit tests switch it on.
    Key(
        "RATELIMIT_ENABLED",
        True,
        "bool",
        "Flask-Limiter's switch for the limits above",
        shown="true (false under TESTING)",
        testing=False,
    ),
    # One budget per client however many workers answer it (issue 43): each worker counting in its own memory gave a
    # client every limit once per worker.
    Key(
        "LIMITS_FILE",
        None,
        "path or null",
        "the SQLite file the rate limits above are counted in, one count per client shared by every worker process "
        "(server/limits_file.py); it may be deleted while the server is stopped",
        shown="scorekeeper.sqlite.limits beside the database",
    ),
    Key(
        "LIMITS_MAX_ENTRIES",
        100_000,
        "int",
        "the newest hits the limits file keeps (some 200 bytes each: about 20 MiB, and its WAL up to 4 MiB); older "
        "ones are forgotten at once, expired ones every minute",
    ),
    Key(
        "MAX_DATABASE_BYTES",
        2 * 1024**3,
        "int",
        "no new game, import or club once the file and its WAL are larger (507)",
        shown="2147483648 (2 GiB)",
    ),
    Key(
        "MIN_FREE_DISK_BYTES",
        200 * MiB,
        "int",
        "... nor with less free on the database's disk",
        shown="209715200 (200 MiB)",
    ),
    Key(
        "IDEMPOTENCY_MAX_AGE",
        7 * 24 * 3600,
        "int",
        "seconds a retried write is still recognised",
        shown="604800 (7 days)",
    ),
    Key(
        "IDEMPOTENCY_KEEP",
        100,
        "int",
        "the newest idempotency keys of each game kept whatever the clock says (a clock jump purges none of them)",
    ),
    Key("IDEMPOTENCY_PURGE_EVERY", 3600, "int", "seconds between purges of older idempotency keys, per process"),
    Key("PDF_FOLDER", None, "path or null", "where the drawn PDFs are kept", shown="pdf/ beside the database"),
    Key("PDF_KEEP_BYTES", 256 * MiB, "int", "the kept PDFs at most; the oldest go first", shown="268435456 (256 MiB)"),
    Key(
        "PDF_TIMEOUT",
        120,
        "int",
        "seconds a PDF may take to draw; longer, and the renderer is replaced and the download answered 503",
    ),
    Key(
        "RENDER_QUEUE",
        3,
        "int",
        "PDFs of games drawing (two renderer processes per worker) or waiting in all, one per client; one more is "
        "answered 503 at once",
    ),
    Key(
        "SERVER_WORKERS",
        0,
        "int",
        "`scorekeeper serve`: processes serving, each with its threads, sharing the listening socket (0: one per core; "
        "1: one process, as before)",
    ),
    Key(
        "SERVER_PORT_PER_WORKER",
        False,
        "bool",
        "`scorekeeper serve`: worker k (1..N) also listens on port + k of its own, which no other worker accepts from "
        "(one process: port + 1), besides the shared port; deploy/nginx.conf's upstream lists one server a worker, so "
        "that each table is served by one worker. `--port-per-worker` / `--no-port-per-worker` override it",
    ),
    Key(
        "SERVER_CONNECTION_LIMIT",
        1000,
        "int",
        "`scorekeeper serve`: open connections each worker process holds (a watching phone keeps one); more wait in the "
        "listening socket's backlog. Each is a file descriptor: above about 1,000 raise the service's LimitNOFILE",
    ),
    Key(
        "SERVER_REQUEST_TIMEOUT",
        30,
        "int or null",
        "`scorekeeper serve`: seconds from a request's first byte to its last (headers and body), however often bytes "
        "come; later, the connection is closed (null: no limit)",
    ),
    # A hall's phones behind one NAT address, each browser with its six connections (issue 43: 50 refused a hall).
    Key(
        "SERVER_CONNECTIONS_PER_ADDRESS",
        300,
        "int or null",
        "`scorekeeper serve`: open connections one client address (IPv4, or IPv6 whole) may hold, across the workers: "
        "a browser keeps up to six, so 300 is a hall of 50 phones behind one NAT address; one more is answered 429 and "
        "closed (null: no cap; none with PROXY_FIX, where the proxy counts)",
    ),
    Key(
        "SERVER_CONNECTIONS_PER_NETWORK",
        500,
        "int or null",
        "`scorekeeper serve`: open connections the addresses of one IPv6 /64 (a LAN, or one client taking many of its "
        "addresses) may hold together; one more is answered 429 and closed (null: no cap; none with PROXY_FIX)",
    ),
    # Drive paper has a renderer of its own, so its longer wait holds up no game; a hall's score cards took 20-30 s of
    # CPU here and up to 100 s on this machine while other work loaded it.
    Key(
        "DRIVE_PDF_TIMEOUT",
        300,
        "int",
        "seconds a drive's PDF (score cards, tally cards…) may take to draw, on the drives' own renderer; then as PDF_TIMEOUT",
    ),
    Key(
        "BABEL_TRANSLATION_DIRECTORIES",
        "translations",
        "string",
        "the app's catalogues (Flask-Babel's own key: ';'-separated folders, relative to the package); each installed "
        "variant package's translations/ is read before them (app.py)",
        applied=False,
    ),
    Key(
        "TIME_ZONE",
        "Europe/Copenhagen",
        "string",
        "the time zone the clubs and tables play in (an IANA name, as zoneinfo reads it): every date and time shown or "
        "printed, a sheet's date and a new evening's, is its (the rows keep UTC); was BABEL_DEFAULT_TIMEZONE",
    ),
    Key(
        "MIGRATE_ON_START",
        True,
        "bool",
        "apply pending migrations when the app starts (a missing database is always made)",
    ),
    Key(
        "INTEGRITY_CHECK_EVERY",
        3600,
        "int or null",
        "seconds after which /healthz runs PRAGMA quick_check again (per process; the start checks too); null: never",
    ),
    Key(
        "BUSY_TIMEOUT",
        10,
        "number",
        "seconds a write waits for SQLite's lock held by another program; longer: 503 busy, not saved",
    ),
    Key(
        "HEAVY_ELSEWHERE",
        True,
        "bool",
        "a plain reader's heavy read is drawn by a process of its own per worker, not in the threads that enter hands",
        shown="true (false under TESTING)",
        testing=False,
    ),
    Key(
        "HEAVY_READS_PER_ADDRESS",
        2,
        "int or null",
        "large pages (a big game's protokoll, print page, spreadsheet; a season's ledger) drawn at once for one client "
        "address; more: 429 (kept pages are not counted); null: no bound",
    ),
    Key(
        "HEAVY_READS_AT_ONCE",
        4,
        "int or null",
        "... and for everyone at once, per process (a table's own sheet is not refused by it): more, 503",
    ),
    Key(
        "REQUESTS_PER_ADDRESS",
        6,
        "int or null",
        "reads one client address (IPv4, or IPv6 whole) may have in the server's threads at once; one more is answered "
        "429 before the app (server/door_guard.py; writes are counted, never refused); null or 0: the door's guard off",
        shown="6 (0 under TESTING)",
        testing=0,
    ),
    Key(
        "REQUESTS_PER_NETWORK",
        6,
        "int or null",
        "... and the addresses of one IPv6 /64 together (null: no cap)",
    ),
    Key(
        "READS_PER_SECOND",
        50,
        "number or null",
        "reads a second one client address (and one IPv6 /64) may ask for, on average over two seconds (a token "
        "bucket, twice as many at once); more are answered 429 before the app (server/door_guard.py); null: no bound",
    ),
    Key(
        "KEEP_CONNECTION",
        True,
        "bool",
        "one database connection per thread, kept between requests; false: one per request",
    ),
    Key(
        "LIVE_DOOR",
        True,
        "bool",
        "a live page's repeated poll answered before Flask while nothing its page shows changed (server/live_door.py)",
    ),
    Key(
        "LIVE_TAGS",
        None,
        "path or null",
        "a folder nginx reads (deploy/nginx.conf): an empty file for each live page's current tag, so that nginx "
        "answers a watching phone's unchanged poll itself, and after a change the app's first answer to a page's old "
        "tag, for the table's other phones; taken away when the page changes (server/live_tags.py); null: every poll "
        "comes to the app",
    ),
    # /run is a tmpfs of a tenth of the memory: a stranger's big pages filled 64 MiB of it in a minute (issue 43).
    Key(
        "LIVE_TAGS_MAX_BYTES",
        64 * MiB,
        "int",
        "the LIVE_TAGS folder at most, across every worker: a file counts its bytes in whole 4 KiB pages and 1 KiB "
        "for itself; past it the files of the games written to longest ago go (their phones ask the app once more)",
        shown="67108864 (64 MiB)",
    ),
    Key(
        "LIVE_TAGS_MAX_AGE",
        3600,
        "int or null",
        "seconds a file in the LIVE_TAGS folder is kept at most (looked for every minute); null: until its page changes",
    ),
    Key(
        "GC_FREEZE",
        True,
        "bool",
        "freeze the loaded app out of the garbage collector's full passes",
        shown="true (false under TESTING)",
        testing=False,
    ),
    Key("LOG_LEVEL", "INFO", "string", "the app's log level; INFO logs one line per request, WARNING only problems"),
    Key(
        "LITESTREAM",
        False,
        "bool",
        "Litestream replicates the file: the app never checkpoints the WAL itself (wal_autocheckpoint=0)",
    ),
    Key(
        "CLOCK",
        None,
        "callable",
        "tests only: the clock of the times written into rows (a game's or an evening's date), an aware datetime",
        shown="datetime.now(UTC)",
        applied=False,
        environment=False,
    ),
    Key(
        "CLUB_CLOCK",
        None,
        "callable",
        "tests only: the clock of the club login throttle",
        shown="time.time",
        applied=False,
        environment=False,
    ),
)
BY_NAME = {key.name: key for key in KEYS}


def instance_path(environ: Mapping[str, str] | None = None) -> str | None:
    """SCOREKEEPER_INSTANCE_PATH, read before there is an app (Flask's instance_path); None: Flask's own choice."""
    environ = os.environ if environ is None else environ
    return environ.get(PREFIX + "INSTANCE_PATH") or None


def defaults(instance: Path) -> dict[str, Any]:
    """The defaults create_app starts from; those that differ under TESTING are left to `finish`."""
    values = {}
    for key in KEYS:
        if not key.applied or key.testing is not None:
            continue
        values[key.name] = str(instance / key.in_instance) if key.in_instance else key.default
    return values


def finish(config: dict[str, Any], testing: bool) -> None:
    """The defaults that depend on TESTING, once the caller's mapping and the environment have said whether it is."""
    for key in KEYS:
        if key.applied and key.testing is not None:
            config.setdefault(key.name, key.testing if testing else key.default)


def environment_variable(key: Key) -> str | None:
    return PREFIX + key.name if key.environment else None


def from_environment(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """SCOREKEEPER_<KEY> values as create_app reads them (Flask's from_prefixed_env: JSON where they are JSON)."""
    environ = os.environ if environ is None else environ
    values = {}
    for name, raw in environ.items():
        if name.startswith(PREFIX):
            try:
                values[name[len(PREFIX) :]] = json.loads(raw)
            except ValueError:
                values[name[len(PREFIX) :]] = raw
    return values


def show(value: Any) -> str:
    """A value as JSON, the way the environment would take it; a Python object by its name."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except TypeError:
        return getattr(value, "__qualname__", repr(value))


def shown_default(key: Key) -> str:
    return key.shown if key.shown is not None else show(key.default)


def current(key: Key, values: Mapping[str, Any], instance: Path) -> str:
    """What a key is now, with secrets hidden."""
    if key.name == "INSTANCE_PATH":
        return show(str(instance))
    if key.name in values:
        return "(set, hidden)" if key.secret else show(values[key.name])
    if key.secret:
        made = key.name == "SECRET_KEY" and (instance / "secret_key").exists()
        return "(kept in the instance folder)" if made else "(made on first start)"
    if key.in_instance:
        return show(str(instance / key.in_instance))
    return shown_default(key) if key.shown else show(key.default)


def markdown() -> str:
    """The table of docs/operations.md."""
    lines = ["| key | environment variable | default | type | what it does |", "|---|---|---|---|---|"]
    for key in KEYS:
        variable = environment_variable(key)
        default = key.shown if key.shown is not None else f"`{show(key.default)}`"
        lines.append(
            f"| `{key.name}` | {f'`{variable}`' if variable else '—'} | {default} | {key.type} | {key.meaning} |"
        )
    return "\n".join(lines) + "\n"
