"""The whist drive's pages: the organiser's (new drive, the drive page, corrections, table cards), the tables' own
pages from their cards' QR codes, the hall's screen, and the paper. Thin: services/drives.py does the work and
present.py turns the replayed drive into words and numbers.

A table's page is /d/<id>/t/<table>/<token>, the token an HMAC of the table under the drive's edit key
(services.drives.table_token): it lets that table enter its own results and nothing else. Its form needs no CSRF
token (the address is the credential, not a cookie), and sending it again is harmless: the service replaces a
table's result for a hand with the one sent, so a resend of the same taps stores the same result.
"""

from __future__ import annotations

import hashlib

import segno
from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from markupsafe import Markup

from scorekeeper.core.drives import DEFAULT_HANDS, DEFAULT_TRUMPS, TRUMPS, OutOfTurn, SeatingChanged, seated_names
from scorekeeper.core.messages import InputError
from scorekeeper.services import cache
from scorekeeper.services import drives as service
from scorekeeper.web import guard, phone
from scorekeeper.web.db import get_db
from scorekeeper.web.drives import document as paper_documents
from scorekeeper.web.drives import forms, present
from scorekeeper.web.i18n import gettext as _
from scorekeeper.web.inputs import link_args, whole_number
from scorekeeper.web.messages import translate
from scorekeeper.web.proxy import external_url
from scorekeeper.web.sheets.views import kept_name, kept_pdf, kept_state, pdf_download

bp = Blueprint("drives", __name__)
REFRESH = 15  # seconds between a waiting page's reloads (meta refresh: no script)
SCREEN_TOP = 10


def _load(drive_id: str) -> service.ScoredDrive:
    try:
        return service.load(get_db(), drive_id)
    except service.NotFound:
        abort(404)


def _is_organiser(scored_drive: service.ScoredDrive) -> bool:
    return service.may_edit(scored_drive, phone.drive_key(scored_drive.id))


def _organised(drive_id: str) -> service.ScoredDrive:
    """The drive, if this phone holds its edit key; otherwise 403."""
    scored_drive = _load(drive_id)
    if not _is_organiser(scored_drive):
        abort(403)
    return scored_drive


def _no_store(page, status: int = 200):
    return page, status, {"Cache-Control": "no-store"}


def _bounds() -> tuple[int, int]:
    """The most tables and hands a new drive takes (config DRIVE_MAX_TABLES, DRIVE_MAX_HANDS)."""
    return current_app.config["DRIVE_MAX_TABLES"], current_app.config["DRIVE_MAX_HANDS"]


def _shown(scored_drive: service.ScoredDrive, table_hand) -> list[str]:
    """The four names a table's form sends back (hidden fields `seated`, first pair then second, lady then gent): the
    seating the page showed, so that a result for players who no longer sit there is refused (SeatingChanged)."""
    return [name for pair in seated_names(scored_drive.setup, table_hand) for name in pair]


def _pairs_sent() -> list[list[str]] | None:
    """The pairs a form showed, from its `seated` fields; None from a page without them (sent before they existed)."""
    names = request.form.getlist("seated")
    if not names:
        return None
    return [names[0:2], names[2:4]] if len(names) == 4 else [names]  # four names, or refused as not two pairs


def _seating_changed() -> str:
    return _("The seating changed — reload. Nothing was saved; the players at this table now are shown here.")


# ---------------------------------------------------------------- the drives on this phone, a new drive


@bp.get("/drives")
def index():
    drives = []
    for drive_id in phone.recent_drives():
        try:
            scored_drive = service.load(get_db(), drive_id)
        except service.NotFound:
            continue
        drives.append({"head": present.drive_head(scored_drive), "organiser": _is_organiser(scored_drive)})
    return render_template("drives/index.html", drives=drives)


