"""The deployment docs/operations.md recommends, as a test fixture: Debian's nginx with deploy/nginx.conf as shipped
(its ports, certificate and folders swapped for the test's) and TLS with a self-signed certificate, in front of the
app served by waitress. tests/integration/test_proxy.py and the browser tests through nginx use it, in front of one
waitress in the test's process (the upstream then lists that one server); `served_per_worker` starts the app as
deploy/scorekeeper.service does (`scorekeeper serve --workers N --port-per-worker`, N the servers the upstream lists),
for tests/integration/test_table_one_worker.py and bench/hall.py."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "deploy" / "nginx.conf"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_ports(count: int) -> list[int]:
    """`count` consecutive ports free on 127.0.0.1: a server's shared port and its workers' own (port + k)."""
    for _ in range(100):
        first = free_port()
        taken: list[socket.socket] = []
        try:
            for port in range(first, first + count):
                taken.append(socket.socket())
                taken[-1].bind(("127.0.0.1", port))
            return list(range(first, first + count))
        except (OSError, OverflowError):
            continue
        finally:
            for s in taken:
                s.close()
    raise AssertionError(f"no {count} consecutive free ports found")


# deploy/nginx.conf's upstream: one `server 127.0.0.1:<port>;` line per worker of `scorekeeper serve --port-per-worker`
UPSTREAM = re.compile(r"^upstream scorekeeper \{\n(?P<body>.*?)\n\}", re.S | re.M)
SERVER = re.compile(r"^(?P<indent> +)server 127\.0\.0\.1:(?P<port>[0-9]+);$", re.M)


def upstream_ports(site: str) -> list[int]:
    """The ports `site`'s upstream lists, in order."""
    block = UPSTREAM.search(site)
    assert block, "deploy/nginx.conf no longer has `upstream scorekeeper { ... }`: update tests/nginx_stack.py"
    return [int(m["port"]) for m in SERVER.finditer(block["body"])]


def deployed_workers() -> int:
    """The workers deploy/nginx.conf's upstream lists (deploy/scorekeeper.service starts as many)."""
    return len(upstream_ports(SITE.read_text()))


def with_upstream(site: str, ports: Sequence[int]) -> str:
    """`site` with its upstream's servers (127.0.0.1:5001, :5002, ... one a worker, as deploy/nginx.conf lists them)
    swapped for one line each of `ports`, everything else in the block (the hash, keepalive) kept in its place."""
    listed = upstream_ports(site)
    assert listed and listed == list(range(5001, 5001 + len(listed))), (
        f"deploy/nginx.conf's upstream no longer lists one server a worker from 127.0.0.1:5001 ({listed}): "
        "update tests/nginx_stack.py"
    )
    return swapped_upstream(site, ports)


def swapped_upstream(site: str, ports: Sequence[int]) -> str:
    """`site` with whatever servers its upstream lists swapped for one line each of `ports` (bench/night.py also
    swaps a tree's from before issue 47, whose upstream is the one shared port 5000)."""
    block = UPSTREAM.search(site)
    assert block is not None
    lines = block["body"].split("\n")
    at, indent = next((i, m["indent"]) for i, line in enumerate(lines) if (m := SERVER.match(line)))
    others = [line for line in lines if not SERVER.match(line)]
    body = others[:at] + [f"{indent}server 127.0.0.1:{port};" for port in ports] + others[at:]
    return site[: block.start("body")] + "\n".join(body) + site[block.end("body") :]


def nginx_binary() -> str:
    # No skip: `make test` installs nginx and openssl (scripts/system-packages.sh); missing, the test fails.
    for tool in ("nginx", "openssl"):
        assert shutil.which(tool) or Path(f"/usr/sbin/{tool}").exists(), (
            f"{tool} is not installed: run scripts/system-packages.sh (make test does)"
        )
    return shutil.which("nginx") or "/usr/sbin/nginx"


def self_signed(tmp: Path) -> tuple[Path, Path]:
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-subj",
            "/CN=localhost",
            "-days",
            "1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


