"""The renderer process that draws PDFs (`python -m scorekeeper.web.sheets.pdf [--warm reportlab|weasyprint]`):
started once per worker by views.Renderer, it imports its drawing library and registers the fonts once, then draws one
job after another, each read from stdin and answered on stdout. No Flask here: the worker keeps neither the drawing's
time (it holds the GIL) nor its memory.

A job is a length-prefixed JSON object. With `doc` (web/sheets/document.py: blocks of finished text) it is drawn by
ReportLab (draw.py). With `html` and {static_folder, prefix, base_url} it is a print page drawn by WeasyPrint (the
paper not yet moved to ReportLab), or with `parts` (a list of HTML documents) instead of `html`: each part is drawn as
a document of its own and the PDFs are joined into one, so that the renderer holds one part's layout at a time (a
hall's 120 score cards took 570 MB as one document, 150 MB as six parts, for the same CPU time); `docs` is the same for
ReportLab documents. The answer is a header (`K` and the PDF, or `E` and the error's last line; then the process's
resident memory in bytes, so that the worker can restart a renderer that has grown) and the body.
"""

from __future__ import annotations

import io
import json
import logging
import mimetypes
import os
import resource
import struct
import sys
from pathlib import Path

from werkzeug.utils import safe_join

JOB = struct.Struct(">Q")  # the job's length in bytes
ANSWER = struct.Struct(">cQQ")  # b"K" or b"E", the body's length, the renderer's resident memory in bytes
WARM_HTML = "<p style=\"font: 9pt 'DejaVu Sans'\">Æ Ø Å <b>æ ø å</b> −20 ♠ ♥ ♦ ♣</p>"


def draw(html: str, static_folder: str, prefix: str, base_url: str) -> bytes:
    """The print HTML as an A4 PDF, drawn by WeasyPrint with Pango; it fetches only the files under `prefix`, from
    `static_folder`."""
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
    """A job's PDF: its `doc` (ReportLab), its `docs` drawn one at a time and joined; its `html` (WeasyPrint), or its
    `parts` drawn one at a time and joined."""
    if "doc" in job or "docs" in job:
        from scorekeeper.web.sheets import draw as reportlab_draw

        if "doc" in job:
            return reportlab_draw.draw(job["doc"])
        pdfs = [reportlab_draw.draw(doc) for doc in job["docs"]]
        return pdfs[0] if len(pdfs) == 1 else join(pdfs)
    where = job["static_folder"], job["prefix"], job["base_url"]
    if "parts" not in job:
        return draw(job["html"], *where)
    pdfs = [draw(html, *where) for html in job["parts"]]
    return pdfs[0] if len(pdfs) == 1 else join(pdfs)


def resident_bytes() -> int:
    """This process's resident memory now (not its peak: what a restart would give back)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def read_exactly(stream, n: int) -> bytes | None:
    data = stream.read(n)
    return data if len(data) == n else None


def warm(library: str) -> None:
    """Imports and fonts ready before the first sheet: ReportLab's fonts registered, or WeasyPrint's Pango warmed."""
    if library == "weasyprint":
        logging.getLogger("weasyprint").setLevel(logging.ERROR)
        from weasyprint import HTML

        HTML(string=WARM_HTML).write_pdf()
    else:
        from scorekeeper.web.sheets import draw as reportlab_draw

        reportlab_draw.warm()


def serve(stdin=None, stdout=None, library: str = "reportlab") -> None:
    """Draw jobs until stdin closes; an error in one job is that job's answer, and the next job is drawn as usual."""
    stdin, stdout = stdin or sys.stdin.buffer, stdout or sys.stdout.buffer
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    warm(library)
    while (head := read_exactly(stdin, JOB.size)) is not None:
        body = read_exactly(stdin, JOB.unpack(head)[0])
        if body is None:
            break
        try:
            job = json.loads(body)
            kind, answer = b"K", draw_job(job)
        except Exception as exc:  # this job's answer; the renderer goes on
            kind, answer = b"E", (f"{type(exc).__name__}: {exc}".strip().splitlines() or ["error"])[-1].encode()
        stdout.write(ANSWER.pack(kind, len(answer), resident_bytes()) + answer)
        stdout.flush()


if __name__ == "__main__":
    serve(library=sys.argv[sys.argv.index("--warm") + 1] if "--warm" in sys.argv else "reportlab")