@bp.route("/drives/new", methods=["GET", "POST"])
@guard.writes("drive")
def new_drive():
    form = forms.new_drive_form(request.form if request.method == "POST" else None)
    general: list[str] = []
    if request.method == "POST":
        if not form.validate_on_submit():
            general.append(_("The form expired; please try again."))
        else:
            data, money = forms.drive_input(form)
            max_tables, max_hands = _bounds()
            try:
                drive_id, key = service.create_drive(get_db(), data, money, max_tables=max_tables, max_hands=max_hands)
            except InputError as exc:
                for name, message in exc.errors.items():
                    field = name if name in form and name != "csrf_token" else None
                    if field is None and name.startswith("trumps"):
                        field = "trump0"
                    if field:
                        form[field].errors = list(form[field].errors or []) + [translate(message)]
                    else:
                        general.append(translate(message))
            else:
                phone.remember_drive(drive_id, key)
                return redirect(url_for("drives.drive", drive_id=drive_id))
    first = next((f.name for f in form if f.errors), None)
    status = 400 if (general or first) else 200
    max_tables, max_hands = _bounds()
    page = render_template(
        "drives/new.html",
        form=form,
        general=general,
        first=first,
        trump_slots=range(forms.TRUMP_SLOTS),
        max_tables=max_tables,
        max_hands=max_hands,
    )
    return page, status


# ---------------------------------------------------------------- the organiser's page


def _correctable(scored_drive: service.ScoredDrive) -> list[dict]:
    """The hands whose results may change now: the current one, and the one before while the current has none."""
    drive = scored_drive.drive
    current = drive.rounds[drive.current - 1]
    hands = [current]
    if drive.current > 1 and not current.started:
        hands.insert(0, drive.rounds[drive.current - 2])
    return [
        {
            "hand": r.hand,
            "trump": present.trump(r.trump),
            "tables": [{**present.table_view(scored_drive, t), "shown": _shown(scored_drive, t)} for t in r.tables],
        }
        for r in hands
    ]


@bp.get("/d/<drive_id>")
def drive(drive_id):
    scored_drive = _load(drive_id)
    organiser = _is_organiser(scored_drive)
    phone.remember_drive(drive_id)
    head = present.drive_head(scored_drive)
    return _no_store(
        render_template(
            "drives/drive.html",
            head=head,
            organiser=organiser,
            correctable=_correctable(scored_drive) if organiser else [],
            tricks_choices=forms.CorrectionForm().tricks.choices,
            moves=present.moves(scored_drive, head["current"]) if head["current"] > 1 else [],
            standings=present.standings_view(scored_drive.drive.standings),
            half_time=present.standings_view(scored_drive.drive.half_time),
            prizes=present.prizes(scored_drive, service.money(get_db(), drive_id)),
            edit_url=external_url("drives.claim", drive_id=drive_id, key=phone.drive_key(drive_id))
            if organiser
            else None,
        )
    )


@bp.get("/d/<drive_id>/k/<key>")
def claim(drive_id, key):
    """The drive's edit link: remembers the key on this phone (a second organiser's, too), then shows the drive."""
    scored_drive = _load(drive_id)
    if not service.may_edit(scored_drive, key):
        abort(403)
    phone.remember_drive(drive_id, key)
    return redirect(url_for("drives.drive", drive_id=drive_id))


@bp.post("/d/<drive_id>/hands/<int:hand>/tables/<int:table>")
@guard.exempt("the organiser's edit key; replaces a table's result, bounded by the drive's size")
def correct(drive_id, hand, table):
    """The organiser enters or corrects a table's result (CSRF-checked, with the key this phone holds)."""
    scored_drive = _organised(drive_id)
    tricks = whole_number(request.form.get("tricks"))
    raw = {"tricks": None if tricks is None or tricks > 13 else [tricks, 13 - tricks]}
    shown = _pairs_sent()
    if shown is not None:
        raw["pairs"] = shown
    try:
        service.enter_result(get_db(), scored_drive.id, hand, table, raw, phone.drive_key(drive_id))
    except SeatingChanged:
        flash(_seating_changed())
    except InputError as exc:
        for message in exc.errors.values():
            flash(translate(message))
    else:
        flash(_("Table %(table)d, hand %(hand)d: %(score)s saved.", table=table, hand=hand, score=_score(tricks)))
    return redirect(url_for("drives.drive", drive_id=drive_id, _anchor=f"hand-{hand}"))


def _score(tricks: int | None) -> str:
    return "" if tricks is None else f"{tricks}–{13 - tricks}"


# ---------------------------------------------------------------- a table's page, from its card


