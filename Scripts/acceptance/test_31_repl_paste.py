"""Scenario 31: pasting into the REPL. Bracketed paste is on while it runs: five pasted lines,
one of them `/quit`, become one message and run no command; a longer paste is shown and sent
only after "y"; the mode is turned off again at exit."""
import pytest

from harness import screen
from harness.screen import BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, open_dm, received, repl_user

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")

FIVE = "error at step 3:\n/quit\n  at main.swift:12\n/help\nretrying… done ✓"


def test_a_paste_is_one_message_never_commands(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server)
    assert BRACKETED_PASTE_ON in bob.raw_bytes()
    open_dm(bob, "alice")

    mark = len(alice.events)
    bob.type("half ")
    bob.paste(FIVE)
    assert received(alice, "bob", since=mark) == [FIVE]
    # Not run: the client is still there, no help table, and the half-typed word waits.
    bob.line("typed")
    assert received(alice, "bob", 2, since=mark)[1] == "half typed"
    assert bob.child.isalive()
    assert "/register EMAIL" not in bob.text()

    # Longer than five lines: shown, asked, sent after "y"; a "no" sends nothing.
    long = "\n".join(f"log line {i}" for i in range(1, 13))
    bob.paste(long)
    bob.wait_text("send these 12 lines as one message? [y/N]")
    assert "log line 1" in bob.text() and "9 more line(s)" in bob.text()
    bob.line("y")
    assert received(alice, "bob", 3, since=mark)[2] == long
    bob.paste(long.replace("log", "secret"))
    bob.wait_text("send these 12 lines as one message? [y/N]")
    bob.line("n")
    bob.wait_text("paste not sent")
    bob.line("after the refused paste")
    assert received(alice, "bob", 4, since=mark)[3] == "after the refused paste"

    bob.line("/quit")
    bob.wait_exit(10)
    assert bob.raw_bytes().rfind(BRACKETED_PASTE_OFF) > bob.raw_bytes().rfind(BRACKETED_PASTE_ON)
