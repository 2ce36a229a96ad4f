"""Scenario 1: two users online. Messages both ways arrive in order with their server time;
the sender sees sent, then delivered, then read once the other opens the conversation."""
import pytest

from harness.checks import assert_monotonic_states, assert_same_view, texts

pytestmark = pytest.mark.storage  # run again on PostgreSQL by run-all.sh


def incoming(sender):
    return lambda e: e.get("type") == "message" and e.get("sender") == sender


def first_positions(states):
    return {s: states.index(s) for s in ("sent", "delivered", "read") if s in states}


@pytest.mark.parametrize("transport", ["tls", "plaintext"])
def test_two_users_online(world, transport):
    # TLS is the default; the plaintext variant checks --plaintext on both ends still works.
    server = world.server(*(["--plaintext"] if transport == "plaintext" else []))
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    world.contacts(alice, bob)  # strangers' DMs are message requests: no read receipts
    alice.cmd("/dm bob")

    mark_bob = len(bob.events)
    mark_alice = len(alice.events)
    sent = [f"hello bob {i}" for i in range(3)]
    for text in sent:
        alice.say(text)
    got = bob.events.wait_count(incoming("alice"), 3, 15, mark_bob, what="bob: alice's messages")
    assert texts(got) == sent
    times = [e["server_time"] for e in got]
    assert all(t > 1_600_000_000_000 for t in times), times  # milliseconds since 1970, set by the server
    assert times == sorted(times)
    assert [e["seq"] for e in got] == sorted(e["seq"] for e in got)

    # Bob's client stored them, but he has not opened the conversation: delivered, not read.
    alice.cmd("/wait delivered 15", timeout=20)
    states = alice.states(mark_alice)
    assert len(states) == 3, states
    assert all("read" not in s for s in states.values()), states

    bob.cmd("/open alice")
    alice.cmd("/wait read 15", timeout=20)
    states = alice.states(mark_alice)
    assert_monotonic_states(states, "alice")
    for cid, seq in states.items():
        pos = first_positions(seq)
        assert list(pos) == ["sent", "delivered", "read"], f"{cid}: {seq}"
        assert pos["sent"] < pos["delivered"] < pos["read"], f"{cid}: {seq}"

    # The other way, while alice has the conversation open.
    mark_alice = len(alice.events)
    replies = [f"hi alice {i} ✓" for i in range(3)]
    for text in replies:
        bob.say(text)
    got = alice.events.wait_count(incoming("bob"), 3, 15, mark_alice, what="alice: bob's replies")
    assert texts(got) == replies
    assert all(e["server_time"] >= times[-1] for e in got)
    bob.cmd("/wait read 15", timeout=20)

    histories = {"alice": alice.history(), "bob": bob.history()}
    assert_same_view(histories)
    assert texts(histories["alice"]) == sent + replies
    assert len(server.stdout) == 0, f"the server wrote to stdout: {server.stdout.snapshot()[:3]}"