@bp.route("/d/<drive_id>/t/<int:table>/<token>", methods=["GET", "POST"])
@guard.exempt("the table's token; replaces its own result, bounded by the drive's size")
def table(drive_id, table, token):
    scored_drive = _load(drive_id)
    if not 1 <= table <= scored_drive.setup.tables:
        abort(404)
    if not service.table_token_matches(scored_drive, table, token):
        abort(403)
    form = forms.TableForm(request.form if request.method == "POST" else None)
    error, status = None, 200
    if request.method == "POST":
        hand = whole_number(form.hand.data)
        tricks = whole_number(form.tricks.data)
        raw = {"tricks": None if tricks is None or tricks > 13 else [tricks, 13 - tricks]}
        shown = _pairs_sent()
        if shown is not None:
            raw["pairs"] = shown
        try:
            scored_drive = service.enter_table_result(get_db(), drive_id, hand, table, raw, token)
        except SeatingChanged:
            # Seated anew after the page showed it: `scored_drive`, read before this post, shows who plays here now.
            form.tricks.data = None
            error, status = _seating_changed(), 409
        except OutOfTurn as exc:
            if _already_stored(scored_drive, hand, table, raw["tricks"]):  # a resend of what is stored: done already
                return redirect(url_for("drives.table", drive_id=drive_id, table=table, token=token))
            error, status = " ".join(translate(m) for m in exc.errors.values()), 409
        except InputError as exc:
            error, status = " ".join(translate(m) for m in exc.errors.values()), 400
        except service.Forbidden:
            abort(403)
        else:
            return redirect(url_for("drives.table", drive_id=drive_id, table=table, token=token))
    drive = scored_drive.drive
    current = drive.rounds[drive.current - 1]
    here = current.tables[table - 1]
    if request.method == "GET" or form.tricks.data is None:
        form.tricks.data = None if here.tricks is None else str(here.tricks[0])
    form.hand.data = str(drive.current)
    sent = here.tricks is not None
    waiting = sent and not drive.finished
    before = drive.rounds[drive.current - 2] if drive.current > 1 else None
    leaving = []
    if before is not None and not current.started:
        seated_now = present.positions(scored_drive, current)
        for person in present.table_view(scored_drive, before.tables[table - 1])["seats"]:
            to_table, code = seated_now[person["name"]]
            leaving.append({"name": person["name"], "table": to_table, "seat": present.seat(code)})
    page = render_template(
        "drives/table.html",
        head=present.drive_head(scored_drive),
        table=table,
        here=present.table_view(scored_drive, here),
        shown=_shown(scored_drive, here),
        form=form,
        error=error,
        sent=sent,
        refresh=REFRESH if waiting else None,
        leaving=leaving,
        before_hand=before.hand if before is not None else None,
        before_score=present.table_view(scored_drive, before.tables[table - 1])["score"]
        if before is not None
        else None,
    )
    return _no_store(page, status)


def _already_stored(scored_drive: service.ScoredDrive, hand, table: int, tricks) -> bool:
    if not isinstance(hand, int) or not 1 <= hand <= len(scored_drive.drive.rounds) or tricks is None:
        return False
    stored = scored_drive.drive.rounds[hand - 1].tables[table - 1].tricks
    return stored is not None and list(stored) == list(tricks)


# ---------------------------------------------------------------- the hall's screen


@bp.get("/d/<drive_id>/screen")
def screen(drive_id):
    scored_drive = _load(drive_id)
    head = present.drive_head(scored_drive)
    page = render_template(
        "drives/screen.html",
        head=head,
        refresh=REFRESH,
        moves=present.moves(scored_drive, head["current"]),
        standings=present.standings_view(scored_drive.drive.standings, top=SCREEN_TOP),
        half_time=present.standings_view(scored_drive.drive.half_time, top=SCREEN_TOP),
    )
    return _no_store(page)


# ---------------------------------------------------------------- paper


def _qr(url: str) -> Markup:
    """The QR code as inline SVG: the PDF's renderer loads nothing but the package's static files."""
    return Markup(segno.make(url, error="m").svg_inline(scale=6, dark="#000", light="#fff"))


def _cards(scored_drive: service.ScoredDrive) -> dict:
    cards = []
    for t in range(1, scored_drive.setup.tables + 1):
        url = external_url(
            "drives.table", drive_id=scored_drive.id, table=t, token=service.table_token(scored_drive, t)
        )
        cards.append({"table": t, "url": url, "qr": _qr(url)})
    return {"head": present.drive_head(scored_drive), "cards": cards}


# Paper whose size is tables × hands (a card per player or table, a row per hand): refused for a drive stored with more
# than today's bounds. The table cards (one per table) and the standings (a row per player) grow with the tables only.
BOUNDED = ("scorecards", "tally")
# The print pages kept in this worker per drive version and language: the score cards of 30 tables of 30 hands are
# about 0.4 MB of HTML and 0.2 s of the worker's CPU; at most 32 MB or 64 pages, the least recently used go first.
PAGES = cache.Kept(max_items=64, max_size=32 * 1024 * 1024)  # sized in bytes


