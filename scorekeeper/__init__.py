"""scorekeeper: the score sheet (protokoll) for whist played with real cards.

The map: `core` is the pure scoring (no Flask, no SQL), `storage` the SQLite file, `services` what a write does,
`web` the pages and the JSON API. `import scorekeeper.core` loads no Flask: the factory is imported when called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(config: Any = None) -> Flask:
    """The Flask app; `config` is a mapping merged over the defaults and the SCOREKEEPER_* environment."""
    from scorekeeper.app import create_app as make

    return make(config)
