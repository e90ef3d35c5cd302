"""A scored game as one plain dict: the JSON answer, and the context the pages render."""

from __future__ import annotations

from datetime import datetime

from flask import url_for
from flask_babel import format_date, format_datetime
from flask_babel import gettext as _

from scorekeeper.core import (
    VARIANTS,
    format_cents,
    hand_context,
    scored_context,
    settle,
    settlement_points,
    table_context,
)
from scorekeeper.games.service import ScoredGame, open_deal
from scorekeeper.variants.views import VIEWS
from scorekeeper.web import chart, words
from scorekeeper.web.i18n import gettext, ngettext, one_catalogue
from scorekeeper.web.messages import translate


def hand_contexts(scored_game: ScoredGame) -> list:
    """The context each hand of the game was scored in, for the view's hooks (its words, its cells)."""
    p = scored_game.protokoll
    table = table_context(scored_game.setup)
    zeros = (0,) * len(p.sides)
    out, before, game = [], zeros, None
    for h in p.hands:
        if h.game != game:
            before, game = zeros, h.game
        out.append(scored_context(table, h, before))
        before = h.totals
    return out


def hand_dict(hand, view=None) -> dict:
    out = {
        "number": hand.number,
        "dealer": hand.dealer,
        "input": dict(hand.input),
        "points": list(hand.points),
        "totals": list(hand.totals),
        "leader": hand.leader,
    }
    if hand.sitting_out is not None:
        out["sitting_out"] = hand.sitting_out
    if hand.game is not None:
        out["game"] = hand.game
    if hand.trump is not None:
        out["trump"] = hand.trump
    if view is not None:
        out.update(view.hand_fields(hand))
    return out


def open_deal_dict(scored_game: ScoredGame) -> dict | None:
    """The deal in progress as the API answers it (its variant's own fields too: the deal's cards), or None."""
    deal = open_deal(scored_game)
    if deal is None:
        return None
    out = {
        "number": deal.number,
        "dealer": deal.dealer,
        "leader": deal.leader,
        "input": dict(deal.input),
        "version": deal.version,
    }
    if deal.sitting_out is not None:
        out["sitting_out"] = deal.sitting_out
    out.update(VIEWS[scored_game.game.variant].hand_fields(deal))
    return out


def links(game_id: str) -> dict:
    return {
        "page": url_for("games.protokoll", game_id=game_id),
        "json": url_for("api.game", game_id=game_id),
        "pdf": url_for("sheets.pdf", game_id=game_id),
        "csv": url_for("sheets.hands_csv", game_id=game_id),
    }


def game_dict(scored_game: ScoredGame, *, hands: bool = True) -> dict:
    """The game as the API answers it; `hands=False` leaves out the hands (the protokoll page has its own rows)."""
    game, p = scored_game.game, scored_game.protokoll
    view = VIEWS[game.variant]
    out = {
        "id": game.id,
        "variant": game.variant,
        "title": game.title,
        "language": game.language,
        "players": list(game.players),
        "dealer": game.dealer,
        "sides": [list(s) for s in p.sides],
        "options": dict(scored_game.setup.options),
        "created": game.created,
        "version": game.version,
        "hands": [hand_dict(h, view) for h in p.hands] if hands else None,
        "totals": list(p.totals),
        "next_dealer": p.next_dealer,
        "next_leader": p.next_leader,
        "finished": p.finished,
        "winner": p.winner,
        "links": links(game.id),
    }
    if p.games_won is not None:
        out["games_won"] = list(p.games_won)
        out["game"] = p.game
    if p.deals_left is not None:
        out["deals_left"] = p.deals_left
    if p.next_trump:
        out["next_trump"] = p.next_trump
    out.update(view.answer_fields(p))
    if game.deal is not None:
        out["open_deal"] = open_deal_dict(scored_game)
    return out


def _settlement(scored_game: ScoredGame):
    """The game's settlement in cents, or None when the game is not played for money."""
    rate = scored_game.game.options.get("rate")
    return None if rate is None else settle(settlement_points(scored_game.protokoll), rate)


def settlement_dict(scored_game: ScoredGame) -> dict | None:
    """Who pays whom, or None when the game is not played for money; amounts as "-3.05" (the API's form)."""
    result = _settlement(scored_game)
    if result is None:
        return None
    return {
        "rate": scored_game.game.options["rate"],
        "currency": scored_game.game.options.get("currency"),
        "balances": [format_cents(c) for c in result.balances],
        "payments": [{"from": p.payer, "to": p.payee, "amount": format_cents(p.cents)} for p in result.payments],
    }


def signed(n: int) -> str:
    """Points with their sign: +60, −60, 0 (a real minus sign)."""
    return f"+{n}" if n > 0 else minus(n)


def minus(n: int) -> str:
    """A number with a real minus sign when negative."""
    return "−" + str(-n) if n < 0 else str(n)


