"""Issue 44, the players' own words: the native review of the da, nb and sv catalogues (../shared/language-review.md)
found the Swedish rules calling the dealer "given" (the deal) and a hint naming a label the form does not have, and
Danish and Norwegian words used two ways on the hand's screens. Its High and Medium findings stay fixed: a handful of
msgids per finding with the reviewed msgstr, a few properties over the whole catalogue, and the Jernhånd hint naming
the label the hand form shows, in every language."""

import re
from html import unescape

import pytest
from catalogues import merged

PLAYERS = ["Anna", "Bo", "Carl", "Dina"]

# Every catalogue the app ships, merged: the shared one and each built-in variant's (tests/catalogues.py).
CATALOGUES = {lang: merged(lang) for lang in ("da", "nb", "sv")}

REVIEWED = {
    "da": {
        # Medium: one *kalder* an ace, and *es* is neuter
        "a %(bid)s calls no ace: leave it out": "en %(bid)s kalder intet es: udelad det",
        # Medium: *melding*, not *bud*, on the bidding screens (Plump's own strings may keep *bud*)
        "Change the bids": "Ret meldingerne",
        "Save the bids": "Gem meldingerne",
        "Clear the bids": "Slet meldingerne",
        "Enter the bids first": "Indtast meldingerne først",
        "Bids, hand %(n)d": "Meldinger, spil %(n)d",
        # Medium: a game is a *parti*, a hand a *spil*
        "Game": "Parti",
        "Start a game with this card": "Start et parti med dette kort",
        "A new game with the same players and house rules; this one stays as it is.": (
            "Et nyt parti med de samme spillere og husregler; dette parti forbliver, som det er."
        ),
        "End the game after this many deals, or none (each deal is settled on its own).": (
            "Slut partiet efter så mange spil, eller ingen grænse (hvert spil afregnes for sig)."
        ),
        "this game's bids are not entered before the deal is played": (
            "i dette parti indtastes meldingerne først, når spillet er spillet"
        ),
        "wins the game at once": "vinder partiet med det samme",
        # Medium: the stake is not the card's grundtakst
        "Money per point (the stake: what one point of the card is worth)": (
            "Penge pr. point (indsatsen: hvad ét point på kortet er værd)"
        ),
    },
    "nb": {
        # Medium: *omgang* is a half of the evening; deals are *giv*
        "Deals": "Antall giv",
        "Fixed number of deals": "Fast antall giv",
        ("%(num)d deal left", "%(num)d deals left"): ("%(num)d giv igjen", "%(num)d giv igjen"),
        "Half %(n)d": "%(n)d. omgang",
        # Medium: *honnører*, not the non-word *trumfærer*
        "Honours (A K Q J of trump): %(first)s – %(second)s": "Honnører (E K D Kn i trumf): %(first)s – %(second)s",
        "Score honours: all four trump honours 4, three of them 2.": (
            "Tell honnører: alle fire trumfhonnører 4, tre av dem 2."
        ),
        # Medium: one noun (*spill*) and one verb (*Før inn*) on the hand form
        "Enter hand %(n)d": "Før inn spill %(n)d",
        "Enter the tricks of hand %(n)d": "Før inn stikkene i spill %(n)d",
        "Bids, hand %(n)d": "Bud, spill %(n)d",
        "Hand %(n)d is being played: the bids are in.": "Spill %(n)d spilles nå: budene er ført inn.",
        # Medium: a game is a *parti*
        "Game": "Parti",
        "Start a game with this card": "Start et parti med dette kortet",
        "Points that win the game; a side at minus this many loses it (11 and 21 are common).": (
            "Poeng som vinner partiet; et lag på minus så mange taper det (11 og 21 er vanlige)."
        ),
        # Medium: the dealer's label is a noun
        "Deals:": "Giver:",
    },
    "sv": {
        # High: the dealer is *givaren*; *given* is the deal
        "the dealer sits out this hand and cannot play a sol": "givaren står över den här given och kan inte spela sol",
        "the dealer sits out this hand and holds no cards": "givaren står över den här given och har inga kort",
        "the grand bidder's right; all passed: the dealer's left": (
            "till höger om grandspelföraren; alla passade: till vänster om givaren"
        ),
        "the grand bidder's left; all passed: the dealer's right; nullo may be bid": (
            "till vänster om grandspelföraren; alla passade: till höger om givaren; nullo får bjudas"
        ),
        # High: the hint names the label the form shows ("Bidder" is "Spelförare")
        "Jernhånd: a new deal (tap the player under Bidder first)": (
            "Järnhand: ny giv (tryck först på spelaren under Spelförare)"
        ),
        "Bidder": "Spelförare",
        # Medium: one word for the bidder
        "Most bids made as bidder": "Flest vunna bud som spelförare",
        # Medium: the plural of *giv* is *givar*
        (
            "Hand %(hands)s has been played since: it keeps the seating it was played in.",
            "Hands %(hands)s have been played since: they keep the seating they were played in.",
        ): (
            "Giv %(hands)s har spelats sedan dess: den behåller placeringen den spelades med.",
            "Givarna %(hands)s har spelats sedan dess: de behåller placeringen de spelades med.",
        ),
        # Medium: *överstick*, as "Overtricks" is
        "Each trick over": "Varje överstick",
        "Overtricks": "Överstick",
        # Medium: a game is a *parti*, a hand a *giv*
        "Game": "Parti",
        "A new game with the same players and house rules; this one stays as it is.": (
            "Ett nytt parti med samma spelare och husregler; det här partiet förblir som det är."
        ),
        "End the evening after this many hands, or none (a multiple of the players lets all deal equally often).": (
            "Avsluta kvällen efter så många givar, eller ingen gräns (en multipel av spelarna låter alla ge lika ofta)."
        ),
    },
}


