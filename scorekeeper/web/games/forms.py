"""One hand form per variant (WTForms, CSRF by Flask-WTF), and the new-game form built from a variant's options.

The forms only turn taps into the scorer's input dict; the scorer decides what is valid.
"""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, HiddenField, RadioField, SelectField, StringField
from wtforms.validators import Optional

from scorekeeper.web.inputs import number_or_raw
from scorekeeper.web.options import option_text as option_text_of, options_from_text
from scorekeeper.core import VARIANTS
from scorekeeper.core.variants import danish as danish_rules
from scorekeeper.core.base import SUITS


SUIT_SYMBOLS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠", "none": "–"}


def _radio(**kw) -> RadioField:
    return RadioField(choices=[], validate_choice=False, **kw)


def _int(value):
    """A whole number in ASCII digits, or the value as it came for the scorer to refuse by name."""
    return number_or_raw(value, negative=True)


class Form(FlaskForm):
    """Flask-WTF's form (CSRF, Babel), with WTForms' own catalogue kept between requests."""

    class Meta:
        def get_translations(self, form):
            from scorekeeper.web.i18n import wtforms_translations

            return wtforms_translations()


class HandForm(Form):
    """Fields every hand form has: the hand number the writer saw and a one-time token against double taps.

    CSRF: CSRFProtect checks every form post before the view; the templates carry its token (csrf_token()). The form
    does not check it again, nor sign a fresh token for a post that only redirects.
    """

    class Meta:
        csrf = False

    number = HiddenField()
    version = HiddenField()
    token = HiddenField()
    # Scorer error keys → form fields; unknown keys show at the top of the form.
    ERROR_FIELDS: dict[str, str] = {}

    def field_for(self, key: str) -> str | None:
        name = self.ERROR_FIELDS.get(key, key)
        return name if name in self and name not in ("number", "version", "token", "csrf_token") else None


class ClassicHand(HandForm):
    trump = _radio()
    tricks = _radio()
    honours = _radio()
    revoke_side = _radio()
    revoke_penalty = _radio(default="tricks")
    ERROR_FIELDS = {"revoke.side": "revoke_side", "revoke.penalty": "revoke_penalty", "revoke": "revoke_side"}

    def to_input(self) -> dict:
        out: dict = {"tricks": _pair(self.tricks.data, 13)}
        if self.trump.data:
            out["trump"] = self.trump.data
        if self.honours.data not in (None, "", "None"):
            out["honours"] = _pair(self.honours.data, 4)
        if self.revoke_side.data not in (None, "", "None"):
            out["revoke"] = {"side": _int(self.revoke_side.data), "penalty": self.revoke_penalty.data or "tricks"}
        return out

    @staticmethod
    def data_from(inp: dict) -> dict:
        data = {"trump": inp.get("trump"), "tricks": inp["tricks"][0]}
        if inp.get("honours"):
            data["honours"] = inp["honours"][0]
        if inp.get("revoke"):
            data["revoke_side"] = inp["revoke"]["side"]
            data["revoke_penalty"] = inp["revoke"]["penalty"]
        return data


class NorwegianHand(HandForm):
    bid = _radio()
    tricks = _radio()
    ERROR_FIELDS = {"bidder": "bid"}

    def to_input(self) -> dict:
        bid = self.bid.data or ""
        out: dict = {"tricks": _pair(self.tricks.data, 13)}
        if bid.startswith("grand-"):
            out.update(bid="grand", bidder=_int(bid[6:]))
        else:
            out["bid"] = bid or None
        return out

    @staticmethod
    def data_from(inp: dict) -> dict:
        bid = f"grand-{inp['bidder']}" if inp["bid"] == "grand" else "pass"
        return {"bid": bid, "tricks": inp["tricks"][0]}


class DanishHand(HandForm):
    bidder = _radio()
    bid = _radio()
    trump = _radio()
    partner = _radio()
    tricks = _radio()
    ERROR_FIELDS = {"suffix": "bid", "passed": "bid"}

    def to_input(self) -> dict:
        bid = self.bid.data or ""
        number, _, suffix = bid.partition("-")
        out: dict = {"bidder": _int(self.bidder.data), "bid": _int(number) if number else None,
                     "tricks": _int(self.tricks.data)}
        if danish_rules.is_solo(number):
            return out
        out["suffix"] = suffix or "plain"
        if self.trump.data:
            out["trump"] = self.trump.data
        partner = self.partner.data
        out["partner"] = out["bidder"] if partner == "self" else _int(partner)
        return out

    @staticmethod
    def data_from(inp: dict) -> dict:
        if inp.get("passed"):
            return {}
        bid = str(inp["bid"]) if danish_rules.is_solo(inp["bid"]) or inp.get("suffix", "plain") == "plain" \
            else f"{inp['bid']}-{inp['suffix']}"
        data = {"bidder": inp["bidder"], "bid": bid, "tricks": inp["tricks"]}
        if not danish_rules.is_solo(inp["bid"]):
            data["trump"] = inp.get("trump")
            data["partner"] = "self" if inp["partner"] == inp["bidder"] else inp["partner"]
        return data


