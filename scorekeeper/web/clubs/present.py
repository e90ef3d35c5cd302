"""Club results as the pages and the CSV files show them: names for member ids; money in cents for the pages' `money`
filter and as decimal numbers in the CSV files. No arithmetic."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from flask_babel import gettext as _

from scorekeeper.core import VARIANTS, table_for
from scorekeeper.core import club as club_rules
from scorekeeper.services.clubs import EveningData
from scorekeeper.web import describe, words
from scorekeeper.web.i18n import signed_number
from scorekeeper.web.present import minus
from scorekeeper.web.sheets.paper import guard
from scorekeeper.web.variants import VIEWS


def amount(cents: int) -> Decimal:
    """Cents as a number for a CSV cell: 1250 → 12.50."""
    return Decimal(cents).scaleb(-2)


def party_name(party, members, first: bool = False) -> str:
    """A member's name as it is now, or the kitty (capitalised when it starts the sentence)."""
    if party == club_rules.KITTY:
        return _("The kitty") if first else _("the kitty")
    member = members.get(party)
    return member.name if member else "?"


def rules_context(club) -> dict:
    """The club's rule set in words, and the bid × tricks matrix it gives when its variant has a tariff."""
    view = VIEWS[club.variant]
    return {
        "variant_title": _(VARIANTS[club.variant].TITLE),
        "rules": describe.house_rules(table_for(club.variant, club.options)),
        "matrix": matrix_context(club.variant, club.options),
        "rate": club.options.get("rate") if VARIANTS[club.variant].FOR_MONEY else None,
        "stats": view.CLUB_STATS,
    }


def matrix_context(variant: str, options) -> dict | None:
    """Rows of the bid × tricks matrix (plain bids; a suffix doubles) and the sol values; None without a tariff."""
    tariff_matrix = VIEWS[variant].tariff_matrix
    if tariff_matrix is None:
        return None
    matrix = tariff_matrix(options)
    return {
        "tricks": list(range(14)),
        "rows": [
            {"bid": bid, "cells": [{"text": minus(v), "made": v > 0} for v in values]}
            for bid, values in matrix["bids"].items()
        ],
        "sol": [{"bid": name, "made": made, "lost": lost} for name, made, lost in matrix["sol"]],
    }


def table_context(table, members) -> dict:
    scored_game = table.scored_game
    names = [members[m].name for m in table.record.members]
    p = scored_game.protokoll
    sides = words.side_names(names, p.sides)
    return {
        "number": table.record.number,
        "game_id": scored_game.game.id,
        "variant": _(VARIANTS[scored_game.game.variant].TITLE),
        "money": VARIANTS[scored_game.game.variant].FOR_MONEY,
        "hands": len(p.hands),
        "finished": p.finished,
        "standing": [{"name": n, "total": minus(t)} for n, t in zip(sides, p.totals)],
    }


def changes_since_settled(data: EveningData) -> list[str]:
    """What was changed on a settled evening since it was settled: "hands", "fee" (these change the balances),
    "date", "settlement" (the way of settling up, as the evening is set, not as a page is asked to show it)."""
    if not data.record.settled:
        return []
    changes = list(data.result.money_changed_since_settled)
    terms = data.record.settled_terms or {}
    for key, now in (("date", data.record.date), ("settlement", data.record.settlement)):
        if key in terms and terms[key] != now:
            changes.append(key)
    return changes


def evening_context(data: EveningData, members, currency: str | None = None) -> dict:
    """The evening's result: money per member (best first), standings, the kitty and the payments; the money in the
    currency the evening was played in (`currency` only for an evening that does not know it)."""
    r = data.result
    rows = sorted(r.members, key=lambda m: (-m.net, -m.points, party_name(m.member, members).casefold()))
    at_standings = {
        m for t in data.tables if not VARIANTS[t.scored_game.game.variant].FOR_MONEY for m in t.record.members
    }
    standings = sorted(
        (m for m in r.members if m.member in at_standings),
        key=lambda m: (-m.games_won, -m.standing_points, party_name(m.member, members).casefold()),
    )
    return {
        "id": data.record.id,
        "date": data.record.date,
        "currency": data.record.currency or currency,
        "rate": data.record.rate,
        "fee": data.record.fee_cents or None,
        "settlement": r.evening.settlement,
        "stored_settlement": data.record.settlement,
        "settled": data.record.settled,
        "changed": r.changed_since_settled,
        "changes": changes_since_settled(data),
        "has_money": r.has_money,
        "has_standings": r.has_standings,
        "members": [
            {
                "id": m.member,
                "name": party_name(m.member, members),
                "tables": m.tables,
                "hands": m.hands,
                "points": minus(m.points),
                "winnings": m.winnings,
                "fee": m.fee,
                "net": m.net,
                "won": m.net > 0,
                "lost": m.net < 0,
            }
            for m in rows
        ],
        "standings": [
            {"name": party_name(m.member, members), "games_won": m.games_won, "points": minus(m.standing_points)}
            for m in standings
        ],
        "kitty": r.kitty or None,
        "payments": [
            {"from": party_name(t.payer, members, first=True), "to": party_name(t.payee, members), "amount": t.cents}
            for t in r.transfers
        ],
        "tables": [table_context(t, members) for t in data.tables],
    }


def _currencies(ledger: club_rules.Ledger, currency: str) -> tuple[str, ...]:
    """The ledger's currencies; with no money at all, the club's (`currency`)."""
    return ledger.currencies or (currency,)


def _per_currency(by_currency, currencies) -> list[dict]:
    return [
        {"currency": c, "net": by_currency.get(c, (0, 0))[0], "unsettled": by_currency.get(c, (0, 0))[1]}
        for c in currencies
    ]


