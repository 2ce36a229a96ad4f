"""Scenario 42: Tab completes by context: commands first on the line, group subcommands,
conversations after /open, usernames after /dm, members of the current conversation after @."""
import pytest

from harness import screen
from harness.screen import received, repl_user, starts_prompt

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")


def test_tab_completes_by_context(world):
    server = world.server()
    alice = world.user("alice", server.address)
    world.user("carol", server.address).close()
    bob = repl_user(world, "bob", server, columns=100)
    bob.line("/dm alice")
    bob.wait_text("now in [alice]")
    bob.line("/group create crew alice carol")
    bob.wait_text("now in [crew]")
    bob.line("/dm alice")
    bob.wait_screen(lambda s: starts_prompt(bob.cursor_line(), "alice"), what="back with alice")

    bob.type("/gr\t")
    bob.type("cr\t")
    bob.wait_screen(lambda s: bob.cursor_line().endswith("/group create"), what="/group create completed")
    bob.key("ctrl-c")
    bob.type("/op\tcr\t")
    bob.wait_screen(lambda s: bob.cursor_line().endswith("/open crew"), what="/open crew completed")
    bob.key("enter")
    bob.wait_screen(lambda s: starts_prompt(bob.cursor_line(), "crew"), what="the group opened")

    alice.cmd("/open crew")
    mark = len(alice.events)
    bob.type("thanks @ca\t")
    bob.wait_screen(lambda s: "thanks @carol" in bob.cursor_line(), what="@carol completed from the members")
    bob.key("enter")
    assert received(alice, "bob", since=mark)[0].rstrip() == "thanks @carol"
    bob.type("東京 café @ca\t")  # the word's position counted in characters, not bytes
    bob.wait_screen(lambda s: "東京 café @carol" in bob.cursor_line(), what="@carol after non-ASCII text")
    bob.key("ctrl-c")
    bob.type("/dm ca\t")
    bob.wait_screen(lambda s: bob.cursor_line().endswith("/dm carol"), what="a username after /dm")
