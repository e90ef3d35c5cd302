"""Score sheets on paper: the printed protokoll's head, blank sheets to fill in with a pen, the hands as CSV rows.

Like present.py, everything here is finished text and numbers, so the print templates do no arithmetic.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from datetime import date
from decimal import Decimal

from flask_babel import format_date
from flask_babel import gettext as _

from scorekeeper.core import VARIANTS, InputError, check_name, player_counts, table_context, table_for, variant_options
from scorekeeper.core.numbers import as_decimal
from scorekeeper.games.service import ScoredGame
from scorekeeper.variants.views import VIEWS
from scorekeeper.web import describe, words
from scorekeeper.web.i18n import local_day
from scorekeeper.web.inputs import whole_number
from scorekeeper.web.messages import translate
from scorekeeper.web.options import options_from_text
from scorekeeper.web.present import chart_view, minus, protokoll_context

ROWS_MAX = 200
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


# ---------------------------------------------------------------- the head of a sheet


def _players_line(table, sides) -> str:
    """The seats in order, or one side against the other: as the variant's view says."""
    players = table.players
    if VIEWS[table.variant].players_by_seat(table):
        return ", ".join(players)
    names = words.side_names(players, sides)
    line = names[0]
    for name in names[1:]:  # three teams: "A & D against B & E against C & F", never two teams against one
        line = _("%(a)s against %(b)s", a=line, b=name)
    return line


def played_on(scored_game: ScoredGame, evening: str | None = None) -> date:
    """The one day a sheet says it was played: a club table's evening's date (`evening`, ISO, as its title says it),
    else the day the game started where it is played (TIME_ZONE), never the UTC date of its row."""
    return date.fromisoformat(evening) if evening else local_day(scored_game.game.created)


def sheet_head(scored_game: ScoredGame, evening: str | None = None) -> dict:
    """Variant, title, date, players and house rules: what the top of a printed protokoll says (the date: played_on)."""
    game, p = scored_game.game, scored_game.protokoll
    players = list(game.players)
    return {
        "variant_title": _(VARIANTS[game.variant].TITLE),
        "title": game.title,
        "date": format_date(played_on(scored_game, evening), "long"),
        "players": _players_line(table_context(scored_game.setup), p.sides),
        "first_dealer": players[game.dealer],
        "rules": describe.house_rules(table_context(scored_game.setup)),
    }


def tariff_view(variant: str, options, whole: bool = True) -> dict | None:
    """A tariff matrix as printed text: a row per bid and column of the card, a column per tricks 0..13, then the sol
    bids, with the variant's own words for them (its view's tariff_words); None for a variant without a tariff.
    `whole` False (a score sheet's short form): a column that is square by square one whole multiple of the plain row
    is said once, as its factor."""
    tariff_matrix = VIEWS[variant].tariff_matrix
    if tariff_matrix is None:
        return None
    matrix = tariff_matrix(options)
    multiples = [] if whole else matrix.get("multiples", [])
    rows = matrix.get("rows", list(matrix["bids"].items())) if whole else matrix.get("short_rows", matrix["rows"])
    tariff = {
        "tricks": list(range(14)),
        "rows": [
            {"bid": bid, "cells": [{"value": minus(v), "made": _made(matrix, bid, t, v)} for t, v in enumerate(values)]}
            for bid, values in rows
        ],
        "multiples": ", ".join(f"{name} ×{factor}" for name, factor in multiples),
        "standard_suffixes": bool(multiples) and matrix.get("standard_suffixes", False),
        "sol": [{"name": name, "made": minus(made), "lost": minus(lost)} for name, made, lost in matrix["sol"]],
        "pool": _pool(matrix),
    }
    return tariff | VIEWS[variant].tariff_words(tariff)  # its words: the note and the sol table's headings


def _made(matrix, bid, tricks: int, value) -> bool:
    """Whether a square of the printed table is a made bid: from its bid's number of tricks on where the variant says
    so (a made bid worth 0 is made), else by its sign."""
    made_from = matrix.get("made_from") or {}
    return tricks >= made_from[bid] if bid in made_from else value > 0


def _pool(matrix) -> bool | str:
    """Whether the sol table's values are the totals of the one who bid it (a winners' pool): for every such bid (True),
    for some of them ("some": a card whose bids have pooling rules of their own), or none (False)."""
    rules = matrix.get("sol_gaa_med")
    if rules is None:
        return matrix.get("gaa_med") == "winners_pool"
    pooled = [rule == "winners_pool" for rule in rules.values()]
    return bool(pooled) and all(pooled) or ("some" if any(pooled) else False)


def sheet_context(scored_game: ScoredGame, evening: str | None = None) -> dict:
    """The protokoll's own context plus what paper needs: the head and the variant's tariff table, if it has one; a
    club table's `evening` date is its date."""
    ctx = protokoll_context(scored_game)
    ctx["head"] = sheet_head(scored_game, evening)
    ctx["tariff_table"] = tariff_view(scored_game.game.variant, scored_game.setup.options, whole=False)
    ctx["chart"] = chart_view(scored_game)
    ctx["variant_stylesheet"] = VIEWS[scored_game.game.variant].STYLESHEET
    ctx["final"] = (
        _("Standing")
        if not ctx["points"]
        else _("Total")
        if not ctx["games_won"]
        else _("Total, game %(n)d", n=sum(ctx["games_won"]) + (0 if ctx["finished"] else 1))
    )
    return ctx


