"""The club pages' forms (WTForms, CSRF by Flask-WTF). They turn what was typed into club_service's input."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import (
    HiddenField,
    PasswordField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.fields import SelectChoice
from wtforms.validators import InputRequired, Optional

from scorekeeper.clubs.rules.club import SETTLEMENTS
from scorekeeper.clubs.rules.evening import PRIZE_KINDS
from scorekeeper.core import VARIANTS, player_counts, variant_options
from scorekeeper.core.options import CURRENCIES
from scorekeeper.games import forms
from scorekeeper.variants.views import VIEWS
from scorekeeper.web.inputs import number_or_raw
from scorekeeper.web.options import option_text

# A table of the club has as many seats as the largest table of any variant.
SEATS = max(n for rules in VARIANTS.values() for n in rules.PLAYER_COUNTS)
OWN = "own"
# The options set by the club itself rather than per rule set.
CLUB_LEVEL = ("currency",)


def preset_fields(variant: str) -> set[str]:
    """The options a tariff preset of the variant sets, and those it builds."""
    return {k for p in VIEWS[variant].TARIFF_PRESETS.values() for k in p if k != "preset"} | set(
        forms.built_options(variant)
    )


def preset_choices(variant: str) -> list[SelectChoice]:
    view = VIEWS[variant]
    return [SelectChoice(name, view.PRESET_LABELS.get(name, name)) for name in view.TARIFF_PRESETS] + [
        SelectChoice(OWN, _l("Own numbers (below)"))
    ]


def preset_of(variant: str, options: dict) -> str:
    """The tariff preset a rule set matches (one stored before presets were named: by its shorthands), or OWN."""
    chosen = options.get("preset")
    for name, preset in VIEWS[variant].TARIFF_PRESETS.items():
        if chosen in (None, name) and all(options.get(k) == v for k, v in preset.items() if k != "preset"):
            return name
    return OWN


class ClubForm(forms.Form):
    name = StringField(validators=[InputRequired(message=_l("Give the club a name."))])
    currency = SelectField(choices=[SelectChoice(c, c) for c in CURRENCIES], default="DKK")
    language = SelectField(choices=[], default="", validate_choice=False)
    preset = SelectField(choices=[], default="standard", validate_choice=False)
    # The evening's defaults on the club's card: every new evening starts from them.
    evening_fee = StringField(validators=[Optional()])
    evening_settlement = RadioField(choices=[], default="pairwise", validate_choice=False)
    password = PasswordField(validators=[Optional()])
    password2 = PasswordField(validators=[Optional()])

    def validate(self, extra_validators=None) -> bool:
        ok = super().validate(extra_validators)
        if (self.password.data or "") != (self.password2.data or ""):
            self.password2.errors = list(self.password2.errors) + [_l("The two passwords differ.")]  # type: ignore[assignment]  # wtforms declares Field.errors a tuple; a form's fields hold lists
            ok = False
        return ok


def shown_options(variant: str) -> list[str]:
    """The house rules a club chooses for a variant: not the currency (the club's own) nor the preset (the form's
    own select), the rate only for a variant its tables play for money (zero-sum)."""
    return [
        name
        for name in VARIANTS[variant].OPTIONS
        if name not in CLUB_LEVEL and name != "preset" and (name != "rate" or VARIANTS[variant].FOR_MONEY)
    ]


def club_form(variant: str, formdata=None, current: dict | None = None) -> ClubForm:
    """The club form for a variant, with one field per house rule; `current` fills it from a club's options."""
    module = VARIANTS[variant]

    class Form(ClubForm):
        pass

    for name, opt in module.OPTIONS.items():
        setattr(Form, f"opt_{name}", forms.option_field(name, opt))
    form = Form(formdata=formdata) if formdata is not None else Form()
    form.preset.choices = preset_choices(variant)
    form.evening_settlement.choices = settlement_choices()
    if formdata is None and current is not None:
        form.preset.data = preset_of(variant, current) if VIEWS[variant].TARIFF_PRESETS else OWN
    return form


def option_value(opt, field, current: dict | None, name: str) -> str:
    """What the text box of a house rule shows: what was typed, else the club's value, else the default."""
    if field.raw_data:
        return field.raw_data[0]
    return option_text(opt, current.get(name, opt.default) if current else opt.default)


def rules_from_form(variant: str, form, current: dict | None = None, skip=()) -> tuple[dict, dict]:
    """The house rules typed into the form as the scorer's types, a chosen tariff preset over them. With `skip` (the
    options an editor draws, web/editors.py, whose fields the form carries) the form's own fields only: the editor
    sets the rest."""
    if skip:
        if form.is_submitted():
            options, errors = forms.options_from_form(variant, form, skip)
        else:
            options, errors = {k: v for k, v in (current or {}).items() if k not in skip}, {}
        for name in CLUB_LEVEL:
            options.pop(name, None)
        if not VARIANTS[variant].FOR_MONEY:
            options.pop("rate", None)
        return options, errors
    if form.is_submitted():
        options, errors = forms.options_from_form(variant, form)
    else:
        options = dict(current) if current else {n: o.default for n, o in VARIANTS[variant].OPTIONS.items()}
        errors = {}
    presets = VIEWS[variant].TARIFF_PRESETS
    if form.preset.data in presets:
        preset = presets[form.preset.data]
        options.update(
            {k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v) for k, v in preset.items()}
        )
        errors = {k: v for k, v in errors.items() if k[4:] not in preset_fields(variant)}
        for name in forms.built_options(variant):
            options[name] = None  # the preset builds it
    elif current:
        for name in forms.built_options(variant):
            if name in options and options[name] == current.get(name):
                # The box shows what the club's other options built: not one of its own, so typed shorthands count.
                built, built_errors = variant_options(VARIANTS[variant], {**current, name: None})
                if not built_errors and built[name] == current.get(name):
                    options[name] = None
    for name in CLUB_LEVEL:
        options.pop(name, None)
    if not VARIANTS[variant].FOR_MONEY:
        options.pop("rate", None)
    return options, errors


