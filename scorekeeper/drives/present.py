"""A replayed drive as the finished words and numbers its pages and paper show: seats, moves, standings (the cards
in cards.py), prizes, money, a correction's effect and the hall screen's pages. Templates do no arithmetic;
this does it once, and the paper (drawn by whichever renderer) takes the same dictionaries."""

from __future__ import annotations

from datetime import datetime
from ipaddress import ip_address
from urllib.parse import urlsplit

from flask_babel import format_time
from flask_babel import lazy_gettext as _l

from scorekeeper.drives import rules as core
from scorekeeper.drives import service
from scorekeeper.drives.rules import Round, Standing
from scorekeeper.drives.service import ScoredDrive
from scorekeeper.web import words
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.messages import translate

# A table's seats: the first pair as listed sits North and South (lady North), the second East and West (lady East).
SEATS = core.SEATS
SEAT_WORDS = {"N": _l("North"), "S": _l("South"), "E": _l("East"), "W": _l("West")}
TRUMP_WORDS = {
    "hearts": _l("hearts are trumps"),
    "clubs": _l("clubs are trumps"),
    "diamonds": _l("diamonds are trumps"),
    "spades": _l("spades are trumps"),
    "none": _l("no trumps"),
}
ROLE_WORDS = {"lady": _l("Ladies"), "gent": _l("Gents"), "pair": _l("Pairs")}
ROLE_ONE = {"lady": _l("lady"), "gent": _l("gent"), "pair": _l("pair")}
ORDINALS = {1: _l("1st"), 2: _l("2nd"), 3: _l("3rd"), 4: _l("4th"), 5: _l("5th")}
PRIZE_LABELS = {
    ("place", "lady"): _l("%(place)s lady"),
    ("place", "gent"): _l("%(place)s gent"),
    ("place", "pair"): _l("%(place)s pair"),
    ("place", "any"): _l("%(place)s overall"),
    ("booby", "lady"): _l("Booby prize, ladies"),
    ("booby", "gent"): _l("Booby prize, gents"),
    ("booby", "pair"): _l("Booby prize"),
    ("booby", "any"): _l("Booby prize"),
    ("half_time", "lady"): _l("Half-time, %(place)s lady"),
    ("half_time", "gent"): _l("Half-time, %(place)s gent"),
    ("half_time", "pair"): _l("Half-time, %(place)s pair"),
    ("half_time", "any"): _l("Half-time, %(place)s"),
    ("lucky", "lady"): _l("Lucky number, ladies"),
    ("lucky", "gent"): _l("Lucky number, gents"),
    ("lucky", "pair"): _l("Lucky number"),
    ("lucky", "any"): _l("Lucky number"),
}
# The hall screen's pages, in type sized by the screen's height (drives.css: names 4 % of it, 43 px at 1080 p): "move
# now" in three columns of 14 names, the standings in two columns of 10 rows (a note may take a second line). A list
# longer than a page is shared out evenly over as few pages as it needs, so that no page is near empty.
SCREEN_ROWS = 42
SCREEN_STANDING_ROWS = 10
SCREEN_COLUMNS = 2
# Score cards on A4: four A6 cards a scored_drive, cut in four.
LOOPBACK = ("localhost", "localhost.localdomain", "ip6-localhost")


def trump(trump_name: str) -> dict:
    """A trump as the pages show it: the symbol (or the short word for no trump) and the words."""
    return {"name": trump_name, "symbol": words.suit(trump_name), "words": str(TRUMP_WORDS[trump_name])}


def seat(code: str) -> str:
    return str(SEAT_WORDS[code])


def ordinal(n: int) -> str:
    return str(ORDINALS[n]) if n in ORDINALS else _("%(n)dth", n=n)


def _name(name: str | None, dummy: bool) -> str:
    return name if name is not None else (_("dummy") if dummy else _("empty seat"))


def _people(scored_drive: ScoredDrive, table_hand) -> list[tuple[str | None, str]]:
    """The names at a table in seat order N, S, E, W (a couples pair: first name North or East); None is empty."""
    out: list[tuple[str | None, str]] = []
    for i, pair in enumerate(table_hand.pairs):
        lady, gent = scored_drive.setup.names(pair, table_hand.hand)
        out += [(lady, SEATS[2 * i]), (gent, SEATS[2 * i + 1])]
    return out


def positions(scored_drive: ScoredDrive, played: Round) -> dict[str, tuple[int, str]]:
    """Where each player sits in a hand: name → (table, seat)."""
    return core.positions(scored_drive.setup, played)


