"""The renderer process that draws PDFs (`python -m scorekeeper.server.pdf`): started once per worker by
views.Renderer, it imports ReportLab and registers the fonts once, then draws one job after another, each read from
stdin and answered on stdout. No Flask here: the worker keeps neither the drawing's time (it holds the GIL) nor its
memory.

A job is a length-prefixed JSON object {"doc": …}: a document of finished text (games/document.py, a drive's
drives/document.py, a club evening's clubs/document.py) that draw.py lays out with ReportLab. Every PDF is
drawn so since issue 27: no HTML, no WeasyPrint, no Pango. The answer is a header (`K` and the PDF, or `E` and the
error's last line; then the process's resident memory in bytes, so that the worker can restart a renderer that has
grown) and the body.
"""

from __future__ import annotations

import json
import os
import resource
import sys

from scorekeeper.paper import draw
from scorekeeper.server.pdf_protocol import ANSWER, JOB, read_exactly

__all__ = ["ANSWER", "JOB", "draw_job", "read_exactly", "serve"]


def draw_job(job: dict) -> bytes:
    """A job's PDF: its document, drawn by ReportLab."""
    return draw.draw(job["doc"])


def resident_bytes() -> int:
    """This process's resident memory now (not its peak: what a restart would give back)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def serve(stdin=None, stdout=None) -> None:
    """Draw jobs until stdin closes; an error in one job is that job's answer, and the next job is drawn as usual."""
    stdin, stdout = stdin or sys.stdin.buffer, stdout or sys.stdout.buffer
    draw.warm()  # ReportLab imported and the fonts registered before the first sheet
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
    serve()
