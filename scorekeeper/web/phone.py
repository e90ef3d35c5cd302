"""What this phone remembers in its session: the games it opened and their edit keys, the clubs it opened, and the
clubs whose admin is logged in on it. The one place that knows the session's keys, and the device cookie's."""

from __future__ import annotations

import secrets

from flask import current_app, request, session
from itsdangerous import BadSignature, URLSafeSerializer

RECENT_GAMES = 30
RECENT_CLUBS = 20


# ---------------------------------------------------------------- games and their edit keys


def recent_games() -> list[str]:
    """The games opened on this phone, the latest first."""
    return list(session.get("recent", []))


def game_keys() -> dict[str, str]:
    """The edit key of each recent game this phone may change."""
    return dict(session.get("keys", {}))


def game_key(game_id: str) -> str | None:
    return game_keys().get(game_id)


def remember_game(game_id: str, key: str | None = None) -> None:
    """Put the game first among the recent ones, with its edit key if one is given; keys of forgotten games go."""
    recent = [g for g in session.get("recent", []) if g != game_id]
    session["recent"] = ([game_id] + recent)[:RECENT_GAMES]
    if key:
        keys = game_keys()
        keys[game_id] = key
        session["keys"] = {g: k for g, k in keys.items() if g in session["recent"]}


def played_again(game_id: str, version: int) -> str | None:
    """The game this phone started with "Play again" from this game as it stood at `version`, if it did."""
    done = session.get("again", {}).get(game_id)
    return done[1] if done and done[0] == version else None


def remember_played_again(game_id: str, version: int, new_id: str) -> None:
    """So that a second tap on "Play again" (or Back and a tap) opens the game the first one started."""
    again = {g: v for g, v in session.get("again", {}).items() if g in session.get("recent", [])}
    again[game_id] = (version, new_id)
    session["again"] = again


# ---------------------------------------------------------------- clubs and their admin


def recent_clubs() -> list[str]:
    """The clubs opened on this phone, the latest first."""
    return list(session.get("club_recent", []))


def remember_club(club_id: str) -> None:
    recent = [c for c in session.get("club_recent", []) if c != club_id]
    session["club_recent"] = ([club_id] + recent)[:RECENT_CLUBS]


def admin_token(club_id: str) -> str | None:
    """The token this phone got when the club's admin logged in on it, if any."""
    return session.get("club_admin", {}).get(club_id)


def log_in(club_id: str, token: str) -> None:
    """The club's admin is logged in on this phone, and the club is among its recent ones."""
    admins = dict(session.get("club_admin", {}))
    admins[club_id] = token
    session["club_admin"] = admins
    remember_club(club_id)


def log_out(club_id: str) -> None:
    admins = dict(session.get("club_admin", {}))
    admins.pop(club_id, None)
    session["club_admin"] = admins


# ---------------------------------------------------------------- whist drives and their edit keys

RECENT_DRIVES = 10


def recent_drives() -> list[str]:
    """The drives opened on this phone, the latest first."""
    return list(session.get("drive_recent", []))


def drive_key(drive_id: str) -> str | None:
    """The edit key of a drive this phone organises, if it holds one."""
    return session.get("drive_keys", {}).get(drive_id)


def remember_drive(drive_id: str, key: str | None = None) -> None:
    """Put the drive first among the recent ones, with its edit key if one is given; keys of forgotten drives go."""
    recent = [d for d in session.get("drive_recent", []) if d != drive_id]
    session["drive_recent"] = ([drive_id] + recent)[:RECENT_DRIVES]
    keys = dict(session.get("drive_keys", {}))
    if key:
        keys[drive_id] = key
    session["drive_keys"] = {d: k for d, k in keys.items() if d in session["drive_recent"]}


def forget_drive(drive_id: str) -> None:
    """A deleted drive leaves this phone's list and its key."""
    session["drive_recent"] = [d for d in session.get("drive_recent", []) if d != drive_id]
    session["drive_keys"] = {d: k for d, k in session.get("drive_keys", {}).items() if d != drive_id}


# ---------------------------------------------------------------- the device cookie (issue 34, F-A2)
# A phone that has logged in to a club keeps, beyond logging out, a signed cookie that says so (OWASP's "device
# cookie"): its wrong passwords are counted on their own, so a stranger behind the same address, whose wrong passwords
# lock that address for unknown phones, never locks it out (clubs/service.throttle_keys).

DEVICE_COOKIE = "scorekeeper_device"
DEVICE_MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie


def _devices() -> URLSafeSerializer:
    key = current_app.secret_key
    assert key is not None  # create_app always sets SECRET_KEY (made on first start)
    return URLSafeSerializer(key, salt="scorekeeper.device")


def _device() -> dict | None:
    try:
        data = _devices().loads(request.cookies.get(DEVICE_COOKIE, ""))
    except BadSignature:
        return None
    if isinstance(data, dict) and isinstance(data.get("id"), str) and isinstance(data.get("clubs"), list):
        return data
    return None


def trusted_device(club_id: str) -> str | None:
    """This phone's device id if its cookie (signed: no one makes one without the secret key) says it has logged in
    to the club before."""
    data = _device()
    return data["id"] if data is not None and club_id in data["clubs"] else None


def trust_device(response, club_id: str) -> None:
    """Set the cookie that says this phone has logged in to the club (after the right password)."""
    data = _device() or {"id": secrets.token_urlsafe(12), "clubs": []}
    clubs = [club_id] + [c for c in data["clubs"] if c != club_id][: RECENT_CLUBS - 1]
    response.set_cookie(
        DEVICE_COOKIE,
        _devices().dumps({"id": data["id"], "clubs": clubs}),
        max_age=DEVICE_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
