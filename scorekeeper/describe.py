"""A hand in a few words for the protokoll: "Bo 9 gode ♣, partner Dina, 10 tricks"."""
from __future__ import annotations

from flask_babel import gettext as _, ngettext

from .scoring import danish as danish_rules

SUIT_SYMBOLS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠", "none": "NT"}


def suit(trump: str | None) -> str:
    return SUIT_SYMBOLS.get(trump or "", "")


def side_names(players, sides) -> list[str]:
    return [" & ".join(players[s] for s in seats) for seats in sides]


def solo_name(bid: str) -> str:
    return {"sol": _("sol"), "ren_sol": _("ren sol"), "bordlaegger": _("bordlægger"),
            "ren_bordlaegger": _("ren bordlægger")}[bid]


def suffix_name(suffix: str) -> str:
    return {"plain": "", "vip": _("vip"), "gode": _("gode"), "sans": _("sans"), "halve": _("halve")}[suffix]


def bid_name(bid, suffix=None) -> str:
    if danish_rules.is_solo(bid):
        return solo_name(bid)
    return f"{bid} {suffix_name(suffix or 'plain')}".strip()


def tricks_words(n: int) -> str:
    return ngettext("%(num)d trick", "%(num)d tricks", n)


def hand(variant: str, inp, players, sides, trump=None) -> str:
    names = side_names(players, sides)
    if variant == "danish":
        if inp.get("passed"):
            return _("Passed out")
        bidder = players[inp["bidder"]]
        if danish_rules.is_solo(inp["bid"]):
            return _("%(bidder)s %(bid)s, %(tricks)s", bidder=bidder, bid=solo_name(inp["bid"]),
                     tricks=tricks_words(inp["tricks"]))
        trump = "" if inp["suffix"] == "sans" else suit(inp.get("trump"))
        bid = f"{bid_name(inp['bid'], inp['suffix'])} {trump}".strip()
        if inp["partner"] == inp["bidder"]:
            return _("%(bidder)s %(bid)s, alone (selvmakker), %(tricks)s", bidder=bidder, bid=bid,
                     tricks=tricks_words(inp["tricks"]))
        return _("%(bidder)s %(bid)s, partner %(partner)s, %(tricks)s", bidder=bidder, bid=bid,
                 partner=players[inp["partner"]], tricks=tricks_words(inp["tricks"]))
    score = "–".join(map(str, inp["tricks"]))
    if variant == "classic":
        text = f"{suit(trump)} {score}"
        if inp.get("honours"):
            text += ", " + _("honours %(a)d–%(b)d", a=inp["honours"][0], b=inp["honours"][1])
        if inp.get("revoke"):
            penalty = {"tricks": _("tricks"), "add": _("points added"), "deduct": _("points deducted")}[inp["revoke"]["penalty"]]
            text += ", " + _("revoke by %(side)s (%(penalty)s)", side=names[inp["revoke"]["side"]], penalty=penalty)
        return text
    if variant == "norwegian":
        if inp["bid"] == "grand":
            return _("Grand %(bidder)s, %(score)s", bidder=players[inp["bidder"]], score=score)
        return _("Pass, %(score)s", score=score)
    if variant == "swedish":
        if inp["red"] is None:
            return _("All black, %(score)s", score=score)
        return _("Red %(player)s, %(score)s", player=players[inp["red"]], score=score)
    return score
