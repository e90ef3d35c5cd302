"""Hand entry: a hand's form with its buttons, bids entered before the play, editing and deleting a hand."""

from __future__ import annotations

import secrets
from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from wtforms.fields import SelectChoice

from scorekeeper.core import (
    VARIANTS,
    GameOver,
    HandContext,
    InputError,
    game_context,
)
from scorekeeper.games import forms, service
from scorekeeper.games.pages.common import bp, editable
from scorekeeper.server import guard
from scorekeeper.server.db import get_db
from scorekeeper.variants.views import VIEWS
from scorekeeper.web import phone, words
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.i18n import one_catalogue
from scorekeeper.web.inputs import number_or_raw
from scorekeeper.web.messages import translate, with_field
from scorekeeper.web.present import protokoll_context

# ---------------------------------------------------------------- hand entry


def _hand_context(scored_game, number: int) -> HandContext:
    return game_context(VARIANTS[scored_game.game.variant], scored_game.protokoll, number)


def _choices(scored_game, form, ctx: HandContext) -> dict:
    """Buttons for the form: names for seats, the other side filled in on trick buttons, the variant's own."""
    with one_catalogue():  # some thirty words to translate
        return _buttons(scored_game, form, ctx)


def _buttons(scored_game, form, ctx: HandContext) -> dict:
    players = list(scored_game.game.players)
    side_names = words.side_names(players, scored_game.protokoll.sides)
    deal = service.open_deal(scored_game)
    rules = VARIANTS[scored_game.game.variant]
    leader = deal.leader if deal is not None and deal.number == ctx.number else rules.next_leader(ctx)
    extra: dict = {
        "side_names": side_names,
        "dealer": players[ctx.dealer],
        "leader": players[leader],
        "shown": {f.name for f in form if f.name not in ("csrf_token", "number", "version", "token")},
    }
    if "tricks" in form:  # two sides' tricks on one button: "8–5"
        total = form.total
        form.tricks.choices = [SelectChoice(str(x), words.score((x, total - x))) for x in range(total + 1)]
    view = VIEWS[scored_game.game.variant]
    extra["passed_words"] = view.passed_words(ctx)  # its one-tap button's words, if its page has the button
    extra.update(view.buttons(form, ctx, side_names))
    extra["shown"] -= extra.pop("hidden", set())
    leads = view.leads_by(form, ctx)
    if leads:  # the header follows the taps that decide the lead (static/app.js), and says it for a form filled in
        fields, seats = leads
        fields = (fields,) if isinstance(fields, str) else tuple(fields)
        extra["leads"] = {"field": " ".join(fields), "texts": {value: players[seat] for value, seat in seats.items()}}
        chosen = "|".join("" if form[f].data is None else str(form[f].data) for f in fields)
        if chosen in seats:
            extra["leader"] = players[seats[chosen]]
    return extra


def _apply_errors(form, errors: dict, shown, variant: str) -> list[str]:
    """Put the scorer's messages next to their fields; answer those that belong to no field on the page, a field of
    the hand's (one the page shows as several buttons, a player's each) said with its label."""
    general = []
    fields = VARIANTS[variant].INPUT_FIELDS
    for key, message in errors.items():
        name = form.field_for(key)
        if name and name in shown:
            form[name].errors = list(form[name].errors or []) + [translate(message)]
        else:
            general.append(with_field(key, message, variant=variant) if key in fields else translate(message))
    return general


