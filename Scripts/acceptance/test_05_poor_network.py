"""Scenario 5: poor network. Ten messages sent rapidly through a degraded link (latency,
limited bandwidth, packet loss) all arrive, once, in order.

The real link is `tc netem` in a network namespace; when the kernel or tc refuses (no
sch_netem module, no root), that variant is skipped with the reason. The same scenario also
runs through the Python proxy emulating latency, bandwidth and loss stalls at frame level."""
import pytest

from harness.checks import assert_same_view, texts
from harness.netns import DegradedLink, LinkRefused
from harness.server import Server


def send_ten_and_check(world, alice, bob):
    alice.cmd("/dm bob", timeout=60)
    sent = [f"through the storm {i:02d}" for i in range(10)]
    for text in sent:
        alice.say(text)
    alice.cmd("/wait sent 90", timeout=100)
    bob.cmd("/open alice", timeout=60)
    bob.cmd("/wait-messages 10 90", timeout=100)
    got = bob.history(timeout=60)
    assert texts(got) == sent
    assert_same_view({"alice": alice.history(timeout=60), "bob": got})


def test_poor_network_netem(world):
    link = DegradedLink()
    try:
        link.up()
    except LinkRefused as refused:
        pytest.skip(f"tc netem link unavailable here: {refused}")
    try:
        server = Server(world.server_exe, world.tmp / "server", world.logs / "server.log",
                        host=link.ns_ip, netns=link.ns)
        world.servers.append(server)
        server.start(timeout=30)
        bob = world.client("bob", server.address)
        bob.register(timeout=60)
        alice = world.client("alice", server.address)
        alice.register(timeout=60)
        send_ten_and_check(world, alice, bob)
    finally:
        world.teardown()
        link.down()


def test_poor_network_proxy(world):
    # Plaintext: the proxy delays and stalls whole frames; the netem variant above runs over TLS.
    server = world.server("--plaintext")
    proxy = world.proxy(server)
    proxy.delay = 0.08           # per frame, each direction
    proxy.rate = 16 * 1024       # 16 KiB/s
    proxy.stall_chance = 0.25    # a lost segment: the frame waits for a retransmission
    proxy.stall_seconds = 0.6
    bob = world.user("bob", server.address)
    alice = world.client("alice", proxy.address)
    alice.register(timeout=60)
    send_ten_and_check(world, alice, bob)
