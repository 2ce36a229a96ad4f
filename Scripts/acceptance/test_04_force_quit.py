"""Scenario 4: force-quit. A conversation with 20+ messages and 3 queued unsent ones; the client
is killed with kill -9 and started again: everything is readable before the server is reachable,
and the 3 queued messages are sent exactly once when it is."""
from harness.checks import assert_same_view, texts
from harness.waiting import wait_until


def test_force_quit_keeps_history_and_outbox(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    alice.cmd("/dm bob")
    bob.cmd("/open alice")

    exchanged = []
    for i in range(11):
        a, b = f"alice says {i}", f"bob says {i}"
        alice.say(a)
        alice.cmd("/wait sent 15", timeout=20)
        bob.say(b)
        bob.cmd("/wait sent 15", timeout=20)
        exchanged += [a, b]
    alice.cmd("/wait-messages 22 15", timeout=20)
    assert texts(alice.history()) == exchanged

    server.kill()
    queued = [f"written offline {i}" for i in range(3)]
    for text in queued:
        alice.say(text)
    wait_until(lambda: len(alice.queue()) == 3, 15, "alice's outbox to hold 3 messages", interval=0.2)
    alice.kill()

    alice.start()  # the server is still down
    alice.cmd("/open bob")
    shown = alice.history()
    assert texts(shown)[:22] == exchanged
    assert [m["text"] for m in shown[22:]] in ([], queued), "queued messages shown out of place"
    assert [m["text"] for m in alice.queue()] == queued

    server.start()
    alice.cmd("/wait sent 20", timeout=25)
    assert alice.queue() == []
    bob.cmd("/wait-messages 25 20", timeout=25)

    # A second force-quit after the drain must not send them again.
    alice.kill()
    alice.start()
    alice.cmd("/open bob")
    alice.say("after the second restart")
    alice.cmd("/wait sent 20", timeout=25)
    bob.cmd("/wait-messages 26 20", timeout=25)
    expected = exchanged + queued + ["after the second restart"]
    bob_view = bob.history()
    assert texts(bob_view) == expected
    alice.cmd("/wait-messages 26 15", timeout=20)
    assert_same_view({"alice": alice.history(), "bob": bob_view})


def test_force_quit_right_after_the_ack(world):
    """The user sends, sees it sent, and force-quits at once; restarted with no server, the
    message shows once (not also as queued), and nothing is left to send. (The client defers the
    outbox rewrite after an ack by up to 100 ms; on start it must drop entries already stored.)"""
    server = world.server()
    alice = world.user("alice", server.address)
    world.user("bob", server.address).close()
    alice.cmd("/dm bob")
    mark = len(alice.events)
    alice.say("sent, then force-quit")
    alice.wait_event(lambda e: e.get("type") == "state" and e.get("state") == "sent", 15, mark,
                     what="the message shown as sent")
    alice.kill()  # at once, as a user pressing the power button would
    server.kill()

    alice.start()
    alice.cmd("/open bob")
    shown = alice.history()
    assert [(m["text"], m["state"] != "sending") for m in shown] == [("sent, then force-quit", True)], shown
    assert alice.queue() == []
