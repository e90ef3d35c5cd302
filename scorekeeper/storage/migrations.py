"""The schema, as sqlite-utils migrations: `sqlite-utils migrate DB scorekeeper/storage/migrations.py` applies them,
and so does the app on start (storage.migrate). Self-contained (sqlite-utils loads this file by its path)."""

from __future__ import annotations

import sqlite_utils

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
    db.execute(
        "UPDATE club_evenings SET currency = (SELECT currency FROM clubs WHERE clubs.id = club_evenings.club_id)"
    )


@migrations()
def m106_evening_settled_terms(db):
    """What an evening was settled on besides the balances (its date, fee and way of settling up), so its result can
    say what was changed since."""
    db.execute("ALTER TABLE club_evenings ADD COLUMN settled_terms TEXT")


@migrations()
def m107_whist_drives(db):
    """Whist drives: the setup as checked, and each table's result per hand as entered (the seating and standings are
    replayed from these, never stored)."""
    db.execute("""
        CREATE TABLE drives (
            id TEXT PRIMARY KEY,
            title TEXT,
            setup TEXT NOT NULL,
            edit_key_hash TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 0
        )""")
    db.execute("""
        CREATE TABLE drive_results (
            drive_id TEXT NOT NULL REFERENCES drives(id) ON DELETE CASCADE,
            hand INTEGER NOT NULL,
            table_number INTEGER NOT NULL,
            tricks TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            PRIMARY KEY (drive_id, hand, table_number)
        )""")


@migrations()
def m108_drive_money(db):
    """A drive's money, as the organiser typed it: the currency, the entry fee per player and the prizes (JSON)."""
    db.execute("ALTER TABLE drives ADD COLUMN money TEXT")


@migrations()
def m120_drive_kept_seatings(db):
    """The seating a drive's hand was played in, kept when a later correction of an earlier hand would have moved
    people who had sat down and played already (issue 25): per hand, the two partnerships of every table (JSON)."""
    db.execute("""
        CREATE TABLE drive_seatings (
            drive_id TEXT NOT NULL REFERENCES drives(id) ON DELETE CASCADE,
            hand INTEGER NOT NULL,
            seating TEXT NOT NULL,
            PRIMARY KEY (drive_id, hand)
        )""")


@migrations()
def m121_drive_prizes_and_moves(db):
    """What the organiser's evening adds to a drive: the seating of the hand being played as it was shown before a
    correction re-seated it (`reseat`, JSON: whom the pages tell "move again"), the app's draws for the prizes (cuts
    and lucky numbers, JSON), and when the prizes were given (after that no result changes)."""
    db.execute("ALTER TABLE drives ADD COLUMN reseat TEXT")
    db.execute("ALTER TABLE drives ADD COLUMN draws TEXT")
    db.execute("ALTER TABLE drives ADD COLUMN prizes_given TEXT")


@migrations()
def m130_club_evening_defaults(db):
    """The club's card holds the evening's defaults (issue 23): the fee per member for the kitty and the way of
    settling up (pairwise or through the kitty), as JSON {"fee_cents", "settlement"}; every new evening starts from
    them. Clubs made before start at no fee, pairwise."""
    db.execute("ALTER TABLE clubs ADD COLUMN evening_defaults TEXT")


# ---------------------------------------------------------------- the club evening as it is played (m140 onwards)


@migrations()
def m140_evening_format(db):
    """The evening's format (halves, deals per half, prizes) on the club's card and kept by each evening as it was
    made; the draw of the next half waiting to be started; each table's half, its number within the half and the
    short code that hands it to its scorer."""
    db.execute("ALTER TABLE clubs ADD COLUMN evening_format TEXT")
    db.execute("ALTER TABLE club_evenings ADD COLUMN format TEXT")
    db.execute("ALTER TABLE club_evenings ADD COLUMN draw TEXT")
    db.execute("ALTER TABLE club_tables ADD COLUMN half INTEGER NOT NULL DEFAULT 1")
    db.execute("ALTER TABLE club_tables ADD COLUMN place INTEGER")
    db.execute("ALTER TABLE club_tables ADD COLUMN code TEXT")
    db.execute("UPDATE club_tables SET place = number")
    db.execute("CREATE UNIQUE INDEX club_tables_code ON club_tables(code) WHERE code IS NOT NULL")


@migrations()
def m141_table_titles_from_data(db):
    """A club table's title is built where it is shown, in the reader's language, from its number, its evening's
    date and its club: the titles stored as text until now ("Bord 1 · 2026-12-01": one language, an ISO date) are
    cleared where they are exactly what the app made; a title someone typed stays."""
    rows = db.execute(
        "SELECT g.id, g.title, t.number, e.date FROM club_tables t JOIN games g ON g.id = t.game_id"
        " JOIN club_evenings e ON e.id = t.evening_id WHERE g.title IS NOT NULL"
    ).fetchall()
    for game_id, title, number, day in rows:
        head, sep, tail = title.rpartition(" · ")
        if sep and tail == day and head.split()[-1:] == [str(number)]:
            db.execute("UPDATE games SET title = NULL WHERE id = ?", [game_id])


