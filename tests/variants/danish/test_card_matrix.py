"""The card as a matrix on the page (issue 44, variants/danish/card_fields.py): a block of rows pasted from the club's
spreadsheet read into the squares (tabs or semicolons, decimal commas, ¾, "1 1/4", a real minus, the reader's thousands
separators; every refusal naming its line, row and tricks), the squares as RULES.md's `cells`, a card opened as it is
and saved untouched unchanged, square by square — the largest card too — and a sol bid's own gå med rule."""

from fractions import Fraction

import pytest

from scorekeeper.core.messages import OptionError
from scorekeeper.core.numbers import NumberError
from scorekeeper.variants.danish import card_fields as cf
from scorekeeper.variants.danish import house as model
from scorekeeper.variants.danish import rules as danish
from scorekeeper.variants.danish.card import CardEditor
from scorekeeper.web.i18n import say
from variants.danish import largest_card, squares
from variants.danish.matrix_cards import CARDS, FIVES, QUARTERS, names

SUFFIXES = model.SUFFIX_NAMES


@pytest.fixture
def da(app):
    with app.test_request_context("/?lang=da"):
        yield


@pytest.fixture
def en(app):
    with app.test_request_context("/?lang=en"):
        yield


def with_columns(columns, texts=None) -> dict:
    """The card's fields (the standard card's, or `texts`) with its columns set: (heading, suffix) each."""
    texts = dict(texts if texts is not None else CardEditor().blank({}).texts)
    texts[cf.name("columns")] = str(len(columns))
    for i, (heading, suffix) in enumerate(columns):
        texts[cf.name("col", i, "heading")] = heading
        for s in SUFFIXES:
            texts[cf.name("col", i, s)] = "y" if s == suffix else ""
        for n in range(7, 14):  # a new column's values: the first column's, until the test says otherwise
            texts[cf.name("cell", n, i)] = texts[cf.name("cell", n, i)] or texts[cf.name("cell", n, 0)]
    return texts


SMALL = (("", "plain"), ("gode", "gode"), ("3 vip", "vip3"))


def rows(columns=SMALL):
    return cf.card_rows(with_columns(columns))


def line(name, values, sep="\t"):
    return sep.join([name, *map(str, values)])


ROW = [-2, -2, -1, -1, -1, -1, -1, -1, 0, 1, 1, 2, 2, 3]  # an 8 row: lost by 8 … made with 5 over
ROW7 = [-2, -2, -1, -1, -1, -1, -1, 0, 1, 1, 2, 2, 3, 3]  # a 7 row


def read(text, columns=SMALL, group="."):
    return cf.read_paste(text, rows(columns), group)


# ---------------------------------------------------------------- the paste reader


def test_a_block_copied_from_excel_tabs_and_a_header_row(da):
    text = "Stik\t" + "\t".join(map(str, range(14))) + "\r\n" + line("8 gode", ROW) + "\r\n" + line("8", ROW) + "\r\n"
    found, problems = read(text)
    assert problems == []
    assert [found[(8, "gode", t)] for t in range(14)] == [str(v).replace("-", "−") for v in ROW]
    assert {(n, s) for n, s, _t in found} == {(8, "gode"), (8, "plain")}


def test_a_csv_row_semicolons_and_decimal_commas(da):
    values = ["-1,5", "-1,25", "−0,5", "0,25"] + ["-1"] * 5 + ["0,75", "1,25", "1,5", "2,5", "3"]
    found, problems = read(line("9 3 vip", values, ";"))
    assert problems == []
    written = [found[(9, "vip3", t)] for t in (0, 1, 2, 3, 9, 10, 11, 12, 13)]
    assert written == ["−1,5", "−1,25", "−0,5", "−0,25", "0,75", "1,25", "1,5", "2,5", "3"]  # a lost one with its minus
    assert [cf.square_value(w) for w in written[4:]] == [
        Fraction(3, 4),
        Fraction(5, 4),
        Fraction(3, 2),
        Fraction(5, 2),
        3,
    ]


@pytest.mark.parametrize(
    "written, value",
    [
        ("¾", Fraction(3, 4)),
        ("1 1/4", Fraction(5, 4)),
        ("1¼", Fraction(5, 4)),
        ("−2", Fraction(-2)),  # the real minus a card prints
        ("–2", Fraction(-2)),  # an en dash, as a word processor makes one
        ("-1 1/4", Fraction(-5, 4)),
        ("3/4", Fraction(3, 4)),
        ("0.75", Fraction(3, 4)),
        ("0,75", Fraction(3, 4)),
        ('"12"', Fraction(12)),  # a CSV file's quotes
        ("−33.280", Fraction(-33280)),  # Danish thousands
        ("1.280,5", Fraction(2561, 2)),
    ],
)
def test_every_way_a_card_writes_a_number(da, written, value):
    found, problems = read(line("7", [written] + ["0"] * 13, ";"))  # a lost square: its size either way
    assert problems == []
    assert abs(cf.square_value(found[(7, "plain", 0)])) == abs(value)


