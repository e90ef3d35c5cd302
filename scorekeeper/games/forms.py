"""What every hand form has (each variant's own is in variants/<name>/view.py), and the new-game form built from a
variant's options (WTForms, CSRF by Flask-WTF).

The forms only turn taps into the scorer's input dict; the scorer decides what is valid.
"""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, HiddenField, RadioField, SelectField, StringField
from wtforms.fields import SelectChoice
from wtforms.utils import unset_value
from wtforms.validators import Optional

from scorekeeper.core import VARIANTS
from scorekeeper.core.options import LANGUAGE_CURRENCY
from scorekeeper.web.i18n import wtforms_translations
from scorekeeper.web.inputs import number_or_raw
from scorekeeper.web.options import option_text as option_text_of
from scorekeeper.web.options import options_from_text


def radio(**kw) -> RadioField:
    """Buttons whose choices the variant's view fills in per hand."""
    return RadioField(choices=[], validate_choice=False, **kw)


def _int(value):
    """A whole number in ASCII digits, or the value as it came for the scorer to refuse by name."""
    return number_or_raw(value, negative=True)


class Form(FlaskForm):
    """Flask-WTF's form (CSRF, Babel), with WTForms' own catalogue kept between requests."""

    class Meta:
        def get_translations(self, form):
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
    total: int  # the tricks of the deal (its view's tricks_total), set on each form made for a hand

    def field_for(self, key: str) -> str | None:
        name = self.ERROR_FIELDS.get(key, key)
        return name if name in self and name not in ("number", "version", "token", "csrf_token") else None

    def to_input(self, ctx) -> dict:
        """The scorer's input dict from the taps, for hand `ctx` (a variant's form says it)."""
        raise NotImplementedError

    @staticmethod
    def data_from(inp: dict, ctx) -> dict:
        """A stored hand's input back into the form's fields, for editing it (a variant's form says it)."""
        raise NotImplementedError

    def submitted(self, formdata, ctx) -> dict:
        """The scorer's input from a posted form; a variant with a button that is a hand of its own overrides it."""
        return self.to_input(ctx)

    def bids_input(self, ctx, fields: tuple[str, ...]) -> dict:
        """The bids of a deal from the bids page (the hand page without the rest): the input's bid `fields` (the
        variant's BID_FIELDS) that were given."""
        inp = self.to_input(ctx)
        return {name: inp[name] for name in fields if inp.get(name) is not None}

    def asks_first(self, raw: dict, before: dict, formdata) -> bool:
        """Whether saving `raw` over the stored hand `before` asks the table first (a one-tap hand of its own, such as
        a passed-out deal, over a played hand): the page then asks before it saves."""
        return False

    @staticmethod
    def played(inp: dict) -> bool:
        """A stored hand that was played (not a one-tap hand of its own), so replacing it by one asks first."""
        return True


def pair(first, total):
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


def built_options(variant: str) -> list[str]:
    """Options of kind `json`: a structure the variant's resolve_options builds from the others unless one is given
    (a Danish house tariff), so a form that shows what was built sends it back only when it was changed."""
    return [name for name, opt in VARIANTS[variant].OPTIONS.items() if opt.kind == "json"]


def player_field_names(variant: str) -> list[str]:
    return [f"player{i}" for i in range(max(VARIANTS[variant].PLAYER_COUNTS))]


def new_game_form(variant: str, formdata=None, language: str | None = None) -> NewGameForm:
    """The new-game form for a variant: its player fields and one field per house rule, defaults preselected; the
    currency the page's `language`'s (Danish kroner on a Danish page, pounds on an English one) unless the variant's
    own is its home's (Danish whist: DKK)."""
    module = VARIANTS[variant]

    class Form(NewGameForm):
        pass

    for name in player_field_names(variant):
        setattr(Form, name, StringField(validators=[Optional()]))
    for name, opt in module.OPTIONS.items():
        setattr(Form, f"opt_{name}", option_field(name, opt))
    if formdata is not None:
        return Form(formdata=formdata)
    form = Form()
    currency = module.OPTIONS.get("currency")
    home = LANGUAGE_CURRENCY.get(language or "")
    if currency is not None and not currency.home and home in currency.choices:
        form["opt_currency"].data = home
    return form


