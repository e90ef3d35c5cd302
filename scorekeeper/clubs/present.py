"""Club results as the pages and the CSV files show them: names for member ids; money in cents for the pages' `money`
filter and as decimal numbers in the CSV files. No arithmetic."""

from __future__ import annotations

from decimal import Decimal

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.clubs.forms import PRIZE_LABELS
from scorekeeper.clubs.rules import club as club_rules
from scorekeeper.clubs.service import EveningData
from scorekeeper.core import VARIANTS, table_for
from scorekeeper.core.numbers import as_decimal
from scorekeeper.games.paper import csv_text, guard, tariff_view
from scorekeeper.variants.views import VIEWS
from scorekeeper.web import chart, describe, i18n, words, xlsx
from scorekeeper.web.i18n import signed_number
from scorekeeper.web.present import minus


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
    return {
        "variant_title": _(VARIANTS[club.variant].TITLE),
        "rules": describe.house_rules(table_for(club.variant, club.options)),
        "matrix": matrix_context(club.variant, club.options),
        "tariff": tariff_view(club.variant, club.options),
        "rate": club.options.get("rate") if VARIANTS[club.variant].FOR_MONEY else None,
    }


def matrix_context(variant: str, options) -> dict | None:
    """Rows of the bid × tricks matrix as the card has them (a row per bid and column, variants/danish/view.py) and the
    sol values; None without a tariff."""
    tariff_matrix = VIEWS[variant].tariff_matrix
    if tariff_matrix is None:
        return None
    matrix = tariff_matrix(options)
    return {
        "tricks": list(range(14)),
        "rows": [
            {"bid": bid, "cells": [{"text": minus(v), "made": v > 0} for v in values]}
            for bid, values in matrix.get("rows", list(matrix["bids"].items()))
        ],
        "sol": [{"bid": name, "made": minus(made), "lost": minus(lost)} for name, made, lost in matrix["sol"]],
    }


def evening_cards(sheets: list[dict]) -> list[dict]:
    """The cards the evening's tables were scored by (paper.tariff_view), each once with the tables that kept it: one
    card on most evenings; a table started before the card was changed keeps its own."""
    out: list[dict] = []
    for sheet in sheets:
        matrix = sheet.get("tariff_table")
        if not matrix:
            continue
        known = next((c for c in out if c["matrix"] == matrix), None)
        if known is None:
            out.append(known := {"matrix": matrix, "tables": []})
        known["tables"].append(sheet["table_name"])
    for c in out:
        c["tables"] = ", ".join(c["tables"]) if len(out) > 1 else None
    return out


def table_name(number: int, half: int, halves: int) -> str:
    """ "Table 2", or "Table 2, half 1" on an evening of several halves: built from data, in the reader's language."""
    if halves > 1:
        return _("Table %(n)d, half %(half)d", n=number, half=half)
    return _("Table %(n)d", n=number)


def format_text(fmt) -> str:
    """An evening's format in words: "2 halves of 20 deals"; "" for one half as the table likes."""
    if fmt.halves > 1 and fmt.deals:
        return _("%(halves)d halves of %(deals)d deals", halves=fmt.halves, deals=fmt.deals)
    if fmt.halves > 1:
        return _("%(halves)d halves", halves=fmt.halves)
    if fmt.deals:
        return ngettext("%(num)d deal", "%(num)d deals", fmt.deals)
    return ""


def prize_label(kind: str, place: int = 0) -> str:
    if kind == "place":
        return _("Place %(n)d", n=place)
    return str(PRIZE_LABELS.get(kind, kind))


def format_context(fmt) -> dict:
    """The club card's format section: the format and its prizes in words."""
    prizes = []
    if fmt.places:
        prizes.append(_("a prize for the best") if fmt.places == 1 else _("prizes for the %(n)d best", n=fmt.places))
    prizes += [str(PRIZE_LABELS[k]).lower() for k in fmt.prizes]
    return {"format_text": format_text(fmt), "prize_text": ", ".join(prizes)}


