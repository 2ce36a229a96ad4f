"""Scenario 38: names people type. A group name with spaces in quotes; /open by a prefix of a
name, a clear list when the prefix fits several, and "no conversation or user named X"."""
import pytest

from harness import screen
from harness.screen import received, repl_user, starts_prompt

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")


def test_quoted_group_names_and_prefix_open(world):
    server = world.server()
    alice = world.user("alice", server.address)
    world.user("carol", server.address).close()
    world.user("launchpad", server.address).close()
    bob = repl_user(world, "bob", server, columns=100)

    bob.line('/group create "Launch team" alice carol')
    bob.wait_text("now in [Launch team]")
    bob.line("/dm launchpad")
    bob.wait_text("now in [launchpad]")

    bob.line("/open launch")
    bob.wait_text("launch could be")
    assert "[Launch team]" in bob.text() and "[launchpad]" in bob.text()
    bob.line("/open Launch t")
    bob.wait_screen(lambda s: starts_prompt(bob.cursor_line(), "Launch team"), what="the group by its prefix")
    alice.cmd('/open "Launch team"')
    mark = len(alice.events)
    bob.line("hello team")
    assert received(alice, "bob", since=mark) == ["hello team"]

    bob.line("/open nobody")
    bob.wait_text("no conversation or user named nobody")
