"""The phone pages: home, new game, hand entry, the protokoll, editing and sharing. Thin: service does the work.

By job: common, home, protokoll, hands."""

from scorekeeper.games.pages import hands, home, protokoll  # noqa: F401  (their routes on bp)
from scorekeeper.games.pages.common import bp

__all__ = ["bp"]
