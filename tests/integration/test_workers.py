"""Issue 37: `scorekeeper serve` (what `make run` starts) serves with a waitress process per core sharing the listening
socket (server/workers.py), stops them all on SIGTERM and on Ctrl-C, starts one that died again, and holds a
client's connection cap across them, and (issue 43) its rate limits; (issue 47) with --port-per-worker each worker also
has a port of its own, kept when it is started again. The real command in a subprocess; times are generous bounds on
"eventually"."""

import contextlib
import http.client
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from helpers import free_port
from nginx_stack import free_ports

BOUND = 30  # seconds
ATTACKER = "127.0.0.2"


@contextlib.contextmanager
def serving(tmp_path, workers: int = 2, args: tuple[str, ...] = (), log: Path | None = None, **settings):
    """`python -m scorekeeper serve` with `workers` and `args` on 127.0.0.1 (a free port, and the `workers` after it
    free too with --port-per-worker), `settings` as SCOREKEEPER_ variables, its stderr to `log` if given (else a pipe):
    (process, base URL, port) once it answers and every worker is there."""
    port = free_ports(workers + 1)[0] if "--port-per-worker" in args else free_port()
    env = {
        "SCOREKEEPER_DATABASE": str(tmp_path / "served.sqlite"),
        "SCOREKEEPER_SECRET_KEY": "x",
        "SCOREKEEPER_SERVER_WORKERS": str(workers),
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": os.environ["PYTHONPATH"],
        **{f"SCOREKEEPER_{name}": value for name, value in settings.items()},
    }
    stderr = open(log, "ab") if log is not None else subprocess.PIPE  # closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", str(port), *args],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        start_new_session=True,  # its own process group, as a terminal's: Ctrl-C is SIGINT to the group
    )
    base = f"http://127.0.0.1:{port}"
    try:
        eventually(lambda: healthy(base) and len(children(proc.pid)) == workers, proc)
        yield proc, base, port
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        if proc.stderr is not None:
            proc.stderr.close()
        if log is not None:
            stderr.close()


def healthy(base: str) -> bool:
    try:
        return urllib.request.urlopen(base + "/healthz", timeout=2).status == 200
    except OSError:
        return False


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except FileNotFoundError:
        return []


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def eventually(check, proc) -> None:
    deadline = time.monotonic() + BOUND
    while not check():
        if time.monotonic() > deadline or proc.poll() is not None:
            said = proc.stderr.read().decode()[-2000:] if proc.poll() is not None and proc.stderr else ""
            raise AssertionError("not in time: " + said)
        time.sleep(0.2)


@pytest.mark.needs_program
@pytest.mark.parametrize("stop", ["SIGTERM to the server", "Ctrl-C"])
def test_every_worker_serves_and_every_one_stops(tmp_path, stop):
    with serving(tmp_path) as (proc, base, _port):
        workers = children(proc.pid)
        assert len(workers) == 2
        assert all(urllib.request.urlopen(base + "/", timeout=10).status == 200 for _ in range(6))
        if stop == "Ctrl-C":
            os.killpg(proc.pid, signal.SIGINT)  # the terminal's Ctrl-C: every process of the group
        else:
            proc.send_signal(signal.SIGTERM)  # systemd's stop, or kill
        assert proc.wait(BOUND) == 0
        assert not any(map(alive, workers))
        assert b"Traceback" not in proc.stderr.read()


@pytest.mark.needs_program
def test_a_worker_that_dies_is_started_again(tmp_path):
    with serving(tmp_path) as (proc, base, _port):
        first, second = children(proc.pid)
        os.kill(first, signal.SIGKILL)
        eventually(lambda: len(children(proc.pid)) == 2 and first not in children(proc.pid), proc)
        assert second in children(proc.pid) and healthy(base)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(BOUND) == 0


def closed_by_server(s: socket.socket) -> bool:
    readable, _, _ = select.select([s], [], [], 0)
    return bool(readable)


@pytest.mark.needs_program
def test_a_clients_cap_holds_across_the_workers(tmp_path):
    """Five sockets from one address, whichever worker accepts them: the other seven are refused."""
    with serving(tmp_path, SERVER_CONNECTIONS_PER_ADDRESS="5", SERVER_REQUEST_TIMEOUT="null") as (proc, base, port):
        held = []
        for _ in range(12):
            s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(ATTACKER, 0))
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line that ends the headers
            held.append(s)
        try:
            deadline = time.monotonic() + BOUND
            while sum(map(closed_by_server, held)) < 7 and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(1)  # and no more than seven
            refused = [s for s in held if closed_by_server(s)]
            assert len(refused) == 7, f"{len(refused)} of 12 sockets refused with a cap of 5 and two workers"
            assert all(s.recv(100).startswith(b"HTTP/1.1 429") for s in refused)
            assert healthy(base)  # another address is served
        finally:
            for s in held:
                s.close()


