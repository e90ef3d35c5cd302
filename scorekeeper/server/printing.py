"""The PDF renderer processes every page that prints shares: a pebble ProcessPool per worker (two processes for the
games' sheets and blank sheets, shared fairly by client, one for a drive's paper), started on the first PDF with
ReportLab imported and the fonts registered, then one job after another, handed over by name so that the worker never
imports ReportLab (server/pdf.py runs them). Plumbing, not a page: games/sheets.py and drives/pages/paper.py answer
with what it draws."""

from __future__ import annotations

import atexit
import multiprocessing
import os
import threading
from concurrent.futures.process import BrokenProcessPool

from flask import current_app
from pebble import ProcessExpired, ProcessPool

from scorekeeper.server import pdf_protocol as protocol

RETRY_AFTER = 5  # seconds, for a download refused while its client has another PDF drawing, or the queue is full
PDF_KEEP_BYTES = 256 * 1024 * 1024  # the kept PDFs' folder at most (config PDF_KEEP_BYTES); the oldest go first


class Busy(Exception):
    """The PDF could not be drawn now (the renderer ran out of time or died): try again later."""


class Turns:
    """Who has a PDF drawing or waiting for a renderer: one per client (its address), at most `limit` in all. One
    client re-printing its big game then holds one renderer, never the others' turns (issue 34, F-S2); a client over
    its turn, or one more when all are taken, is answered 503 at once (a waiting thread is a thread not serving)."""

    def __init__(self):
        self._clients: set[str] = set()
        self._lock = threading.Lock()

    def take(self, client: str, limit: int) -> bool:
        with self._lock:
            if client in self._clients or len(self._clients) >= limit:
                return False
            self._clients.add(client)
            return True

    def give_back(self, client: str) -> None:
        with self._lock:
            self._clients.discard(client)

    def taken(self) -> int:
        return len(self._clients)


class Renderer:
    """This worker's renderer processes: a pebble ProcessPool started on the first PDF, each process with ReportLab
    imported and the fonts registered once (paid once, not per PDF); a job that runs out of time kills its process,
    one that dies is replaced, and each is replaced after MAX_TASKS PDFs (what a long game's layout grew is given
    back). Spawned, not forked: the worker has threads and open databases."""

    MAX_TASKS = 25
    TASK = protocol.DRAW

    def __init__(self, workers: int, queue: str | None):
        self.workers = workers
        self.queue = queue  # the config key of how many may draw or wait in all (None: one at a time)
        self.turns = Turns()
        self.pool: ProcessPool | None = None
        self.pid = 0  # the worker that started it: a forked worker starts its own
        self._lock = threading.Lock()

    def limit(self) -> int:
        return current_app.config.get(self.queue, self.workers) if self.queue else 1

    def start(self) -> ProcessPool:
        with self._lock:
            if self.pool is None or self.pid != os.getpid() or not self.pool.active:
                self.pool = ProcessPool(
                    max_workers=self.workers,
                    max_tasks=self.MAX_TASKS,
                    initializer=protocol.ByName("scorekeeper.server.child:start"),
                    initargs=(os.getpid(), protocol.WARM),
                    context=multiprocessing.get_context("spawn"),
                )
                self.pid = os.getpid()
            return self.pool

    def stop(self) -> None:
        pool, self.pool = self.pool, None
        if pool is not None and self.pid == os.getpid():
            pool.stop()
            pool.join()

    def draw(self, job: dict, timeout: float) -> bytes:
        future = self.start().schedule(protocol.ByName(self.TASK), args=(job,), timeout=timeout)
        try:
            try:
                return future.result()
            except BrokenProcessPool:  # pebble gives up a pool whose processes died idle while a job was queued
                self.stop()
                return self.start().schedule(protocol.ByName(self.TASK), args=(job,), timeout=timeout).result()
        except TimeoutError:
            raise Busy(f"the PDF took more than {timeout} s") from None
        except ProcessExpired as exc:
            raise Busy(f"the PDF's renderer stopped ({exc.exitcode})") from None


renderer = Renderer(2, "RENDER_QUEUE")  # the games' sheets and blank sheets: two processes, shared fairly
drive_renderer = Renderer(1, None)  # a drive's paper: its own process, one at a time, so a game's PDF never waits on it
atexit.register(renderer.stop)
atexit.register(drive_renderer.stop)


def _job(doc: dict) -> dict:
    """A renderer's job: a document of finished text (document.py), which ReportLab draws (draw.py)."""
    return {"doc": doc}


def render_pdf(doc: dict) -> bytes:
    """A document (document.py) as an A4 PDF, drawn by one of this worker's renderer processes (see Renderer): the
    layout is Python that holds the GIL and takes memory by the row; the worker keeps neither."""
    return renderer.draw(_job(doc), current_app.config["PDF_TIMEOUT"])


def render_drive_pdf(doc: dict) -> bytes:
    """As render_pdf, by the renderer process of drive paper."""
    return drive_renderer.draw(_job(doc), current_app.config["DRIVE_PDF_TIMEOUT"])