def _context(kind: str, scored_drive: service.ScoredDrive) -> dict:
    """The print page's context: built only when the page or the PDF is drawn, not when it is kept."""
    if kind == "cards":
        return _cards(scored_drive)
    ctx: dict = {"head": present.drive_head(scored_drive)}
    if kind == "scorecards":
        ctx["cards"] = present.score_cards(scored_drive)
    elif kind == "tally":
        ctx["cards"] = present.tally_cards(scored_drive)
    else:
        money = service.money(get_db(), scored_drive.id)
        ctx.update(
            standings=present.standings_view(scored_drive.drive.standings),
            half_time=present.standings_view(scored_drive.drive.half_time),
            prizes=present.prizes(scored_drive, money),
            money=present.money_view(scored_drive, money),
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
        max_tables, max_hands = _bounds()
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


def _state(record, kind: str) -> str:
    """What the drive's paper shows besides its version: the setup, the money; the table cards also the address their
    QR codes carry (only theirs: another Host header must not make the others drawn again)."""
    address = external_url("drives.index") if kind == "cards" else None
    return kept_state([record.setup, record.title, record.created, service.money(get_db(), record.id), address])


def _print_route(kind: str, organiser: bool = False):
    def page(drive_id):
        record = _paper_record(kind, drive_id, organiser)
        pdf_url = url_for(f"drives.{kind}_pdf", drive_id=drive_id, lang=request.args.get("lang"))
        key = (kind, drive_id, record.version, _state(record, kind), str(get_locale()), request.script_root, pdf_url)
        etag = hashlib.sha256(repr(key).encode()).hexdigest()[:24]
        # The table cards carry the tables' tokens: never stored by a browser. The rest: revalidated by its ETag.
        headers = {"Cache-Control": "no-store" if organiser else "private, no-cache"}
        if not organiser and request.if_none_match.contains_weak(etag):
            response = Response(status=304, headers=headers)
            response.set_etag(etag)
            return response
        html = PAGES.get(key)
        if html is None:
            scored_drive = _load(drive_id)
            ctx = _context(kind, scored_drive)
            html = render_template(f"print/drive_{kind}.html", pdf=False, pdf_url=pdf_url, drive_id=drive_id, **ctx)
            if scored_drive.version == record.version:  # not a result entered in between
                PAGES.put(key, html, len(html))
        response = Response(html, headers=headers, mimetype="text/html")
        if not organiser:
            response.set_etag(etag)
        return response

    def pdf(drive_id):
        record = _paper_record(kind, drive_id, organiser)
        name, etag = kept_name(f"drive-{kind}-{drive_id}", record.version, _state(record, kind), kind)
        return kept_pdf(
            name,
            etag,
            f"drive-{drive_id}-{kind}.pdf",
            paper_documents.DOCUMENTS[kind],
            lambda: {"drive_id": drive_id, **_context(kind, _load(drive_id))},
            drive=True,
        )

    bp.add_url_rule(f"/d/<drive_id>/{kind}", f"{kind}_page", page)
    bp.add_url_rule(f"/d/<drive_id>/{kind}.pdf", f"{kind}_pdf", pdf)


_print_route("cards", organiser=True)
_print_route("scorecards")
_print_route("tally")
_print_route("standings")


def _blank_context() -> dict:
    max_hands = _bounds()[1]
    hands = whole_number(request.args.get("hands"))
    hands = hands if hands and 1 <= hands <= max_hands else min(DEFAULT_HANDS, max_hands)
    trumps = tuple(t for t in request.args.getlist("trump") if t in TRUMPS) or DEFAULT_TRUMPS
    return {"hands": hands, "card": present.blank_card(hands, trumps), "copies": range(2)}


@bp.get("/drives/blank")
def blank():
    ctx = _blank_context()
    pdf_url = url_for("drives.blank_pdf", **link_args(request.args))
    return render_template("print/drive_blank.html", pdf=False, pdf_url=pdf_url, **ctx)


@bp.get("/drives/blank.pdf")
def blank_pdf():
    return pdf_download(paper_documents.blank_cards_document, "drive-card.pdf", drive=True, **_blank_context())
