"""Scenario 6: rapid fire. Two users each send 25 messages as fast as they can: everything is
delivered, the conversation's order is identical for both, and nothing is duplicated."""
import pytest

from harness.checks import assert_same_view, mine, texts

pytestmark = pytest.mark.storage  # run again on PostgreSQL by run-all.sh

COUNT = 25


def test_rapid_fire_both_ways(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    world.contacts(alice, bob)  # strangers' DMs are message requests: no read receipts
    alice.cmd("/dm bob")
    bob.cmd("/open alice")

    from_alice = [f"a{i:02d} quick" for i in range(COUNT)]
    from_bob = [f"b{i:02d} quicker" for i in range(COUNT)]
    # Interleave the writes so both clients are sending at the same time.
    for a, b in zip(from_alice, from_bob):
        alice.say(a)
        bob.say(b)
    for c in (alice, bob):
        c.cmd("/wait sent 30", timeout=40)
    for c in (alice, bob):
        c.cmd(f"/wait-messages {2 * COUNT} 30", timeout=40)

    histories = {"alice": alice.history(), "bob": bob.history()}
    assert_same_view(histories)
    view = histories["alice"]
    assert len(view) == 2 * COUNT
    assert texts(mine(view, "alice")) == from_alice
    assert texts(mine(view, "bob")) == from_bob
    # Both have the conversation open, so everything ends up read by the other.
    alice.cmd("/wait read 20", timeout=30)
    bob.cmd("/wait read 20", timeout=30)