def table_view(scored_drive: ScoredDrive, table_hand) -> dict:
    """One table in one hand: the two pairs by name, their seats, the tricks (None until entered) as "8–5", and how
    it plays: "all", "dummy" (one empty seat, played open by its partner) or "out" (sits out)."""
    dummy = table_hand.plays == "dummy"
    people = _people(scored_drive, table_hand)
    return {
        "table": table_hand.table,
        "hand": table_hand.hand,
        "pairs": [
            " & ".join(_name(n, dummy) for n in scored_drive.setup.names(p, table_hand.hand)) for p in table_hand.pairs
        ],
        "seats": [{"name": _name(name, dummy), "seat": seat(code), "empty": name is None} for name, code in people],
        "tricks": table_hand.tricks,
        "score": words.score(table_hand.tricks) if table_hand.tricks else None,
        "plays": table_hand.plays,
        "sits_out": table_hand.plays == "out",
    }


def move_again(scored_drive: ScoredDrive) -> list[dict]:
    """Who must move again in the hand being played (a correction re-seated them after they were told where to go),
    sorted by name: where they were sent first and where they sit now."""
    return [
        {
            "name": name,
            "was": {"table": was[0], "seat": seat(was[1])},
            "now": {"table": now[0], "seat": seat(now[1])},
        }
        for name, (was, now) in sorted(scored_drive.move_again().items(), key=lambda kv: kv[0].casefold())
    ]


def moves(scored_drive: ScoredDrive, hand: int) -> list[dict]:
    """Who sits where for hand `hand`, from where they sat in the hand before: sorted by name, so that each finds
    themselves; `moves` is false for those who stay at their table, `again` true for those a correction re-seated
    (in the hand being played), `out` true for those who sit out the hand."""
    drive = scored_drive.drive
    if hand < 1 or hand > len(drive.rounds):
        return []
    played = drive.rounds[hand - 1]
    now = positions(scored_drive, played)
    before = positions(scored_drive, drive.rounds[hand - 2]) if hand > 1 else {}
    again = scored_drive.move_again() if hand == drive.current else {}
    out_tables = {t.table for t in played.tables if t.plays == "out"}
    out = []
    for name, (table, code) in now.items():
        was = before.get(name)
        out.append(
            {
                "name": name,
                "table": table,
                "seat": seat(code),
                "from_table": was[0] if was else None,
                "moves": was is not None and was[0] != table,
                "again": name in again,
                "out": table in out_tables,
            }
        )
    return sorted(out, key=lambda m: m["name"].casefold())


def leaving(scored_drive: ScoredDrive, table: int) -> list[dict]:
    """Where each of those who played at `table` in the hand before goes for the hand being played: by their seat,
    which moves by the movement; a substitute who takes the seat now is named with the one they replace."""
    drive, setup = scored_drive.drive, scored_drive.setup
    if drive.current < 2:
        return []
    before, now = drive.rounds[drive.current - 2], drive.rounds[drive.current - 1]
    where: dict[tuple[str, int], tuple[int, str]] = {}
    for t in now.tables:
        for i, (lady, gent) in enumerate(t.pairs):
            where["lady", lady] = (t.table, SEATS[2 * i])
            where["gent", gent] = (t.table, SEATS[2 * i + 1])
    out = []
    for lady, gent in before.tables[table - 1].pairs:
        for role, number in (("lady", lady), ("gent", gent)):
            was, holder = setup.holder(role, number, before.hand), setup.holder(role, number, now.hand)
            if holder is None:
                continue
            to_table, code = where[role, number]
            out.append(
                {
                    "name": holder.name,
                    "instead_of": was.name if was is not None and was.key != holder.key else None,
                    "table": to_table,
                    "seat": seat(code),
                    "out": now.tables[to_table - 1].plays == "out",
                }
            )
    return out


def sender_words(sender: str | None) -> str:
    """Who sent a table's result, as the organiser's page names them: a phone by its own id (the table page shows it
    as "This phone: K3F9"), the organiser, or a phone from before phones were told apart."""
    if sender == service.ORGANISER:
        return _("the organiser")
    if sender and sender.startswith("phone:"):
        return _("phone %(id)s", id=sender.removeprefix("phone:"))
    return _("a phone")


def _clock(stamp: str | None) -> str:
    if not stamp:
        return ""
    try:
        return format_time(datetime.fromisoformat(stamp), "medium")
    except ValueError:
        return ""


