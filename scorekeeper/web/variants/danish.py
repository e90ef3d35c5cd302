"""Danish whist on the pages: bidder, a bid from the ladder, trump, the called partner, tricks; its tariff table."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms.fields import SelectChoice

from scorekeeper.core.game import TRUMPS
from scorekeeper.core.variants import danish as rules
from scorekeeper.web import words
from scorekeeper.web.games.forms import HandForm as BaseHandForm
from scorekeeper.web.games.forms import radio
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import number_or_raw
from scorekeeper.web.variants import shared

NAME = rules.NAME
OPTION_LABELS = shared.labels(
    "deals",
    "rate",
    "currency",
    tariff=_l("Tariff for 7, 8 … 13"),
    lost=_l("Lost bid pays"),
    solo_values=_l("Sol values: sol, ren sol, bordlægger, ren bordlægger"),
    preset=_l("Tariff preset"),
    house=_l("The table's own tariff"),
    iron_hand=_l("Jernhånd (a new deal for a hand without pictures, aces or jokers)"),
)
CHOICE_LABELS = {"flat": _l("twice the tariff"), "per_trick": _l("twice the tariff per missing trick")}
FIELD_LABELS = {"passed": _l("Passed out (all passed)"), "suffix": _l("Bid")}
PLAYER_HINT = _l("Four players, or five: the dealer then sits out.")
BLANK_ROWS = 19  # leaves room for the tariff table
STYLESHEET = "variants/danish.css"
SCRIPT = "variants/danish.js"
TARIFF_PRESETS = rules.TARIFF_PRESETS
PRESET_LABELS = {
    "standard": _l("Standard tariff"),
    "per_trick": _l("Doubled tariff per missing trick"),
    "double_sol": _l("Doubled sol values"),
    "quarter_steps": _l("Quarter steps: vip ×1¼, gode and sans ×1½, halve ×1¾"),
    "suffix_base_only": _l("A suffix doubles the base only, not the overtricks"),
    "gode_not_doubled": _l("Gode not doubled"),
    "tricks_times_tariff": _l("Tricks × tariff"),
    "half_overtricks": _l("Overtricks at half the tariff"),
    "lost_base_plus_short": _l("Lost: the tariff plus the tariff per missing trick"),
    "grand_slam_double": _l("All 13 tricks count double"),
    "selvmakker_two_shares": _l("Selvmakker gets two shares, not three"),
    "sol_lost_equals_won": _l("A lost sol pays what a made one wins"),
    "sol_join_independent": _l("Others may join a sol (gå med), each settles with all"),
    "sol_join_vs_others": _l("Others may join a sol (gå med), settled with those not playing it"),
    "winners_pool": _l("Sol values are the sol player's totals; joined sols share the pool"),
    "more_suffixes": _l("More suffixes: stærke (spades), vip on the 2nd and 3rd card"),
}
CLUB_STATS = True


class HandForm(BaseHandForm):
    bidder = radio()
    bid = radio()
    trump = radio()
    partner = radio()
    tricks = radio()
    ERROR_FIELDS = {"suffix": "bid", "passed": "bid"}

    def submitted(self, formdata, ctx) -> dict:
        """The "passed out" and "jernhånd" buttons are hands of their own; gå med players come as with_<seat>."""
        if formdata.get("passed"):
            return {"passed": True}
        if formdata.get("iron_hand"):
            return {"iron_hand": number_or_raw(self.bidder.data, negative=True)}
        inp = self.to_input(ctx)
        joined = [
            {"seat": number_or_raw(key[5:], negative=True), "tricks": number_or_raw(value, negative=True)}
            for key, value in formdata.items()
            if key.startswith("with_") and value != ""
        ]
        if joined and rules.is_solo(inp.get("bid")):
            inp["with"] = joined
        return inp

    def to_input(self, ctx) -> dict:
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

    def asks_first(self, raw: dict, before: dict, formdata) -> bool:
        """A passed-out deal would replace a played hand: the page asks first."""
        return bool(raw.get("passed")) and not before.get("passed") and formdata.get("passed") != "confirmed"

    @staticmethod
    def played(inp: dict) -> bool:
        return not inp.get("passed")

    @staticmethod
    def data_from(inp: dict, ctx) -> dict:
        if inp.get("passed"):
            return {}
        if "iron_hand" in inp:
            return {"bidder": inp["iron_hand"]}
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
        "vip2": lambda: _("vip 2"),
        "vip3": lambda: _("vip 3"),
        "staerke": lambda: _("stærke"),
    }[suffix]()


def bid_name(bid, suffix=None) -> str:
    if rules.is_solo(bid):
        return solo_name(bid)
    return f"{bid} {suffix_name(suffix or 'plain')}".strip()


def bid_rows(options=None) -> list[list]:
    """The core's ladder (of the game's house) as rows of buttons: a row per number of tricks, its sol bid (or a gap)
    after the plain bid."""
    rows: list[list] = []
    last = None
    for bid, suffix in rules.ladder(rules.house_of(options) if options is not None else None):
        number = rules.SOLO_AFTER[bid] if suffix is None else bid
        if number != last:
            rows.append([None, None])
            last = number
        if suffix is None:
            rows[-1][1] = SelectChoice(bid, solo_name(bid).replace("bordlægger", "bord\u00adlægger"))
        elif suffix == "plain":
            rows[-1][0] = SelectChoice(str(bid), str(bid))
        else:
            rows[-1].append(SelectChoice(f"{bid}-{suffix}", f"{bid} {suffix_name(suffix)}"))
    return rows


def buttons(form, ctx, side_names) -> dict:
    players, out, playing = ctx.players, ctx.sitting_out, ctx.playing
    form.tricks.choices = [SelectChoice(str(x), str(x)) for x in range(14)]
    form.bidder.choices = [SelectChoice(str(i), players[i]) for i in playing]
    form.partner.choices = [SelectChoice(str(i), players[i]) for i in playing] + [
        SelectChoice("self", _("alone (selvmakker)"))
    ]
    form.trump.choices = [SelectChoice(s, words.suit_button(s)) for s in TRUMPS]
    rows = bid_rows(ctx.options)
    form.bid.choices = [c for row in rows for c in row if c]
    house = rules.house_of(ctx.options)
    return {
        "iron_hand": bool(ctx.options.get("iron_hand")),
        "gaa_med": [{"seat": i, "name": players[i], "tricks": [str(t) for t in range(14)]} for i in playing]
        if house.gaa_med
        else [],
        # Four across unless a name has a word too long for a quarter of the phone (names break only at - or space).
        "name_cols": 4 if max(len(w) for i in playing for w in players[i].replace("-", " ").split()) <= 11 else 2,
        "bid_rows": rows,
        "sitting_out": players[out] if out is not None else None,
    }


def hand_words(inp, ctx) -> str:
    players = ctx.players
    if inp.get("passed"):
        return _("Passed out")
    if "iron_hand" in inp:
        return _("Jernhånd: %(player)s asked for a new deal", player=players[inp["iron_hand"]])
    bidder = players[inp["bidder"]]
    tricks = words.tricks_words(inp["tricks"])
    if rules.is_solo(inp["bid"]):
        text = _("%(bidder)s %(bid)s, %(tricks)s", bidder=bidder, bid=solo_name(inp["bid"]), tricks=tricks)
        for joined in inp.get("with", ()):
            text += "; " + _(
                "%(player)s too, %(tricks)s",
                player=players[joined["seat"]],
                tricks=words.tricks_words(joined["tricks"]),
            )
        return text
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


def house_rules(table) -> list[tuple[str, str]]:
    o = table.options
    lines = []
    if o.get("preset"):
        lines.append((_("Tariff preset"), str(PRESET_LABELS.get(o["preset"], o["preset"]))))
    lines += [
        (_("Tariff (bids 7–13)"), ", ".join(map(str, o["tariff"]))),
        (_("Lost bid"), _("twice the tariff") if o["lost"] == "flat" else _("twice the tariff per missing trick")),
        (_("Sol values"), ", ".join(f"{solo_name(b)} {o['solo_values'][b]}" for b in rules.SOLO_BIDS)),
    ]
    house = rules.house_of(o)
    factors = {name: house.suffixes[name] for name in house.suffixes if name != "plain"}
    if factors and all(f == (2, 2) for f in factors.values()) and set(factors) == set(rules.SUFFIXES[1:]):
        lines.append((_("Suffixes"), _("vip, gode, sans and halve count double")))
    else:
        lines.append(
            (
                _("Suffixes"),
                ", ".join(
                    f"{suffix_name(name)} ×{base}" + (f"/×{trick}" if trick != base else "")
                    for name, (base, trick) in factors.items()
                ),
            )
        )
    if house.gaa_med:
        lines.append((_("Gå med"), GAA_MED_LABELS[house.gaa_med]()))
    if o.get("iron_hand"):
        lines.append((_("Jernhånd"), _("allowed: 0 for all, the deal passes on")))
    return lines


GAA_MED_LABELS = {
    "independent": lambda: _("each sol player settles with all three others"),
    "vs_non_participants": lambda: _("each sol player settles with those not playing sol"),
    "winners_pool": lambda: _("the sol values are totals; winners share what the others pay"),
}


def tariff_matrix(options) -> dict:
    """The core's matrix with names: "rows" of (bid name, points per tricks 0..13) for every bid of the house (a
    suffix whose row is the plain row times a whole number is said in "multiples" instead), "sol" as (name, made,
    lost) and "sol_rows" as (name, V per tricks 0..13); "bids" the plain rows by number, as the core has them."""
    matrix = rules.tariff_matrix(options)
    plain = matrix["bids"]
    rows, multiples = [], {}
    for bid, suffix, values in matrix["rows"]:
        base = plain.get(bid)
        if suffix != "plain" and base and any(base):
            ratio = next((v // b for v, b in zip(values, base) if b), None)
            if ratio and all(v == b * ratio for v, b in zip(values, base)):
                multiples.setdefault(suffix, set()).add(ratio)
                continue
        rows.append((bid_name(bid, suffix), values))
    # A suffix shown as a multiple must be one for every bid; otherwise its rows are printed.
    uneven = {s for s, r in multiples.items() if len(r) > 1}
    if uneven:
        rows = [(bid_name(b, s), v) for b, s, v in matrix["rows"] if s == "plain" or s in uneven or s not in multiples]
    return {
        "bids": plain,
        "rows": rows,
        "multiples": [(suffix_name(s), next(iter(r))) for s, r in multiples.items() if s not in uneven],
        "sol": [(solo_name(bid), made, lost) for bid, (made, lost) in matrix["sol"].items()],
        "sol_rows": [(solo_name(bid), values) for bid, values in matrix["sol_rows"]],
        "gaa_med": matrix["gaa_med"],
    }


def blank_columns(table) -> list[tuple[str, str]]:
    return [
        ("bidder", _("Bidder")),
        ("bid", _("Bid")),
        ("trump", _("Trump")),
        ("partner", _("Partner")),
        ("tricks", _("Tricks")),
    ]


def csv_columns(table, side_names) -> list:
    """The entered fields; `iron_hand` and `with` only where the table's rules allow them, so that a game without
    those club rules keeps the columns its spreadsheets were made for."""
    options = table.options
    allowed = {"iron_hand": bool(options.get("iron_hand")), "with": bool((options.get("house") or {}).get("gaa_med"))}
    return [
        shared.field(name, table.players, seat=name in ("bidder", "partner"))
        for name in rules.INPUT_FIELDS
        if allowed.get(name, True)
    ]
