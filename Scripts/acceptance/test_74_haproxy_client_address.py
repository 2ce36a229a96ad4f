"""Scenario 74 (issue 26, stage B): a real HAProxy in TCP mode in front of the server, from the
shipped Packaging/haproxy.cfg. TLS passes through (the client trusts the node's certificate),
and the PROXY protocol v2 header tells the node each client's address: `admin online` shows the
client's address, not the balancer's, and the balancer's health checks (which carry the header
too) leave no refusal in the node's log. A connection from the balancer's address without the
header is refused; one from anywhere else cannot claim an address."""
import socket
import subprocess

from harness.waiting import wait_until

BALANCER = "127.0.0.3"  # where HAProxy connects to the node from; clients come from 127.0.0.1


def admin(world, server, *words):
    r = subprocess.run([world.server_exe, "admin", "--data-dir", server.data_dir, *words],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, f"{words}: {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r.stdout


def log_text(server):
    return open(server.log_path, encoding="utf-8").read()


def test_clients_behind_haproxy_keep_their_address(world, tmp_path):
    # The balancer's address from the config file, as an admin would set it.
    config = tmp_path / "server.yaml"
    config.write_text(f"trusted-proxy: [{BALANCER}]\nlog-level: debug\n")
    shown = subprocess.run([world.server_exe, "--config", str(config), "--check-config"], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and f"trusted-proxy: {BALANCER}" in shown.stdout, shown.stdout + shown.stderr
    bad = subprocess.run([world.server_exe, "--trusted-proxy", "10.0.0.0/33", "--check-config"], capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "10.0.0.0/33" in bad.stderr and "prefix length" in bad.stderr, bad.stderr
    node = world.server("--config", str(config))
    balancer = world.haproxy(node, source=BALANCER)
    wait_until(lambda: balancer.servers()["node1"]["status"] == "UP", 20, what="HAProxy to see the node up")

    alice = world.user("alice", balancer.address)  # through HAProxy, TLS end to end
    bob = world.user("bob", node.address)          # directly
    world.contacts(alice, bob)
    alice.cmd("/open bob")
    bob.cmd("/open alice")
    alice.say("héllo through the balancer 👋🏽")
    bob.wait_event(lambda e: e.get("type") == "message" and "balancer" in (e.get("text") or ""), 20,
                   what="bob gets alice's message through HAProxy")

    online = admin(world, node, "online")
    rows = {line.split()[0]: line for line in online.splitlines()[1:] if line.strip()}
    assert "alice" in rows and "127.0.0.1" in rows["alice"], online
    assert BALANCER not in online, f"the node knows alice by the balancer's address:\n{online}"

    # A client at the balancer's address that sends no header is refused, with one log line.
    with socket.create_connection((node.host, node.port), timeout=10, source_address=(BALANCER, 0)) as raw:
        raw.sendall(b"\x00\x00\x00\x00\x00\x07\x00\x00\x00\x00\x00\x01")  # a frame, no header before it
        raw.settimeout(10)
        assert raw.recv(1) == b"", "the node closes a trusted peer's connection without a PROXY header"
    wait_until(lambda: f"connection from trusted proxy {BALANCER} refused" in log_text(node), 10,
               what="the refusal in the node's log")
    # HAProxy's health checks (every second) carry the header too: each is served (as the
    # balancer's own connection, LOCAL) and none is refused.
    wait_until(lambda: log_text(node).count(f"from {BALANCER}\n") >= 3, 30, what="three health checks served", interval=0.2)
    refusals = log_text(node).count("refused: no PROXY protocol v2 signature")
    assert refusals == 1, f"HAProxy's health checks must carry the header: {refusals} refusals in the log"
