"""Issue 43: the rate limits counted in one SQLite file every worker shares (server/limits_file.py), a storage of the
`limits` package found by its scheme: its moving window, one count across connections and processes, its bound, and
the app counting there (and in memory, not failing, when the file cannot be used). The served workers sharing it:
tests/integration/test_workers.py."""

import multiprocessing

from limits import RateLimitItemPerMinute, parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from helpers import PLAYERS
from scorekeeper import create_app
from scorekeeper.server import guard, limits_file


class Clock:
    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def store(path, clock=None, **options) -> limits_file.LimitsFile:
    found = storage_from_string(limits_file.uri(str(path)), **options)
    assert isinstance(found, limits_file.LimitsFile)
    if clock is not None:
        found.clock = clock
    return found


def test_the_moving_window_takes_what_the_limit_allows_and_frees_each_hit_as_it_ages(tmp_path):
    clock = Clock()
    s = store(tmp_path / "x.limits", clock)
    start = clock.now
    for second in range(3):
        clock.now = start + second
        assert s.acquire_entry("k", 3, 10)
    clock.now = start + 9.9
    assert not s.acquire_entry("k", 3, 10)  # three in the last ten seconds
    assert s.get_moving_window("k", 3, 10) == (start, 3)
    clock.now = start + 10  # the first is ten seconds old: out of the window
    assert s.get_moving_window("k", 3, 10) == (start + 1, 2)
    assert s.acquire_entry("k", 3, 10)
    assert not s.acquire_entry("k", 3, 10)
    assert s.get_moving_window("other", 3, 10) == (clock.now, 0)  # each key its own window
    clock.now = start + 30
    assert s.get_moving_window("k", 3, 10) == (clock.now, 0)


def test_a_cost_is_taken_whole_or_not_at_all(tmp_path):
    s = store(tmp_path / "x.limits", Clock())
    assert not s.acquire_entry("k", 5, 60, amount=6)  # more than the limit: never
    assert s.acquire_entry("k", 5, 60, amount=3)
    assert not s.acquire_entry("k", 5, 60, amount=3)  # two left: refused, and nothing taken
    assert s.get_moving_window("k", 5, 60)[1] == 3
    assert s.acquire_entry("k", 5, 60, amount=2)
    assert s.get_moving_window("k", 5, 60)[1] == 5


def test_the_limits_strategy_over_it_counts_as_over_memory(tmp_path):
    """`limits`' own moving-window strategy, as Flask-Limiter drives it, gives the answers its memory storage gives."""
    item = parse("4/minute")
    ours = MovingWindowRateLimiter(store(tmp_path / "x.limits"))
    memory = MovingWindowRateLimiter(storage_from_string("memory://"))
    for cost in (1, 2, 1, 1, 3, 1):
        assert ours.hit(item, "client", "scope", cost=cost) == memory.hit(item, "client", "scope", cost=cost)
        assert ours.test(item, "client", "scope") == memory.test(item, "client", "scope")
        assert ours.get_window_stats(item, "client", "scope").remaining == (
            memory.get_window_stats(item, "client", "scope").remaining
        )
    ours.clear(item, "client", "scope")
    assert ours.hit(item, "client", "scope")


def test_two_connections_share_one_count(tmp_path):
    """What two worker processes do: each its own connection to the one file."""
    clock = Clock()
    first, second = store(tmp_path / "x.limits", clock), store(tmp_path / "x.limits", clock)
    assert first.acquire_entry("k", 3, 60) and second.acquire_entry("k", 3, 60) and first.acquire_entry("k", 3, 60)
    assert not second.acquire_entry("k", 3, 60) and not first.acquire_entry("k", 3, 60)
    assert second.get_moving_window("k", 3, 60)[1] == 3


def _take(path, tries, results):
    s = limits_file.LimitsFile(limits_file.uri(path))
    results.put(sum(s.acquire_entry("k", 30, 60) for _ in range(tries)))