# ---------------------------------------------------------------- blank sheets


def entry_columns(table) -> list[dict]:
    """What a player writes down for each hand, by variant: the fields the entry form asks for."""
    return [{"key": key, "label": label} for key, label in VIEWS[table.variant].blank_columns(table)]


def _clean_name(value: str, what: str) -> str | None:
    try:
        return check_name(value, what, required=False)
    except ValueError as exc:
        raise InputError({what: str(exc)}) from None


def blank_request(variant: str, args: Mapping) -> dict:
    """A blank sheet's players, title, first dealer, house rules and rows from a query string; InputError if bad.

    `player` is repeated once per seat (an empty one leaves a line to write on), `seats` asks for five Danish
    columns without names, `preset` picks a Danish tariff preset, and every house rule goes by its option name.
    """
    module = VARIANTS[variant]
    errors: dict = {}
    raw_players = args.getlist("player") if hasattr(args, "getlist") else list(args.get("player", []))
    seats = min(module.PLAYER_COUNTS)
    takes = _(
        "%(title)s takes %(counts)s players",
        title=_(module.TITLE),
        counts=translate(player_counts(module.PLAYER_COUNTS)),
    )
    wanted = args.get("seats", "")
    if wanted:
        chosen = whole_number(wanted)
        if chosen is None or chosen not in module.PLAYER_COUNTS:
            errors["seats"] = takes
        else:
            seats = chosen
    if len(raw_players) > max(module.PLAYER_COUNTS):
        errors["player"] = takes
    players: list[str | None] = []
    for raw in raw_players[: max(module.PLAYER_COUNTS)]:
        try:
            players.append(_clean_name(raw, "player"))
        except InputError as exc:
            errors.update(exc.errors)
    # Seats past the smallest table left empty are no seats (a form offers as many fields as the largest table).
    while len(players) > max(seats, min(module.PLAYER_COUNTS)) and players[-1] is None:
        players.pop()
    seats = max(seats, len(players))
    if seats not in module.PLAYER_COUNTS:
        errors["player"] = takes
    players += [None] * (seats - len(players))
    named = [p.casefold() for p in players if p]
    if len(set(named)) != len(named):
        errors["player"] = _("two players have the same name")
    title = None
    try:
        title = _clean_name(args.get("title", ""), "title")
    except InputError as exc:
        errors.update(exc.errors)

    dealer = None
    raw_dealer = args.get("dealer", "")
    if raw_dealer:
        dealer = whole_number(raw_dealer)
        if dealer is None or dealer >= seats:
            errors["dealer"] = _("must be the first dealer's seat, from 0 to %(n)d", n=seats - 1)
            dealer = None
    elif all(players):
        dealer = 0

    rows = None
    raw_rows = args.get("rows", "")
    if raw_rows:
        rows = whole_number(raw_rows)
        if rows is None or not 1 <= rows <= ROWS_MAX:
            errors["rows"] = _("must be a whole number from 1 to %(n)d", n=ROWS_MAX)
            rows = None

    given = {}
    presets = VIEWS[variant].TARIFF_PRESETS
    if presets and args.get("preset"):
        preset = presets.get(args["preset"])
        if preset is None:
            errors["preset"] = _("must be one of %(names)s", names=", ".join(presets))
        else:
            given.update(preset)
    typed, typed_errors = options_from_text(module, {name: args[name] for name in module.OPTIONS if name in args})
    given.update({name: value for name, value in typed.items() if name not in typed_errors})
    errors.update({f"options.{name}": message for name, message in typed_errors.items()})
    options, option_errors = variant_options(module, given, seats if seats in module.PLAYER_COUNTS else None)
    errors.update(option_errors)
    if errors:
        raise InputError(errors)
    return {"players": players, "title": title, "dealer": dealer, "options": options, "rows": rows}