@pytest.mark.parametrize(
    "text, group, value",
    [("1,280", ",", 1280), ("0,75", ",", Fraction(3, 4)), ("1 280", "\u00a0", 1280), ("1.280", ".", 1280)],
)
def test_the_readers_thousands_separator(text, group, value):
    assert cf.square_value(text, "", group) == value


@pytest.mark.parametrize("text", ["x", "1 5/4", "1/0", "1,2,3", "9" * 40, "2 3", "--2"])
def test_a_square_that_is_no_number_is_refused_naming_it(text):
    with pytest.raises((NumberError, OptionError)) as caught:
        cf.square_value(text, "card.sq.8.gode.10")
    assert caught.value.path == "card.sq.8.gode.10"


def test_a_row_the_card_does_not_have_is_named(da):
    found, problems = read(line("8 gode", ROW) + "\n" + line("7 4 vip", ROW) + "\n")
    assert found == {}  # nothing read while a row is wrong: the squares stay as they were
    assert len(problems) == 1 and problems[0].values["row"] == "7 4 vip" and problems[0].values["line"] == 2


def test_a_square_that_is_no_number_is_named_by_its_row_and_tricks(da):
    found, problems = read(line("8 gode", ROW[:10] + ["x"] + ROW[11:]))
    assert found == {} and len(problems) == 1
    words = say(problems[0])
    assert "8 gode" in words and "10 stik" in words and "“x”" in words


@pytest.mark.parametrize(
    "text, what",
    [
        (line("8", ROW[:13]), "got"),  # a square short
        (line("8", ROW + [4]), "got"),  # one too many
        (line("8", ROW) + "\n" + line("8", ROW), "first"),  # twice
        (line("8", ROW[:12] + [-1, 3]), "where"),  # a made bid below 0
        ("8 1 2 3", "line"),  # no tabs or semicolons
        ("\n\n", None),  # nothing
    ],
)
def test_each_problem_names_what(da, text, what):
    found, problems = read(text)
    assert found == {} and len(problems) == 1
    if what:
        assert what in problems[0].values


def test_the_rows_answer_to_the_clubs_names_and_the_apps(da):
    """ "7 3 vip" as the card names it, "7 vip 3" as the app does, "7 vip3"; the plain bid as "7" or "7 almindelig";
    case, spaces and a last full stop do not matter."""
    for name in ("7 3 vip", "7 VIP 3", "7  vip3", "7 3 vip."):
        found, problems = read(line(name, ROW7))
        assert problems == [] and (7, "vip3", 0) in found, name
    for name in ("7", "7 almindelig", "7 plain"):
        found, problems = read(line(name, ROW7))
        assert problems == [] and (7, "plain", 0) in found, name


def test_an_empty_cell_is_an_empty_square_and_trailing_empty_cells_are_no_squares(da):
    found, problems = read(line("8", ROW[:3] + [""] + ROW[4:] + ["", ""]))
    assert problems == [] and found[(8, "plain", 3)] == "" and found[(8, "plain", 4)] == "−1"


def test_too_long_a_paste_is_refused_in_words_never_cut(da):
    texts = with_columns(SMALL)
    texts[cf.PASTE] = (line("8", ROW) + "\n") * 1000
    posted = cf.typed(texts)
    assert len(posted[cf.PASTE]) == cf.PASTE_MAX + 1
    house, _names, errors = cf.house_of(posted)
    assert house is None and "32768" in say(errors[cf.PASTE])


# ---------------------------------------------------------------- the squares as the card's cells


def card_texts(card) -> dict:
    texts = with_columns(card.columns)
    for bid, (won, lost) in card.sol.items():
        texts[cf.name("sol", bid, "won")], texts[cf.name("sol", bid, "lost")] = str(won), str(lost)
        texts[cf.name("sol", bid, "gaa_med")] = card.sol_gaa_med.get(bid, "")
    texts[cf.name("gaa_med")] = card.gaa_med
    return texts


