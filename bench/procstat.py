"""A process's CPU time from /proc: what the benchmarks measure a request or a PDF by (other work on a shared machine
moves it far less than wall time)."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path


def cpu_seconds(pid: int) -> float:
    """A process's user + system CPU time so far (clock ticks from /proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def started_child(start) -> int:
    """The pid of the one process that `start()` starts (a renderer pool of one worker, games/sheets.Renderer)."""
    before = {p.pid for p in multiprocessing.active_children()}
    start()
    (pid,) = {p.pid for p in multiprocessing.active_children()} - before
    return pid
