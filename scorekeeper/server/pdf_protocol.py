"""What the worker hands its renderer processes (pebble's ProcessPool, games/sheets.Renderer): the function to run
by name, so that the worker never imports ReportLab (server/pdf.py and draw.py are imported in the renderer)."""

from __future__ import annotations

import pkgutil

DRAW = "scorekeeper.server.pdf:draw_job"  # a job (a document of finished text) → its PDF's bytes
WARM = "scorekeeper.paper.draw:warm"  # ReportLab imported and the fonts registered, once per renderer


class ByName:
    """A function named "module:name": pickled as its name, looked up where it is called (pkgutil.resolve_name)."""

    def __init__(self, name: str):
        self.name = name

    def __call__(self, *args):
        return pkgutil.resolve_name(self.name)(*args)
