"""The words a club's sheet heads its columns and rows with, in Danish, Norwegian, Swedish and English, and the
months' names: what `layout` guesses a column's job from. The app's own headings (its ledger's, in every language it
speaks) are added by the service (`Words.more`), so that the ledger the app writes reads back whatever its language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# A column's job, by the words its heading holds (compared casefolded, punctuation as spaces).
# fmt: off
_BASE = {
    "member": {
        "navn", "medlem", "medlemmer", "medlemsnavn", "spiller", "spillere", "deltager", "deltagere", "deltaker",
        "deltakere", "namn", "spelare", "deltagare", "name", "names", "member", "members", "player", "players",
    },
    "date": {"dato", "datum", "date", "dag", "day", "aften", "spilleaften", "kveld", "kväll", "evening"},
    "points": {
        "point", "points", "pts", "pt", "p", "poeng", "poäng", "score", "scores", "stik", "resultat", "result",
        "resultater",
    },
    "money": {
        "kr", "kroner", "kronor", "penge", "penger", "pengar", "beløb", "beløp", "belopp", "money", "amount",
        "gevinst", "tab", "vinst", "netto", "net", "saldo", "dkk", "nok", "sek", "eur", "gbp", "usd", "€", "£", "$",
        "udbetaling", "won", "lost",
    },
    "before_fee": {"før gebyr", "før avgift", "före avgift", "before fee", "brutto", "gross"},
    "fee": {
        "gebyr", "kontingent", "bordpenge", "indskud", "startgebyr", "avgift", "innskudd", "startavgift", "fee",
        "fees", "entry",
    },
    "hands": {"spil", "hænder", "hands", "deals", "giv", "spill", "händer", "given", "antal spil"},
    "table": {"bord", "table", "tables", "borde"},
    "total": {
        "i alt", "ialt", "total", "totalt", "totaler", "sum", "summa", "samlet", "sammenlagt", "tot", "slutsum",
        "total points",
    },
    "kitty": {"kassen", "kasse", "potten", "pott", "kitty", "puljen", "kassan", "klubkassen", "klubbkassen"},
    # Columns a ledger has that are no evening and no member's total an import checks: left out.
    "ignore": {
        "aftener", "evenings", "kvelder", "kvällar", "gennemsnit", "snitt", "average", "avg", "plads", "place",
        "plass", "placering", "rank", "nr", "no", "valuta", "currency", "ikke afregnet", "unsettled",
    },
}
# The months, by number: every name and its usual shortenings ("sep", "sept", "okt", "oct", "des", "dec").
MONTHS = {
    1: ("januar", "januari", "january", "jan"),
    2: ("februar", "februari", "february", "feb"),
    3: ("marts", "mars", "march", "mar"),
    4: ("april", "apr"),
    5: ("maj", "mai", "may"),
    6: ("juni", "june", "jun"),
    7: ("juli", "july", "jul"),
    8: ("august", "augusti", "aug"),
    9: ("september", "sep", "sept"),
    10: ("oktober", "october", "okt", "oct"),
    11: ("november", "nov"),
    12: ("december", "desember", "dec", "des"),
}
# fmt: on
JOBS = tuple(_BASE)


def plain(text: str) -> str:
    """A heading as compared: casefolded, its punctuation spaces (the currency signs kept), its spaces single."""
    text = re.sub(r"[()\[\]{}:;,/\\|_*#\"'!?=+]", " ", text.casefold())
    text = re.sub(r"(?<!\d)\.|\.(?!\d)", " ", text)  # "kr." → "kr", "12.9" stays
    return " ".join(text.split())


@dataclass(frozen=True)
class Words:
    """Each job's words and phrases (plain); `more` adds others (the app's own headings in its four languages)."""

    jobs: dict[str, frozenset[str]] = field(default_factory=lambda: {k: frozenset(v) for k, v in _BASE.items()})

    def more(self, extra: dict[str, set[str]]) -> Words:
        jobs = dict(self.jobs)
        for job, words in extra.items():
            jobs[job] = jobs.get(job, frozenset()) | {plain(w) for w in words if plain(w)}
        return Words(jobs)

    def job_of(self, text: str) -> str | None:
        """The job a heading's words say, the whole heading first ("i alt", "before fee"), then word by word (the
        first word that says one: "Points i alt" is a total, so a total's words are asked first)."""
        said = plain(text)
        if not said:
            return None
        for job in JOBS_FIRST:
            if said in self.jobs.get(job, ()):
                return job
        tokens = said.split()
        for job in JOBS_FIRST:
            words = self.jobs.get(job, frozenset())
            if any(t in words for t in tokens) or any(" " in w and _holds(said, w) for w in words):
                return job
        return None

    def says(self, text: str, job: str) -> bool:
        said = plain(text)
        words = self.jobs.get(job, frozenset())
        return (
            said in words or any(t in words for t in said.split()) or any(" " in w and _holds(said, w) for w in words)
        )


def _holds(text: str, phrase: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text) is not None


# The order a heading's words are asked in: the phrases that change a word's meaning first.
JOBS_FIRST = ("before_fee", "total", "kitty", "fee", "member", "date", "hands", "table", "money", "points", "ignore")
BASE_WORDS = Words()
