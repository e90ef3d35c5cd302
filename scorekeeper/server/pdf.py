"""What a renderer process runs (games/sheets.Renderer, a pebble ProcessPool): one job after another, in a
process that imported ReportLab and registered the fonts once (draw.warm, the pool's initializer). No Flask here: the
worker keeps neither the drawing's time (it holds the GIL) nor its memory.

A job is {"doc": …}: a document of finished text (games/document.py, a drive's drives/document.py, a club
evening's clubs/document.py) that draw.py lays out with ReportLab. Every PDF is drawn so since issue 27: no HTML,
no WeasyPrint, no Pango.
"""

from __future__ import annotations

from scorekeeper.paper import draw


def draw_job(job: dict) -> bytes:
    """A job's PDF: its document, drawn by ReportLab."""
    return draw.draw(job["doc"])