# ---------------------------------------------------------------- a deal in progress (m150 onwards)


@migrations()
def m150_open_deals(db):
    """A deal in progress: the bids a table entered before the deal is played, as entered, until the tricks complete
    the hand (one per game, for the deal after its last hand; `input` NULL when none is open). Its own `version`
    counts every change, so a bid entry is checked against what its writer saw without touching the game's version,
    which counts the hands."""
    db.execute("""
        CREATE TABLE open_deals (
            game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            input TEXT,
            version INTEGER NOT NULL DEFAULT 0,
            updated TEXT NOT NULL
        )""")


# ---------------------------------------------------------------- the hall (issue 33: m163)


@migrations()
def m163_drive_replaced_results(db):
    """Who sent each table's stored result (`sender`: a phone's own id, or "organiser"), and every result a second
    phone replaced (`drive_replaced`: the result replaced, who sent it and when, the one that replaced it, who sent
    that and when, and when the organiser settled it), so that the organiser's page shows both until settled. The
    progressive drives stored with substitutes keep the rule they were played under: a substitute's own card
    (`substitute_card` "new"; the default is now that the substitute continues the leaver's card)."""
    db.execute("ALTER TABLE drive_results ADD COLUMN sender TEXT")
    db.execute("""
        CREATE TABLE drive_replaced (
            id INTEGER PRIMARY KEY,
            drive_id TEXT NOT NULL REFERENCES drives(id) ON DELETE CASCADE,
            hand INTEGER NOT NULL,
            table_number INTEGER NOT NULL,
            tricks TEXT NOT NULL,
            sender TEXT,
            sent TEXT NOT NULL,
            by_tricks TEXT NOT NULL,
            by_sender TEXT,
            at TEXT NOT NULL,
            settled TEXT
        )""")
    db.execute("CREATE INDEX drive_replaced_drive ON drive_replaced(drive_id, hand, table_number)")
    db.execute("""
        UPDATE drives SET setup = json_set(setup, '$.substitute_card', 'new')
        WHERE json_extract(setup, '$.format') = 'progressive'
          AND json_array_length(json_extract(setup, '$.substitutes')) > 0""")


# ---------------------------------------------------------------- what a watching phone's poll is checked against


def _bump(scopes: list[str]) -> str:
    """The statement a trigger runs: the live version of each scope `scopes` name (SQL text expressions; NULL names
    none, and a scope named twice goes up once) goes one up, its row made the first time."""
    union = " UNION ".join(f"SELECT {scope} AS scope" for scope in scopes)
    return (
        f"INSERT INTO live_versions (scope, version) SELECT scope, 1 FROM ({union}) WHERE scope IS NOT NULL"
        " ON CONFLICT (scope) DO UPDATE SET version = version + 1;"
    )


_CLUB_OF_EVENING = "(SELECT 'c:' || club_id FROM club_evenings WHERE id = {row}.evening_id)"
_CLUB_OF_TABLE = (
    "(SELECT 'c:' || e.club_id FROM club_tables t JOIN club_evenings e ON e.id = t.evening_id"
    " WHERE t.game_id = {row}.game_id)"
)
# table: the scopes a change to one of its rows touches, as SQL over the row ({row}: NEW or OLD)
LIVE_SCOPES = {
    "games": ["'g:' || {row}.id"],
    "open_deals": ["'g:' || {row}.game_id"],
    "edits": ["'g:' || {row}.game_id"],
    "clubs": ["'c:' || {row}.id"],
    "club_members": ["'c:' || {row}.club_id"],
    "club_evenings": ["'c:' || {row}.club_id"],
    "club_tables": ["'g:' || {row}.game_id", _CLUB_OF_EVENING],
    "club_seats": ["'g:' || {row}.game_id", _CLUB_OF_TABLE],
    "drives": ["'d:' || {row}.id"],
    "drive_results": ["'d:' || {row}.drive_id"],
    "drive_seatings": ["'d:' || {row}.drive_id"],
    "drive_replaced": ["'d:' || {row}.drive_id"],
}


@migrations()
def m170_live_versions(db):
    """A live page's own version (issue 37), counted in the database by triggers, whoever writes: a game's (`g:ID`:
    its row, hands through the version m103 bumps, its deal, its log, its club table and seats), a club's (`c:ID`:
    its row, members, evenings, tables and seats: what a club table's protokoll says of its club) and a drive's
    (`d:ID`). The live door (server/live_door.py) answers a repeated poll while its page's versions have not moved,
    whatever other tables commit. `epoch`, when there, is made anew by a restore."""
    db.execute("CREATE TABLE live_versions (scope TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL)")
    for table, scopes in LIVE_SCOPES.items():
        for event, rows in (("INSERT", ("NEW",)), ("UPDATE", ("OLD", "NEW")), ("DELETE", ("OLD",))):
            body = _bump([scope.format(row=row) for scope in scopes for row in rows])
            db.execute(f"CREATE TRIGGER live_{table}_{event.lower()} AFTER {event} ON {table} BEGIN {body} END")