def render_nginx_conf(
    tmp: Path,
    http_port: int,
    tls_port: int,
    app_port: int | str | Sequence[int],
    cert: Path,
    key: Path,
    *,
    worker_connections: int = 256,
) -> Path:
    """deploy/nginx.conf as it is, with the test's ports and paths, inside a main config that keeps everything
    (pid, logs, temporary files) under tmp. `app_port`: the upstream's servers, one port (one waitress) or each
    worker's own (`served_per_worker`)."""
    ports = [app_port] if isinstance(app_port, int | str) else list(app_port)  # waitress's effective_port may be text
    site = with_upstream(SITE.read_text(), [int(port) for port in ports])
    swaps = [
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{tls_port} ssl http2;"),
        ("return 301 https://$host$request_uri;", f"return 301 https://$host:{tls_port}$request_uri;"),
        ("/etc/letsencrypt/live/whist.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/whist.example.org/privkey.pem", str(key)),
        ("server_name whist.example.org;", "server_name localhost;"),
        ("root /run/scorekeeper/live-tags;", f"root {tmp / 'live-tags'};"),
        ("/var/log/nginx/scorekeeper.access.log", str(tmp / "access.log")),
    ]
    for old, new in swaps:
        assert old in site, f"deploy/nginx.conf no longer has {old!r}: update the test"
        site = site.replace(old, new)
    site = "\n".join(line for line in site.splitlines() if "[::]" not in line)  # no IPv6 needed here
    (tmp / "site.conf").write_text(site)
    temp = {name: tmp / name for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir(exist_ok=True)
    conf = tmp / "nginx.conf"
    conf.write_text(f"""
user root;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log info;
events {{ worker_connections {worker_connections}; }}
http {{
    access_log {tmp}/access.log;
    client_body_temp_path {temp["client_body"]};
    proxy_temp_path {temp["proxy"]};
    fastcgi_temp_path {temp["fastcgi"]};
    uwsgi_temp_path {temp["uwsgi"]};
    scgi_temp_path {temp["scgi"]};
    include {tmp}/site.conf;
}}
""")
    return conf


def wait_for_port(port, proc, log, timeout=15):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"nginx stopped:\n{log.read_text() if log.exists() else ''}"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nginx did not listen on {port}:\n{log.read_text() if log.exists() else ''}")


@contextlib.contextmanager
def nginx_in_front(tmp: Path, app_port: int | str | Sequence[int], **conf):
    """nginx with deploy/nginx.conf and TLS in front of the app listening on 127.0.0.1:`app_port` (or on each of
    those ports, one a worker); yields
    {"http": port, "tls": port, "log": error log, "access": access log, "base": "https://localhost:<tls>"}.
    The site's live-tags root is `tmp / "live-tags"`: give the app LIVE_TAGS=str(tmp / "live-tags")."""
    nginx = nginx_binary()
    cert, key = self_signed(tmp)
    http_port, tls_port = free_port(), free_port()
    path = render_nginx_conf(tmp, http_port, tls_port, app_port, cert, key, **conf)
    check = subprocess.run(
        [nginx, "-t", "-c", str(path), "-g", "daemon off;"], capture_output=True, text=True, timeout=30
    )
    assert check.returncode == 0, check.stderr
    log = tmp / "error.log"
    proc = subprocess.Popen(
        [nginx, "-c", str(path), "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        wait_for_port(tls_port, proc, log)
        wait_for_port(http_port, proc, log)
        yield {
            "http": http_port,
            "tls": tls_port,
            "log": log,
            "access": tmp / "access.log",
            "base": f"https://localhost:{tls_port}",
        }
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        proc.stderr.close()


@contextlib.contextmanager
def served_per_worker(folder: Path, env: dict[str, str], workers: int | None = None, log: Path | None = None):
    """The app as deploy/scorekeeper.service starts it behind nginx: `scorekeeper serve --host 127.0.0.1 --workers N
    --port-per-worker` (N: `workers`, else the servers deploy/nginx.conf's upstream lists) on free ports, `env` over
    this process's environment, its stderr into `log` (else nowhere), in `folder`. Yields {"port": the shared port,
    "ports": worker k's own at k - 1, "proc": the supervisor} once every port answers /healthz; stopped after (SIGTERM,
    as systemd stops it)."""
    count = workers or deployed_workers()
    port, *ports = free_ports(count + 1)
    command = [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", str(port)]
    with contextlib.ExitStack() as stack:
        stderr = stack.enter_context(open(log, "ab")) if log is not None else subprocess.DEVNULL
        proc = subprocess.Popen(
            [*command, "--workers", str(count), "--port-per-worker"],
            cwd=folder,
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            start_new_session=True,  # its workers with it in one group, for the kill below
        )
        try:
            deadline = time.monotonic() + 60
            for each in (port, *ports):
                while True:
                    try:
                        urllib.request.urlopen(f"http://127.0.0.1:{each}/healthz", timeout=5).read()
                        break
                    except OSError:
                        assert proc.poll() is None, "scorekeeper serve stopped" + (
                            f": {log.read_text()[-2000:]}" if log else ""
                        )
                        assert time.monotonic() < deadline, f"scorekeeper serve did not answer on {each}"
                        time.sleep(0.1)
            yield {"port": port, "ports": ports, "proc": proc}
        finally:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