def replaced(scored_drive: ScoredDrive) -> list[dict]:
    """The results a second phone replaced, until the organiser settles them: per table and hand, each result with
    who sent it and when, the one stored now marked."""
    out = []
    for r in scored_drive.replaced:
        stored = scored_drive.results.get((r.hand, r.table))
        rows = [
            {
                "score": f"{r.tricks[0]}–{r.tricks[1]}",
                "tricks": r.tricks[0],
                "by": sender_words(r.sender),
                "at": _clock(r.sent),
            },
            {
                "score": f"{r.by_tricks[0]}–{r.by_tricks[1]}",
                "tricks": r.by_tricks[0],
                "by": sender_words(r.by_sender),
                "at": _clock(r.at),
            },
        ]
        for row in rows:
            row["stored"] = stored is not None and stored[0] == row["tricks"]
        out.append(
            {
                "hand": r.hand,
                "table": r.table,
                "results": rows,
                "stored": None if stored is None else f"{stored[0]}–{stored[1]}",
            }
        )
    return out


def waiting_for(played: Round) -> list[int]:
    return [t.table for t in played.tables if not t.done]


def _note(s: Standing) -> str:
    notes = []
    if s.lady_as_gent:
        notes.append(_("lady playing as gent"))
    if not s.full:
        notes.append(_("played %(n)d hands", n=s.played))
    if s.formerly and s.role == "pair":
        notes.append(_("with %(names)s before", names=", ".join(s.formerly)))
    elif s.formerly:  # progressive, the substitute continues the card
        notes.append(_("took over the card from %(names)s", names=", ".join(s.formerly)))
    if s.sat_out:
        notes.append(_("sat out %(n)d", n=s.sat_out))
    return "; ".join(notes)


def standings_view(
    standings: tuple[Standing, ...] | None, top: int | None = None, countback: bool = False
) -> list[dict]:
    """Standings by role (ladies and gents, or pairs), each with its rows; `top` keeps the first places only. Under
    countback, a row level on total with the one above says why it is behind ("7 v 6 in the last hand")."""
    if standings is None:
        return []
    out: list[dict] = []
    previous: Standing | None = None
    for s in standings:
        if not out or out[-1]["role"] != s.role:
            out.append({"role": s.role, "label": str(ROLE_WORDS[s.role]), "rows": []})
            previous = None
        why = None
        if countback and previous is not None and s.place is not None and previous.place != s.place:
            reason = core.countback_reason(previous, s)
            if reason is not None:
                why = _("behind on countback: %(why)s", why=translate(reason))
        if top is None or len(out[-1]["rows"]) < top:
            out[-1]["rows"].append(
                {
                    "place": s.place if s.place is not None else "–",
                    "names": " & ".join(s.names),
                    "total": s.total,
                    "note": _note(s),
                    "why": why,
                    "number": s.number,
                }
            )
        previous = s
    return out


def drive_head(scored_drive: ScoredDrive) -> dict:
    """What every drive page shows at the top: the title, the format, the hand being played and its trump."""
    drive, setup = scored_drive.drive, scored_drive.setup
    current = drive.rounds[drive.current - 1]
    return {
        "id": scored_drive.id,
        "title": setup.title or _("Whist drive"),
        "format": _("couples") if setup.couples else _("progressive"),
        "movement": _("fresh partners")
        if setup.movement == "fresh" and not setup.couples
        else _("fresh opponents")
        if setup.movement == "fresh"
        else None,
        "hands": setup.hands,
        "tables": setup.tables,
        "players": setup.players,
        "current": drive.current,
        "trump": trump(current.trump),
        "finished": drive.finished,
        "final": scored_drive.final,
        "interval_after": setup.interval_after,
        "waiting_for": [] if drive.finished else waiting_for(current),
        "provisional": current.started and not current.complete,
        "at_interval": setup.interval_after is not None
        and drive.current == setup.interval_after + 1
        and not current.started,
        "sit_out": setup.sit_out,
        "empty_seats": setup.empty_seats,
    }