def _bump_in_order(scopes: list[str]) -> str:
    """m170's statement, and each scope it bumps takes the next `seq`: the order of the changes, which a reader asks
    for by `seq > last` (one writer at a time, so a later commit never has a smaller one)."""
    union = " UNION ".join(f"SELECT {scope} AS scope" for scope in scopes)
    return (
        "INSERT INTO live_versions (scope, version, seq)"
        " SELECT scope, 1, (SELECT coalesce(max(seq), 0) + 1 FROM live_versions)"
        f" FROM ({union}) WHERE scope IS NOT NULL"
        " ON CONFLICT (scope) DO UPDATE SET version = version + 1, seq = excluded.seq;"
    )


@migrations()
def m171_live_changes_in_order(db):
    """The live versions' changes in order (issue 37): `seq`, set by the same triggers, so that the tags nginx answers
    watching phones from (server/live_tags.py) are taken away as soon as their page changes, whoever wrote."""
    db.execute("ALTER TABLE live_versions ADD COLUMN seq INTEGER NOT NULL DEFAULT 0")
    db.execute("CREATE INDEX live_versions_seq ON live_versions(seq)")
    for table, scopes in LIVE_SCOPES.items():
        for event, rows in (("INSERT", ("NEW",)), ("UPDATE", ("OLD", "NEW")), ("DELETE", ("OLD",))):
            name = f"live_{table}_{event.lower()}"
            body = _bump_in_order([scope.format(row=row) for scope in scopes for row in rows])
            db.execute(f"DROP TRIGGER {name}")
            db.execute(f"CREATE TRIGGER {name} AFTER {event} ON {table} BEGIN {body} END")


@migrations()
def m180_edit_log_card_changes(db):
    """The edit log also keeps a game's card replaced (issue 44: the club's card corrected during an evening and applied
    to its tables): action `card`, its options before and after. SQLite cannot change a CHECK, so the table is made
    anew with its rows, its index and its live triggers (m171's)."""
    db.execute("""
        CREATE TABLE edits_new (
            id INTEGER PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            at TEXT NOT NULL,
            action TEXT NOT NULL CHECK (action IN ('added', 'edited', 'deleted', 'card')),
            number INTEGER NOT NULL,
            hand_id INTEGER,
            before TEXT,
            after TEXT
        )""")
    db.execute(
        "INSERT INTO edits_new (id, game_id, at, action, number, hand_id, before, after)"
        " SELECT id, game_id, at, action, number, hand_id, before, after FROM edits"
    )
    db.execute("DROP TABLE edits")
    db.execute("ALTER TABLE edits_new RENAME TO edits")
    db.execute("CREATE INDEX edits_game ON edits(game_id, id)")
    scopes = LIVE_SCOPES["edits"]
    for event, rows in (("INSERT", ("NEW",)), ("UPDATE", ("OLD", "NEW")), ("DELETE", ("OLD",))):
        body = _bump_in_order([scope.format(row=row) for scope in scopes for row in rows])
        db.execute(f"CREATE TRIGGER live_edits_{event.lower()} AFTER {event} ON edits BEGIN {body} END")


# ---------------------------------------------------------------- a club moves in mid-season (issue 45: m181)


@migrations()
def m181_club_imports_and_season(db):
    """A club's past evenings imported from its own sheet: each import (the file's name, its digest with the evenings'
    dates, when, what it added: the club's log of imports, and what makes a second import of the same file add
    nothing), the evenings it made (`club_evenings.import_id`) and each member's evening as the sheet kept it (points
    exact as text, the money before the fee in cents or NULL for the points at the evening's rate, hands and table
    where the sheet had them). And the club's season, named once: {"from", "to"} (ISO dates), recurring yearly."""
    db.execute("ALTER TABLE clubs ADD COLUMN season TEXT")
    db.execute("""
        CREATE TABLE club_imports (
            id INTEGER PRIMARY KEY,
            club_id TEXT NOT NULL REFERENCES clubs(id) ON DELETE CASCADE,
            file_name TEXT NOT NULL,
            digest TEXT NOT NULL,
            at TEXT NOT NULL,
            evenings INTEGER NOT NULL,
            members INTEGER NOT NULL,
            UNIQUE (club_id, digest)
        )""")
    db.execute("ALTER TABLE club_evenings ADD COLUMN import_id INTEGER REFERENCES club_imports(id)")
    db.execute("""
        CREATE TABLE club_imported_results (
            evening_id INTEGER NOT NULL REFERENCES club_evenings(id) ON DELETE CASCADE,
            member_id INTEGER NOT NULL REFERENCES club_members(id),
            points TEXT NOT NULL,
            cents INTEGER,
            hands INTEGER,
            table_number INTEGER,
            PRIMARY KEY (evening_id, member_id)
        )""")
    db.execute("CREATE INDEX club_imported_results_member ON club_imported_results(member_id)")
