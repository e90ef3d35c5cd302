"""The child process that draws a PDF (`python -m scorekeeper.web.sheets.pdf`): a job as JSON on stdin, the PDF on
stdout. No Flask here: views.render_pdf starts it, so the worker keeps neither WeasyPrint's time nor its memory."""

from __future__ import annotations

import json
import mimetypes
import sys
from pathlib import Path

from werkzeug.utils import safe_join


def draw(html: str, static_folder: str, prefix: str, base_url: str) -> bytes:
    """The print HTML as an A4 PDF, drawn by WeasyPrint with Pango; it fetches only the files under `prefix`, from
    `static_folder`. No Flask: it runs in the child process (see render_pdf)."""
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


def main() -> None:
    job = json.loads(sys.stdin.buffer.read())
    sys.stdout.buffer.write(draw(job["html"], job["static_folder"], job["prefix"], job["base_url"]))


if __name__ == "__main__":
    main()