class LoginForm(forms.Form):
    password = PasswordField(validators=[InputRequired(message=_l("Enter the password."))])
    next = HiddenField()


class ButtonForm(forms.Form):
    """A form that is only a button (logout, remove a table): the CSRF token is all it carries."""


class MemberForm(forms.Form):
    """One name per line of `names` (several members at once); `name` is the one-line form's field."""

    names = TextAreaField(validators=[Optional()])
    name = StringField(validators=[Optional()])

    def lines(self) -> list[str]:
        text = self.names.data if self.names.data is not None and self.names.raw_data else self.name.data or ""
        return [line for line in text.splitlines() if line.strip()]


class EveningForm(forms.Form):
    date = StringField(validators=[InputRequired(message=_l("Enter the date."))])
    fee = StringField(validators=[Optional()])
    settlement = RadioField(choices=[], default="pairwise", validate_choice=False)

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.settlement.choices = settlement_choices()


def settlement_choices():
    names = {"pairwise": _l("Pairwise: who pays whom"), "kitty": _l("Through the kitty")}
    return [SelectChoice(s, names[s]) for s in SETTLEMENTS]


class TableForm(forms.Form):
    variant = SelectField(choices=[], validate_choice=False)
    dealer = SelectField(choices=[], default="0", validate_choice=False)
    seat_hints: list[tuple[str, str]]  # (a variant choice's label, the players it takes): set by table_form()

    def seat_fields(self):
        return [self[f"seat{i}"] for i in range(SEATS)]

    def member_ids(self) -> list:
        """The members picked, in seat order; the empty seats left out."""
        out = []
        for field in self.seat_fields():
            value = (field.data or "").strip()
            if value:
                out.append(number_or_raw(value, negative=True))
        return out


for _i in range(SEATS):
    setattr(TableForm, f"seat{_i}", SelectField(choices=[], validate_choice=False, validators=[Optional()]))


def player_hint(variant: str) -> str:
    """What a variant's table needs: its view's words, else its table sizes."""
    return VIEWS[variant].PLAYER_HINT or _l(
        "%(counts)s players.", counts=player_counts(VARIANTS[variant].PLAYER_COUNTS)
    )


def table_form(club_variant: str, active_members, formdata=None, seated=()) -> TableForm:
    """The new-table form: the club's rule set or another variant, and a member for each seat; a new form has the
    seats of the club variant's smallest table taken by the members not yet `seated` this evening, in the club's
    order (fewer taps)."""
    form = TableForm(formdata=formdata) if formdata is not None else TableForm()
    if formdata is None:
        free = [m for m in active_members if m.id not in set(seated)][: min(VARIANTS[club_variant].PLAYER_COUNTS)]
        for field, m in zip(form.seat_fields(), free):
            field.data = str(m.id)
    form.variant.choices = [
        SelectChoice(club_variant, _l("The club's rules (%(variant)s)", variant=_l(VARIANTS[club_variant].TITLE)))
    ] + [
        SelectChoice(name, _l("%(variant)s, standard rules", variant=_l(m.TITLE)))
        for name, m in VARIANTS.items()
        if name != club_variant
    ]
    if not form.variant.data:
        form.variant.data = club_variant
    form.seat_hints = [(c.label, player_hint(c.value)) for c in form.variant.choices]
    pick = [SelectChoice("", _l("— nobody —"))] + [SelectChoice(str(m.id), m.name) for m in active_members]
    for field in form.seat_fields():
        field.choices = pick
    form.dealer.choices = [SelectChoice(str(i), _l("Seat %(n)d deals first", n=i + 1)) for i in range(SEATS)]
    return form


class CodeForm(forms.Form):
    """A table's short code, typed on the phone that is to keep the table's score."""

    code = StringField(validators=[InputRequired(message=_l("Enter the table's code."))])


class FormatForm(forms.Form):
    """How the club plays an evening: halves, deals per half, the places and extra prizes."""

    halves = StringField(validators=[Optional()])
    deals = StringField(validators=[Optional()])
    places = StringField(validators=[Optional()])
    prizes = SelectMultipleField(choices=[], validate_choice=False)

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.prizes.choices = [SelectChoice(k, PRIZE_LABELS[k]) for k in PRIZE_KINDS]


PRIZE_LABELS = {
    "bids_made": _l("Most bids made as bidder"),
    "alone_made": _l("Most solo bids made (played alone)"),
}


class SettleForm(forms.Form):
    settlement = RadioField(choices=[], validate_choice=False)
    action = HiddenField()

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.settlement.choices = settlement_choices()