def wrong_squares(house_dict, card):
    scored = model.parse(house_dict)
    return [key for key, value in card.squares.items() if scored.trick_value(*key) != value]


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_a_pasted_card_is_every_square_and_opens_again_as_it_is(da, card):
    texts = card_texts(card)
    texts[cf.PASTE] = card.paste(";", minus="−")
    house, card_names, errors = cf.house_of(texts)
    assert errors == {}
    assert wrong_squares(house, card) == [] and len(house["cells"]) == 588
    assert texts[cf.PASTE] == "" and cf.squares_notice(texts).startswith("42")
    assert model.own_gaa_med(house, "sol") == card.sol_gaa_med.get("sol", model.HOUSE_RULE)
    # Opened again: every square in its field, the grid's values from the matrix; saved untouched: the same house.
    opened = cf.texts_of(house, card_names)
    assert opened[cf.square_name(13, card.columns[-1][1], 0)] == cf.square_text(
        card.squares[(13, card.columns[-1][1], 0)]
    )
    again, again_names, errors = cf.house_of(cf.typed(opened))
    assert errors == {} and again == house and again_names == card_names


def test_the_largest_card_opens_as_it_is_and_saved_untouched_keeps_every_square(da):
    """784 squares of their own, exact points, an override for every bid and suffix, slam factors: the grid cannot show
    it, so every square opens in the matrix (with a sentence saying so), and the page saves every square as it was."""
    card = largest_card()
    state = CardEditor().blank(card)
    assert state.texts[cf.INEXACT] == "y"
    view = cf.matrix_view(state.texts, {})
    assert view["own"] == 784 and view["open"] and "kan ikke vise" in view["note"]
    again = CardEditor().read(cf.typed(state.texts) | {cf.MARK: "1"})
    assert again.errors == {}
    before = squares(state.options)
    after = squares(again.options)
    assert [k for k in before if before[k] != after[k]] == []
    assert again.options["house"]["cells"] == model.check_house(card["house"])["cells"]


def test_a_square_touched_changes_that_square_alone(da):
    texts = card_texts(FIVES)
    texts[cf.PASTE] = FIVES.paste()
    house, card_names, _errors = cf.house_of(texts)
    opened = cf.typed(cf.texts_of(house, card_names))
    opened[cf.square_name(10, "gode", 12)] = "1.000"  # a thousand, in Danish
    changed, _names, errors = cf.house_of(opened)
    assert errors == {}
    before, after = model.parse(house), model.parse(changed)
    differ = [k for k in FIVES.squares if before.trick_value(*k) != after.trick_value(*k)]
    assert differ == [(10, "gode", 12)] and after.trick_value(10, "gode", 12) == 1000


def test_a_lost_square_may_be_written_without_its_minus_a_made_one_never_below_zero(da):
    texts = with_columns(SMALL)
    texts[cf.square_name(8, "gode", 5)] = "7"  # lost by 3: bidder and partner each pay 7
    texts[cf.square_name(8, "gode", 9)] = "0"  # made with 1 over, worth nothing: still made
    house, _names, errors = cf.house_of(texts)
    assert errors == {}
    scored = model.parse(house)
    assert scored.trick_value(8, "gode", 5) == -7 and scored.trick_value(8, "gode", 9) == 0
    assert house["cells"] == {"8/gode/-3": 7, "8/gode/+1": 0}
    texts[cf.square_name(8, "gode", 9)] = "−2"
    house, _names, errors = cf.house_of(texts)
    assert house is None and set(errors) == {cf.square_name(8, "gode", 9)}


def test_a_wrong_paste_leaves_the_squares_as_they_were_and_keeps_the_paste(da):
    texts = card_texts(QUARTERS)
    texts[cf.square_name(8, "plain", 0)] = "−9"
    bad = QUARTERS.paste() + line("7 4 vip", ROW) + "\n"
    texts[cf.PASTE] = bad
    house, _names, errors = cf.house_of(texts)
    assert house is None and set(errors) == {cf.PASTE}
    assert texts[cf.PASTE] == bad and texts[cf.square_name(8, "plain", 0)] == "−9"
    assert "7 4 vip" in say(errors[cf.PASTE])


def test_every_square_from_the_rule_and_every_square_emptied(da):
    texts = CardEditor().blank({}).texts | {cf.SQUARES: "rule"}
    house, _names, errors = cf.house_of(texts)
    assert errors == {} and texts[cf.square_name(13, "halve", 13)] == "1280" and texts[cf.SAID] == "rule"
    assert len(house["cells"]) == 7 * 5 * 14  # the squares are the card's own now
    assert all(model.parse(house).trick_value(*k) == v for k, v in squares_of(danish.preset_house("standard")).items())
    texts[cf.SQUARES] = "clear"
    house, _names, errors = cf.house_of(texts)
    assert errors == {} and house["cells"] == {} and texts[cf.square_name(13, "halve", 13)] == ""
    assert house == danish.preset_house("standard") | {"sol": house["sol"]}


