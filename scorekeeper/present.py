"""A scored game as one plain dict: the JSON answer, and the context the pages render."""
from __future__ import annotations

from flask import url_for

from .scoring import format_cents, settle, settlement_points
from .service import Sheet


def hand_dict(hand) -> dict:
    out = {"number": hand.number, "dealer": hand.dealer, "input": dict(hand.input),
           "points": list(hand.points), "totals": list(hand.totals), "leader": hand.leader}
    if hand.sitting_out is not None:
        out["sitting_out"] = hand.sitting_out
    if hand.game is not None:
        out["game"] = hand.game
    if "trump" in hand.details:
        out["trump"] = hand.details["trump"]
    return out


def links(game_id: str) -> dict:
    return {"page": url_for("games.protokoll", game_id=game_id),
            "json": url_for("api.game", game_id=game_id)}


def game_dict(sheet: Sheet) -> dict:
    game, p = sheet.game, sheet.protokoll
    out = {
        "id": game.id, "variant": game.variant, "title": game.title,
        "players": list(game.players), "dealer": game.dealer,
        "sides": [list(s) for s in p.sides], "options": dict(game.options),
        "created": game.created, "version": game.version,
        "hands": [hand_dict(h) for h in p.hands],
        "totals": list(p.totals), "next_dealer": p.next_dealer, "next_leader": p.next_leader,
        "finished": p.finished, "winner": p.winner,
        "links": links(game.id),
    }
    if p.games_won is not None:
        out["games_won"] = list(p.games_won)
        out["game"] = p.extra.get("game")
        if game.options.get("target") == 5:
            out["rubber_points"] = list(p.rubber_points) if p.rubber_points else None
    if p.deals_left is not None:
        out["deals_left"] = p.deals_left
    if p.extra.get("next_trump"):
        out["next_trump"] = p.extra["next_trump"]
    return out


def settlement_dict(sheet: Sheet) -> dict | None:
    """Who pays whom, or None when the game is not played for money."""
    rate = sheet.game.options.get("rate")
    if rate is None:
        return None
    result = settle(settlement_points(sheet.protokoll), rate)
    return {"rate": rate, "currency": sheet.game.options.get("currency"),
            "balances": [format_cents(c) for c in result.balances],
            "payments": [{"from": p.payer, "to": p.payee, "amount": format_cents(p.cents)} for p in result.payments]}
