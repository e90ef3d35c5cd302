"""Issue 22, finding 3: slow sockets cannot take `make run`'s server away.

waitress's connection_limit is 1,000 and its channel_timeout counts only silence, so on the main of 2026-12-01 one
client dripping a header line every few seconds kept each of its sockets for ever, and 1,100 of them took the app
from everyone. scorekeeper/server/serve.py now caps the sockets one client holds (SERVER_CONNECTIONS_PER_ADDRESS) and gives a
request a total time from its first byte (SERVER_REQUEST_TIMEOUT). These run the real server (python -m
scorekeeper.server.serve) with small limits; the only times asserted are generous bounds on "eventually". The figures with
1,100 and 3,000 sockets are bench/slow_clients.py's.
"""

import select
import socket
import time
import urllib.error
import urllib.request

import pytest

from helpers import serving

ATTACKER = "127.0.0.2"  # all of 127/8 is this machine: a second client address without a network
BOUND = 30  # seconds: "eventually", however loaded the machine


def slow_socket(port: int, source: str = ATTACKER) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line that ends the headers
    return s


def closed_by_server(s: socket.socket) -> bool:
    """The server answered (a 429) or closed: the socket is readable. A socket still held is not."""
    readable, _, _ = select.select([s], [], [], 0)
    return bool(readable)


def get(base: str, source: str | None = None) -> int:
    """The status of GET / (from `source`, an address of this machine)."""
    if source is None:
        try:
            with urllib.request.urlopen(base + "/", timeout=BOUND) as r:
                return r.status
        except urllib.error.HTTPError as exc:
            return exc.code
    port = int(base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=BOUND, source_address=(source, 0)) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        head = s.recv(64)
    return int(head.split()[1]) if head.startswith(b"HTTP/") else 0


@pytest.mark.needs_program
def test_one_address_holds_no_more_sockets_than_its_cap(tmp_path):
    with serving(tmp_path, SERVER_CONNECTIONS_PER_ADDRESS="5", SERVER_REQUEST_TIMEOUT="null") as (base, port):
        held = [slow_socket(port) for _ in range(12)]
        try:
            deadline = time.monotonic() + BOUND
            while sum(map(closed_by_server, held)) < 7 and time.monotonic() < deadline:
                time.sleep(0.2)
            refused = [s for s in held if closed_by_server(s)]
            assert len(refused) == 7, f"{len(refused)} of 12 sockets from one address refused, with a cap of 5"
            assert all(s.recv(100).startswith(b"HTTP/1.1 429") for s in refused)
            assert get(base) == 200  # another address is served
            assert get(base, ATTACKER) == 429  # the attacker's address has its five
            open_ = [s for s in held if s not in refused]
            assert not any(map(closed_by_server, open_))  # and they are still open: the cap refuses, it does not evict
        finally:
            for s in held:
                s.close()
        deadline = time.monotonic() + BOUND
        while get(base, ATTACKER) != 200:  # once they are closed, the address is served again
            assert time.monotonic() < deadline, "the closed sockets still count against their address"
            time.sleep(0.5)


@pytest.mark.needs_program
def test_a_drip_fed_request_is_closed_after_the_total_time(tmp_path):
    with serving(tmp_path, SERVER_REQUEST_TIMEOUT="2", SERVER_CONNECTIONS_PER_ADDRESS="null") as (base, port):
        s = slow_socket(port)
        started, lines, closed = time.monotonic(), 0, False
        try:
            while time.monotonic() - started < BOUND:  # one header line every 0.2 s: never silent for a moment
                try:
                    s.sendall(b"X-Drip: 1\r\n")
                    lines += 1
                except OSError:
                    closed = True
                    break
                if closed_by_server(s):
                    closed = s.recv(100) == b""
                    break
                time.sleep(0.2)
        finally:
            s.close()
        assert closed, f"a client that sent {lines} header lines over {BOUND} s still holds its socket"
        assert get(base) == 200


@pytest.mark.needs_program
@pytest.mark.slow  # a phone that sends slowly, in real time
def test_an_honest_slow_phone_is_still_answered(tmp_path):
    """A request that arrives in pieces, but whole within the total time, is served: a phone on bad Wi-Fi."""
    with serving(tmp_path, SERVER_REQUEST_TIMEOUT="20", SERVER_CONNECTIONS_PER_ADDRESS="5") as (base, port):
        with socket.create_connection(("127.0.0.1", port), timeout=BOUND) as s:
            for piece in (
                b"GET / HT",
                b"TP/1.1\r\nHost: x\r\n",
                b"Accept-Language: da\r\n",
                b"Connection: close\r\n\r\n",
            ):
                s.sendall(piece)
                time.sleep(0.5)
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200") and b"<html" in answer.lower()
        # a phone's few keep-alive sockets are far under the cap
        held = [socket.create_connection(("127.0.0.1", port), timeout=BOUND) for _ in range(4)]
        try:
            assert get(base) == 200
        finally:
            for h in held:
                h.close()


def test_behind_a_proxy_there_is_no_cap_per_address():
    """Every connection then comes from the proxy: nginx's limit_conn counts the clients instead."""
    from scorekeeper.server.serve import limits_of

    assert limits_of({"SERVER_CONNECTIONS_PER_ADDRESS": 5, "SERVER_REQUEST_TIMEOUT": 30}).per_address == 5
    behind = limits_of({"SERVER_CONNECTIONS_PER_ADDRESS": 5, "SERVER_REQUEST_TIMEOUT": 30, "PROXY_FIX": 1})
    assert behind.per_address is None and behind.request_timeout == 30


def test_the_phones_of_one_ipv6_lan_each_have_their_own_cap():
    """Issue 34, F-A2: a stranger's sockets on one IPv6 address leave the other phones of the /64 their share; one
    client taking many addresses of the /64 is still held to the network's cap, and IPv4 is counted as before."""
    from scorekeeper.server.serve import clients, limits_of

    limits = limits_of(
        {"SERVER_CONNECTIONS_PER_ADDRESS": 50, "SERVER_CONNECTIONS_PER_NETWORK": 120, "SERVER_REQUEST_TIMEOUT": 30}
    )
    stranger = clients("2001:db8:1:2::bad")
    assert sum(limits.admit(stranger) for _ in range(60)) == 50
    assert limits.admit(clients("2001:db8:1:2::a11")) and limits.admit(clients("2001:db8:1:2:aa:bb:cc:dd"))
    taken = sum(limits.admit(clients(f"2001:db8:1:2::{n:x}")) for n in range(1000, 1100))
    assert taken == 120 - 52  # the /64 as a whole is held to its cap
    assert not limits.admit(clients("2001:db8:1:2::a12"))
    assert limits.admit(clients("2001:db8:1:3::1"))  # another network is not
    limits.leave(stranger)
    assert limits.admit(clients("2001:db8:1:2::a12"))  # a closed socket gives its place back
    v4 = clients("::ffff:192.0.2.7")
    assert v4 == ("192.0.2.7",) and sum(limits.admit(v4) for _ in range(60)) == 50
