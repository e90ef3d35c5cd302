"""A club's members: added, renamed, retired."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from scorekeeper.clubs.service.club import get_club
from scorekeeper.clubs.service.common import ClubNotFound
from scorekeeper.core import InputError, check_name
from scorekeeper.core.messages import message_of
from scorekeeper.storage import store, writing

# ---------------------------------------------------------------- members


def members(db, club_id: str) -> dict[int, store.MemberRecord]:
    return {m.id: m for m in store.club_members(db, club_id)}


def _member_name(db, club_id: str, name: Any, member_id: int | None = None) -> str:
    try:
        name = check_name(name, _("the name"))
    except ValueError as exc:
        raise InputError({"name": message_of(exc)}) from None
    for other in store.club_members(db, club_id):
        if other.id != member_id and other.name.casefold() == name.casefold():
            raise InputError({"name": _("the club already has a member called %(name)s", name=other.name)})
    return name


def add_member(db, club_id: str, name: Any) -> int:
    get_club(db, club_id)
    with writing(db):
        return store.insert_member(db, club_id, _member_name(db, club_id, name))


def add_members(db, club_id: str, names: list[Any]) -> list[int]:
    """Several members at once, all or none: each name checked, a name twice in the list refused by name."""
    get_club(db, club_id)
    errors: dict = {}
    checked: list[str] = []
    with writing(db):
        for i, name in enumerate(names):
            try:
                name = _member_name(db, club_id, name)
            except InputError as exc:
                errors[f"names.{i}"] = exc.errors["name"]
                continue
            twice = next((other for other in checked if other.casefold() == name.casefold()), None)
            if twice is not None:
                errors[f"names.{i}"] = _("%(name)s is in the list twice", name=twice)
            checked.append(name)
        if not names:
            errors["names"] = _("Enter a name.")
        if errors:
            raise InputError(errors)
        return [store.insert_member(db, club_id, name) for name in checked]


def _member(db, club_id: str, member_id: int) -> store.MemberRecord:
    found = members(db, club_id).get(member_id)
    if found is None:
        raise ClubNotFound("member")
    return found


def rename_member(db, club_id: str, member_id: int, name: Any) -> None:
    """A new name for a member; their old results follow them (tables keep member ids), and so do the score sheets
    of the tables they played."""
    with writing(db):
        _member(db, club_id, member_id)
        store.rename_member(db, club_id, member_id, _member_name(db, club_id, name, member_id))


def set_retired(db, club_id: str, member_id: int, retired: bool) -> None:
    """A retired member keeps their old results but is no longer offered for new tables."""
    with writing(db):
        _member(db, club_id, member_id)
        store.retire_member(db, club_id, member_id, retired)
