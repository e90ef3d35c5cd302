"""Danish whist on the pages: bidder, a bid from the ladder, trump, the called partner, tricks; its tariff table."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms.fields import SelectChoice

from scorekeeper.core.base import TRUMPS
from scorekeeper.core.variants import danish as rules
from scorekeeper.web import words
from scorekeeper.web.games.forms import HandForm as BaseHandForm
from scorekeeper.web.games.forms import radio
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import number_or_raw
from scorekeeper.web.variants import shared

NAME = rules.NAME
HAND_TEMPLATE = "games/hand_danish.html"
OPTION_LABELS = shared.labels(
    "deals",
    "rate",
    "currency",
    tariff=_l("Tariff for 7, 8 … 13"),
    lost=_l("Lost bid pays"),
    solo_values=_l("Sol values: sol, ren sol, bordlægger, ren bordlægger"),
)
CHOICE_LABELS = {"flat": _l("twice the tariff"), "per_trick": _l("twice the tariff per missing trick")}
BLANK_ROWS = 19  # leaves room for the tariff table
PLAYERS_BY_SEAT = True
TARIFF_PRESETS = rules.TARIFF_PRESETS
PRESET_LABELS = {
    "standard": _l("Standard tariff"),
    "per_trick": _l("Doubled tariff per missing trick"),
    "double_sol": _l("Doubled sol values"),
}
CLUB_STATS = True


class HandForm(BaseHandForm):
    bidder = radio()
    bid = radio()
    trump = radio()
    partner = radio()
    tricks = radio()
    ERROR_FIELDS = {"suffix": "bid", "passed": "bid"}

    def submitted(self, formdata) -> dict:
        """The "passed out" button is a hand of its own."""
        return {"passed": True} if formdata.get("passed") else self.to_input()

    def to_input(self) -> dict:
        bid = self.bid.data or ""
        number, _sep, suffix = bid.partition("-")
        out: dict = {
            "bidder": number_or_raw(self.bidder.data, negative=True),
            "bid": number_or_raw(number, negative=True) if number else None,
            "tricks": number_or_raw(self.tricks.data, negative=True),
        }
        if rules.is_solo(number):
            return out
        out["suffix"] = suffix or "plain"
        if self.trump.data:
            out["trump"] = self.trump.data
        partner = self.partner.data
        out["partner"] = out["bidder"] if partner == "self" else number_or_raw(partner, negative=True)
        return out

    @staticmethod
    def data_from(inp: dict) -> dict:
        if inp.get("passed"):
            return {}
        bid = (
            str(inp["bid"])
            if rules.is_solo(inp["bid"]) or inp.get("suffix", "plain") == "plain"
            else f"{inp['bid']}-{inp['suffix']}"
        )
        data = {"bidder": inp["bidder"], "bid": bid, "tricks": inp["tricks"]}
        if not rules.is_solo(inp["bid"]):
            data["trump"] = inp.get("trump")
            data["partner"] = "self" if inp["partner"] == inp["bidder"] else inp["partner"]
        return data


def solo_name(bid: str) -> str:
    """The one word asked for, translated (not all four)."""
    return {
        "sol": lambda: _("sol"),
        "ren_sol": lambda: _("ren sol"),
        "bordlaegger": lambda: _("bordlægger"),
        "ren_bordlaegger": lambda: _("ren bordlægger"),
    }[bid]()


def suffix_name(suffix: str) -> str:
    """The one word asked for, translated (not all five)."""
    return {
        "plain": lambda: "",
        "vip": lambda: _("vip"),
        "gode": lambda: _("gode"),
        "sans": lambda: _("sans"),
        "halve": lambda: _("halve"),
    }[suffix]()


def bid_name(bid, suffix=None) -> str:
    if rules.is_solo(bid):
        return solo_name(bid)
    return f"{bid} {suffix_name(suffix or 'plain')}".strip()


def tricks_total(options) -> int:
    return 13


def fixed_trump(number: int, options) -> str | None:
    return None


def bid_rows() -> list[list]:
    """The core's ladder as rows of buttons: a row per number of tricks, its sol bid (or a gap) after the plain bid."""
    rows: list[list] = []
    for bid, suffix in rules.ladder():
        if suffix is None:
            rows[-1][1] = SelectChoice(bid, solo_name(bid).replace("bordlægger", "bord\u00adlægger"))
        elif suffix == "plain":
            rows.append([SelectChoice(str(bid), str(bid)), None])
        else:
            rows[-1].append(SelectChoice(f"{bid}-{suffix}", f"{bid} {suffix_name(suffix)}"))
    return rows


