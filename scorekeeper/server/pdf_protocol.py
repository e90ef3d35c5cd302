"""What the worker and its renderer process (server/pdf.py) say over the pipe: a length-prefixed JSON job in, a
header and the PDF (or the error) out. Apart from pdf.py so that the worker never imports ReportLab."""

from __future__ import annotations

import struct

JOB = struct.Struct(">Q")  # the job's length in bytes
ANSWER = struct.Struct(">cQQ")  # b"K" or b"E", the body's length, the renderer's resident memory in bytes


def read_exactly(stream, n: int) -> bytes | None:
    data = stream.read(n)
    return data if len(data) == n else None