def protokoll_context(scored_game: ScoredGame, changed: int | None = None, saved: int | None = None) -> dict:
    """Everything the protokoll page shows, as finished text and numbers: the template does no arithmetic."""

    game = game_dict(scored_game, hands=False)
    p = scored_game.protokoll
    view = VIEWS[scored_game.game.variant]
    # A variant whose deal size is its own says it on each row and before the next deal ("6 cards").
    sizes = "cards" in VARIANTS[scored_game.game.variant].own
    cards_words: dict[int, str] = {}

    def cards(n: int | None) -> str | None:
        if not sizes or n is None:
            return None
        if n not in cards_words:
            cards_words[n] = ngettext("%(num)d card", "%(num)d cards", n)
        return cards_words[n]

    players = list(scored_game.game.players)
    names = words.side_names(players, p.sides)
    zero_sum = VARIANTS[scored_game.game.variant].ZERO_SUM
    rows = []
    # Per page, not per row (a 1,000-hand sheet): the words (the edit links are the template's, relative: hands/7).
    deals = [gettext("%(name)s deals", name=name) for name in players]
    edit_label = gettext("Edit hand %(n)d")
    outcome_words = {"made": gettext("made"), "lost": gettext("lost"), None: None}
    with one_catalogue():
        for h, ctx in zip(p.hands, hand_contexts(scored_game)):
            cell_words = view.cell_words(h.input, ctx) or [None] * len(p.sides)
            rows.append(
                {
                    "number": h.number,
                    "dealer": players[h.dealer],
                    "deals": deals[h.dealer],
                    "cards": cards(h.cards),
                    "text": view.hand_words(h.input, ctx),
                    "cells": [
                        {"points": signed(pt), "total": minus(t), "out": h.sitting_out in p.sides[i], "words": w}
                        for i, (pt, t, w) in enumerate(zip(h.points, h.totals, cell_words))
                    ],
                    "sum": signed(sum(h.points)) if zero_sum else None,
                    "game": h.game,
                    "changed": h.number == changed,
                    "saved": h.number == saved,
                    "outcome": (result := view.outcome(h.input, h.points, ctx)),
                    "outcome_text": outcome_words[result],
                    "edit_label": edit_label % {"n": h.number},
                }
            )
    winner = None
    if p.finished:
        winner = names[p.winner] if p.winner is not None else None
    deal = open_deal(scored_game)
    open_view = None
    if deal is not None:
        with one_catalogue():
            cells = view.bids_cells(deal.input, deal.context) or [None] * len(p.sides)
            open_view = {
                "number": deal.number,
                "dealer": players[deal.dealer],
                "leader": players[deal.leader],
                "cards": cards(deal.cards),
                "text": view.bids_words(deal.input, deal.context),
                "cells": [{"words": w, "out": deal.sitting_out in side} for w, side in zip(cells, p.sides)],
                "version": deal.version,
            }
    return {
        "game": game,
        "variant_title": translate(VARIANTS[scored_game.game.variant].TITLE),
        "date": format_date(datetime.fromisoformat(scored_game.game.created), "medium"),
        "sides": names,
        "totals": [minus(t) for t in p.totals],
        "rows": rows,
        "zero_sum": zero_sum,
        "next_dealer": players[p.next_dealer],
        "next_leader": players[deal.leader if deal is not None else p.next_leader],
        "open_deal": open_view,
        "bids_first": bool(VARIANTS[scored_game.game.variant].BID_FIELDS),
        "next_number": len(p.hands) + 1,
        "finished": p.finished,
        "winner": winner,
        "draw": p.finished and p.winner is None,
        "games_won": list(p.games_won) if p.games_won else None,
        "rubber_points": list(p.rubber_points) if p.rubber_points else None,
        "outcome_lines": view.outcome_lines(p, names),
        "deals_left": p.deals_left,
        "next_trump": words.suit_words(p.next_trump) if p.next_trump else None,
        "next_cards": cards(p.next_cards),
        "settlement": settlement_view(scored_game, players),
    }


def chart_view(scored_game: ScoredGame) -> dict | None:
    """The running totals per side as a chart's finished coordinates (None before the first hand)."""

    p = scored_game.protokoll
    names = words.side_names(list(scored_game.game.players), p.sides)
    return chart.running_totals([h.totals for h in p.hands], names, label=minus)


def settlement_view(scored_game: ScoredGame, players) -> dict | None:
    """Who pays whom by name; amounts in cents, for the `money` filter."""
    result = _settlement(scored_game)
    if result is None:
        return None
    return {
        "currency": scored_game.game.options.get("currency"),
        "rate": scored_game.game.options["rate"],
        "balances": [{"player": players[i], "amount": cents} for i, cents in enumerate(result.balances)],
        "payments": [{"from": players[p.payer], "to": players[p.payee], "amount": p.cents} for p in result.payments],
    }


def edit_log_view(scored_game: ScoredGame, log: list[dict]) -> list[dict]:
    """Edits and deletions in words, newest first: "Hand 3 changed at 23:14: … → …". Additions are the sheet itself."""

    game = scored_game.game
    view, rules, table = VIEWS[game.variant], VARIANTS[game.variant], table_context(scored_game.setup)

    def text(inp, number):
        return view.hand_words(inp, hand_context(rules, table, number))

    rows = []
    for entry in reversed(log):
        if entry["action"] == "added":
            continue
        at = format_datetime(datetime.fromisoformat(entry["at"]), "short")
        if entry["action"] == "edited":
            line = _(
                "Hand %(n)d changed %(at)s: %(before)s → %(after)s",
                n=entry["number"],
                at=at,
                before=text(entry["before"], entry["number"]),
                after=text(entry["after"], entry["number"]),
            )
        else:
            line = _(
                "Hand %(n)d deleted %(at)s: %(before)s",
                n=entry["number"],
                at=at,
                before=text(entry["before"], entry["number"]),
            )
        rows.append(line)
    return rows
