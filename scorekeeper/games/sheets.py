"""Score sheets to take away: the print page and its PDF, blank sheets for pen and paper, the hands as CSV and JSON.

Thin: paper.py builds the contexts (blank_sheets.py a blank sheet's, from its query or its form); document.py turns a
print page's context into the renderer's document (blocks of finished text), which ReportLab draws in the renderer
process (draw.py).

A PDF costs seconds of CPU and a few hundred MB for a long game, so: it is drawn by a renderer process the worker
starts once and keeps (the worker's threads go on serving pages, and a renderer that has grown is replaced), one at a
time per renderer (the others are answered 503 with Retry-After), and a PDF is kept on disk per game (or drive)
version and language (kept_pdfs.py), so that a download again is a file read and a browser's revalidation
(If-None-Match) a 304.

A worker has two renderers, each with its own lock: one for the games' sheets and blank sheets, one for a whist
drive's paper (score cards for a whole hall take half a minute), so that a drive's paper never holds the renderer a
game's PDF needs (docs/printing.md).
"""

from __future__ import annotations

import functools
import hashlib
import json
from contextlib import contextmanager
from pathlib import Path

import flask_babel
from flask import Blueprint, Response, abort, current_app, g, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _

from scorekeeper.clubs.pages import tables as club_tables
from scorekeeper.core import VARIANTS
from scorekeeper.games import blank_sheets, document, paper, service
from scorekeeper.games.blank_sheets import blank_sheet_context as blank_sheet_context
from scorekeeper.games.kept_pdfs import PART_AGE as PART_AGE
from scorekeeper.games.kept_pdfs import keep, kept_name, pdf_folder
from scorekeeper.paper import page as paper_page
from scorekeeper.server import heavy
from scorekeeper.server.db import get_db
from scorekeeper.server.printing import (
    RETRY_AFTER,
    Busy,
    drive_renderer,
    render_drive_pdf,
    render_pdf,
    renderer,
)
from scorekeeper.storage import store
from scorekeeper.variants.views import VIEWS, package_folder
from scorekeeper.web import xlsx
from scorekeeper.web.inputs import link_args
from scorekeeper.web.present import game_dict

bp = Blueprint("sheets", __name__)
# The paper's words where other pages show a part of it (print/_head.html, print/_tariff.html): one model of the paper.
bp.add_app_template_global(document.head_block, "head_block")
bp.add_app_template_global(document.tariff_blocks, "tariff_blocks")
bp.add_app_template_global(paper_page.paper_rows, "paper_rows")  # print/blocks.html's table rows


@bp.url_value_preprocessor
def _sheet_language(endpoint, values):
    """A game that names a language gets its sheets printed in it; a club's table, in its club's print language as it
    is now, whenever the table started (an explicit ?lang= still wins)."""
    game_id = (values or {}).get("game_id")
    if game_id:
        game = store.get_game(get_db(), game_id)
        language = club_tables.print_language(game_id) if game is not None else None
        shown = language or (game.language if game is not None else None)
        if shown:
            g.sheet_language = shown


def _load(game_id):
    try:
        return service.load(get_db(), game_id)
    except service.NotFound:
        abort(404)


def _download(body, mimetype: str, filename: str) -> Response:
    return Response(
        body,
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"},
    )


# ---------------------------------------------------------------- PDF (drawn by server/printing.py)


def _busy() -> Response:
    """503, Retry-After: a page in the reader's language (not the sheet's)."""
    g.pop("sheet_language", None)
    flask_babel.refresh()
    page = render_template(
        "errors/error.html",
        code=503,
        title=_("Busy printing"),
        message=_("Another PDF is being made right now. Please try again in a few seconds."),
    )
    return Response(page, 503, headers={"Retry-After": str(RETRY_AFTER), "Cache-Control": "no-store"})


@contextmanager
def _turn(drive: bool = False):
    """Holds the client's turn at the renderer of games' sheets (of drive paper, with `drive`), or answers 503 at
    once: the client has another PDF drawing or waiting, or every turn is taken (Turns)."""
    which = drive_renderer if drive else renderer
    client = request.remote_addr or ""
    if not which.turns.take(client, which.limit()):
        abort(_busy())
    try:
        yield
    except Busy as exc:
        current_app.logger.warning("PDF not made: %s", exc)
        abort(_busy())
    finally:
        which.turns.give_back(client)