def places_context(data: EveningData, members) -> list[dict]:
    """The evening's standings across all tables, by the stated tie rule (core.evening.ranked): place, points in all
    and per half, and the money after the fee when it has money."""
    by_member = {s.member: s for s in data.standings}
    money = {m.member: m for m in data.result.members}
    out = []
    for p in data.places:
        s = by_member[p.member]
        out.append(
            {
                "place": p.place,
                "shared": p.shared,
                "name": party_name(p.member, members),
                "points": minus(s.points),
                "halves": [minus(h) for h in s.halves],
                "net": money[p.member].net if p.member in money else 0,
            }
        )
    return out


def prizes_context(data: EveningData, members) -> list[dict]:
    """The evening's prizes in words: what for, who won it (all who share it), with what."""
    out = []
    for prize in data.prizes:
        names = [party_name(m, members) for m in prize.winners]
        if prize.kind == "place":
            label, value = prize_label("place", prize.place), _("%(points)s points", points=minus(prize.value))
        else:
            label, value = prize_label(prize.kind), str(prize.value)
        out.append(
            {
                "kind": prize.kind,
                "label": label,
                "winners": names,
                "value": value,
                "figure": prize.value,  # the number itself, for the spreadsheet
                "shared": len(names) > 1,
            }
        )
    return out


def table_context(table, members, halves: int = 1) -> dict:
    scored_game = table.scored_game
    names = [members[m].name for m in table.record.members]
    p = scored_game.protokoll
    sides = words.side_names(names, p.sides)
    return {
        "number": table.record.number,
        "shown": table.record.shown_number,
        "half": table.record.half,
        "name": table_name(table.record.shown_number, table.record.half, halves),
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
    tables = [table_context(t, members, data.format.halves) for t in data.tables]
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
        "tables": tables,
        "halves": [
            {"number": h, "tables": [t for t in tables if t["half"] == h]} for h in sorted({t["half"] for t in tables})
        ],
        "halves_count": data.format.halves,
        "places": places_context(data, members),
        "prizes": prizes_context(data, members),
        "next_half": data.half + 1,
        "format_text": format_text(data.format),
        "imported": imported_context(data.imported),
    }


def imported_context(record) -> dict | None:
    """Where an imported evening came from (issue 45): the file's name and the day it was imported; None for an
    evening played here."""
    if record is None:
        return None
    return {"file": record.file_name, "at": record.at, "day": i18n.local_day(record.at).isoformat()}


def _currencies(ledger: club_rules.Ledger, currency: str) -> tuple[str, ...]:
    """The ledger's currencies; with no money at all, the club's (`currency`)."""
    return ledger.currencies or (currency,)


def _per_currency(by_currency, currencies) -> list[dict]:
    return [
        {"currency": c, "net": by_currency.get(c, (0, 0))[0], "unsettled": by_currency.get(c, (0, 0))[1]}
        for c in currencies
    ]


def season_charts(line: club_rules.LedgerLine, ledger: club_rules.Ledger, name: str, currency: str) -> dict:
    """A member's season at a glance: the money (net, in the ledger's first currency) and the points, added up
    evening by evening, as two server-drawn charts (web/chart.py); None where they played no evening."""
    played = [(r, e) for r, e in zip(ledger.results, line.entries) if e is not None]
    first = _currencies(ledger, currency)[0]
    in_first = [e.net for r, e in played if (r.evening.currency or currency) == first]
    money = (
        chart.season(in_first, name, label=lambda cents: i18n.money(cents, first))
        if any(r.has_money for r, _e in played)
        else None
    )
    return {
        "money": money,
        "money_caption": _("Money, evening by evening (net, %(currency)s)", currency=first),
        "points": chart.season([e.points for _r, e in played], name, label=minus),
        "points_caption": _("Points, evening by evening"),
    }


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
            "imported": bool(r.evening.imported),
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
                "id": line.member,
                "name": party_name(line.member, members),
                "charts": season_charts(line, ledger, party_name(line.member, members), currency),
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
                        "imported": e["imported"],
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


