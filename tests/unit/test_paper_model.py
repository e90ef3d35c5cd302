"""One model of the paper (issue 35): the paper's words live in the document modules (games/, clubs/, drives/
document.py, clubs/pages/card_paper.py), which the print page and the PDF both draw; the print templates hold only
layout. A paper template says words only where a screen has what paper has not: its <title>, its toolbar, a
no-print warning. And a variant's words come from the variant: the shared paper modules say no Danish."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRINT = ROOT / "templates" / "print"
# The paper's templates: the pages (their main block), the parts other pages include, the blocks' macros.
PAPER = [
    "sheet.html",
    "blank.html",
    "card.html",
    "evening.html",
    "drive_blank.html",
    "drive_cards.html",
    "drive_scorecards.html",
    "drive_standings.html",
    "drive_tally.html",
    "_head.html",
    "_tariff.html",
    "blocks.html",
]
SCREEN_ONLY = re.compile(
    r"{% block (title|toolbar|body_class|stylesheets) %}.*?{% endblock %}|<div class=\"[^\"]*\bno-print\b[^\"]*\".*?</div>",
    re.S,
)


def words(template: str) -> list[str]:
    """What a template says itself: its gettext calls and the words between its tags, outside Jinja."""
    text = re.sub(r"{#.*?#}", " ", SCREEN_ONLY.sub(" ", template), flags=re.S)
    calls = re.findall(r"\b(?:_|gettext|ngettext)\(\s*['\"][^'\"]*['\"]", text)
    bare = re.sub(r"{[{%].*?[%}]}", " ", text, flags=re.S)
    bare = re.sub(r"&\w+;", " ", re.sub(r"<[^>]*>", " ", bare))
    return calls + [w for w in bare.split() if re.search(r"[^\W\d_]", w)]


@pytest.mark.parametrize("name", PAPER)
def test_a_paper_template_holds_layout_not_words(name):
    assert words((PRINT / name).read_text(encoding="utf-8")) == []


def test_the_check_sees_a_word():
    assert words('<p class="x">{{ _("Settlement") }}</p>') == ['_("Settlement"']
    assert words("<h2>Tariff <small>{{ note }}</small></h2>") == ["Tariff"]
    assert words('{% block title %}{{ _("Print") }}{% endblock %}<p>{{ b.text }}</p>') == []


DANISH = ("selvmakker", "vip, gode", "sol player", "gå med")
SHARED_PAPER = [
    "scorekeeper/games/document.py",
    "scorekeeper/games/paper.py",
    "scorekeeper/clubs/document.py",
    "scorekeeper/drives/document.py",
    "templates/print/blocks.html",
]


@pytest.mark.parametrize("path", SHARED_PAPER)
def test_the_shared_paper_says_no_variants_words(path):
    text = (ROOT / path).read_text(encoding="utf-8").casefold()
    assert [w for w in DANISH if w in text] == []