def _hand_view(game_id: str, number: int | None = None):
    """Enter a new hand (number None) or edit hand `number`: one form per variant, the scorer decides what is valid."""
    scored_game = editable(game_id)
    editing = number is not None
    if number is not None:
        _number_or_404(scored_game, number)
    else:
        number = len(scored_game.hands) + 1
    view = VIEWS[scored_game.game.variant]
    ctx = _hand_context(scored_game, number)
    deal = None if editing else service.open_deal(scored_game)  # the deal in progress: its bids are in
    if request.method == "GET" and not editing and scored_game.protokoll.finished:
        return _game_over(game_id)
    if editing:
        shown = scored_game.hands[number - 1].input
    else:  # the deal in progress: the form opens with its bids filled in
        shown = deal.input if deal is not None else None
    form = _hand_form(view, ctx, shown, number, scored_game.game.version)
    confirm_passed = False
    general: list[str] = []
    errors: dict[str, str] = {}  # the scorer's, put next to their fields with the buttons below
    status = 200
    max_hands = current_app.config.get("MAX_HANDS")
    if not editing and max_hands is not None and number > max_hands:  # said before the players fill in the form
        errors = {"hands": service.hand_limit_message(max_hands)}
    if request.method == "POST":
        if not form.validate_on_submit():
            general, status = [_("The form expired; please try again.")], 400
        else:
            raw = form.submitted(request.form, ctx)
            token = f"form:{form.token.data}" if form.token.data else None
            try:
                if editing and form.asks_first(raw, scored_game.hands[number - 1].input, request.form):
                    raise _AskFirst
                if editing:
                    service.replace_hand(
                        get_db(),
                        game_id,
                        number,
                        raw,
                        phone.game_key(game_id),
                        expected_version=number_or_raw(form.version.data, negative=True),
                        idempotency_key=token,
                    )
                else:
                    scored = service.add_hand(
                        get_db(),
                        game_id,
                        raw,
                        phone.game_key(game_id),
                        expected_number=number_or_raw(form.number.data, negative=True),
                        idempotency_key=token,
                        max_hands=max_hands,
                    )
            except _AskFirst:
                confirm_passed = True
            except service.Deleted:
                return _deleted_meanwhile(game_id, number_or_raw(form.number.data) if not editing else number)
            except service.Stale as exc:
                if editing:
                    flash(_("Someone else changed the sheet meanwhile — here it is; check it and edit again."))
                else:
                    flash(_("Someone else just entered hand %(n)d — here is the sheet.", n=exc.latest))
                return redirect(url_for("games.protokoll", game_id=game_id))
            except service.HandLimit as exc:
                errors, status = exc.errors, 409
            except GameOver as exc:
                if not editing:
                    return _game_over(game_id)
                errors, status = exc.errors, 409
            except InputError as exc:
                errors, status = exc.errors, 400
            else:
                if editing:
                    return redirect(
                        url_for("games.protokoll", game_id=game_id, changed=number, _anchor=f"hand-{number}")
                    )
                flash(_("Hand %(n)d saved.", n=scored.number))
                return redirect(
                    url_for("games.protokoll", game_id=game_id, saved=scored.number, _anchor=f"hand-{scored.number}")
                )
    extra = _choices(scored_game, form, ctx)  # the buttons' labels: only for a page that shows the form
    general += _apply_errors(form, errors, extra["shown"], scored_game.game.variant)
    if not general:  # the page opens at #first-error (the form's action says so): the first field with an error
        for field in form:
            if field.errors:
                field.first_error = True
                break
    extra |= {
        "editing": scored_game.protokoll.hands[number - 1] if editing else None,
        "played": editing and form.played(scored_game.hands[number - 1].input),
        "confirm_passed": confirm_passed,
        "played_text": _hand_text(scored_game, number) if confirm_passed else None,
    }
    return _hand_page(view, scored_game, form, number, deal, general, status, extra)


def _game_over(game_id: str):
    """A new hand (or its bids) asked of a game that is over: its sheet, which says how to reopen it."""
    flash(_("The game is over. Edit a hand to reopen it."))
    return redirect(url_for("games.protokoll", game_id=game_id))


def _hand_form(view, ctx, shown: Any, number: int, version: int):
    """The variant's hand form: on a GET filled in with the input `shown` (None: empty) and the hidden number, version
    and a fresh token the save is checked by; on a POST as sent."""
    form_class = view.HandForm
    if request.method == "GET":
        form = form_class(data=form_class.data_from(shown, ctx)) if shown is not None else form_class()
        form.number.data = str(number)
        form.version.data = str(version)
        form.token.data = secrets.token_urlsafe(16)
    else:
        form = form_class()
    form.total = view.tricks_total(ctx)
    return form


def _hand_page(view, scored_game, form, number: int, deal, general: list[str], status: int, extra: dict):
    """The variant's hand page; `extra`: the buttons' labels and what the page is (a hand edited, bids entered, a played
    hand to replace)."""
    body = render_template(
        view.HAND_TEMPLATE,
        form=form,
        game=scored_game.game,
        number=number,
        open_deal=deal,
        general=general,
        variant_stylesheet=view.STYLESHEET,
        variant_script=view.SCRIPT,
        **extra,
    )
    # Never kept by the browser: Back after a save fetches a fresh form (the next hand, a new token), not the taps.
    return body, status, {"Cache-Control": "no-store"}


def _hand_text(scored_game, number: int) -> str:
    return VIEWS[scored_game.game.variant].hand_words(
        scored_game.protokoll.hands[number - 1].input, _hand_context(scored_game, number)
    )


def _deleted_meanwhile(game_id: str, number):
    """A hand form sent again (a reload, the service worker's retry) whose hand was saved and then deleted on another
    phone: 404 in words, as the API answers, and nothing saved (a 5xx would have the phone keep it to send again)."""
    message = (
        _("Hand %(n)d was saved, then deleted on another phone. It was not saved again.", n=number)
        if isinstance(number, int)
        else _("This hand was saved, then deleted on another phone. It was not saved again.")
    )
    page = render_template(
        "errors/error.html",
        code=404,
        title=_("This hand was deleted"),
        message=message,
        back=(url_for("games.protokoll", game_id=game_id), _("Back to the score sheet")),
    )
    return page, 404, {"Cache-Control": "no-store"}


class _AskFirst(Exception):
    """A one-tap hand of its own (a passed-out deal) would replace a played hand: the page asks first."""


def _number_or_404(scored_game, number: int) -> int:
    if not 1 <= number <= len(scored_game.hands):
        abort(404)
    return number