def buttons(form, ctx, players, side_names) -> dict:
    out = rules.sits_out(ctx)
    playing = [i for i in range(ctx.n_players) if i != out]
    form.tricks.choices = [SelectChoice(str(x), str(x)) for x in range(14)]
    form.bidder.choices = [SelectChoice(str(i), players[i]) for i in playing]
    form.partner.choices = [SelectChoice(str(i), players[i]) for i in playing] + [
        SelectChoice("self", _("alone (selvmakker)"))
    ]
    form.trump.choices = [SelectChoice(s, words.suit_button(s)) for s in TRUMPS]
    rows = bid_rows()
    form.bid.choices = [c for row in rows for c in row if c]
    return {
        "name_cols": 4 if max(len(players[i]) for i in playing) <= 8 else 2,  # long names get wider buttons
        "bid_rows": rows,
        "sitting_out": players[out] if out is not None else None,
    }


def hand_words(inp, players, sides, trump) -> str:
    if inp.get("passed"):
        return _("Passed out")
    bidder = players[inp["bidder"]]
    tricks = words.tricks_words(inp["tricks"])
    if rules.is_solo(inp["bid"]):
        return _("%(bidder)s %(bid)s, %(tricks)s", bidder=bidder, bid=solo_name(inp["bid"]), tricks=tricks)
    trump = "" if inp["suffix"] == "sans" else words.suit(inp.get("trump"))
    bid = f"{bid_name(inp['bid'], inp['suffix'])} {trump}".strip()
    if inp["partner"] == inp["bidder"]:
        return _("%(bidder)s %(bid)s, alone (selvmakker), %(tricks)s", bidder=bidder, bid=bid, tricks=tricks)
    return _(
        "%(bidder)s %(bid)s, partner %(partner)s, %(tricks)s",
        bidder=bidder,
        bid=bid,
        partner=players[inp["partner"]],
        tricks=tricks,
    )


def house_rules(options) -> list[tuple[str, str]]:
    o = options
    return [
        (_("Tariff (bids 7–13)"), ", ".join(map(str, o["tariff"]))),
        (_("Lost bid"), _("twice the tariff") if o["lost"] == "flat" else _("twice the tariff per missing trick")),
        (_("Sol values"), ", ".join(f"{solo_name(b)} {o['solo_values'][b]}" for b in rules.SOLO_BIDS)),
        (_("Suffixes"), _("vip, gode, sans and halve count double")),
    ]


def tariff_matrix(options) -> dict:
    """The core's matrix with the sol bids named: {"bids": {bid: [points per tricks 0..13]}, "sol": [(name, made,
    lost)]}."""
    matrix = rules.tariff_matrix(options)
    return {
        "bids": matrix["bids"],
        "sol": [(solo_name(bid), made, lost) for bid, (made, lost) in matrix["sol"].items()],
    }


def blank_columns(options) -> list[tuple[str, str]]:
    return [
        ("bidder", _("Bidder")),
        ("bid", _("Bid")),
        ("trump", _("Trump")),
        ("partner", _("Partner")),
        ("tricks", _("Tricks")),
    ]


def csv_columns(options, players, side_names) -> list:
    return [shared.field(name, players) for name in rules.INPUT_FIELDS]
