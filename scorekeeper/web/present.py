"""A scored game as one plain dict: the JSON answer, and the context the pages render."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import url_for
from flask_babel import format_date, format_datetime
from flask_babel import gettext as _

from scorekeeper.core import (
    VARIANTS,
    format_cents,
    game_context,
    hand_context,
    scored_context,
    settle,
    settlement_points,
    table_context,
)
from scorekeeper.core.numbers import Point, written
from scorekeeper.games.service import ScoredGame, open_deal
from scorekeeper.variants.views import VIEWS
from scorekeeper.web import chart, words
from scorekeeper.web.i18n import gettext, ngettext, one_catalogue, point
from scorekeeper.web.messages import translate


def hand_contexts(scored_game: ScoredGame) -> list:
    """The context each hand of the game was scored in, for the view's hooks (its words, its cells)."""
    p = scored_game.protokoll
    table = table_context(scored_game.setup)
    zeros = (0,) * len(p.sides)
    out: list = []
    before: tuple[Point, ...] = zeros
    game = None
    for h in p.hands:
        if h.game != game:
            before, game = zeros, h.game
        out.append(scored_context(table, h, before))
        before = h.totals
    return out


def _contexts(scored_game: ScoredGame, view) -> list:
    """Each hand's context for the view's hand_fields: made only for a view that has its own."""
    if hasattr(view.module, "hand_fields"):
        return hand_contexts(scored_game)
    return [None] * len(scored_game.protokoll.hands)


def hand_dict(hand, view=None, ctx=None) -> dict:
    """A scored hand as the API answers it; with its variant's `view`, its own fields too (asked with the hand's
    context `ctx`)."""
    out = {
        "number": hand.number,
        "dealer": hand.dealer,
        "input": dict(hand.input),
        "points": [written(x) for x in hand.points],
        "totals": [written(x) for x in hand.totals],
        "leader": hand.leader,
    }
    if hand.sitting_out is not None:
        out["sitting_out"] = hand.sitting_out
    if hand.game is not None:
        out["game"] = hand.game
    if hand.trump is not None:
        out["trump"] = hand.trump
    if view is not None:
        out.update(view.hand_fields(hand, ctx))
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
    out.update(VIEWS[scored_game.game.variant].hand_fields(deal, deal.context))
    return out


def links(game_id: str) -> dict:
    return {
        "page": url_for("games.protokoll", game_id=game_id),
        "json": url_for("api.game", game_id=game_id),
        "pdf": url_for("sheets.pdf", game_id=game_id),
        "csv": url_for("sheets.hands_csv", game_id=game_id),
    }


def standing_words(scored_game: ScoredGame) -> list[str] | None:
    """Each side's standing in the variant's own words, where its totals are not the standing (its `standing`)."""
    p = scored_game.protokoll
    said = VARIANTS[scored_game.game.variant].standing(p.state, p.totals, table_context(scored_game.setup))
    return None if said is None else [translate(w) for w in said]


def game_dict(scored_game: ScoredGame, *, hands: bool = True) -> dict:
    """The game as the API answers it; `hands=False` leaves out the hands (the protokoll page has its own rows)."""
    game, p = scored_game.game, scored_game.protokoll
    view = VIEWS[game.variant]
    out: dict[str, Any] = {
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
        "hands": [hand_dict(h, view, ctx) for h, ctx in zip(p.hands, _contexts(scored_game, view))] if hands else None,
        "totals": [written(x) for x in p.totals],
        "next_dealer": p.next_dealer,
        "next_leader": p.next_leader,
        "finished": p.finished,
        "winner": p.winner,
        "links": links(game.id),
    }
    standing = standing_words(scored_game)
    if standing is not None:
        out["standing"] = standing
    if not VARIANTS[game.variant].POINTS:
        out["points"] = False
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


def signed(n) -> str:
    """Points with their sign: +60, −60, 0, +¾ (a real minus sign; i18n.point)."""
    return point(n, signed=True)


def minus(n) -> str:
    """Points with a real minus sign when negative: −60, 2½ (i18n.point)."""
    return point(n)


def protokoll_context(
    scored_game: ScoredGame, changed: int | None = None, saved: int | None = None, first: int = 1
) -> dict:
    """Everything the protokoll page shows, as finished text and numbers: the template does no arithmetic. `rows`
    from hand `first` on (what changed on a watching phone's page after a hand: the rows before it are as they were,
    games/pages/protokoll.py); everything else of the whole game."""

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
    kept_in_points = VARIANTS[scored_game.game.variant].POINTS
    zero_sum = VARIANTS[scored_game.game.variant].ZERO_SUM and kept_in_points
    rows = []
    # Per page, not per row (a 1,000-hand sheet): the words (the edit links are the template's, relative: hands/7).
    deals = [gettext("%(name)s deals", name=name) for name in players]
    edit_label = gettext("Edit hand %(n)d")
    outcome_words = {"made": gettext("made"), "lost": gettext("lost"), None: None}
    with one_catalogue():
        for h, ctx in zip(p.hands, hand_contexts(scored_game)):
            if h.number < first:
                continue
            cell_words = view.cell_words(h.input, ctx) or [None] * len(p.sides)
            rows.append(
                {
                    "number": h.number,
                    "dealer": players[h.dealer],
                    "deals": deals[h.dealer],
                    "cards": cards(h.cards),
                    "text": view.hand_words(h.input, ctx),
                    "cells": [
                        {
                            "points": signed(pt) if kept_in_points else "",
                            "total": minus(t) if kept_in_points else "",
                            "out": h.sitting_out in p.sides[i],
                            "words": w,
                        }
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
        "totals": standing_words(scored_game) or [minus(t) for t in p.totals],
        "points": kept_in_points,
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
    """The running totals per side as a chart's finished coordinates (None before the first hand, and for a variant
    kept in no points)."""

    p = scored_game.protokoll
    if not VARIANTS[scored_game.game.variant].POINTS:
        return None  # no points, no running totals to draw
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


def edit_log_view(scored_game: ScoredGame, log: list[dict]) -> list[str]:
    """Edits and deletions in words, newest first: "Hand 3 changed at 23:14: … → …". Additions are the sheet itself."""

    game = scored_game.game
    view, rules, p = VIEWS[game.variant], VARIANTS[game.variant], scored_game.protokoll
    table = table_context(scored_game.setup)

    def text(inp, number):
        if number <= len(p.hands) + 1:
            return view.hand_words(inp, game_context(rules, p, number))
        return view.hand_words(inp, hand_context(rules, table, number, (), p.state))  # a hand since deleted

    rows = []
    for entry in reversed(log):
        if entry["action"] == "added":
            continue
        at = format_datetime(datetime.fromisoformat(entry["at"]), "short")
        if entry["action"] == "card":  # a club's card applied to the table (clubs: apply_card)
            rows.append(_("The club's card applied %(at)s: every hand rescored by it", at=at))
            continue
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
