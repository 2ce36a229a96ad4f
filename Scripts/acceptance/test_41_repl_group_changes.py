"""Scenario 41: group changes are visible to the members: a rename, a member added, a member
leaving, each a notice line in the REPL (and a notice event in --json)."""
import pytest

from harness import screen
from harness.screen import repl_user

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")


def test_rename_add_and_leave_are_shown(world):
    server = world.server()
    alice = world.user("alice", server.address)
    carol = world.user("carol", server.address)
    world.user("dave", server.address).close()
    bob = repl_user(world, "bob", server, columns=100)

    alice.cmd("/group create Launch bob carol")
    bob.wait_text("you are in the group Launch")
    alice.cmd("/group rename Launch team")
    bob.wait_text("* [Launch] is now called [Launch team]")
    alice.cmd("/group add dave")
    bob.wait_text("* [Launch team] dave joined")
    carol.cmd("/open Launch team")
    carol.cmd("/group leave")
    bob.wait_text("* [Launch team] carol left")
    # Alice's copy of the notice travels on her own connection: wait for it, then check it came once.
    alice.wait_event(lambda e: e.get("type") == "notice" and "carol left" in e.get("text", ""), 20, what="the 'carol left' notice")
    notices = [e["text"] for e in alice.events.snapshot() if e.get("type") == "notice" and "carol left" in e.get("text", "")]
    assert notices == ["[Launch team] carol left"], notices
