"""The deployment docs/operations.md recommends, as a test fixture: Debian's nginx with deploy/nginx.conf as shipped
(its ports, certificate and folders swapped for the test's) and TLS with a self-signed certificate, in front of the
app served by waitress. tests/integration/test_proxy.py and the browser tests through nginx use it."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
    tmp: Path, http_port: int, tls_port: int, app_port: int, cert: Path, key: Path, *, worker_connections: int = 256
) -> Path:
    """deploy/nginx.conf as it is, with the test's ports and paths, inside a main config that keeps everything
    (pid, logs, temporary files) under tmp."""
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    swaps = [
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{tls_port} ssl http2;"),
        ("return 301 https://$host$request_uri;", f"return 301 https://$host:{tls_port}$request_uri;"),
        ("server 127.0.0.1:5000;", f"server 127.0.0.1:{app_port};"),
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
def nginx_in_front(tmp: Path, app_port: int, **conf):
    """nginx with deploy/nginx.conf and TLS in front of the app listening on 127.0.0.1:`app_port`; yields
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
