"""Scenario 39: messages carry a short visible reference in the REPL (`#2`), and /info and
/history before accept it, or a count back from the newest (`-1`)."""
import pytest

from harness import screen
from harness.screen import open_dm, repl_user

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")


def test_references_shown_and_accepted(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server, columns=100, rows=40)
    open_dm(bob, "alice")
    alice.cmd("/dm bob")
    for word in ["one", "two", "three"]:
        alice.say(word)
    bob.wait_text("#3 alice: three")
    assert "#1 alice: one" in bob.text() and "#2 alice: two" in bob.text()

    bob.line("/info -1")
    bob.wait_text("message #3 from alice: received")
    bob.line("/info #2")
    bob.wait_text("message #2 from alice: received")
    bob.line("/history 5 before -1")
    # The command line itself first: until its echo is whole, the split finds no separator and
    # the whole screen (which shows #2 further up) would satisfy the wait (it raced under load).
    bob.wait_screen(lambda s: "/history 5 before -1" in s and "#2 alice: two" in s.split("/history 5 before -1")[-1],
                    what="the page before the last")
    page = bob.text().split("/history 5 before -1")[-1]
    assert "#1 alice: one" in page and "three" not in page, page
    bob.line("/info -9")
    bob.wait_text("/info [#SEQ, SEQ or -N (-1 is the last message)]")