def ledger_context(ledger: club_rules.Ledger, members, currency: str) -> dict:
    """The season; money per currency the evenings were played in (`currency`, the club's, when none has money),
    never one sum of two currencies."""
    has_standings = any(r.has_standings for r in ledger.results)
    currencies = _currencies(ledger, currency)
    evenings = [
        {
            "id": r.evening.id,
            "date": r.evening.date,
            "settled": r.evening.settled is not None,
            "currency": r.evening.currency or currency,
        }
        for r in ledger.results
    ]
    lines = []
    first = currencies[0]
    for line in sorted(
        ledger.lines,
        key=lambda entry: (-entry.by_currency.get(first, (0, 0))[0], party_name(entry.member, members).casefold()),
    ):
        member = members.get(line.member)
        lines.append(
            {
                "name": party_name(line.member, members),
                "retired": bool(member and member.retired),
                "evenings": line.evenings,
                "hands": line.hands,
                "points": minus(line.points),
                "money": _per_currency(line.by_currency, currencies),
                "games_won": line.games_won,
                "standing_points": minus(line.standing_points),
                "entries": [
                    {
                        "date": e["date"],
                        "id": e["id"],
                        "points": minus(x.points),
                        "net": x.net,
                        "currency": e["currency"],
                    }
                    for e, x in zip(evenings, line.entries)
                    if x is not None
                ],
            }
        )
    return {
        "currency": first,
        "currencies": currencies,
        "mixed": len(currencies) > 1,
        "evenings": evenings,
        "lines": lines,
        "has_standings": has_standings,
        "kitty": _per_currency(ledger.kitty_by_currency, currencies),
        "kitty_entries": [
            {"date": e["date"], "id": e["id"], "net": r.kitty, "currency": e["currency"]}
            for e, r in zip(evenings, ledger.results)
            if r.kitty
        ],
    }


def percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)} %" if whole else "–"


def stats_context(stats, members) -> list[dict]:
    out = []
    for s in sorted(stats, key=lambda s: party_name(s.member, members).casefold()):
        if not s.evenings:
            continue
        out.append(
            {
                "name": party_name(s.member, members),
                "bids": s.bids,
                "bids_made": s.bids_made,
                "bids_pct": percent(s.bids_made, s.bids),
                "sol_bids": s.sol_bids,
                "sol_made": s.sol_made,
                "sol_pct": percent(s.sol_made, s.sol_bids),
                "selvmakker": s.selvmakker,
                "selvmakker_made": s.selvmakker_made,
                "evenings": s.evenings,
                "points": minus(s.points),
                "average": signed_average(s.average),
                "partners": [{"name": party_name(m, members), "hands": n} for m, n in s.partners],
            }
        )
    return out


def signed_average(value: Decimal | None) -> str:
    if value is None:
        return "–"
    return signed_number(value)


# ---------------------------------------------------------------- CSV


cell = guard  # a CSV cell a spreadsheet will not run as a formula


def _csv(rows) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([cell(v) for v in row])
    return out.getvalue()


def evening_csv(data: EveningData, members, currency: str | None = None) -> str:
    """The evening's figures; the amounts in the currency it was played in (its own column)."""
    r = data.result
    currency = data.record.currency or currency or ""
    rows = [
        [
            _("member"),
            _("tables"),
            _("hands"),
            _("points"),
            _("winnings"),
            _("fee"),
            _("net"),
            _("games won"),
            _("standing points"),
            _("currency"),
        ]
    ]
    for m in sorted(r.members, key=lambda m: party_name(m.member, members).casefold()):
        rows.append(
            [
                party_name(m.member, members),
                m.tables,
                m.hands,
                m.points,
                amount(m.winnings),
                amount(m.fee),
                amount(m.net),
                m.games_won,
                m.standing_points,
                currency,
            ]
        )
    rows.append([_("kitty"), "", "", "", "", "", amount(r.kitty), "", "", currency])
    return _csv(rows)


def ledger_csv(ledger: club_rules.Ledger, members, currency: str = "") -> str:
    """The season: a money and an unsettled column per currency (`currency`, the club's, when none has money), and
    each evening's money column named with the currency it was played in."""
    currencies = _currencies(ledger, currency)
    head = [_("member"), _("evenings"), _("hands"), _("points")]
    for c in currencies:
        head += [_("money (%(currency)s)", currency=c), _("unsettled (%(currency)s)", currency=c)]
    head += [_("games won"), _("standing points")]
    dates = [r.evening.date for r in ledger.results]
    for r in ledger.results:
        label = r.evening.date if dates.count(r.evening.date) == 1 else f"{r.evening.date} ({r.evening.id})"
        head += [
            _("%(date)s points", date=label),
            _("%(date)s money (%(currency)s)", date=label, currency=r.evening.currency or currency),
        ]
    rows = [head]
    for line in sorted(ledger.lines, key=lambda entry: party_name(entry.member, members).casefold()):
        row = [party_name(line.member, members), line.evenings, line.hands, line.points]
        for c in currencies:
            row += [amount(v) for v in line.by_currency.get(c, (0, 0))]
        row += [line.games_won, line.standing_points]
        for entry in line.entries:
            row += ["", ""] if entry is None else [entry.points, amount(entry.net)]
        rows.append(row)
    kitty = [_("kitty"), "", "", ""]
    for c in currencies:
        kitty += [amount(v) for v in ledger.kitty_by_currency.get(c, (0, 0))]
    kitty += ["", ""]
    for r in ledger.results:
        kitty += ["", amount(r.kitty)]
    rows.append(kitty)
    return _csv(rows)
