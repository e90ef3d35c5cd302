"""A drive's paper: table cards, score cards, tally cards, standings, blank cards; kept per version and language."""

from __future__ import annotations

import hashlib
from typing import Any

import segno
from flask import Response, abort, render_template, request, url_for
from flask_babel import get_locale
from markupsafe import Markup

from scorekeeper.core.game import TRUMPS
from scorekeeper.drives import cards as drive_cards
from scorekeeper.drives import document as paper_documents
from scorekeeper.drives import present, service
from scorekeeper.drives.pages.common import bounds, bp, load
from scorekeeper.drives.rules import DEFAULT_HANDS, DEFAULT_TRUMPS
from scorekeeper.games import cache
from scorekeeper.games.sheets import kept_name, kept_pdf, kept_state, pdf_download
from scorekeeper.server import proxy
from scorekeeper.server.db import get_db
from scorekeeper.server.proxy import external_url
from scorekeeper.web import phone
from scorekeeper.web.i18n import asked_language
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import link_args, whole_number
from scorekeeper.web.messages import with_field

# ---------------------------------------------------------------- paper


def _qr(url: str) -> Markup:
    """The QR code as inline SVG, sized by drives-print.css (a viewBox, no width or height of its own: with them the
    code kept its own size in the corner of the 9 cm box, off centre)."""
    return Markup(segno.make(url, error="m").svg_inline(dark="#000", light="#fff", omitsize=True))


def _cards(scored_drive: service.ScoredDrive) -> dict:
    cards: list[dict[str, Any]] = []
    for t in range(1, scored_drive.setup.tables + 1):
        url = external_url(
            "drives.table", drive_id=scored_drive.id, table=t, token=service.table_token(scored_drive, t)
        )
        cards.append({"table": t, "url": url, "qr": _qr(url)})
    unreachable = present.unreachable(cards[0]["url"]) if cards else None
    lan = proxy.lan_address() if unreachable else None
    here = url_for("drives.cards_page", drive_id=scored_drive.id, _external=True)
    return {
        "head": present.drive_head(scored_drive),
        "cards": cards,
        "unreachable": unreachable,
        "reach_at": proxy.reached_at(here, lan) if lan else None,  # this page at this machine's network address
    }


# Paper whose size is tables × hands (a card per player or table, a row per hand): refused for a drive stored with more
# than today's bounds. The table cards (one per table) and the standings (a row per player) grow with the tables only.
BOUNDED = ("scorecards", "tally")
# The print pages kept in this worker per drive version and language: the score cards of 30 tables of 30 hands are
# about 0.4 MB of HTML and 0.2 s of the worker's CPU; at most 32 MB or 64 pages, the least recently used go first.
PAGES = cache.Kept(max_items=64, max_size=32 * 1024 * 1024)  # sized in bytes


def context(kind: str, scored_drive: service.ScoredDrive, organiser: bool = False) -> dict:
    """The print page's context: built only when the page or the PDF is drawn, not when it is kept."""
    if kind == "cards":
        return _cards(scored_drive)
    ctx: dict = {"head": present.drive_head(scored_drive)}
    if kind == "scorecards":
        ctx["cards"] = drive_cards.score_cards(scored_drive)
    elif kind == "tally":
        ctx["cards"] = drive_cards.tally_cards(scored_drive)
    else:
        money = service.money(get_db(), scored_drive.id, scored_drive.setup)
        countback = scored_drive.setup.tie_break == "countback"
        ctx.update(
            standings=present.standings_view(scored_drive.drive.standings, countback=countback),
            half_time=present.standings_view(scored_drive.drive.half_time, countback=countback),
            prizes=present.prizes(scored_drive, money, organiser=organiser),
            money=present.money_view(scored_drive, money) if organiser else None,
            rule=present.sit_out_rule(scored_drive.setup),
        )
    return ctx


def _paper_record(kind: str, drive_id: str, organiser: bool):
    """The drive's row (not replayed), if this phone may see the paper (the cards: an organiser's) and the drive is
    within the bounds its paper is printed for; otherwise 404, 403 or the 413 page that says why."""
    try:
        record = service.head(get_db(), drive_id)
    except service.NotFound:
        abort(404)
    if organiser and not service.may_edit(record, phone.drive_key(drive_id)):
        abort(403)
    if kind in BOUNDED:
        setup = service.stored_setup(record)
        max_tables, max_hands = bounds()
        if setup.tables > max_tables or setup.hands > max_hands:
            abort(_too_large(setup.tables, setup.hands, max_tables, max_hands))
    return record


def _too_large(tables: int, hands: int, max_tables: int, max_hands: int) -> Response:
    """A drive stored before today's bounds (or under larger ones): a page in words, not minutes of drawing."""
    page = render_template(
        "errors/error.html",
        code=413,
        title=_("Too large to print"),
        message=_(
            "This drive has %(tables)d tables and %(hands)d hands; score cards and tally cards are printed for drives "
            "of at most %(max_tables)d tables and %(max_hands)d hands. The drive's pages, the standings and the table "
            "cards still work.",
            tables=tables,
            hands=hands,
            max_tables=max_tables,
            max_hands=max_hands,
        ),
    )
    return Response(page, 413, headers={"Cache-Control": "no-store"})


