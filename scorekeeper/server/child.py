"""What a process the server spawns (the heavy reads' drawing process, the PDF renderers) does first: end with the worker
that started it. A worker killed outright (SIGKILL, the OOM killer) otherwise left them running for good, holding the
database file open: a spawned child holds both ends of its queue's pipe, so it never reads an end of file there."""

from __future__ import annotations

import os
import pkgutil
import threading
import time
from typing import Any

WATCH_EVERY = 1.0  # seconds between looks at the parent


def exit_with_parent(parent: int) -> None:
    """End this process once `parent` is no longer its parent (it died: the child was handed to init or a subreaper)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_EVERY)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def start(parent: int, initializer: str, *args: Any) -> None:
    """A pool's initializer: watch the parent, then run `initializer` ("module:name") with `args`."""
    exit_with_parent(parent)
    pkgutil.resolve_name(initializer)(*args)