@bp.route("/g/<game_id>/bids", methods=["GET", "POST"])
@guard.exempt(guard.EDIT_KEY)
def bids(game_id):
    """The bids of the next deal, entered before it is played: the hand page without the rest (the variant's own
    template, told it is `bidding`); every phone's protokoll shows them until the tricks complete the hand."""
    scored_game = editable(game_id)
    rules, view = VARIANTS[scored_game.game.variant], VIEWS[scored_game.game.variant]
    if not rules.BID_FIELDS:
        abort(404)
    number = len(scored_game.hands) + 1
    ctx = _hand_context(scored_game, number)
    deal = service.open_deal(scored_game)
    if request.method == "GET" and scored_game.protokoll.finished:
        return _game_over(game_id)
    form = _hand_form(view, ctx, deal.input if deal is not None else None, number, scored_game.game.deal_version)
    general, errors, status = [], {}, 200
    if request.method == "POST":
        if not form.validate_on_submit():
            general, status = [_("The form expired; please try again.")], 400
        else:
            try:
                service.put_bids(
                    get_db(),
                    game_id,
                    form.bids_input(ctx, rules.BID_FIELDS),
                    phone.game_key(game_id),
                    expected_number=number_or_raw(form.number.data, negative=True),
                    expected_version=number_or_raw(form.version.data, negative=True),
                    idempotency_key=f"form:{form.token.data}" if form.token.data else None,
                    max_hands=current_app.config.get("MAX_HANDS"),
                )
            except service.Stale:
                flash(_("Someone else changed the sheet meanwhile — here it is; check it and enter the bids again."))
                return redirect(url_for("games.protokoll", game_id=game_id))
            except GameOver as exc:
                errors, status = exc.errors, 409
            except InputError as exc:
                errors, status = exc.errors, 400
            else:
                flash(_("The bids of hand %(n)d are in: every phone's sheet shows them.", n=number))
                return redirect(url_for("games.protokoll", game_id=game_id, _anchor="open-deal"))
    extra = _choices(scored_game, form, ctx)
    general += _apply_errors(form, errors, extra["shown"], scored_game.game.variant)
    extra |= {"editing": None, "bidding": True, "played": False, "confirm_passed": False, "played_text": None}
    return _hand_page(view, scored_game, form, number, deal, general, status, extra)


@bp.post("/g/<game_id>/bids/clear")
@guard.exempt(guard.EDIT_KEY)
def clear_bids(game_id):
    """The bids of the deal in progress taken back (a misdeal, a new deal): the sheet has no deal in progress."""
    editable(game_id)
    form = forms.HandForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        service.clear_bids(
            get_db(),
            game_id,
            phone.game_key(game_id),
            expected_version=number_or_raw(form.version.data, negative=True),
            idempotency_key=f"form:{form.token.data}:clear" if form.token.data else None,
        )
    except service.Stale:
        flash(_("Someone else changed the sheet meanwhile — here it is; check it and enter the bids again."))
    except service.NotFound:
        pass  # cleared already (by another phone, or the tricks came in)
    else:
        flash(_("The bids were cleared."))
    return redirect(url_for("games.protokoll", game_id=game_id))


@bp.route("/g/<game_id>/hands/new", methods=["GET", "POST"])
@guard.exempt(guard.EDIT_KEY)
def new_hand(game_id):
    return _hand_view(game_id)


@bp.route("/g/<game_id>/hands/<int:number>", methods=["GET", "POST"])
@guard.exempt(guard.EDIT_KEY)
def edit_hand(game_id, number):
    return _hand_view(game_id, number)


@bp.route("/g/<game_id>/hands/<int:number>/delete", methods=["GET", "POST"])
@guard.exempt(guard.EDIT_KEY)
def delete_hand(game_id, number):
    """Asks first; the form carries the version it saw and a one-time token, so a double tap deletes one hand."""
    scored_game = editable(game_id)
    _number_or_404(scored_game, number)
    form = forms.HandForm()
    row = protokoll_context(scored_game)["rows"][number - 1]
    errors = []
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        token = f"form:{form.token.data}" if form.token.data else None
        try:
            service.delete_hand(
                get_db(),
                game_id,
                number,
                phone.game_key(game_id),
                expected_version=number_or_raw(form.version.data, negative=True),
                idempotency_key=token,
            )
        except service.Stale:
            flash(_("Someone else changed the sheet meanwhile — here it is; check it and delete again."))
            return redirect(url_for("games.protokoll", game_id=game_id))
        except InputError as exc:
            errors = [translate(message) for message in exc.errors.values()]
        else:
            flash(_("Hand %(n)d was deleted; the hands after it moved up.", n=number))
            return redirect(url_for("games.protokoll", game_id=game_id))
    else:
        form.version.data = str(scored_game.game.version)
        form.token.data = secrets.token_urlsafe(16)
    return render_template(
        "games/delete.html", form=form, row=row, game=scored_game.game, errors=errors
    ), 400 if errors else 200