def _draw(doc: dict, drive: bool) -> bytes:
    return render_drive_pdf(doc) if drive else render_pdf(doc)


def pdf_download(document, filename: str, drive: bool = False, **ctx) -> Response:
    """A print page's context `ctx` as a PDF download: `document(ctx)` is what ReportLab draws (the page's own words,
    see document.py), drawn through this worker's renderer one at a time (with `drive`, the renderer of drive paper).
    For other features' paper too (drives/document.py, clubs/document.py)."""
    doc = document(ctx)
    with _turn(drive):
        return _download(_draw(doc, drive), "application/pdf", filename)


# ---------------------------------------------------------------- a game's PDF, kept


# The package's own code: not the checkout around it, whose virtualenv made the digest slow and whose build/ (a wheel
# built while the app ran) changed it, so that two processes of one app tagged the same page differently.
PACKAGE = str(Path(__file__).resolve().parents[1])


@functools.cache
def _build(*folders: str) -> str:
    """What the code, templates, styles and catalogues are (names, sizes, times): another build's PDFs are stale."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            if path.suffix in (".py", ".html", ".css", ".mo") and path.is_file():
                stat = path.stat()
                digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:12]


def _plug_ins() -> list[str]:
    """The folders of the variant packages installed outside this one: a new version of a plug-in is another build."""
    return [str(folder) for name in VIEWS if not (folder := package_folder(name)).is_relative_to(PACKAGE)]


def kept_state(printed: list) -> str:
    """A digest of what a kept PDF or page shows besides its version (`printed`, JSON), the time zone (its dates) and
    the build."""
    return hashlib.sha256(
        json.dumps(
            [
                *printed,
                current_app.config.get("TIME_ZONE"),
                _build(PACKAGE, str(current_app.template_folder), str(current_app.static_folder), *_plug_ins()),
            ],
            sort_keys=True,
            ensure_ascii=True,
        ).encode()
    ).hexdigest()[:16]


def _kept_name(scored_game: service.ScoredGame, kind: str, printed: tuple = ()) -> tuple[str, str]:
    """The kept file's name and the PDF's ETag: the game's version (bumped by any change to its hands), what else of
    the game is printed (players may be renamed by their club without a new version; `printed`: what else the page
    shows, such as its evening's way of settling), the language and the build; the file's epoch (a restore may bring
    the version back over other hands: issue 43)."""
    game = scored_game.game
    state = kept_state(
        [game.variant, game.title, game.players, game.dealer, game.options, game.language, game.created, *printed]
        + [game.epoch]
    )
    return kept_name(game.id, game.version, state, kind)


def _kept_pdf(
    scored_game: service.ScoredGame, kind: str, filename: str, document, context, printed: tuple = ()
) -> Response:
    """The game's PDF from the kept file, drawn first if there is none for this version and language; 304 when the
    browser's copy (If-None-Match) is current. `context` makes the template's context, only when it is drawn."""
    max_hands = current_app.config.get("MAX_HANDS")
    if (
        max_hands is not None and len(scored_game.hands) > max_hands
    ):  # a game stored before the limit: print page or CSV
        abort(
            Response(
                render_template(
                    "errors/error.html",
                    code=413,
                    title=_("Too long to print as a PDF"),
                    message=_(
                        "This game has %(n)d hands; a PDF is made for at most %(max)d. Print the print page or download the CSV.",
                        n=len(scored_game.hands),
                        max=max_hands,
                    ),
                ),
                413,
            )
        )
    name, etag = _kept_name(scored_game, kind, printed)
    return kept_pdf(name, etag, filename, document, context)


def kept_pdf(name: str, etag: str, filename: str, document, context, drive: bool = False) -> Response:
    """The PDF from the kept file `name` (kept_name), drawn first if there is none; 304 when the browser's copy
    (If-None-Match) is current. `context` makes the print page's context and `document` the renderer's document from
    it, only when it is drawn; `drive`: by the renderer of drive paper."""
    headers = {"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "private, no-cache"}
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304, headers=headers)
        response.set_etag(etag)
        return response
    folder = pdf_folder()
    path = folder / name
    drawn = None
    if not path.is_file():
        doc = document(context())
        with _turn(drive):
            if not path.is_file():  # unless another request of this worker drew it meanwhile
                drawn = _draw(doc, drive)
                try:
                    keep(folder, name, drawn)
                except OSError as exc:  # a full disk (ENOSPC), a read-only folder: served anyway, drawn again next time
                    current_app.logger.warning("a drawn PDF could not be kept: %s", exc.strerror or exc)
    # Read whole (a few hundred KB at most): no file handle is left for the server to close.
    response = Response(drawn if drawn is not None else path.read_bytes(), mimetype="application/pdf", headers=headers)
    response.set_etag(etag)
    response.make_conditional(request)  # answers 304 in place (it returns the same response, typed as werkzeug's)
    return response


# ---------------------------------------------------------------- a game's sheet


def _sheet_context(scored_game: service.ScoredGame, kitty: bool) -> dict:
    """The printed protokoll's context, dated as its title is (a club table: its evening's date); a table of an evening
    settled through the kitty says its money so."""
    ctx = paper.sheet_context(scored_game, club_tables.evening_date(scored_game.game.id))
    if kitty:
        ctx["settlement"] = club_tables.through_kitty(ctx["settlement"])
    return ctx


def _kept_read(game_id: str, kind: str, draw, mimetype: str, headers: dict | None = None, more: tuple = ()) -> Response:
    """A game's heavy read (its print page, its spreadsheet) kept per version (server/heavy.py), with an ETag: what the
    sheet prints of the game besides its hands (and a club table's built title), the language and the address; 304
    when the browser's copy is current."""
    with heavy.reading():
        return _kept_read_now(game_id, kind, draw, mimetype, headers, more)


def _kept_read_now(game_id: str, kind: str, draw, mimetype: str, headers: dict | None, more: tuple = ()) -> Response:
    game = store.get_game(get_db(), game_id)
    if game is None:
        abort(404)
    state = kept_state(
        [
            game.variant,
            game.title,
            game.players,
            game.dealer,
            game.options,
            game.language,
            game.created,
            club_tables.built_title(game),
            *more,  # what else the page prints besides the game (a club table's way of settling)
            game.epoch,  # a restore's (issue 43)
        ]
    )
    # By known values only (the language as spoken, not the raw query): a made-up query is the same page.
    key = (kind, game.id, game.version, state, str(get_locale()), request.host_url, request.script_root)
    etag = hashlib.sha256(repr(key).encode()).hexdigest()[:24]
    headers = {"Cache-Control": "private, no-cache", **(headers or {})}
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304, headers=headers)
    else:
        body = heavy.kept(key, heavy.elsewhere(lambda: draw(_load(game_id))), lambda _body: _current(game))
        response = Response(body, mimetype=mimetype, headers=headers)
    response.set_etag(etag)
    return response


