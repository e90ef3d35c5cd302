"""The old path, for the benchmark's baseline only: a print page's HTML drawn by WeasyPrint (what the app did before
issue 27), in this process. Not part of the app: the `bench` extra (`make bench` installs it) and Pango."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from werkzeug.utils import safe_join


def draw(html: str, static_folder: str, prefix: str, base_url: str) -> bytes:
    """The print HTML as an A4 PDF; it fetches only the files under `prefix`, from `static_folder`."""
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class StaticFiles(URLFetcher):
        def fetch(self, url, headers=None):
            path = safe_join(static_folder, url[len(prefix) :]) if url.startswith(prefix) else None
            if path is None or not Path(path).is_file():
                raise ValueError(f"the sheet may load only scorekeeper's static files, not {url}")
            mimetype = mimetypes.guess_type(path)[0] or "application/octet-stream"
            return URLFetcherResponse(url, Path(path).read_bytes(), {"Content-Type": mimetype})

    fetcher = StaticFiles(allowed_protocols=("https",), allow_redirects=False, fail_on_errors=True)
    return HTML(string=html, base_url=base_url, url_fetcher=fetcher).write_pdf()


def main() -> None:
    """`python bench/weasy.py JOBS.json`: draw each {"name", "html"} of the file after a warm-up; print, as JSON, each
    one's wall time and CPU seconds, and this process's peak resident memory in MiB."""
    import json
    import resource
    import sys
    import time

    jobs = json.loads(Path(sys.argv[1]).read_text())
    where = jobs["static_folder"], jobs["prefix"], jobs["base_url"]
    draw("<p style=\"font: 9pt 'DejaVu Sans'\">Æ Ø Å −20 ♠ ♥ ♦ ♣</p>", *where)  # imports, fonts and Pango ready
    out = {}
    for job in jobs["jobs"]:
        started, cpu = time.perf_counter(), time.process_time()
        draw(job["html"], *where)
        out[job["name"]] = {"s": time.perf_counter() - started, "cpu_s": time.process_time() - cpu}
    out["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


if __name__ == "__main__":
    main()