def squares_of(house_dict):
    scored = model.parse(house_dict)
    return {(n, s, t): scored.trick_value(n, s, t) for n in range(7, 14) for s in scored.suffixes for t in range(14)}


def test_a_card_without_squares_of_its_own_opens_with_the_matrix_empty(da):
    texts = CardEditor().blank({}).texts
    assert not any(texts[k] for k in cf.ALL_SQUARES) and texts[cf.INEXACT] == ""
    assert cf.matrix_view(texts, {})["open"] is False


def test_every_square_posted_is_read_no_field_is_cut(da):
    """The hidden field that carried a card's squares was cut at 4096 characters (CELLS_CUT): 588 squares need 8,057.
    Each square is a field of its own now, and all 784 of the largest card are read."""
    texts = with_columns([("", s) for s in SUFFIXES])
    for key in cf.ALL_SQUARES:
        n, s, t = key.split(".")[2:]
        texts[key] = "−1 1/4" if int(t) < int(n) else "999 3/4"
    house, _names, errors = cf.house_of(cf.typed(texts))
    assert errors == {} and len(house["cells"]) == 784
    assert set(house["cells"].values()) == {"5/4", "3999/4"}


def test_a_sol_bids_own_gaa_med_through_the_fields(da):
    texts = CardEditor().blank({}).texts
    texts[cf.name("gaa_med")] = "vs_non_participants"
    texts[cf.name("sol", "sol", "gaa_med")] = "independent"
    texts[cf.name("sol", "ren_bordlaegger", "gaa_med")] = cf.SOL_OWN
    house, _names, errors = cf.house_of(texts)
    assert errors == {}
    assert [model.own_gaa_med(house, b) for b in model.SOL_BIDS] == ["independent", "house", "house", None]
    opened = cf.texts_of(house)
    assert [opened[cf.name("sol", b, "gaa_med")] for b in model.SOL_BIDS] == ["independent", "", "", "none"]


def test_a_square_is_labelled_with_its_row_and_tricks_as_the_card_says_them(da):
    view = cf.matrix_view(with_columns(SMALL), {})
    labels = [sq["label"] for row in view["rows"] for sq in row["squares"]]
    assert "8 gode · 10 stik" in labels and "7 3 vip · 0 stik" in labels and "13 · 13 stik" in labels
    assert [row["label"] for row in view["rows"][:3]] == ["7", "7 gode", "7 3 vip"]


def test_the_buttons_say_the_clubs_names(da):
    card_names = names(QUARTERS)
    assert cf.club_bid_label(7, "vip3", card_names) == "7 3 vip"
    assert cf.club_bid_label(7, "plain", card_names) == "7"
    assert cf.club_bid_label(7, "vip3", None) == "7 vip 3"
    grouped = {"columns": [{"heading": "Påhæng", "suffixes": ["vip", "gode"]}]}
    assert cf.club_bid_label(9, "gode", grouped) == "9 gode"


def test_a_heading_line_of_the_spreadsheet_is_passed_over_a_sol_row_said_to_belong_elsewhere(da):
    text = "Almindelige meldinger\t\t\t\n" + line("8", ROW) + "\n" + line("Bordlægger", [4] * 14) + "\n"
    found, problems = cf.read_paste(text, rows(), ".", {"bordlaegger": "Bordlægger"})
    assert found == {} and len(problems) == 1
    assert problems[0].values["row"] == "Bordlægger" and "sol" in problems[0].template
    found, problems = cf.read_paste(text.rsplit("Bordlægger", 1)[0], rows(), ".")
    assert problems == [] and found[(8, "plain", 13)] == "3"


@pytest.mark.parametrize(
    "fixture, written, value",
    [
        ("da", "1.280", 1280),
        ("da", "1,25", Fraction(5, 4)),
        ("da", "0.75", Fraction(3, 4)),
        ("da", "0.125", Fraction(1, 8)),  # no thousands begin with 0
        ("en", "1,280", 1280),
    ],
)
def test_a_grid_square_reads_the_readers_thousands_as_the_matrix_does(request, fixture, written, value):
    """A doubling tariff's 13 tricks, 1.280 on a Danish card: the grid's square read 1.28 before (a wrong krone, said
    nowhere); it reads what the matrix's squares read, the reader's thousands separator, and keeps 0,75 and 0.75."""
    request.getfixturevalue(fixture)
    texts = with_columns(SMALL)
    texts[cf.name("cell", 13, 0)] = written
    house, _names, errors = cf.house_of(texts)
    assert errors == {}
    grid, _exact = model_grid_of(house)
    assert grid.values[13][0] == value


def model_grid_of(house):
    from scorekeeper.variants.danish import grid as danish_grid

    return danish_grid.grid_of(house, None)
