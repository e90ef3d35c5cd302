"""Houses that try to pass the bounds of exact points (issue 43, docs/operations.md "Input bounds"): many large
distinct prime denominators, as a stranger would send them."""

from functools import cache

from scorekeeper.variants.danish import house as model

BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53)


def is_prime(n: int) -> bool:
    """Miller–Rabin with the first 16 primes as bases: certain for every n below 3.3 × 10**24, and for the 30-digit
    numbers here wrong with a chance far below 4**-16."""
    if any(n % p == 0 for p in BASES):
        return n in BASES
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@cache
def primes(count: int, start: int = 10**29) -> tuple[int, ...]:
    """The first `count` primes from `start` on (kept: 224 of 30 digits take a second to find)."""
    out, n = [], start
    while len(out) < count:
        if is_prime(n):
            out.append(n)
        n += 1
    return tuple(out)


def hostile_house() -> dict:
    """Exact points and a different prime of 30 digits under every number of every bid: levels 7 to 13 take the first
    28 primes (made, over, lost, short each), then the overrides 7/vip, 7/gode … 13/staerke four each. Issue 43: hand
    79 of such a game made a total of more than 4,300 digits, and every page, answer and paper of the game a 500."""
    below = iter(primes(4 * 7 * 8))

    def level() -> dict:
        return {f: f"1/{next(below)}" for f in model.LEVEL_FIELDS}

    return {
        "rounding": "none",
        "suffixes": {s: {"base": 1, "trick": 1} for s in model.SUFFIX_NAMES},
        "levels": {n: level() for n in model.LEVELS},
        "overrides": {f"{n}/{s}": level() for n in model.LEVELS for s in model.SUFFIX_NAMES[1:]},
    }


SUFFIX_TRUMP = {"gode": "clubs", "sans": "none", "staerke": "spades"}


def hostile_hands(count: int) -> list[dict]:
    """Hands that each bring two of the hostile house's primes in: every bid and suffix made with all 13 tricks (made
    and over), then every one lost with none (lost and short)."""
    out = []
    for i in range(count):
        n, suffix = model.LEVELS[i % 56 // 8], model.SUFFIX_NAMES[i % 8]
        bidder = i % 4
        out.append(
            {
                "bidder": bidder,
                "bid": int(n),
                "suffix": suffix,
                "trump": SUFFIX_TRUMP.get(suffix, "hearts"),
                "partner": (bidder + 2) % 4,
                "tricks": 13 if i // 56 % 2 == 0 else 0,
            }
        )
    return out
