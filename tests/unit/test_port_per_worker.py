"""Issue 47, a table on one worker: `scorekeeper serve --port-per-worker` and SERVER_PORT_PER_WORKER, read as they say
(the flag over the key, the key false by default), and the ports each worker is given (worker k, k = 1..N, port + k;
one process port + 1). Nothing is served here: tests/integration/test_workers.py serves them, and
tests/integration/test_table_one_worker.py puts nginx in front."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from scorekeeper import config
from scorekeeper.__main__ import main
from scorekeeper.server import serve


@pytest.fixture
def started(monkeypatch):
    """What `scorekeeper serve` hands server.run, instead of serving."""
    calls = []
    monkeypatch.setattr(serve, "run", lambda *args, **kwargs: calls.append((args, kwargs)))
    return calls


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], None),  # not said: SERVER_PORT_PER_WORKER decides
        (["--port-per-worker"], True),
        (["--no-port-per-worker"], False),  # a key set true, overridden
    ],
)
def test_the_serve_command_reads_the_flag(started, argv, expected):
    result = CliRunner().invoke(main, ["serve", "--host", "127.0.0.1", "--port", "5000", "--workers", "2", *argv])
    assert result.exit_code == 0, result.output
    ((args, kwargs),) = started
    assert args[:2] == ("127.0.0.1", 5000) and args[3] == 2
    assert kwargs == {"port_per_worker": expected}


def test_the_module_command_reads_the_flag_too(started):
    serve.main(["--port", "5000", "--workers", "2", "--port-per-worker"])
    serve.main(["--port", "5000"])
    assert [kwargs["port_per_worker"] for _args, kwargs in started] == [True, None]


def test_the_key_is_false_by_default_and_the_flag_overrides_it():
    key = config.BY_NAME["SERVER_PORT_PER_WORKER"]
    assert key.default is False and key.type == "bool"
    assert config.from_environment({"SCOREKEEPER_SERVER_PORT_PER_WORKER": "true"}) == {"SERVER_PORT_PER_WORKER": True}
    assert serve.own_ports_wanted(None, {"SERVER_PORT_PER_WORKER": False}) is False
    assert serve.own_ports_wanted(None, {}) is False
    assert serve.own_ports_wanted(None, {"SERVER_PORT_PER_WORKER": True}) is True
    assert serve.own_ports_wanted(False, {"SERVER_PORT_PER_WORKER": True}) is False
    assert serve.own_ports_wanted(True, {"SERVER_PORT_PER_WORKER": False}) is True


def test_worker_k_has_port_plus_k():
    assert serve.own_ports(5000, 2, True) == [5001, 5002]
    assert serve.own_ports(5000, 4, True) == [5001, 5002, 5003, 5004]
    assert serve.own_ports(5000, 1, True) == [5001]  # one process: port + 1 as well
    assert serve.own_ports(5000, 2, False) == [None, None]  # the shared port only, as before


@pytest.mark.parametrize(("port", "count"), [(65535, 1), (65530, 8), (0, 2)])
def test_ports_that_cannot_be_given_are_refused_in_words(port, count):
    with pytest.raises(SystemExit, match="port-per-worker"):
        serve.own_ports(port, count, True)
