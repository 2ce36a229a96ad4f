"""Scenario 3: the recipient's client runs but shows another conversation. Each new message
gives a notice, and the messages are there when the conversation is opened."""
import re

import pytest

from harness import pty_client
from harness.checks import texts
from harness.waiting import wait_until


def test_notices_while_in_another_conversation(world):
    server = world.server()
    carol = world.user("carol", server.address)
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    bob.cmd("/dm carol")  # bob is looking at carol's conversation
    carol.close()
    world.contacts(alice, bob)  # strangers' DMs are message requests: no read receipts
    alice.cmd("/dm bob")

    mark = len(bob.events)
    sent = [f"are you there? {i}" for i in range(3)]
    for text in sent:
        alice.say(text)

    # CONTRACT.md lists a "notice" event but does not say whether a message in another
    # conversation is announced by it or by the message event itself (marked with its unread
    # count): either counts, one per message, naming alice's conversation.
    def announcements():
        events = bob.events.snapshot(mark)
        notices = [e for e in events if e.get("type") == "notice" and e.get("conversation_id")
                   and "alice" in e.get("text", "")]
        flagged = [e for e in events if e.get("type") == "message" and e.get("sender") == "alice"
                   and "unread" in e]
        return flagged if len(flagged) >= 3 else notices if len(notices) >= 3 else None

    shown = wait_until(announcements, 15, "bob: a notice per message from alice")
    assert len(shown) == 3, shown
    assert len({n.get("conversation_id") for n in shown}) == 1
    if shown[0]["type"] == "message":
        assert texts(shown) == sent
        assert [n["unread"] for n in shown] == [1, 2, 3]
    # Not read yet: bob has not looked at alice's conversation.
    alice.cmd("/wait delivered 15", timeout=20)
    row = [c for c in bob.conversations() if "alice" in str(c.get("name"))][0]
    assert row["unread"] == 3

    # Bob is still in carol's conversation: what he types goes there.
    bob.say("still talking to carol")
    bob.cmd("/wait sent 15", timeout=20)
    assert texts(bob.history()) == ["still talking to carol"]

    bob.cmd("/open alice")
    assert texts(bob.history()) == sent
    alice.cmd("/wait read 15", timeout=20)


@pytest.mark.skipif(pty_client.pexpect is None, reason="pexpect is not installed")
def test_notice_in_the_interactive_repl(world):
    """The same in a real terminal: the notice line appears while another conversation is open,
    and the line being typed is still there afterwards."""
    server = world.server()
    alice = world.user("alice", server.address)
    world.user("carol", server.address).close()
    bob_pipe = world.user("bob", server.address)  # registers bob's data dir, then hands over to the REPL
    bob_pipe.cmd("/dm carol")
    assert bob_pipe.close() == 0

    bob = pty_client.PtyClient(world.client_exe, server.address, world.tmp / "clients" / "bob",
                               world.logs / "pty-bob.log")
    try:
        bob.expect(re.compile(r"\[carol[^|\]]*\]>"), timeout=20)  # the prompt names the connection only when not online
        bob.line("/open carol")
        bob.type("half typed")
        alice.cmd("/dm bob")
        alice.say("knock knock from alice")
        bob.expect(re.compile(r"alice.*knock knock from alice"), timeout=15)
        # The edit line is redrawn: finishing it sends the whole line to carol's conversation.
        bob.line(" line")
        carol = world.client("carol", server.address)
        carol.cmd("/open bob")
        carol.cmd("/wait-messages 1 15", timeout=20)
        assert texts(carol.history()) == ["half typed line"]
    finally:
        bob.close()
