"""Score sheets to take away: the print page and its PDF, blank sheets for pen and paper, the hands as CSV and JSON.

Thin: paper.py builds the contexts; the PDF is the print page's own HTML rendered by WeasyPrint.
"""
from __future__ import annotations

import csv
import io
import json
import mimetypes
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.utils import safe_join

from . import paper, service, store
from .db import get_db
from .present import game_dict
from .scoring import VARIANTS, InputError
from .scoring import danish as danish_rules

bp = Blueprint("sheets", __name__)
# The PDF renderer sees the sheet under this made-up origin; it may load the package's static files and nothing else.
PDF_ORIGIN = "https://sheet.invalid"


@bp.url_value_preprocessor
def _sheet_language(endpoint, values):
    """A game that names a language gets its sheets printed in it (an explicit ?lang= still wins)."""
    game_id = (values or {}).get("game_id")
    if game_id:
        game = store.get_game(get_db(), game_id)
        if game is not None and game.language:
            g.sheet_language = game.language


def _load(game_id):
    try:
        return service.load(get_db(), game_id)
    except service.NotFound:
        abort(404)


def _download(body, mimetype: str, filename: str) -> Response:
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{filename}"',
                                                      "Cache-Control": "no-store"})


# ---------------------------------------------------------------- PDF


def render_pdf(html: str) -> bytes:
    """The print HTML as an A4 PDF, drawn in-process by WeasyPrint with Pango; it fetches only our static files."""
    from weasyprint import HTML
    from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

    static_folder = current_app.static_folder
    prefix = PDF_ORIGIN + request.script_root + current_app.static_url_path + "/"

    class StaticFiles(URLFetcher):
        def fetch(self, url, headers=None):
            path = safe_join(static_folder, url[len(prefix):]) if url.startswith(prefix) else None
            if path is None or not Path(path).is_file():
                raise ValueError(f"the sheet may load only scorekeeper's static files, not {url}")
            mimetype = mimetypes.guess_type(path)[0] or "application/octet-stream"
            return URLFetcherResponse(url, Path(path).read_bytes(), {"Content-Type": mimetype})

    # fail_on_errors: a sheet without its stylesheet is an error, never a silently unstyled PDF.
    fetcher = StaticFiles(allowed_protocols=("https",), allow_redirects=False, fail_on_errors=True)
    try:
        return HTML(string=html, base_url=PDF_ORIGIN + request.script_root + "/", url_fetcher=fetcher).write_pdf()
    except FatalURLFetchingError as exc:  # a BaseException: make it an ordinary error the app can answer
        raise RuntimeError(f"the sheet's PDF failed: {exc}") from exc


def _pdf(template: str, filename: str, **ctx) -> Response:
    return _download(render_pdf(render_template(template, pdf=True, **ctx)), "application/pdf", filename)


# ---------------------------------------------------------------- a game's sheet


@bp.get("/g/<game_id>/print")
def print_sheet(game_id):
    sheet = _load(game_id)
    return render_template("print/sheet.html", pdf=False, **paper.sheet_context(sheet))


@bp.get("/g/<game_id>/sheet.pdf")
def pdf(game_id):
    sheet = _load(game_id)
    return _pdf("print/sheet.html", f"protokoll-{game_id}.pdf", **paper.sheet_context(sheet))


@bp.get("/g/<game_id>/hands.csv")
def hands_csv(game_id):
    sheet = _load(game_id)
    out = io.StringIO()
    out.write("\ufeff")  # a byte-order mark, so that spreadsheets read æ, ø, å as UTF-8
    csv.writer(out, lineterminator="\r\n").writerows(paper.csv_rows(sheet))
    return _download(out.getvalue(), "text/csv", f"protokoll-{game_id}.csv")


@bp.get("/g/<game_id>/game.json")
def game_json(game_id):
    sheet = _load(game_id)
    body = json.dumps(game_dict(sheet), ensure_ascii=False, indent=2)
    return _download(body, "application/json", f"protokoll-{game_id}.json")


@bp.get("/g/<game_id>/blank")
def game_blank(game_id):
    sheet = _load(game_id)
    return render_template("print/blank.html", pdf=False, game_id=game_id,
                           pdf_url=url_for("sheets.game_blank_pdf", game_id=game_id), **paper.blank_from_game(sheet))


@bp.get("/g/<game_id>/blank.pdf")
def game_blank_pdf(game_id):
    sheet = _load(game_id)
    return _pdf("print/blank.html", f"blank-{game_id}.pdf", game_id=game_id, **paper.blank_from_game(sheet))


# ---------------------------------------------------------------- blank sheets


def _blank(variant: str):
    """The blank sheet's context from the query string, or the page that says what was wrong (400)."""
    if variant not in VARIANTS:
        abort(404)
    try:
        wanted = paper.blank_request(variant, request.args)
    except InputError as exc:
        message = "; ".join(f"{field}: {text}" for field, text in exc.errors.items())
        abort(Response(render_template("errors/error.html", code=400, title=_("This sheet cannot be made"),
                                       message=message), 400))
    return paper.blank_context(variant, wanted["players"], wanted["options"], title=wanted["title"],
                               dealer=wanted["dealer"], rows=wanted["rows"])


@bp.get("/blank/")
def blank_index():
    """The blank sheets, and a form that makes one with names: it sends the table to that sheet's page."""
    variant = request.args.get("variant")
    if variant in VARIANTS:
        args = {k: [v for v in vs if v] for k, vs in request.args.to_dict(flat=False).items()
                if k != "variant" and not (k == "preset" and variant != "danish")}
        names = args.get("player", [])
        args["player"] = names + [""] * (min(VARIANTS[variant].PLAYER_COUNTS) - len(names))
        return redirect(url_for("sheets.blank", variant=variant, **{k: v for k, v in args.items() if v}))
    return render_template("print/blank_index.html", variants=VARIANTS, presets=danish_rules.TARIFF_PRESETS)


@bp.get("/blank/<variant>")
def blank(variant):
    ctx = _blank(variant)
    pdf_url = url_for("sheets.blank_pdf", variant=variant, **request.args.to_dict(flat=False))
    return render_template("print/blank.html", pdf=False, pdf_url=pdf_url, **ctx)


@bp.get("/blank/<variant>.pdf")
def blank_pdf(variant):
    return _pdf("print/blank.html", f"blank-{variant}.pdf", **_blank(variant))
