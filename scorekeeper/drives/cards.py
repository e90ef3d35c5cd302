"""A drive's cards as the paper shows them: each player's score card (a row per hand: table, seat, trump, partner,
opponents, tricks, the running total), the tallies a table keeps, the blank cards, and how many go on a sheet. The
words and numbers are finished here (as in present.py), and both renderers take the same dictionaries."""

from __future__ import annotations

from scorekeeper.drives.present import ROLE_ONE, SEATS, seat, table_view
from scorekeeper.drives.service import ScoredDrive
from scorekeeper.web import words
from scorekeeper.web.i18n import gettext as _

CARDS_PER_SHEET = 4


def _seats_by_hand(scored_drive: ScoredDrive) -> list[dict[str, tuple[int, str, int | None, int | None, str]]]:
    """Per hand seated so far: person key (couples: "pair:<seat>") → (table, seat, own tricks, opponents' tricks,
    how the table played), the tricks None until entered. One pass over the tables, not one per player."""
    setup = scored_drive.setup
    out = []
    for played in scored_drive.drive.rounds:
        seats: dict[str, tuple[int, str, int | None, int | None, str]] = {}
        for t in played.tables:
            for i, (lady, gent) in enumerate(t.pairs):
                own, opp = (t.tricks[i], t.tricks[1 - i]) if t.tricks is not None else (None, None)
                if setup.couples:
                    if not setup.empty("lady", lady):
                        seats[f"pair:{lady}"] = (t.table, SEATS[2 * i], own, opp, t.plays)
                    continue
                for role, seat_no, code in (("lady", lady, SEATS[2 * i]), ("gent", gent, SEATS[2 * i + 1])):
                    person = setup.holder(role, seat_no, played.hand)
                    if person is not None:
                        seats[person.key] = (t.table, code, own, opp, t.plays)
        out.append(seats)
    return out


def score_cards(scored_drive: ScoredDrive) -> list[dict]:
    """One card per lady and gent (per pair in a couples drive), in the lists' order: name, card number, role, start
    table and seat, and per hand the trump, table (marked when it plays with a dummy), own and opponents' tricks and
    the running total; half-time and final totals. A substitute's card starts at their first hand; a hand sat out says so and scores the rule's
    tricks."""
    setup, drive = scored_drive.setup, scored_drive.drive
    by_key = {s.key: s for s in drive.standings}
    card_of: dict[str, str] = {}  # a holder's key → the card they play on
    if setup.couples:
        people = [
            (f"pair:{i}", " & ".join(n for n in setup.names((i, i), max(len(drive.rounds), 1)) if n), "pair", 1, i + 1)
            for i in range(len(setup.ladies))
        ]
    elif setup.substitute_card == "continue":
        # One card a seat: the substitute carries on the leaver's card, its number and its total.
        people = []
        for role, names in (("lady", setup.ladies), ("gent", setup.gents)):
            for seat_no in range(len(names)):
                holders = setup.seat_index.get((role, seat_no), ())
                if not holders:
                    continue
                name = holders[0].name
                for later in holders[1:]:
                    name = _("%(first)s, then %(then)s from hand %(n)d", first=name, then=later.name, n=later.first)
                people.append((holders[0].key, name, role, 1, holders[0].number))
                card_of.update({p.key: holders[0].key for p in holders})
        people.sort(key=lambda p: p[4])
    else:
        people = [(p.key, p.name, p.role, p.first, p.number) for p in setup.people]
        people.sort(key=lambda p: p[4])
    by_hand = _seats_by_hand(scored_drive)
    if card_of:
        by_hand = [{card_of.get(k, k): v for k, v in seats.items()} for seats in by_hand]
    cards = []
    for key, name, role, first, number in people:
        seated = [seats.get(key) for seats in by_hand]
        standing = by_key.get(key)
        rows, total, half = [], 0, None
        for hand in range(1, setup.hands + 1):
            at = seated[hand - 1] if hand <= len(seated) else None
            row = {"hand": hand, "trump": words.suit(setup.trump(hand)), "table": "", "seat": "", "own": "", "opp": ""}
            row["total"] = ""
            if at is not None:
                # a seat at the table is empty: its hand is laid open as a dummy, which the card says
                row.update(table=_("%(table)d, dummy", table=at[0]) if at[4] == "dummy" else at[0], seat=at[1])
                if at[4] == "out" and standing is not None:
                    total += standing.by_hand[hand - 1]
                    row.update(own=standing.by_hand[hand - 1], opp=_("out"), total=total)
                elif at[2] is not None:
                    total += at[2]
                    row.update(own=at[2], opp=at[3], total=total)
            rows.append(row)
            if hand == setup.interval_after and hand <= len(seated) and drive.rounds[hand - 1].complete:
                half = total
        start = next((s for s in seated if s is not None), None)
        cards.append(
            {
                "name": name,
                "number": number,
                "role": str(ROLE_ONE[role]),
                "lady_as_gent": standing is not None and standing.lady_as_gent,
                "start": f"{start[0]} {seat(start[1])}" if start else "",
                "from_hand": first if first > 1 else None,
                "rows": rows,
                "interval_after": setup.interval_after,
                "half": half,
                "final": total if drive.finished else None,
            }
        )
    return cards


def sheets_of(cards: list[dict], per_sheet: int = CARDS_PER_SHEET) -> list[list[dict]]:
    """Cards in A4 sheets of `per_sheet` (four A6 score cards, two A5 blank cards): the last scored_drive may be short."""
    return [cards[i : i + per_sheet] for i in range(0, len(cards), per_sheet)]


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
                view = table_view(scored_drive, t)
                row["pairs"] = view["pairs"]
                if t.tricks is not None:
                    row["tricks"] = list(t.tricks)
                elif t.plays == "out":
                    row["tricks"] = [_("out"), _("out")]
            rows.append(row)
        cards.append({"table": table, "rows": rows})
    return cards


def blank_card(hands: int, trumps: tuple[str, ...]) -> dict:
    """A score card for a drive kept on paper: every hand's trump printed, the rest to fill in."""
    return {"rows": [{"hand": h, "trump": words.suit(trumps[(h - 1) % len(trumps)])} for h in range(1, hands + 1)]}
