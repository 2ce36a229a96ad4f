"""Issue 27: metrics and health for whoever runs the server. `--metrics-listen` serves Prometheus
text at /metrics and a health check at /healthz; a real HTTP client scrapes it during a small
load, the counters move, `promtool check metrics` accepts the text, and no series names a user
or an address."""
import re
import shutil
import socket
import subprocess
import urllib.error
import urllib.request

import pytest

from harness.waiting import wait_until

SERIES = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$")


def metrics_address(server):
    line = server.stderr.wait_for(lambda l: l.startswith("metrics on "), 10, what="the metrics line")
    return line.split("metrics on ", 1)[1].strip()


def get(address, path):
    try:
        with urllib.request.urlopen(f"http://{address}{path}", timeout=10) as r:
            return r.status, r.headers.get("Content-Type"), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read().decode()


def scrape(address):
    status, ctype, text = get(address, "/metrics")
    assert status == 200 and ctype.startswith("text/plain; version=0.0.4"), (status, ctype)
    values = {}
    for line in text.splitlines():
        if line.startswith("#") or not line:
            continue
        m = SERIES.match(line)
        assert m, f"not a Prometheus sample line: {line!r}"
        values[m.group(1) + (m.group(2) or "")] = float(m.group(3))
    return text, values


def promtool():
    exe = shutil.which("promtool")
    if exe is None:  # Scripts/install-deps.sh --tests installs it (Debian's prometheus package)
        pytest.fail("promtool is missing: run Scripts/install-deps.sh --tests")
    return exe


def test_metrics_move_under_load_and_pass_promtool(world):
    server = world.server("--metrics-listen", "127.0.0.1:0")
    address = metrics_address(server)
    status, _, body = get(address, "/healthz")
    assert (status, body) == (200, "ok\n")
    assert get(address, "/nothing")[0] == 404
    _, before = scrape(address)
    assert before["messageai_messages_accepted_total"] == 0
    assert before["messageai_uptime_seconds"] > 0

    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    alice.cmd("/dm bob")
    mark = len(bob.events)
    sent = [f"load {i}" for i in range(30)]
    for text in sent:
        alice.say(text)
    bob.events.wait_count(lambda e: e.get("type") == "message" and e.get("sender") == "alice", 30, 30, mark,
                          what="bob: the 30 messages")
    # A plaintext client at the TLS port: a failed handshake.
    with socket.create_connection((server.host, server.port), timeout=5) as s:
        s.sendall(b"GET / HTTP/1.0\r\n\r\n")
        s.recv(100)

    def moved():
        _, after = scrape(address)
        return after if after.get('messageai_tls_handshakes_total{result="failed"}', 0) >= 1 else None
    wait_until(lambda: moved() is not None, 10, what="the failed handshake counted")
    text, after = scrape(address)
    assert after["messageai_messages_accepted_total"] >= 30
    assert after["messageai_deliveries_total"] >= 30
    assert after["messageai_registrations_total"] == 2
    assert after['messageai_connections_open{transport="tls"}'] >= 2
    assert after['messageai_connections_accepted_total{transport="tls"}'] >= 3
    assert after['messageai_tls_handshakes_total{result="ok"}'] >= 2
    assert after["messageai_users_online"] == 2
    assert after["messageai_ack_latency_seconds_count"] >= 30
    assert after['messageai_ack_latency_seconds_bucket{le="+Inf"}'] == after["messageai_ack_latency_seconds_count"]
    assert after["messageai_store_commit_seconds_count"] >= 1
    assert after["messageai_uptime_seconds"] > before["messageai_uptime_seconds"]
    # Never a label holding a username, a message or an address.
    for secret in ("alice", "bob", "load 1", "127.0.0.1"):
        assert secret not in text, secret

    check = subprocess.run([promtool(), "check", "metrics"], input=text, capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stdout + check.stderr


def test_metrics_off_by_default(world):
    server = world.server()
    world.user("alice", server.address)
    assert not any(line.startswith("metrics on ") for line in server.stderr.snapshot())