def _current(game: store.GameRecord) -> bool:
    """Whether the game's row is still the one a kept read was keyed by (no hand changed while it was drawn)."""
    now = store.get_game(get_db(), game.id)
    return now is not None and now.version == game.version


def _print_page(ctx: dict) -> str:
    """The print page: the sheet's document (the PDF's own blocks) through templates/print/blocks.html."""
    return render_template("print/sheet.html", pdf=False, doc=document.sheet_document(ctx), **ctx)


@bp.get("/g/<game_id>/print")
def print_sheet(game_id):
    kitty = club_tables.settled_through_kitty(game_id)
    return _kept_read(
        game_id,
        "print",
        lambda scored_game: _print_page(_sheet_context(club_tables.titled(scored_game), kitty)),
        "text/html",
        more=(kitty,),
    )


@bp.get("/g/<game_id>/sheet.pdf")
def pdf(game_id):
    scored_game = club_tables.titled(_load(game_id))
    kitty = club_tables.settled_through_kitty(game_id)
    return _kept_pdf(
        scored_game,
        "sheet",
        f"protokoll-{game_id}.pdf",
        document.sheet_document,
        lambda: _sheet_context(scored_game, kitty),
        (kitty,),
    )


@bp.get("/g/<game_id>/hands.csv")
def hands_csv(game_id):
    """The hands as CSV in the sheet's language: for programs (commas, decimal points), or with ?sep=semicolon for a
    Nordic spreadsheet (semicolons, decimal commas), as a club's CSV files are."""
    scored_game = _load(game_id)
    semicolon = request.args.get("sep") == "semicolon"
    text = paper.csv_text(paper.csv_rows(scored_game), "semicolon" if semicolon else "programs")
    # A byte-order mark, so that spreadsheets read æ, ø, å as UTF-8.
    return _download("\ufeff" + text, "text/csv", f"protokoll-{game_id}{'-semicolon' if semicolon else ''}.csv")