def sit_out_rule(setup: core.DriveSetup) -> str | None:
    """The odd numbers' rule in words, for a drive that has empty seats."""
    if not setup.empty_seats:
        return None
    score = _("their own average") if setup.sit_out == core.SIT_OUT_AVERAGE else _("%(n)d tricks", n=int(setup.sit_out))
    if setup.spare_seats == "sit_out" and not setup.couples:
        return _(
            "%(empty)d empty seats, kept together: one table sits out each hand, in turn, and each player there "
            "scores %(score)s; an empty seat left over plays with a dummy (its partner plays the open hand).",
            empty=setup.empty_seats,
            score=score,
        )
    return _(
        "%(empty)d empty seats: a table with one plays with a dummy (its partner plays the open hand); a table with "
        "two or more sits out the hand, and each player there scores %(score)s.",
        empty=setup.empty_seats,
        score=score,
    )


def spare_seats(setup: core.DriveSetup) -> dict:
    """The spare seats a drive has (a lady's and a gent's seat its people leave empty), for the people page's rule."""
    ladies = setup.seats - len(setup.ladies)
    gents = setup.seats - len(setup.gents)
    return {"ladies": ladies, "gents": gents, "together": min(ladies, gents), "any": bool(ladies or gents)}


# ---------------------------------------------------------------- prizes and money


def prize_label(rule: core.PrizeRule) -> str:
    template = PRIZE_LABELS[rule.kind, rule.role]
    return str(template) % {"place": ordinal(rule.place)} if "%(place)s" in str(template) else str(template)


def prizes(scored_drive: ScoredDrive, money: dict | None, organiser: bool = False) -> list[dict]:
    """The prizes in the organiser's order with who won them, or why not yet; what each cost only for the organiser."""
    out = []
    listed = (money or {}).get("prizes", [])
    for prize, given in zip(listed, service.awards(scored_drive, money)):
        rule = given.rule
        passed = [
            _(
                "%(name)s passed over: already has a prize (%(prize)s)",
                name=name,
                prize=prize_label(core.PrizeRule(listed[i]["kind"], listed[i]["role"], listed[i]["place"])),
            )
            for name, i in given.passed
        ]
        if given.status == "waiting":
            status = _("given at the interval") if rule.kind == "half_time" else _("given once the drive is over")
        elif given.status == "draw":
            status = (
                _("drawn by the app when you draw the prizes")
                if rule.kind == "lucky"
                else _("equal: the app cuts for it when you draw the prizes")
            )
        elif given.status == "none":
            status = _("nobody left to give it to")
        elif rule.kind == "lucky":
            status = _("lucky number %(n)d", n=given.number or 0)
        elif given.shared:
            status = _("shared: equal all the way")
        elif given.drawn:
            status = _("equal: by a cut the app drew")
        else:
            status = None
        out.append(
            {
                "label": prize_label(rule),
                "kind": rule.kind,
                "name": prize["name"],
                "amount": prize["amount"] if organiser else None,
                "winners": list(given.names),
                "status": status,
                "won": given.status == "won",
                "needs_draw": given.status == "draw",
                "reasons": [translate(r) for r in given.reasons] + passed,
                "passed": passed,
                "total": given.total,
            }
        )
    return out


def money_view(scored_drive: ScoredDrive, money: dict | None) -> dict | None:
    """Entry fees × players, the cash prizes, and what the drive raised (in cents, for the money filter): for the
    organiser's pages only."""
    if not money:
        return None
    players = scored_drive.setup.players
    takings = money["fee"] * players
    paid = sum(p["amount"] for p in money.get("prizes", []))
    return {
        "currency": money["currency"],
        "fee": money["fee"],
        "players": players,
        "takings": takings,
        "prizes": paid,
        "raised": takings - paid,
    }


# ---------------------------------------------------------------- a correction's effect, before it is saved


def correction_view(scored_drive: ScoredDrive, change: core.Change, hand: int, table: int) -> dict:
    """What a correction does, in words: the result before and after, who moves (from where to where, in which hand),
    whose totals change, and which hands keep the seating they were played in."""
    before_t = change.before.rounds[hand - 1].tables[table - 1]
    after_t = change.after.rounds[hand - 1].tables[table - 1]
    kept = sorted(change.keep)
    return {
        "hand": hand,
        "table": table,
        "pairs": table_view(scored_drive, before_t)["pairs"],
        "was": words.score(before_t.tricks) if before_t.tricks else None,
        "now": words.score(after_t.tricks) if after_t.tricks else None,
        "moved": [
            {
                "name": name,
                "hand": h,
                "was": {"table": was[0], "seat": seat(was[1])},
                "now": {"table": now[0], "seat": seat(now[1])},
            }
            for name, h, was, now in change.moved
        ],
        "totals": [{"name": n, "was": a, "now": b} for n, a, b in change.totals],
        "kept": kept,
        "winner_turns": before_t.tricks is not None
        and after_t.tricks is not None
        and (before_t.tricks[0] >= core.WINNING_TRICKS) != (after_t.tricks[0] >= core.WINNING_TRICKS),
    }


