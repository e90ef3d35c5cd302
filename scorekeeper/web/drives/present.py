"""A replayed drive as the finished words and numbers its pages and paper show: seats, moves, standings, score
cards, tally cards, prizes and money. Templates do no arithmetic; this does it once."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from scorekeeper.core.drives import Drive, Round, Standing
from scorekeeper.services.drives import ScoredDrive
from scorekeeper.web import words
from scorekeeper.web.i18n import gettext as _

# A table's seats: the first pair as listed sits North and South (lady North), the second East and West (lady East).
SEATS = ("N", "S", "E", "W")
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
PRIZE_WORDS = {
    "top_lady": _l("Top lady"),
    "top_gent": _l("Top gent"),
    "top_pair": _l("Top pair"),
    "half_time": _l("Half-time"),
    "booby": _l("Booby prize"),
}


def trump(trump_name: str) -> dict:
    """A trump as the pages show it: the symbol (or the short word for no trump) and the words."""
    return {"name": trump_name, "symbol": words.suit(trump_name), "words": str(TRUMP_WORDS[trump_name])}


def seat(code: str) -> str:
    return str(SEAT_WORDS[code])


def _people(scored_drive: ScoredDrive, table_hand) -> list[tuple[str, str]]:
    """The names at a table in seat order N, S, E, W (a couples pair: first name North or East)."""
    out = []
    for i, pair in enumerate(table_hand.pairs):
        lady, gent = scored_drive.setup.names(pair)
        out += [(lady, SEATS[2 * i]), (gent, SEATS[2 * i + 1])]
    return out


def positions(scored_drive: ScoredDrive, played: Round) -> dict[str, tuple[int, str]]:
    """Where each player sits in a hand: name → (table, seat)."""
    return {name: (t.table, code) for t in played.tables for name, code in _people(scored_drive, t)}


def table_view(scored_drive: ScoredDrive, table_hand) -> dict:
    """One table in one hand: the two pairs by name, their seats, the tricks (None until entered) as "8–5"."""
    people = _people(scored_drive, table_hand)
    return {
        "table": table_hand.table,
        "pairs": [" & ".join(scored_drive.setup.names(p)) for p in table_hand.pairs],
        "seats": [{"name": name, "seat": seat(code)} for name, code in people],
        "tricks": table_hand.tricks,
        "score": words.score(table_hand.tricks) if table_hand.tricks else None,
    }


def moves(scored_drive: ScoredDrive, hand: int) -> list[dict]:
    """Who sits where for hand `hand`, from where they sat in the hand before: sorted by name, so that each finds
    themselves; `moves` is false for those who stay at their table."""
    drive = scored_drive.drive
    if hand < 1 or hand > len(drive.rounds):
        return []
    now = positions(scored_drive, drive.rounds[hand - 1])
    before = positions(scored_drive, drive.rounds[hand - 2]) if hand > 1 else {}
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
            }
        )
    return sorted(out, key=lambda m: m["name"].casefold())


def waiting_for(played: Round) -> list[int]:
    return [t.table for t in played.tables if t.tricks is None]


def standings_view(standings: tuple[Standing, ...] | None, top: int | None = None) -> list[dict]:
    """Standings by role (ladies and gents, or pairs), each with its rows; `top` keeps the first places only."""
    if standings is None:
        return []
    out: list[dict] = []
    for s in standings:
        if not out or out[-1]["role"] != s.role:
            out.append({"role": s.role, "label": str(ROLE_WORDS[s.role]), "rows": []})
        if top is None or len(out[-1]["rows"]) < top:
            out[-1]["rows"].append({"place": s.place, "names": " & ".join(s.names), "total": s.total})
    return out


def drive_head(scored_drive: ScoredDrive) -> dict:
    """What every drive page shows at the top: the title, the format, the hand being played and its trump."""
    drive, setup = scored_drive.drive, scored_drive.setup
    current = drive.rounds[drive.current - 1]
    return {
        "id": scored_drive.id,
        "title": setup.title or _("Whist drive"),
        "format": _("couples") if setup.couples else _("progressive"),
        "hands": setup.hands,
        "tables": setup.tables,
        "current": drive.current,
        "trump": trump(current.trump),
        "finished": drive.finished,
        "interval_after": setup.interval_after,
        "waiting_for": [] if drive.finished else waiting_for(current),
        "at_interval": setup.interval_after is not None
        and drive.current == setup.interval_after + 1
        and not current.started,
    }


# ---------------------------------------------------------------- paper


def _seats_by_hand(scored_drive: ScoredDrive) -> list[dict[tuple[str, int], tuple[int, str, int | None, int | None]]]:
    """Per hand seated so far: (role, index) of each lady and gent (each pair: role "pair") → (table, seat, own
    tricks, opponents' tricks), the tricks None until entered. One pass over the tables, not one per player."""
    couples = scored_drive.setup.couples
    out = []
    for played in scored_drive.drive.rounds:
        seats: dict[tuple[str, int], tuple[int, str, int | None, int | None]] = {}
        for t in played.tables:
            for i, (lady, gent) in enumerate(t.pairs):
                own, opp = (t.tricks[i], t.tricks[1 - i]) if t.tricks is not None else (None, None)
                if couples:
                    seats["pair", lady] = (t.table, SEATS[2 * i], own, opp)
                else:
                    seats["lady", lady] = (t.table, SEATS[2 * i], own, opp)
                    seats["gent", gent] = (t.table, SEATS[2 * i + 1], own, opp)
        out.append(seats)
    return out


def score_cards(scored_drive: ScoredDrive) -> list[dict]:
    """One card per lady and gent (per pair in a couples drive): name, role, start table and seat, and per hand the
    trump, table, own and opponents' tricks and the running total; half-time and final totals."""
    setup, drive = scored_drive.setup, scored_drive.drive
    people = (
        [(" & ".join(setup.names((i, i))), "pair", i) for i in range(len(setup.ladies))]
        if setup.couples
        else [(n, "lady", i) for i, n in enumerate(setup.ladies)] + [(n, "gent", i) for i, n in enumerate(setup.gents)]
    )
    by_hand = _seats_by_hand(scored_drive)
    cards = []
    for name, role, index in people:
        seated = [seats.get((role, index)) for seats in by_hand]
        rows, total, half = [], 0, None
        for hand in range(1, setup.hands + 1):
            at = seated[hand - 1] if hand <= len(seated) else None
            row = {"hand": hand, "trump": words.suit(setup.trump(hand)), "table": "", "seat": "", "own": "", "opp": ""}
            row["total"] = ""
            if at is not None:
                row.update(table=at[0], seat=at[1])
                if at[2] is not None:
                    total += at[2]
                    row.update(own=at[2], opp=at[3], total=total)
            rows.append(row)
            if hand == setup.interval_after and hand <= len(seated) and drive.rounds[hand - 1].complete:
                half = total
        cards.append(
            {
                "name": name,
                "role": str(ROLE_ONE[role]),
                "start": f"{seated[0][0]} {seat(seated[0][1])}",
                "rows": rows,
                "interval_after": setup.interval_after,
                "half": half,
                "final": total if drive.finished else None,
            }
        )
    return cards


def tally_cards(scored_drive: ScoredDrive) -> list[dict]:
    """One card per table: per hand the trump, the two pairs seated there and the tricks each took."""
    setup, drive = scored_drive.setup, scored_drive.drive
    cards = []
    for table in range(1, setup.tables + 1):
        rows = []
        for hand in range(1, setup.hands + 1):
            row = {"hand": hand, "trump": words.suit(setup.trump(hand)), "pairs": ["", ""], "tricks": ["", ""]}
            if hand <= len(drive.rounds):
                t = drive.rounds[hand - 1].tables[table - 1]
                row["pairs"] = [" & ".join(setup.names(p)) for p in t.pairs]
                if t.tricks is not None:
                    row["tricks"] = list(t.tricks)
            rows.append(row)
        cards.append({"table": table, "rows": rows})
    return cards


def blank_card(hands: int, trumps: tuple[str, ...]) -> dict:
    """A score card for a drive kept on paper: every hand's trump printed, the rest to fill in."""
    return {"rows": [{"hand": h, "trump": words.suit(trumps[(h - 1) % len(trumps)])} for h in range(1, hands + 1)]}


def _best(standings: tuple[Standing, ...] | None, role: str | None, lowest: bool = False) -> list[str]:
    pool = [s for s in standings or () if role is None or s.role == role]
    if not pool:
        return []
    target = (min if lowest else max)(s.total for s in pool)
    if not lowest:
        first = min(s.place for s in pool if s.total == target)
        return [" & ".join(s.names) for s in pool if s.total == target and s.place == first]
    return [" & ".join(s.names) for s in pool if s.total == target]


def prizes(scored_drive: ScoredDrive, money: dict | None) -> list[dict]:
    """The prizes with who won them (once the drive is finished; the half-time prize once the interval is reached)."""
    drive: Drive = scored_drive.drive
    couples = scored_drive.setup.couples
    out = []
    for prize in (money or {}).get("prizes", []):
        kind = prize["kind"]
        if kind == "half_time":
            winners = _best(drive.half_time, None)
        elif not drive.finished:
            winners = []
        elif kind == "booby":
            winners = _best(drive.standings, None, lowest=True)
        elif kind == "top_pair":
            winners = _best(drive.standings, "pair" if couples else None)
        else:
            winners = _best(drive.standings, "pair" if couples else kind.removeprefix("top_"))
        out.append(
            {
                "kind": kind,
                "label": str(PRIZE_WORDS[kind]),
                "name": prize["name"],
                "amount": prize["amount"],
                "winners": winners,
            }
        )
    return out


def money_view(scored_drive: ScoredDrive, money: dict | None) -> dict | None:
    """Entry fees × players, the cash prizes, and what the drive raised (in cents, for the money filter)."""
    if not money:
        return None
    players = 2 * len(scored_drive.setup.ladies)
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
