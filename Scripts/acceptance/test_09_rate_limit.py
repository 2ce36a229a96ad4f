"""Scenario 9: rate limiting. 150 messages in a burst against a limit of 100 per window (the
window scaled down to 20 s by --rate-window): past the limit the client says it is
limited and keeps the rest queued; all 150 arrive once the limit resets, in order, once."""
import json

from harness.checks import assert_same_view, texts

# The bucket refills at LIMIT/WINDOW per second: with a 20 s window that is 5/s, slow enough
# that even a loaded machine sending one message at a time outruns it well before 150.
LIMIT, WINDOW, BURST = 100, 20, 150


def says_limited(e):
    if e.get("type") not in ("error", "notice", "state", "_raw"):
        return False
    blob = json.dumps(e).lower()
    return "rate" in blob and "limit" in blob


def test_rate_limit_burst(world):
    server = world.server("--rate-limit", str(LIMIT), "--rate-window", str(WINDOW))
    bob = world.user("bob", server.address)
    alice = world.user("alice", server.address)
    alice.cmd("/dm bob")
    bob.cmd("/open alice")

    burst = [f"burst {i:03d}" for i in range(BURST)]
    mark = len(alice.events)
    for text in burst:
        alice.say(text)
    alice.wait_event(says_limited, 30, mark, what="the client saying it is rate limited")
    # While limited the rest waits in the outbox; nothing is dropped.
    pending = alice.queue()
    assert pending, "nothing queued right after the limit was hit"
    assert texts(pending) == burst[-len(pending):], "the outbox lost or reordered messages"

    alice.cmd(f"/wait sent {WINDOW * 6}", timeout=WINDOW * 6 + 10)
    bob.cmd(f"/wait-messages {BURST} 20", timeout=30)
    got = bob.history(BURST + 50)
    assert texts(got) == burst
    assert_same_view({"alice": alice.history(BURST + 50), "bob": got})
    failed = [cid for cid, s in alice.states(mark).items() if "failed" in s]
    assert not failed, f"rate limiting marked messages failed: {failed}"