class ChoiceOrListField(StringField):
    """A house rule that is one of its choices (a select) or a list of numbers typed beside them (a text box named
    `<name>_list`): the list, when typed, is what the field holds."""

    def process(self, formdata, data=unset_value, extra_filters=None):
        super().process(formdata, data, extra_filters)
        typed = formdata.getlist(f"{self.name}_list") if formdata is not None else []
        if typed and typed[0].strip():
            self.raw_data, self.data = [typed[0]], typed[0]


def option_field(name, opt) -> Field:
    if opt.kind == "preset":
        return SelectField(choices=[SelectChoice("", "–")] + [SelectChoice(c, c) for c in opt.choices], default="")
    if opt.kind == "bool":
        return BooleanField(default=opt.default)
    if opt.kind == "choice_or_list":
        return ChoiceOrListField(default=option_text_of(opt, opt.default))
    if opt.kind == "choice":
        return SelectField(
            choices=[SelectChoice(c, c) for c in opt.choices], default=opt.default, validate_choice=False
        )
    return StringField(default=option_text_of(opt, opt.default))


def options_from_form(variant: str, form, skip=()) -> tuple[dict, dict]:
    """The options a player chose, as the scorer's types (options.options_from_text); errors keyed by form field.
    Options in `skip` are an editor's (web/editors.py): it reads their fields itself."""
    module = VARIANTS[variant]
    texts: dict[str, str | None] = {}
    for name, opt in module.OPTIONS.items():
        if name in skip:
            continue
        raw = form[f"opt_{name}"].raw_data
        texts[name] = raw[0] if raw else "" if opt.kind == "bool" else None  # an unchecked box is not sent
    given, errors = options_from_text(module, texts)
    return {name: given.get(name, opt.default) for name, opt in module.OPTIONS.items() if name not in skip}, {
        f"opt_{name}": message for name, message in errors.items()
    }


def option_text(opt, field) -> str:
    """What a text box for an option shows: what was typed, else the default."""
    return field.raw_data[0] if field.raw_data else option_text_of(opt, opt.default)


def chosen_options(variant: str, form, shown: dict | None = None, skip=()) -> tuple[dict, dict]:
    """The options of the new-game form as the table chose them: those left at their default are not sent, so that
    a preset sets them; a box of a built option (kind `json`) still holding what the last preview showed (`shown`,
    by option name) is no choice of its own. Options in `skip` are an editor's."""
    module = VARIANTS[variant]
    options, errors = options_from_form(variant, form, skip)
    for name, text in (shown or {}).items():
        if name in module.OPTIONS and name in options and module.OPTIONS[name].kind == "json" and text is not None:
            raw = form[f"opt_{name}"].raw_data
            if raw and " ".join(raw[0].split()) == " ".join(text.split()):
                options[name] = None
    return {k: v for k, v in options.items() if v != module.OPTIONS[k].default}, errors


def show_options(variant: str, form, values: dict) -> None:
    """Put options (another club's card, imported) into the form's own fields, so that the page shows them."""
    module = VARIANTS[variant]
    for name, value in values.items():
        opt = module.OPTIONS.get(name)
        if opt is None or f"opt_{name}" not in form:
            continue
        field = form[f"opt_{name}"]
        if opt.kind == "bool":
            field.data, field.raw_data = bool(value), ["y"] if value else []
        else:
            field.data = field.raw_data = None
            field.raw_data = [option_text_of(opt, value)]
            field.data = field.raw_data[0]


def option_error(form, name: str, message: str) -> dict:
    """A scorer's error on the form: next to its option's field (a path inside the house is named), else on top."""
    if name.startswith("options."):
        option, _sep, path = name[8:].partition(".")
        if f"opt_{option}" in form:
            return {f"opt_{option}": f"{path}: {message}" if path else message}
    return {name if name in form else "form": message}
