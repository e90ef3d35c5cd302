"""Draws the app's icons (a white spade on the accent green) as PNGs with the standard library only.

Run once after changing the design: python scripts/make_icons.py; the PNGs are committed in scorekeeper/static/icons.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "scorekeeper" / "static" / "icons"
GREEN = (11, 110, 79)
WHITE = (255, 255, 255)
SAMPLES = 3  # per axis: 9 samples a pixel for smooth edges


def png(width: int, rows: list[bytes]) -> bytes:
    """An 8-bit RGBA PNG from its rows."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in rows)
    head = struct.pack(">IIBBBBB", width, len(rows), 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def spade(x: float, y: float) -> bool:
    """A spade in the unit square around (0, 0), y down: an upside-down heart and a stem."""
    hx, hy = x * 1.45, (y + 0.05) * 1.45  # the heart's curve upside down: its point at the top
    if (hx * hx + hy * hy - 1) ** 3 - hx * hx * hy**3 <= 0:
        return True
    return 0.3 <= y <= 1.05 and abs(x) <= 0.04 + (y - 0.3) * 0.45


def inside(x: float, y: float, radius: float) -> bool:
    """Within the rounded square of corner radius `radius` (0..1 of the half side)."""
    ax, ay = abs(x), abs(y)
    edge = 1 - radius
    if ax <= edge or ay <= edge:
        return ax <= 1 and ay <= 1
    return (ax - edge) ** 2 + (ay - edge) ** 2 <= radius**2


def draw(size: int, *, maskable: bool) -> bytes:
    """`maskable`: full-bleed background, the spade inside the middle 60 % safe zone; else a rounded tile."""
    scale = 0.55 if maskable else 0.78
    rows = []
    for py in range(size):
        row = bytearray()
        for px in range(size):
            bg = ink = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = ((px + (sx + 0.5) / SAMPLES) / size) * 2 - 1
                    y = ((py + (sy + 0.5) / SAMPLES) / size) * 2 - 1
                    if maskable or inside(x, y, 0.36):
                        bg += 1
                        ink += spade(x / scale, y / scale)
            n = SAMPLES * SAMPLES
            alpha = bg / n
            white = ink / bg if bg else 0
            color = [round(g + (w - g) * white) for g, w in zip(GREEN, WHITE)]
            row += bytes(color) + bytes([round(alpha * 255)])
        rows.append(bytes(row))
    return png(size, rows)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("maskable-512.png", 512, True),
    ):
        (OUT / name).write_bytes(draw(size, maskable=maskable))
        print(name, file=sys.stderr)


if __name__ == "__main__":
    main()
