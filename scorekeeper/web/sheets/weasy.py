"""The paper still drawn from its print page's HTML by WeasyPrint (a drive's paper, a club evening's), in the renderer
process (pdf.py) only: the game sheets and blank sheets are ReportLab documents (draw.py). WeasyPrint and pypdf are
imported on the first such job, so that a renderer that draws only game sheets never loads them.

A job is {html, static_folder, prefix, base_url}, or with `parts` (a list of HTML documents) instead of `html`: each
part is drawn as a document of its own and the PDFs are joined into one, so that the renderer holds one part's layout
at a time (a hall's 120 score cards took 570 MB as one document, 150 MB as six parts, for the same CPU time).
"""

from __future__ import annotations

import io
import logging
import mimetypes
from pathlib import Path

from werkzeug.utils import safe_join


def is_html_job(job: dict) -> bool:
    return "html" in job or "parts" in job


def draw(html: str, static_folder: str, prefix: str, base_url: str) -> bytes:
    """The print HTML as an A4 PDF, drawn by WeasyPrint with Pango; it fetches only the files under `prefix`, from
    `static_folder`."""
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    from weasyprint import HTML
    from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

    class StaticFiles(URLFetcher):
        def fetch(self, url, headers=None):
            path = safe_join(static_folder, url[len(prefix) :]) if url.startswith(prefix) else None
            if path is None or not Path(path).is_file():
                raise ValueError(f"the sheet may load only scorekeeper's static files, not {url}")
            mimetype = mimetypes.guess_type(path)[0] or "application/octet-stream"
            return URLFetcherResponse(url, Path(path).read_bytes(), {"Content-Type": mimetype})

    # fail_on_errors: a sheet without its stylesheet is an error, never a silently unstyled PDF.
    fetcher = StaticFiles(allowed_protocols=("https",), allow_redirects=False, fail_on_errors=True)
    try:
        return HTML(string=html, base_url=base_url, url_fetcher=fetcher).write_pdf()
    except FatalURLFetchingError as exc:  # a BaseException: make it an ordinary error the app can answer
        raise RuntimeError(f"the sheet's PDF failed: {exc}") from exc


def join(pdfs: list[bytes]) -> bytes:
    """PDFs drawn one by one as one PDF, page after page (pypdf), with the first one's title and metadata."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for i, pdf in enumerate(pdfs):
        reader = PdfReader(io.BytesIO(pdf))
        writer.append(reader)
        if i == 0 and reader.metadata:
            writer.add_metadata(dict(reader.metadata))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def draw_job(job: dict) -> bytes:
    """An HTML job's PDF: its `html`, or its `parts` drawn one at a time and joined."""
    where = job["static_folder"], job["prefix"], job["base_url"]
    if "parts" not in job:
        return draw(job["html"], *where)
    pdfs = [draw(html, *where) for html in job["parts"]]
    return pdfs[0] if len(pdfs) == 1 else join(pdfs)