# ---------------------------------------------------------------- CSV and spreadsheets

# The CSV files in two dialects: "programs" (commas, decimal points: for programs that read CSV) and "semicolon"
# (semicolons, decimal commas: what a Danish, Norwegian or Swedish spreadsheet splits into columns when opened).
DIALECTS = ("programs", "semicolon")

cell = guard  # a CSV cell a spreadsheet will not run as a formula


def _csv(rows, dialect: str = "programs") -> str:
    # The formula guard sees the value itself: a number (-118.00) is never text, whichever comma it is written with.
    return csv_text([[cell(v) for v in row] for row in rows], dialect)


def result_columns() -> list[tuple[str, str]]:
    """The evening's columns, the same words on the page, in the CSV files and the spreadsheet."""
    return [
        (_("member"), "text"),
        (_("place"), "int"),
        (_("tables"), "int"),
        (_("hands"), "int"),
        (_("points"), "points"),
        (_("before fee"), "money"),
        (_("fee"), "money"),
        (_("net"), "money"),
        (_("games won"), "int"),
        (_("standing points"), "int"),
        (_("currency"), "text"),
    ]


def _result_rows(data: EveningData, members, currency: str | None = None) -> list[list]:
    """Each member's evening (cents for the money), then the kitty's."""
    r = data.result
    currency = data.record.currency or currency or ""
    place = {p.member: p.place for p in data.places}
    rows = []
    for m in sorted(r.members, key=lambda m: (place.get(m.member, 0), party_name(m.member, members).casefold())):
        rows.append(
            [
                party_name(m.member, members),
                place.get(m.member),
                m.tables,
                m.hands,
                m.points,
                m.winnings,
                m.fee,
                m.net,
                m.games_won,
                m.standing_points,
                currency,
            ]
        )
    rows.append([_("kitty"), None, None, None, None, None, None, r.kitty, None, None, currency])
    return rows


def _as_csv_cells(columns, rows):
    return [
        [
            "" if v is None else amount(v) if kind == "money" else as_decimal(v) if kind == "points" else v
            for (_h, kind), v in zip(columns, row)
        ]
        for row in rows
    ]


def evening_csv(data: EveningData, members, currency: str | None = None, dialect: str = "programs") -> str:
    """The evening's figures; the amounts in the currency it was played in (its own column)."""
    columns = result_columns()
    return _csv([[h for h, _k in columns], *_as_csv_cells(columns, _result_rows(data, members, currency))], dialect)


def evening_sheets(data: EveningData, members, club_name: str) -> list:
    """The evening as a workbook: the result, the payments, the prizes."""
    result = xlsx.Sheet(_("Result"), result_columns(), _result_rows(data, members))
    currency = data.record.currency
    pay_columns = [(_("payer"), "text"), (_("payee"), "text"), (_("amount"), "money"), (_("currency"), "text")]
    payments = xlsx.Sheet(
        _("Settling up"),
        pay_columns,
        [
            [party_name(t.payer, members, first=True), party_name(t.payee, members), t.cents, currency]
            for t in data.result.transfers
        ],
    )
    about = xlsx.Sheet(
        _("Evening"),
        [(_("club"), "text"), (_("date"), "date"), (_("rate"), "rate"), (_("fee"), "money")],
        [[club_name, data.record.date, data.record.rate, data.record.fee_cents]],
    )
    prizes = xlsx.Sheet(
        _("Prizes"),
        [(_("prize"), "text"), (_("winners"), "text"), (_("with"), "int")],  # the points or the count, a number
        [[p["label"], ", ".join(p["winners"]), p["figure"]] for p in prizes_context(data, members)],
    )
    return [result, payments, prizes, about]


