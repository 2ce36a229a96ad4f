"""Scenario 34: 40- and 120-column terminals and a resize. A long line with wide characters
wraps over several rows; a message that arrives meanwhile is printed above it and the line
is drawn again once (no leftover rows); Enter sends it whole."""
import pytest

from harness import screen
from harness.screen import has_prompt, open_dm, received, repl_user, starts_prompt

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")



def long_line(tag):
    """About 90 columns without spaces: wide, accented and plain characters, marked at both ends."""
    return f"{tag}A-" + "東京" * 6 + "-" + "é" * 30 + "-" + "x" * 25 + f"-{tag}Z"


def flat(repl):
    return "".join(repl.lines())


def worded(repl):
    """The rows joined by spaces: messages wrap between words (issue 24), so a row break
    stands for the space it replaced."""
    return " ".join(repl.lines())


def typed_then_incoming(world, bob, alice, incoming, tag):
    line = long_line(tag)
    bob.type(line)
    bob.wait_screen(lambda s: f"-{tag}Z" in flat(bob), what="the long line drawn")
    alice.say(incoming)
    bob.wait_screen(lambda s: incoming in worded(bob), what=repr(incoming))
    bob.wait_screen(lambda s: flat(bob).count(f"-{tag}Z") == 1, what="the line drawn once again")
    text = worded(bob)
    assert flat(bob).count(f"{tag}A-") == 1, bob.text()
    assert text.index(incoming) < text.index(f"{tag}A-"), bob.text()  # above the input
    mark = len(alice.events)
    bob.key("enter")
    assert received(alice, "bob", since=mark) == [line]


@pytest.mark.parametrize("columns", [40, 120])
def test_long_line_and_incoming_message(world, columns):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server, columns=columns)
    open_dm(bob, "alice")
    alice.cmd("/dm bob")
    typed_then_incoming(world, bob, alice, f"hello at {columns} columns", "Q")


def test_resize_with_a_wrapped_line(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server, columns=120)
    open_dm(bob, "alice")
    alice.cmd("/dm bob")
    bob.line("/help")  # something on the screen above
    bob.resize(40)
    bob.wait_screen(lambda s: has_prompt(bob.cursor_line(), "alice"), what="the prompt after the resize")
    typed_then_incoming(world, bob, alice, "after the resize", "R")
    bob.resize(100)
    typed_then_incoming(world, bob, alice, "wider again", "S")
