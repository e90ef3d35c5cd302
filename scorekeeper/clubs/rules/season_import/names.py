"""The sheet's names matched to the club's members: the same name (case and spaces aside) is that member; a name
like one of theirs — "Søren Ø." for Søren Østergaard, "Birte" for Birthe, "Hansen, Grethe" for Grethe Hansen — is
offered as that member, and so is a name like another of the sheet's own; the admin chooses, nothing is merged
without being asked. Near-misses are scored by rapidfuzz (edit distance, the words in any order) and by the
shortening a sheet writes (each word the start of the member's word)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rapidfuzz import fuzz

from scorekeeper.clubs.rules.season_import.read import same_name

NEAR = 80  # a score from 0 to 100 from which a name is offered
SHORTENED = 95  # "Søren Ø." for "Søren Østergaard": each word the start of the member's
OFFERED_MAX = 3


@dataclass(frozen=True)
class Candidate:
    """Whom a name may be: a member (`member` id) or another of the sheet's names (`name`), and how alike (0–100)."""

    label: str
    score: int
    member: int | None = None
    name: str | None = None


@dataclass(frozen=True)
class NameMatch:
    """A sheet's name: the member it is (`member`, the same name), or the near-misses offered (best first)."""

    name: str
    member: int | None = None
    near: tuple[Candidate, ...] = ()


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[\s.,\-]+", name.casefold()) if w]


def shortened(short: str, full: str) -> bool:
    """Each word of `short` starts the word of `full` in its place ("Søren Ø." and Søren Østergaard; "S. Østergaard"),
    or `short` is the first name alone ("Søren" for Søren Østergaard)."""
    a, b = _words(short), _words(full)
    if not a or a == b:
        return False
    if len(a) == 1 and len(b) > 1:
        return a[0] == b[0]
    return len(a) == len(b) and all(y.startswith(x) for x, y in zip(a, b))


def alike(a: str, b: str) -> int:
    """How alike two names are, 0–100."""
    if shortened(a, b) or shortened(b, a):
        return SHORTENED
    x, y = " ".join(_words(a)), " ".join(_words(b))
    return int(max(fuzz.ratio(x, y), fuzz.token_sort_ratio(x, y)))


def match_names(names: Iterable[str], members: Mapping[int, str]) -> tuple[NameMatch, ...]:
    """Each name of the sheet: its member when the same, else its near-misses among the members and, for a name no
    member has, among the sheet's other names no member has either."""
    names = list(names)
    by_name = {same_name(n): m for m, n in members.items()}
    unknown = [n for n in names if same_name(n) not in by_name]
    out = []
    for name in names:
        member = by_name.get(same_name(name))
        if member is not None:
            out.append(NameMatch(name, member))
            continue
        near = [
            Candidate(label, score, member=m) for m, label in members.items() if (score := alike(name, label)) >= NEAR
        ]
        near += [
            Candidate(other, score, name=other)
            for other in unknown
            if other != name and (score := alike(name, other)) >= NEAR
        ]
        near.sort(key=lambda c: (-c.score, c.label.casefold()))
        out.append(NameMatch(name, None, tuple(near[:OFFERED_MAX])))
    return tuple(out)
