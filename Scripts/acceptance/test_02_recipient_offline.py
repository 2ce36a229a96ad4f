"""Scenario 2: the recipient is offline; five messages are sent. When the recipient starts it gets
all five at once, in order, with an unread count of 5, and the sender's states become delivered."""
import pytest

from harness.checks import assert_same_view, texts
from harness.waiting import wait_until

pytestmark = pytest.mark.storage  # run again on PostgreSQL by run-all.sh


@pytest.mark.parametrize("transport", ["tls", "plaintext"])
def test_recipient_offline(world, transport):
    # TLS is the default; the plaintext variant checks --plaintext on both ends still works.
    server = world.server(*(["--plaintext"] if transport == "plaintext" else []))
    bob = world.user("bob", server.address)
    alice = world.user("alice", server.address)
    world.contacts(alice, bob)  # strangers' DMs are message requests: no read receipts
    assert bob.close() == 0  # bob quits: he is offline from now on
    alice.cmd("/dm bob")

    sent = [f"while you were away {i}" for i in range(1, 6)]
    mark = len(alice.events)
    for text in sent:
        alice.say(text)
    alice.cmd("/wait sent 15", timeout=20)
    states = alice.states(mark)
    assert len(states) == 5
    assert all("delivered" not in s and "read" not in s for s in states.values()), states

    bob.start()  # same data dir: the saved session resumes without a password
    caught_up = bob.events.wait_count(lambda e: e.get("type") == "message" and e.get("sender") == "alice",
                                      5, 20, what="bob: the five messages on start-up")
    assert texts(caught_up) == sent

    def alice_row():
        rows = [c for c in bob.conversations() if "alice" in str(c.get("name", ""))]
        return rows[0] if rows and rows[0].get("unread") == 5 else None

    row = wait_until(alice_row, 20, "bob's list to show the conversation with alice, unread 5",
                     interval=0.3)
    assert row["last_text"] == sent[-1]

    alice.cmd("/wait delivered 15", timeout=20)
    bob.cmd("/open alice")
    got = bob.history()
    assert texts(got) == sent
    alice.cmd("/wait read 15", timeout=20)
    assert_same_view({"alice": alice.history(), "bob": got})
    assert [c for c in bob.conversations() if "alice" in str(c.get("name"))][0]["unread"] == 0