# ---------------------------------------------------------------- the hall's screen


def shared_out(rows: list, most: int) -> list[list]:
    """`rows` in as few parts of at most `most` as they need, the parts as even as can be (38 in two of 36 would
    leave 2 on the second: 19 and 19)."""
    parts = max(1, -(-len(rows) // most))
    size, extra = divmod(len(rows), parts)
    out, at = [], 0
    for i in range(parts):
        n = size + (1 if i < extra else 0)
        out.append(rows[at : at + n])
        at += n
    return out


def _standings_pages(groups: list[dict]) -> list[list[dict]]:
    """Everyone's standing on the hall screen, SCREEN_COLUMNS columns of SCREEN_STANDING_ROWS rows a page: two roles
    side by side, page after page (ladies 1–10 beside gents 1–10, then 11–19 beside 11–19); one list (pairs) in
    columns. A column's caption says which places it holds."""
    parts: list[list[dict]] = []
    for group in groups:
        n = len(group["rows"])
        pieces = shared_out(group["rows"], SCREEN_STANDING_ROWS)
        parts.append([])
        at = 0
        for piece in pieces:
            label = group["label"]
            if len(pieces) > 1 and piece:
                label = _(
                    "%(label)s (%(first)d–%(last)d of %(count)d)",
                    label=label,
                    first=at + 1,
                    last=at + len(piece),
                    count=n,
                )
            parts[-1].append({**group, "label": label, "rows": piece})
            at += len(piece)
    if len(parts) == SCREEN_COLUMNS:  # side by side: the same places of both on one page
        depth = max(len(p) for p in parts)
        padded = [p + [None] * (depth - len(p)) for p in parts]
        return [[c for c in column if c is not None] for column in zip(*padded)]
    columns = [c for p in parts for c in p]
    return [columns[i : i + SCREEN_COLUMNS] for i in range(0, len(columns), SCREEN_COLUMNS)] or [[]]


def screen_pages(scored_drive: ScoredDrive, money: dict | None) -> list[dict]:
    """The hall screen's pages, shown one after another (each for a few seconds, then the page reloads): the
    "move now" list in even pages of at most SCREEN_ROWS names, so that every player finds their table within one
    cycle; everyone's standing once a result is in (marked provisional while the hand is being played), in pages; the
    half-time leaders; the prizes at the end."""
    head = drive_head(scored_drive)
    pages: list[dict] = []
    if not head["finished"]:
        parts = shared_out(moves(scored_drive, head["current"]), SCREEN_ROWS)
        for i, rows in enumerate(parts):
            pages.append({"kind": "moves", "rows": rows, "part": i + 1, "parts": len(parts)})
    countback = scored_drive.setup.tie_break == "countback"
    begun = head["finished"] or head["provisional"] or head["current"] > 1  # before the first result: all on 0
    groups = standings_view(scored_drive.drive.standings, countback=countback) if begun else None
    standings = _standings_pages(groups) if groups else []
    for i, groups in enumerate(standings):
        pages.append(
            {
                "kind": "standings",
                "groups": groups,
                "part": i + 1,
                "parts": len(standings),
                "provisional": head["provisional"],
                "after": head["current"] - (0 if head["finished"] or head["provisional"] else 1),
            }
        )
    if scored_drive.drive.half_time is not None and not head["finished"]:
        pages.append(
            {
                "kind": "half_time",
                "groups": standings_view(scored_drive.drive.half_time, top=SCREEN_STANDING_ROWS, countback=countback),
            }
        )
    listed = prizes(scored_drive, money)
    if listed:
        pages.append({"kind": "prizes", "prizes": listed})
    return pages


# ---------------------------------------------------------------- the table cards' address


def unreachable(url: str) -> str | None:
    """The host of a QR code's address if phones cannot reach it (this machine's own name: localhost, 127.0.0.1,
    ::1, 0.0.0.0), else None."""
    host = urlsplit(url).hostname or ""
    if host.lower() in LOOPBACK or host.lower().endswith(".localhost"):
        return host
    try:
        address = ip_address(host)
    except ValueError:
        return None
    return host if address.is_loopback or address.is_unspecified else None