def blank_context(
    variant: str,
    players,
    options,
    *,
    title=None,
    dealer=None,
    rows=None,
    first=1,
    carried=None,
    date=None,
    state=None,
) -> dict:
    """An empty score sheet: the head, the columns the variant needs, numbered rows with their dealers.

    `players` holds a name or None (a line to write on) per seat. With a first `dealer`, each row names
    who deals it (on five-seat Danish sheets that player's columns are shaded: the dealer sits out). A sheet
    that continues a game starts at hand `first` with the game's totals `carried` forward and its variant's `state`
    (the variant's `dealer` hook names a row's dealer where it can know it ahead: a later row's state is unknown).
    """
    module, view = VARIANTS[variant], VIEWS[variant]
    n = len(players)
    table = table_for(variant, options, n, tuple(players), dealer)
    sides = module.sides(table)
    columns = entry_columns(table)
    if rows is None:
        rows = view.BLANK_ROWS - (1 if carried else 0)  # the carried-forward row takes one row's place
        deals = module.deals(table)
        if deals:
            rows = max(1, min(rows, deals - first + 1))  # no more rows than deals left
    known = all(players)
    head = {
        "variant_title": _(module.TITLE),
        "title": title,
        "date": date,
        "players": _players_line(table, sides) if known else None,
        "first_dealer": players[dealer] if dealer is not None and players[dealer] else None,
        "rules": describe.house_rules(table),
    }
    lines = []
    for number in range(first, first + rows):
        folded = state if number == first else None
        if number == 1:
            folded = module.initial_state(table)
        seat = module.dealer(number, folded, table)
        printed = view.blank_cells(number, table)
        out = module.sits_out(number, table)
        lines.append(
            {
                "number": number,
                "dealer": (players[seat] or "") if seat is not None else "",
                "entries": [printed.get(c["key"], "") for c in columns],
                "out": [out is not None and out in side for side in sides],
            }
        )
    return {
        "variant": variant,
        "variant_stylesheet": view.STYLESHEET,
        "head": head,
        "columns": columns,
        "side_columns": [{"key": key, "label": label} for key, label in view.blank_side_columns(table)],
        "sides": [[players[s] for s in side] for side in sides],
        "rows": lines,
        "carried": [minus(t) for t in carried] if carried else None,
        "zero_sum": module.ZERO_SUM and module.POINTS,
        "points": module.POINTS,
        "tariff_table": tariff_view(variant, options, whole=False),
    }


def blank_from_game(scored_game: ScoredGame) -> dict:
    """A blank sheet for a game's table: its players and house rules; it goes on where the game stands."""
    game, p = scored_game.game, scored_game.protokoll
    if p.finished or not p.hands:
        return blank_context(
            game.variant,
            list(game.players),
            game.options,
            title=game.title,
            dealer=p.next_dealer if p.finished else game.dealer,
        )
    return blank_context(
        game.variant,
        list(game.players),
        game.options,
        title=game.title,
        dealer=game.dealer,
        first=len(p.hands) + 1,
        carried=p.totals if VARIANTS[game.variant].POINTS else None,
        state=p.state,
    )


# ---------------------------------------------------------------- CSV


def guard(value):
    """A text cell a spreadsheet would run as a formula gets a leading apostrophe; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_rows(scored_game: ScoredGame, guarded: bool = True) -> list[list]:
    """The hands as a table: number, dealer, the entered fields, points per side, running totals; guarded for a CSV
    (an .xlsx keeps text as text by its cell type instead). Headed and written in the sheet's language (a club's
    table: its club's print language) and words, as the printed sheet says them: "trumf", ♥, "3 vip", "ja"."""
    game, p = scored_game.game, scored_game.protokoll
    players = list(game.players)
    names = words.side_names(players, p.sides)
    rubber = p.games_won is not None
    columns = VIEWS[game.variant].csv_columns(table_context(scored_game.setup), names)
    rules, table = VARIANTS[game.variant], table_context(scored_game.setup)
    scores = rules.POINTS  # a variant kept in no points has no points or totals to list
    standing = "standing" in rules.own  # a variant's own words for the standing after each hand
    points, total, standings = _("points"), _("total"), _("standing")
    header = (
        [_("hand")]
        + ([_("game")] if rubber else [])
        + [_("dealer")]
        + [c for c, _get in columns]
        + ([f"{points} {s}" for s in names] + [f"{total} {s}" for s in names] if scores else [])
        + ([f"{standings} {s}" for s in names] if standing else [])
    )
    out = [header]
    after = [h.state for h in p.hands[1:]] + [p.state]  # the state after each hand
    for h, state in zip(p.hands, after):
        inp = dict(h.input)
        if not inp.get("trump") and h.trump:  # a trump the rules fixed, not entered
            inp["trump"] = h.trump
        inp.setdefault("cards", h.cards)  # the deal's size the rules fixed (plump's schedule), for a column that asks
        out.append(
            [h.number]
            + ([h.game] if rubber else [])
            + [players[h.dealer]]
            + [get(inp) for _c, get in columns]
            + ([as_decimal(x) for x in h.points] + [as_decimal(x) for x in h.totals] if scores else [])
            + ([translate(w) for w in rules.standing(state, h.totals, table) or ()] if standing else [])
        )
    return [[guard(v) for v in row] for row in out] if guarded else out


def csv_text(rows: list[list], dialect: str = "programs") -> str:
    """Rows as CSV text in one of two dialects: "programs" (commas, decimal points: for programs that read CSV) or
    "semicolon" (semicolons, decimal commas: what a Danish, Norwegian or Swedish spreadsheet splits into columns when
    opened); a number is never text, whichever comma it is written with."""
    out = io.StringIO()
    semicolon = dialect == "semicolon"
    writer = csv.writer(out, lineterminator="\r\n", delimiter=";" if semicolon else ",")
    for row in rows:
        writer.writerow([_decimal_comma(v) if semicolon else v for v in row])
    return out.getvalue()


def _decimal_comma(value):
    return str(value).replace(".", ",") if isinstance(value, Decimal) else value