def answering_worker(sock: socket.socket, server_port: int, workers: list[int]) -> int | None:
    """The worker process holding the server's end of this connection (its socket's inode, from /proc/net/tcp)."""
    client_port = sock.getsockname()[1]
    want = f"0100007F:{server_port:04X} 0100007F:{client_port:04X}"  # local, remote: the server's side
    with open("/proc/net/tcp") as f:
        inode = next((line.split()[9] for line in f if " ".join(line.split()[1:3]) == want), None)
    for pid in workers:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except FileNotFoundError:
            continue
        for fd in fds:
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return pid
    return None


NEW_GAME = b'{"variant": "german", "players": ["Ann", "Bo"]}'


def new_game(port: int, workers: list[int]) -> tuple[int, int | None]:
    """POST /api/games on a connection of its own: (status, the worker that answered)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.connect()
        conn.request("POST", "/api/games", body=NEW_GAME, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status, answering_worker(conn.sock, port, workers)
    finally:
        conn.close()


@pytest.mark.needs_program
def test_a_rate_limit_holds_across_the_workers(tmp_path):
    """Issue 43: one client's new games are counted once, whichever worker answers: LIMIT_NEW_GAMES of 6 a minute lets
    6 through and refuses every one after, from both workers. Before, each worker counted in its own memory and the
    client had 6 from each (every limit the docs state, times the workers)."""
    with serving(tmp_path, LIMIT_NEW_GAMES="6 per minute") as (proc, _base, port):
        workers = children(proc.pid)
        answers = []
        while len(answers) < 60 and len({pid for status, pid in answers[6:]}) < 2:
            answers.append(new_game(port, workers))
        made = [(pid, status) for status, pid in answers if status == 201]
        assert [status for status, _pid in answers[:6]] == [201] * 6
        assert len(made) == 6, f"{len(made)} new games of {len(answers)} with a limit of 6: {made}"
        assert {pid for _status, pid in answers[6:]} == set(workers), "both workers refused past the limit"


def answered_by(port: int, supervisor: int, path: str) -> int | None:
    """GET `path` on a connection of its own to `port`: the worker process that answered it (asked once the answer
    came, so a worker started meanwhile is found)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=BOUND)
    try:
        conn.connect()
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        assert response.status == 200, response.status
        return answering_worker(conn.sock, port, children(supervisor))
    finally:
        conn.close()


STARTED = re.compile(r"worker (\d+) \(pid (\d+)\) serves port (\d+)")
LOGGED = re.compile(r"\[worker (\d+)\] scorekeeper\.request: GET /healthz\?via=(\d+) 200 ")


def started(log: Path) -> dict[int, tuple[int, int]]:
    """Each worker's (pid, own port) as the log said it at its last start."""
    return {int(k): (int(pid), int(port)) for k, pid, port in STARTED.findall(log.read_text())}


@pytest.mark.needs_program
def test_each_worker_has_a_port_of_its_own_and_all_of_them_the_shared_one(tmp_path):
    """Issue 47: with --port-per-worker, port + 1 and port + 2 are each served by one worker only, a different one
    each, and the shared port by both; the log says which port each worker has, and names the worker on each request's
    line. A worker that dies is started again on its port: a request that came meanwhile waits for it, not refused."""
    log = tmp_path / "serve.log"
    with serving(tmp_path, args=("--port-per-worker",), log=log, READS_PER_SECOND="null") as (proc, _base, port):
        workers = children(proc.pid)
        own = {}
        for k in (1, 2):
            eventually(lambda k=k: healthy(f"http://127.0.0.1:{port + k}"), proc)
            answered = {answered_by(port + k, proc.pid, f"/healthz?via={port + k}") for _ in range(8)}
            assert len(answered) == 1 and None not in answered, f"port + {k} answered by {answered}"
            own[k] = answered.pop()
        assert own[1] != own[2] and {own[1], own[2]} == set(workers)
        shared: list[int | None] = []
        while len(set(shared)) < 2 and len(shared) < 200:
            shared.append(answered_by(port, proc.pid, f"/healthz?via={port}"))
        assert set(shared) == set(workers), f"the shared port: {len(shared)} requests, answered by {set(shared)}"

        assert started(log) == {1: (own[1], port + 1), 2: (own[2], port + 2)}, log.read_text()[-3000:]
        lines = {(int(k), int(via)) for k, via in LOGGED.findall(log.read_text())}
        assert {line for line in lines if line[1] != port} == {(1, port + 1), (2, port + 2)}
        assert {k for k, via in lines if via == port} == {1, 2}

        os.kill(own[1], signal.SIGKILL)
        eventually(lambda: not alive(own[1]), proc)
        again = answered_by(port + 1, proc.pid, f"/healthz?via={port + 1}")  # waits in the port's backlog
        assert again not in (None, own[1], own[2]) and set(children(proc.pid)) == {again, own[2]}
        assert started(log)[1] == (again, port + 1)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(BOUND) == 0