def test_processes_racing_take_exactly_the_limit(tmp_path):
    """Four forked processes, 20 tries each at a limit of 30, the parent's connection made before the fork (a child
    makes its own): 30 taken in all."""
    path = str(tmp_path / "x.limits")
    parent = store(path)
    assert parent.get_moving_window("k", 30, 60)[1] == 0  # its connection, made before the fork
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    workers = [context.Process(target=_take, args=(path, 20, results)) for _ in range(4)]
    for w in workers:
        w.start()
    taken = sum(results.get(timeout=30) for _ in workers)
    for w in workers:
        w.join(30)
    assert taken == 30 and parent.get_moving_window("k", 30, 60)[1] == 30


def test_the_file_is_bounded_whatever_the_clients_do(tmp_path):
    """Expired hits go (a key's own at its next hit, everyone's every PURGE_EVERY seconds), and past max_entries the
    oldest go at once: a stranger with a new address for every hit cannot grow the file."""
    clock = Clock()
    s = store(tmp_path / "x.limits", clock, max_entries=50)
    for i in range(80):
        clock.now += 0.01
        assert s.acquire_entry(f"address-{i}", 10, 3600)
    assert s.entries() == 50
    assert s.get_moving_window("address-0", 10, 3600)[1] == 0  # the oldest forgotten
    assert s.get_moving_window("address-79", 10, 3600)[1] == 1
    for _ in range(10):
        s.acquire_entry("a minute's", 10, 60)
    assert s.get_moving_window("a minute's", 10, 60)[1] == 10
    clock.now += limits_file.PURGE_EVERY + 61
    assert s.acquire_entry("someone", 10, 60)
    # the minute's hits purged, the hour's kept: of the newest 50 hits taken (someone's the last), 39 addresses
    assert s.entries() == 40 and s.get_moving_window("address-79", 10, 3600)[1] == 1
    clock.now += 3600
    assert s.acquire_entry("someone else", 10, 60)
    assert s.entries() == 1
    assert s.reset() == 1 and s.entries() == 0


def test_fixed_windows_count_too(tmp_path):
    """The Storage interface's counters (the fixed-window strategies'), bounded alike."""
    clock = Clock()
    s = store(tmp_path / "x.limits", clock)
    assert (s.incr("k", 60), s.incr("k", 60, amount=2), s.get("k")) == (1, 3, 3)
    assert s.get_expiry("k") == clock.now + 60
    clock.now += 60
    assert s.get("k") == 0 and s.incr("k", 60) == 1
    s.clear("k")
    assert s.get("k") == 0 and s.check()


def test_the_app_counts_in_the_file_beside_its_database(db_path):
    app = create_app({"TESTING": True, "DATABASE": db_path, "SECRET_KEY": "t", "RATELIMIT_ENABLED": True})
    storage = guard.limiter.storage
    assert isinstance(storage, limits_file.LimitsFile) and storage.path == db_path + ".limits"
    client = app.test_client()
    assert client.post("/api/games", json={"variant": "german", "players": PLAYERS["german"]}).status_code == 201
    limit = RateLimitItemPerMinute(30)
    assert storage.get_moving_window(limit.key_for("127.0.0.1", "new-game"), 30, 60)[1] == 1


def _new_games_without_the_file(db_path, nowhere, results):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": db_path,
            "SECRET_KEY": "t",
            "RATELIMIT_ENABLED": True,
            "LIMITS_FILE": nowhere,
            "LIMIT_NEW_GAMES": "2 per minute",
        }
    )
    client = app.test_client()
    body = {"variant": "german", "players": PLAYERS["german"]}
    results.put([client.post("/api/games", json=body).status_code for _ in range(3)])


def test_a_file_that_cannot_be_used_is_counted_in_memory_not_a_500(db_path, tmp_path):
    """Flask-Limiter's in-memory fallback: the limits still hold, in this process, until the file answers. In a forked
    process: the limiter is the process's one object, and it stays on its fallback until it has checked the file
    again (seconds later)."""
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    child = context.Process(
        target=_new_games_without_the_file, args=(db_path, str(tmp_path / "no such folder" / "x.limits"), results)
    )
    child.start()
    assert results.get(timeout=60) == [201, 201, 429]
    child.join(30)