def ledger_columns(ledger: club_rules.Ledger, currency: str) -> list[tuple[str, str]]:
    currencies = _currencies(ledger, currency)
    head = [(_("member"), "text"), (_("evenings"), "int"), (_("hands"), "int"), (_("points"), "points")]
    for c in currencies:
        head += [(_("net (%(currency)s)", currency=c), "money"), (_("unsettled (%(currency)s)", currency=c), "money")]
    head += [(_("games won"), "int"), (_("standing points"), "int")]
    dates = [r.evening.date for r in ledger.results]
    for r in ledger.results:
        label = r.evening.date if dates.count(r.evening.date) == 1 else f"{r.evening.date} ({r.evening.id})"
        head += [
            (_("%(date)s points", date=label), "points"),
            (_("%(date)s net (%(currency)s)", date=label, currency=r.evening.currency or currency), "money"),
        ]
    return head


def _ledger_rows(ledger: club_rules.Ledger, members, currency: str) -> list[list]:
    currencies = _currencies(ledger, currency)
    rows = []
    for line in sorted(ledger.lines, key=lambda entry: party_name(entry.member, members).casefold()):
        row = [party_name(line.member, members), line.evenings, line.hands, line.points]
        for c in currencies:
            row += list(line.by_currency.get(c, (0, 0)))
        row += [line.games_won, line.standing_points]
        for entry in line.entries:
            row += [None, None] if entry is None else [entry.points, entry.net]
        rows.append(row)
    kitty: list[object] = [_("kitty"), None, None, None]
    for c in currencies:
        kitty += list(ledger.kitty_by_currency.get(c, (0, 0)))
    kitty += [None, None]
    for r in ledger.results:
        kitty += [None, r.kitty]
    rows.append(kitty)
    return rows


def ledger_csv(ledger: club_rules.Ledger, members, currency: str = "", dialect: str = "programs") -> str:
    """The season: a net and an unsettled column per currency (`currency`, the club's, when none has money), and
    each evening's net column named with the currency it was played in."""
    columns = ledger_columns(ledger, currency)
    return _csv([[h for h, _k in columns], *_as_csv_cells(columns, _ledger_rows(ledger, members, currency))], dialect)


def ledger_sheets(ledger: club_rules.Ledger, members, currency: str, imported: dict[int, str] | None = None) -> list:
    """The season as a workbook: the ledger, the evenings (each imported one with its file's name: `imported`, by
    evening id) and each member's evening, a row each (what an import reads back to the same ledger, issue 45)."""
    imported = imported or {}
    evenings = xlsx.Sheet(
        _("Evenings"),
        [(_("date"), "date"), (_("net of the kitty"), "money"), (_("currency"), "text"), (_("imported from"), "text")],
        [[r.evening.date, r.kitty, r.evening.currency or currency, imported.get(r.evening.id)] for r in ledger.results],
    )
    return [
        xlsx.Sheet(_("Ledger"), ledger_columns(ledger, currency), _ledger_rows(ledger, members, currency)),
        evenings,
        xlsx.Sheet(_("Each evening"), member_evening_columns(), _member_evening_rows(ledger, members, currency)),
    ]


def member_evening_columns() -> list[tuple[str, str]]:
    return [
        (_("date"), "date"),
        (_("member"), "text"),
        (_("hands"), "int"),
        (_("points"), "points"),
        (_("before fee"), "money"),
        (_("fee"), "money"),
        (_("net"), "money"),
        (_("currency"), "text"),
    ]


def _member_evening_rows(ledger: club_rules.Ledger, members, currency: str) -> list[list]:
    """A row per member per evening, by date: the points the evening's places go by, and its money when it has any."""
    rows = []
    for r in ledger.results:
        money = r.has_money
        counts_money = r.evening.counts_money
        for m in sorted(r.members, key=lambda m: party_name(m.member, members).casefold()):
            rows.append(
                [
                    r.evening.date,
                    party_name(m.member, members),
                    m.hands,
                    m.points if counts_money else m.standing_points,
                    m.winnings if money else None,
                    m.fee if money or m.fee else None,
                    m.net if money or m.fee else None,
                    r.evening.currency or currency,
                ]
            )
    return rows