class GermanHand(HandForm):
    tricks = _radio()
    total = 13

    def to_input(self) -> dict:
        return {"tricks": _pair(self.tricks.data, self.total)}

    @staticmethod
    def data_from(inp: dict) -> dict:
        return {"tricks": inp["tricks"][0]}


class SwedishHand(HandForm):
    red = _radio()
    tricks = _radio()

    def to_input(self) -> dict:
        red = self.red.data
        out: dict = {"tricks": _pair(self.tricks.data, 13)}
        if red == "black":
            out["red"] = None
        elif red not in (None, ""):
            out["red"] = _int(red)
        return out

    @staticmethod
    def data_from(inp: dict) -> dict:
        return {"red": "black" if inp["red"] is None else inp["red"], "tricks": inp["tricks"][0]}


HAND_FORMS = {"classic": ClassicHand, "norwegian": NorwegianHand, "danish": DanishHand,
              "german": GermanHand, "swedish": SwedishHand}


def _pair(first, total):
    """The first side's count from a button, the other side's filled in: x → [x, total − x]."""
    x = _int(first)
    if x is None:
        return None
    if not isinstance(x, int):
        return x
    return [x, total - x]


# ---------------------------------------------------------------- new game


class NewGameForm(Form):
    title = StringField(validators=[Optional()])
    dealer = RadioField(choices=[], validate_choice=False, default="0")


def player_field_names(variant: str) -> list[str]:
    return [f"player{i}" for i in range(max(VARIANTS[variant].PLAYER_COUNTS))]


def new_game_form(variant: str, formdata=None) -> NewGameForm:
    """The new-game form for a variant: its player fields and one field per house rule, defaults preselected."""
    module = VARIANTS[variant]

    class Form(NewGameForm):
        pass

    for name in player_field_names(variant):
        setattr(Form, name, StringField(validators=[Optional()]))
    for name, opt in module.OPTIONS.items():
        setattr(Form, f"opt_{name}", option_field(name, opt))
    return Form(formdata=formdata) if formdata is not None else Form()


def option_field(name, opt) -> Field:
    if opt.kind == "bool":
        return BooleanField(default=opt.default)
    if opt.kind == "choice":
        return SelectField(choices=[(c, c) for c in opt.choices], default=opt.default, validate_choice=False)
    return StringField(default=option_text_of(opt, opt.default))


def options_from_form(variant: str, form) -> tuple[dict, dict]:
    """The options a player chose, as the scorer's types (options.options_from_text); errors keyed by form field."""
    module = VARIANTS[variant]
    texts = {}
    for name, opt in module.OPTIONS.items():
        raw = form[f"opt_{name}"].raw_data
        texts[name] = raw[0] if raw else "" if opt.kind == "bool" else None  # an unchecked box is not sent
    given, errors = options_from_text(module, texts)
    return {name: given.get(name, opt.default) for name, opt in module.OPTIONS.items()}, \
        {f"opt_{name}": message for name, message in errors.items()}


OPTION_LABELS = {
    "target": _l("Play to (points)"), "honours": _l("Honours"), "rubber": _l("Rubber (best of three games)"),
    "revoke_penalty": _l("Revoke penalty"), "deals": _l("Fixed number of deals"),
    "trump_rotation": _l("Trump rotation (tournament)"), "no_trump_every": _l("No trump every n-th deal"),
    "set_bonus": _l("Points per trick for a failed grand"), "pass_scoring": _l("Pass game scoring"),
    "tariff": _l("Tariff for 7, 8 … 13"), "lost": _l("Lost bid pays"),
    "solo_values": _l("Sol values: sol, ren sol, bordlægger, ren bordlægger"),
    "rate": _l("Money per point"), "currency": _l("Currency"), "count": _l("Tricks that count"),
}
CHOICE_LABELS = {
    "flat": _l("twice the tariff"), "per_trick": _l("twice the tariff per missing trick"),
    "under_six": _l("6 − tricks for a side under six"), "under_seven": _l("7 − tricks for a side under seven"),
    "phase2": _l("the last 13 tricks"), "all26": _l("all 26 tricks"),
}


def option_text(opt, field) -> str:
    """What a text box for an option shows: what was typed, else the default."""
    return field.raw_data[0] if field.raw_data else option_text_of(opt, opt.default)