@bp.get("/g/<game_id>/hands.xlsx")
def hands_xlsx(game_id):
    """The game as a spreadsheet: the hands with numbers as numbers, and the game's title, date and players; kept
    per version, as the print page is."""
    return _kept_read(
        game_id,
        "xlsx",
        _workbook,
        xlsx.MIMETYPE,
        {"Content-Disposition": f'attachment; filename="protokoll-{game_id}.xlsx"'},
    )


def _workbook(scored_game: service.ScoredGame) -> bytes:
    scored_game = club_tables.titled(scored_game)
    rows = paper.csv_rows(scored_game, guarded=False)
    game = scored_game.game
    evening = club_tables.evening_date(game.id)
    rules = "; ".join(f"{rule['label']}: {rule['value']}" for rule in paper.sheet_head(scored_game, evening)["rules"])
    played = paper.played_on(scored_game, evening).isoformat()  # the day its head says
    about = xlsx.Sheet(
        _("Game"),
        [
            (_("Title"), "text"),
            (_("Variant"), "text"),
            (_("Date"), "date"),
            (_("Players"), "text"),
            (_("House rules"), "text"),
        ],
        [[game.title or "", _(VARIANTS[game.variant].TITLE), played, ", ".join(game.players), rules]],
    )
    hands = xlsx.Sheet(_("Protokoll"), [(h, "auto") for h in rows[0]], rows[1:])
    return xlsx.workbook([hands, about])


@bp.get("/g/<game_id>/game.json")
def game_json(game_id):
    scored_game = _load(game_id)
    body = json.dumps(game_dict(scored_game), ensure_ascii=False, indent=2)
    return _download(body, "application/json", f"protokoll-{game_id}.json")


@bp.get("/g/<game_id>/blank")
def game_blank(game_id):
    ctx = paper.blank_from_game(_load(game_id))
    return render_template(
        "print/blank.html",
        pdf=False,
        game_id=game_id,
        pdf_url=url_for("sheets.game_blank_pdf", game_id=game_id),
        doc=document.blank_document(ctx),
        **ctx,
    )


@bp.get("/g/<game_id>/blank.pdf")
def game_blank_pdf(game_id):
    scored_game = _load(game_id)
    return _kept_pdf(
        scored_game,
        "blank",
        f"blank-{game_id}.pdf",
        document.blank_document,
        lambda: dict(game_id=game_id, **paper.blank_from_game(scored_game)),
    )


# ---------------------------------------------------------------- blank sheets (games/blank_sheets.py)


@bp.get("/blank/")
def blank_index():
    """The blank sheets, and a form that makes one with names: it sends the table to that sheet's page."""
    return blank_sheets.index_page()


@bp.get("/blank/<variant>/form")
def blank_form(variant):
    """A blank sheet with the names and the house rules typed in; "Make the sheet" goes to the sheet."""
    return blank_sheets.form_page(variant)


@bp.get("/blank/<variant>")
def blank(variant):
    ctx = blank_sheet_context(variant, request.args)
    pdf_url = url_for("sheets.blank_pdf", variant=variant, **link_args(request.args, "variant"))
    return render_template("print/blank.html", pdf=False, pdf_url=pdf_url, doc=document.blank_document(ctx), **ctx)


@bp.get("/blank/<variant>.pdf")
def blank_pdf(variant):
    return pdf_download(document.blank_document, f"blank-{variant}.pdf", **blank_sheet_context(variant, request.args))
