"""The drawn PDFs kept on disk (PDF_FOLDER, else pdf/ beside the database): a file's name says whose it is, its version,
what else it prints and its language, so that a download again is a file read; a file is written whole or not at all,
and the folder is kept under PDF_KEEP_BYTES. games/sheets.py draws them and answers with them (drive paper too)."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from flask import current_app
from flask_babel import get_locale

from scorekeeper.server.printing import PDF_KEEP_BYTES

PART_AGE = 3600  # seconds after which a PDF half written (its worker killed meanwhile) is taken away


def pdf_folder() -> Path:
    """The kept PDFs: PDF_FOLDER, else pdf/ beside the database (instance/pdf)."""
    return Path(current_app.config.get("PDF_FOLDER") or Path(current_app.config["DATABASE"]).parent / "pdf")


def kept_name(owner: str, version: int, state: str, kind: str) -> tuple[str, str]:
    """The kept file's name and its ETag, in the reader's language. `owner` is the game's id, or another feature's
    name for its paper (no dots: the folder's clean-up reads the name's parts); a new version or state of an owner
    removes its older files."""
    language = str(get_locale())
    return f"{owner}.{version}.{state}.{language}.{kind}.pdf", f"{version}-{state}-{language}-{kind}"


def keep(folder: Path, name: str, body: bytes) -> None:
    """Written whole or not at all (a temporary file, then os.replace); the game's older PDFs go, and the oldest of
    all while the folder holds more than PDF_KEEP_BYTES, and any temporary file older than PART_AGE."""
    folder.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=folder, prefix=".part-")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(body)
        os.replace(temp, folder / name)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    game_id, version, state = name.split(".")[:3]
    files = []
    for path in folder.glob("*.pdf"):
        parts = path.name.split(".")
        if parts[0] == game_id and (int(parts[1]), parts[2]) != (int(version), state) and int(parts[1]) <= int(version):
            path.unlink(missing_ok=True)
        elif path.name != name:
            try:
                files.append((path.stat().st_mtime, path.stat().st_size, path))
            except FileNotFoundError:
                pass
    for path in folder.glob(".part-*"):  # a worker killed while writing left it: gone an hour on (issue 43)
        try:
            if path.stat().st_mtime < time.time() - PART_AGE:
                path.unlink()
        except OSError:
            pass
    total = len(body) + sum(size for _mtime, size, _path in files)
    for _mtime, size, path in sorted(files):
        if total <= current_app.config.get("PDF_KEEP_BYTES", PDF_KEEP_BYTES):
            break
        path.unlink(missing_ok=True)
        total -= size