@pytest.mark.parametrize(
    "lang, msgid", [(lang, msgid) for lang, entries in REVIEWED.items() for msgid in entries], ids=repr
)
def test_the_reviewed_word_is_in_the_catalogue(lang, msgid):
    assert CATALOGUES[lang].get(msgid) == REVIEWED[lang][msgid]


def test_no_swedish_rule_calls_the_dealer_the_deal():
    """Wherever the English says "dealer", the Swedish says givaren (a JSON field name is left as it is)."""
    wrong = {
        msgid: msgstr
        for msgid, msgstr in CATALOGUES["sv"].items()
        if isinstance(msgid, str) and re.search(r"\bdealer", msgid) and msgstr and "givar" not in msgstr.lower()
        if "dealer" not in msgstr
    }
    assert not wrong


@pytest.mark.parametrize(
    "lang, words",
    [
        ("sv", ("budgivar", "bjudaren", "övertrick", "nollo")),  # the bidder has one name; överstick; nullo
        ("nb", ("trumfær", "ærespoeng", "bom-bud")),
    ],
)
def test_the_words_the_review_took_out_are_gone(lang, words):
    found = {
        msgid: msgstr
        for msgid, msgstr in CATALOGUES[lang].items()
        for text in (msgstr if isinstance(msgstr, tuple) else (msgstr,))
        if any(word in (text or "").lower() for word in words)
    }
    assert not found


def test_norwegian_omgang_is_a_half_of_the_evening_never_a_deal():
    deals = {
        msgid: msgstr
        for msgid, msgstr in CATALOGUES["nb"].items()
        for text in (msgstr if isinstance(msgstr, tuple) else (msgstr,))
        if "omgang" in (text or "").lower()
        if not re.search(r"\bhalf|\bhalves|\bround|in turn", msgid if isinstance(msgid, str) else msgid[0], re.I)
    }
    assert not deals


@pytest.mark.parametrize("lang", ["da", "nb", "sv", "en"])
def test_the_jernhaand_hint_names_a_label_the_hand_form_shows(client, lang):
    """High (sv): "tap the player under Budgivare" named a heading the form does not have. On the hand form of a
    game played with jernhånd, the hint's label is one of the form's headings, in every language."""
    r = client.post("/api/games", json={"variant": "danish", "players": PLAYERS, "options": {"iron_hand": True}})
    assert r.status_code == 201, r.json
    game = r.json
    client.get(game["edit_page"])
    client.get(f"/lang/{lang}")
    html = client.get(f"/g/{game['id']}/hands/new").get_data(as_text=True)
    hint = unescape(re.search(r'<button[^>]*id="iron-hand"[^>]*>(.*?)</button>', html, re.S).group(1))
    label = re.search(r"\S+(?=\)$)", hint.strip()).group(0)  # "(… under Spelförare)" / "(… under Bidder first)"
    if lang == "en":
        label = re.search(r"under (\w+) first\)$", hint.strip()).group(1)
    headings = [unescape(re.sub(r"<[^>]+>", "", h)).strip() for h in re.findall(r'<h2 class="q">(.*?)</h2>', html)]
    assert label in headings, (hint, headings)