def _state(record, kind: str, organiser: bool = False) -> str:
    """What the drive's paper shows besides its version: the setup, the money, the draws; the table cards also the
    address their QR codes carry (only theirs: another Host header must not make the others drawn again); the
    standings whether the organiser's (with the money) or everyone's."""
    address = external_url("drives.index") if kind == "cards" else None
    return kept_state(
        [
            record.setup,
            record.title,
            record.created,
            service.money(get_db(), record.id),
            list(record.draws),
            record.prizes_given,
            address,
            organiser,
            record.epoch,  # a restore may bring the version back over other results (issue 43)
        ]
    )


def _print_route(kind: str, organiser: bool = False):
    """The print page and PDF of one kind of paper. The standings have two: everyone's, and the organiser's with
    what the prizes cost and what the drive raised."""

    def viewer_is_organiser(record) -> bool:
        return organiser or (kind == "standings" and service.may_edit(record, phone.drive_key(record.id)))

    def page(drive_id):
        record = _paper_record(kind, drive_id, organiser)
        own = viewer_is_organiser(record)
        pdf_url = url_for(f"drives.{kind}_pdf", drive_id=drive_id, lang=asked_language())
        state = _state(record, kind, own)
        key = (kind, drive_id, record.version, state, str(get_locale()), request.script_root, pdf_url)
        etag = hashlib.sha256(repr(key).encode()).hexdigest()[:24]
        # The table cards carry the tables' tokens, the organiser's standings the money: never stored by a browser.
        headers = {"Cache-Control": "no-store" if own else "private, no-cache"}
        if not own and request.if_none_match.contains_weak(etag):
            response = Response(status=304, headers=headers)
            response.set_etag(etag)
            return response
        html = PAGES.get(key)
        if html is None:
            scored_drive = load(drive_id)
            ctx = context(kind, scored_drive, own)
            doc = paper_documents.DOCUMENTS[kind](ctx)  # the paper's blocks, the PDF's own
            html = render_template(
                f"print/drive_{kind}.html", pdf=False, pdf_url=pdf_url, drive_id=drive_id, doc=doc, **ctx
            )
            if scored_drive.version == record.version:  # not a result entered in between
                PAGES.put(key, html, len(html))
        response = Response(html, headers=headers, mimetype="text/html")
        if not own:
            response.set_etag(etag)
        return response

    def pdf(drive_id):
        record = _paper_record(kind, drive_id, organiser)
        own = viewer_is_organiser(record)
        owner = f"drive-{kind}{'-money' if own and kind == 'standings' else ''}-{drive_id}"
        name, etag = kept_name(owner, record.version, _state(record, kind, own), kind)
        return kept_pdf(
            name,
            etag,
            f"drive-{drive_id}-{kind}.pdf",
            paper_documents.DOCUMENTS[kind],  # ReportLab draws the whole context in one document
            lambda: {"drive_id": drive_id, **context(kind, load(drive_id), own)},
            drive=True,
        )

    bp.add_url_rule(f"/d/<drive_id>/{kind}", f"{kind}_page", page)
    bp.add_url_rule(f"/d/<drive_id>/{kind}.pdf", f"{kind}_pdf", pdf)


_print_route("cards", organiser=True)
_print_route("scorecards")
_print_route("tally")
_print_route("standings")


def _blank_context() -> dict:
    """The blank cards' hands and trumps from the query string, or a 400 page naming what is wrong (as the games'
    blank sheets do): `hands` a whole number from 1 to DRIVE_MAX_HANDS (24 when left out), each `trump` one of the
    trumps (the usual four when none is given)."""
    max_hands = bounds()[1]
    errors: dict[str, str] = {}
    raw = request.args.get("hands", "").strip()
    hands = whole_number(raw) if raw else min(DEFAULT_HANDS, max_hands)
    if hands is None or not 1 <= hands <= max_hands:
        errors["hands"] = _("must be a whole number from %(low)d to %(high)d", low=1, high=max_hands)
    asked = [t for t in request.args.getlist("trump") if t]
    wrong = [t for t in asked if t not in TRUMPS]
    if wrong:
        errors["trump"] = _(
            "must be one of %(choices)s (not %(wrong)s)", choices=", ".join(TRUMPS), wrong=", ".join(wrong[:3])
        )
    if errors:
        message = "; ".join(with_field(field, text) for field, text in errors.items())
        abort(
            Response(
                render_template("errors/error.html", code=400, title=_("This card cannot be made"), message=message),
                400,
            )
        )
    assert hands is not None  # else errors said so, and the page was refused above
    trumps = tuple(asked) or DEFAULT_TRUMPS
    card = drive_cards.blank_card(hands, trumps)
    return {"hands": hands, "card": card, "sheets": drive_cards.sheets_of([card, card], 2)}


@bp.get("/drives/blank")
def blank():
    ctx = _blank_context()
    pdf_url = url_for("drives.blank_pdf", **link_args(request.args))
    doc = paper_documents.blank_cards_document(ctx)
    return render_template("print/drive_blank.html", pdf=False, pdf_url=pdf_url, doc=doc, **ctx)


@bp.get("/drives/blank.pdf")
def blank_pdf():
    return pdf_download(paper_documents.blank_cards_document, "drive-card.pdf", drive=True, **_blank_context())
