"""A hand in a few words for the protokoll: "Bo 9 gode ♣, partner Dina, 10 tricks"."""
from __future__ import annotations

from scorekeeper.web.i18n import gettext as _, ngettext
from scorekeeper.core.variants import danish as danish_rules

SUIT_SYMBOLS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠", "none": "NT"}


def suit(trump: str | None) -> str:
    return SUIT_SYMBOLS.get(trump or "", "")


def side_names(players, sides) -> list[str]:
    return [" & ".join(players[s] for s in seats) for seats in sides]


def solo_name(bid: str) -> str:
    """The one word asked for, translated (not all four)."""
    return {"sol": lambda: _("sol"), "ren_sol": lambda: _("ren sol"), "bordlaegger": lambda: _("bordlægger"),
            "ren_bordlaegger": lambda: _("ren bordlægger")}[bid]()


def suffix_name(suffix: str) -> str:
    """The one word asked for, translated (not all five)."""
    return {"plain": lambda: "", "vip": lambda: _("vip"), "gode": lambda: _("gode"), "sans": lambda: _("sans"),
            "halve": lambda: _("halve")}[suffix]()


def bid_name(bid, suffix=None) -> str:
    if danish_rules.is_solo(bid):
        return solo_name(bid)
    return f"{bid} {suffix_name(suffix or 'plain')}".strip()


def tricks_words(n: int) -> str:
    return ngettext("%(num)d trick", "%(num)d tricks", n)


def hand(variant: str, inp, players, sides, trump=None) -> str:
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
            text += ", " + _("revoke by %(side)s (%(penalty)s)", side=side_names(players, sides)[inp["revoke"]["side"]],
                          penalty=penalty)
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


def _yes_no(value) -> str:
    return _("yes") if value else _("no")


def house_rules(variant: str, options) -> list[dict]:
    """The options a game was scored with, in words, for the head of a printed sheet: [{"label", "value"}]."""
    rules = []

    def add(label, value):
        rules.append({"label": label, "value": value})

    o = dict(options)
    if variant == "danish":
        add(_("Tariff (bids 7–13)"), ", ".join(map(str, o["tariff"])))
        add(_("Lost bid"), _("twice the tariff") if o["lost"] == "flat" else _("twice the tariff per missing trick"))
        add(_("Sol values"), ", ".join(f"{solo_name(b)} {o['solo_values'][b]}" for b in danish_rules.SOLO_BIDS))
        add(_("Suffixes"), _("vip, gode, sans and halve count double"))
    if "target" in o and not o.get("deals"):
        add(_("Target") if o.get("count") != "all26" else _("Target (deals won)"), str(o["target"]))
    if variant == "classic":
        add(_("Honours"), _yes_no(o["honours"] and not o.get("deals")))
        add(_("Rubber"), _("best of three games") if o["rubber"] else _("no"))
        add(_("Revoke penalty"), str(o["revoke_penalty"]))
        if o.get("trump_rotation"):
            add(_("Trump"), _("hearts, diamonds, spades, clubs in turn"))
            if o.get("no_trump_every"):
                add(_("No trump"), _("one deal in %(n)d", n=o["no_trump_every"]))
    if variant == "norwegian":
        add(_("Grand lost"), _("%(n)d per trick over six to the other side", n=o["set_bonus"]))
        add(_("Pass"), _("6 − tricks for a side with 5 or fewer") if o["pass_scoring"] == "under_six"
            else _("7 − tricks for a side with 6 or fewer"))
    if variant == "german":
        add(_("Counting"), _("tricks over six of the last 13") if o["count"] == "phase2"
            else _("all 26 tricks: the deal goes to the player with more"))
    if "deals" in o:
        add(_("Deals"), str(o["deals"]) if o["deals"] else _("no limit"))
    if o.get("rate") is not None:
        add(_("Stake"), _("%(rate)s %(currency)s per point", rate=o["rate"], currency=o["currency"]))
    else:
        add(_("Stake"), _("not played for money"))
    return rules
