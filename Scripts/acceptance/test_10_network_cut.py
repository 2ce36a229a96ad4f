"""Scenario 10: the network is cut mid-send. A proxy between alice's client and the server
(1) forwards only part of a SEND frame and drops the connection, and (2) lets a SEND through but
drops the server's SEND_ACK and the connection: the server committed, the client never heard.
Either way the message appears exactly once once the client has reconnected and resent."""
import pytest

from harness.checks import assert_same_view, texts
from harness.proxy import SEND, SEND_ACK


def make_pair(world, *server_flags):
    # Plaintext: the proxy cuts the connection inside a frame, which it cannot see under TLS.
    server = world.server("--plaintext", *server_flags)
    proxy = world.proxy(server)
    bob = world.user("bob", server.address)
    alice = world.client("alice", proxy.address)
    alice.register()
    alice.cmd("/dm bob")
    bob.cmd("/open alice")
    alice.say("before the cut")
    alice.cmd("/wait sent 15", timeout=20)
    return server, proxy, alice, bob


@pytest.fixture
def pair(world):
    return make_pair(world)


def check_exactly_once(alice, bob, expected):
    alice.cmd("/wait sent 30", timeout=40)
    bob.cmd(f"/wait-messages {len(expected)} 20", timeout=30)
    got = bob.history()
    assert texts(got) == expected
    assert_same_view({"alice": alice.history(), "bob": got})


@pytest.mark.parametrize("keep", [12, 20])
def test_cut_in_the_middle_of_a_send_frame(pair, keep):
    server, proxy, alice, bob = pair
    seen = proxy.connections_seen
    proxy.cut_client_frame(SEND, keep_bytes=keep)  # header plus a few payload bytes
    alice.say("cut mid-frame")
    assert proxy.triggered.wait(15), "the client never sent the frame"
    check_exactly_once(alice, bob, ["before the cut", "cut mid-frame"])
    assert proxy.connections_seen > seen, "the client did not reconnect"
    assert server.alive()


def test_cut_after_commit_before_ack(pair):
    server, proxy, alice, bob = pair
    mark = len(alice.events)
    proxy.drop_server_frame(SEND_ACK)
    alice.say("committed but unacknowledged")
    assert proxy.triggered.wait(15), "the server never acknowledged"
    check_exactly_once(alice, bob, ["before the cut", "committed but unacknowledged"])
    sent = [cid for cid, s in alice.states(mark).items() if "sent" in s]
    assert len(sent) == 1, alice.states(mark)
    # More traffic afterwards keeps the count right: the resend was not stored a second time.
    alice.say("after the cut")
    check_exactly_once(alice, bob, ["before the cut", "committed but unacknowledged", "after the cut"])


def test_link_stalls_silently(world):
    """No reset, no close: the link just stops carrying bytes (a dead Wi-Fi). Keepalive finds
    out (short ping interval and idle timeout from the server's flags), the client reconnects
    once the link is back, and the message written during the stall arrives exactly once."""
    server, proxy, alice, bob = make_pair(world, "--idle-timeout", "3", "--ping-interval", "1")
    mark = len(alice.events)
    proxy.pause()
    alice.say("written during the stall")
    alice.wait_event(lambda e: e.get("type") == "connection" and e.get("state") != "online", 20, mark,
                     what="the client noticing the dead link")
    proxy.resume()
    check_exactly_once(alice, bob, ["before the cut", "written during the stall"])
    assert server.alive()
