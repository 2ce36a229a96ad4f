"""Scenario 32: Ctrl-C in the REPL clears the half-typed line instead of quitting; on an
empty line it says how to leave; a second Ctrl-C, or Ctrl-D on an empty line, leaves."""
import pytest

from harness import screen
from harness.screen import open_dm, received, repl_user

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")


def test_ctrl_c_clears_the_line_and_twice_quits(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server)
    open_dm(bob, "alice")

    bob.type("half typed 東京")
    bob.wait_screen(lambda s: "half typed 東京" in s, what="the half-typed line")
    bob.key("ctrl-c")
    bob.wait_screen(lambda s: "half typed" not in bob.cursor_line(), what="the line cleared")
    assert bob.child.isalive()
    mark = len(alice.events)
    bob.line("fresh line")
    assert received(alice, "bob", since=mark) == ["fresh line"]

    bob.key("ctrl-c")
    bob.wait_text("Ctrl-C again or Ctrl-D to quit")
    assert bob.child.isalive()
    bob.key("ctrl-c")
    assert bob.wait_exit(10) == 0


def test_ctrl_d_on_an_empty_line_quits(world):
    server = world.server()
    world.user("alice", server.address)
    bob = repl_user(world, "bob", server)
    bob.type("x")
    bob.key("left")
    bob.key("ctrl-d")  # not empty: deletes the character under the cursor, does not quit
    bob.wait_screen(lambda s: bob.cursor_line().endswith(">"), what="the empty line")
    assert bob.child.isalive()
    bob.key("ctrl-d")
    assert bob.wait_exit(10) == 0
