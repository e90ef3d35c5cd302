"""Whist drives: many tables play the same numbered hands at once, players move after each hand by the drive's
movement, and each player (or pair) adds up the tricks their partnership took. Pure: the setup, the seating of every
hand, the standings and the prizes are replayed from what was entered (the tables' results, the seating of a hand
that was kept as played, the draws the app made), so nothing derived is ever stored.

The people. A progressive drive seats 2 ladies and 2 gents a table; a drive whose people do not fill whole tables
has *empty seats* (the last ones, by the lists' order) that move by the movement as a player would. A table with one
empty seat plays with a dummy (the empty seat's cards are laid open and played by its partner: dummy whist); a table
with two or more does not play that hand and each player there *sits out*, scoring the drive's `sit_out` tricks. A
substitute takes a player's seat from a hand on: the seat moves on as before, and the tricks of each hand stay with
whoever played it.

The parts, by job: model, setup, movement, standings, results, prizes."""

from scorekeeper.drives.rules.model import (
    DEFAULT_HANDS,
    DEFAULT_SIT_OUT,
    DEFAULT_TRUMPS,
    FIELDS,
    FORMATS,
    MAX_HANDS,
    MAX_PLACE,
    MAX_PRIZES,
    MAX_SUBSTITUTES,
    MAX_TABLES,
    MAX_TRUMPS,
    MOVEMENTS,
    SIT_OUT_AVERAGE,
    TIE_BREAKS,
    TRICKS,
    WINNING_TRICKS,
    Drive,
    DriveSetup,
    OutOfTurn,
    Partnership,
    Person,
    Round,
    Seating,
    SeatingChanged,
    Standing,
    TableHand,
)
from scorekeeper.drives.rules.movement import down, first_seating, fresh_seating, gent_step, next_seating, plays, up
from scorekeeper.drives.rules.prizes import (
    LEGACY_PRIZES,
    PRIZE_KINDS,
    PRIZE_ROLES,
    PRIZE_TIES,
    Award,
    PrizeRule,
    award,
    check_prize,
)
from scorekeeper.drives.rules.results import (
    SEATS,
    Change,
    accept,
    changes,
    check_seating,
    check_table,
    check_tricks,
    correct,
    enter,
    play,
    positions,
    seated_names,
)
from scorekeeper.drives.rules.setup import kept_name, make_drive, rename, substitute
from scorekeeper.drives.rules.standings import OUT, countback_reason, rank_key, standings

__all__ = [
    "DEFAULT_HANDS",
    "DEFAULT_SIT_OUT",
    "DEFAULT_TRUMPS",
    "Drive",
    "DriveSetup",
    "FIELDS",
    "FORMATS",
    "MAX_HANDS",
    "MAX_PLACE",
    "MAX_PRIZES",
    "MAX_SUBSTITUTES",
    "MAX_TABLES",
    "MAX_TRUMPS",
    "MOVEMENTS",
    "OutOfTurn",
    "Partnership",
    "Person",
    "Round",
    "SIT_OUT_AVERAGE",
    "Seating",
    "SeatingChanged",
    "Standing",
    "TIE_BREAKS",
    "TRICKS",
    "TableHand",
    "WINNING_TRICKS",
    "kept_name",
    "make_drive",
    "rename",
    "substitute",
    "down",
    "first_seating",
    "fresh_seating",
    "gent_step",
    "next_seating",
    "plays",
    "up",
    "OUT",
    "countback_reason",
    "rank_key",
    "standings",
    "Change",
    "SEATS",
    "accept",
    "changes",
    "check_seating",
    "check_table",
    "check_tricks",
    "correct",
    "enter",
    "play",
    "positions",
    "seated_names",
    "Award",
    "LEGACY_PRIZES",
    "PRIZE_KINDS",
    "PRIZE_ROLES",
    "PRIZE_TIES",
    "PrizeRule",
    "award",
    "check_prize",
]
