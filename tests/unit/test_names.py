"""Names and titles (core check_name) with what real names and emoji need (issue 22, finding 11): a zero width
joiner inside an emoji sequence (👩‍👩‍👧) or a script, a variation selector, a flag's tags are part of a name; control,
bidi and stray invisible characters are not."""

import pytest

from scorekeeper.core import check_name


@pytest.mark.parametrize(
    "name",
    [
        "👩\u200d👩\u200d👧",  # family: woman, woman, girl (ZWJ sequence)
        "Bo 👨\u200d💻",
        "❤\ufe0f\u200d🔥",  # a variation selector, then a joiner
        "Åsa ☕\ufe0f",
        "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # the flag of Scotland: tag characters
        "می\u200cخواهم",  # Persian with a zero width non-joiner
    ],
)
def test_names_with_emoji_sequences_and_joiners_are_names(name):
    assert check_name(name, "the name") == name


@pytest.mark.parametrize(
    "name",
    [
        "Bo\x07",
        "Bo\x00",
        "Bo\x1b[31m",
        "Bo\u202e",  # right-to-left override
        "Bo\u2066x",  # left-to-right isolate
        "Bo\u200e",  # left-to-right mark
        "Bo\u00ad",  # soft hyphen
        "Bo\ufeff",
        "Bo\ue000",  # private use
        "Bo\u200d",  # a joiner joining nothing
        "\u200dBo",
        "B\u200do",  # between ASCII letters: "Bo" twice, looking the same
        "👩\u200d\u200d👩",
        "Bo\U000e0067",  # a tag without its flag
    ],
)
def test_control_bidi_and_stray_format_characters_stay_refused(name):
    with pytest.raises(ValueError) as exc:
        check_name(name, "the name")
    assert "control characters" in str(exc.value)


def test_a_game_a_club_member_and_a_drive_take_such_a_name():
    from scorekeeper.core import make_setup
    from scorekeeper.drives.rules import make_drive

    assert make_setup("german", ["👩\u200d👩\u200d👧", "Bo"]).players[0] == "👩\u200d👩\u200d👧"
    drive = make_drive({"format": "progressive", "ladies": ["👩\u200d🦰 Ann", "B", "C", "D"], "gents": list("EFGH")})
    assert drive.ladies[0] == "👩\u200d🦰 Ann"
