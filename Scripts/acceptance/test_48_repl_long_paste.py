"""Scenario 46: a long single-line paste in the REPL (issue 24). Pasting 8,000 'g' on one line
made the client abort with `malloc(): invalid next size` (12,000 too, and 5,000 after an earlier
4,000-character line): libedit's readline layer wrote past its own line buffer. Now each paste
under the limit arrives whole, one over it gets the length error, and the client stays usable."""
import os
import time

import pytest

from harness import screen
from harness.screen import open_dm, received, repl_user

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")


def send_raw(repl, data):
    """All of `data` to the pty at once (a long write may be taken in parts)."""
    view = memoryview(data)
    while view:
        view = view[os.write(repl.child.child_fd, view):]


def send_paste(repl, alice, text, since):
    repl.paste(text)
    repl.key("enter")
    return received(alice, "bob", since=since, timeout=30)


def test_long_single_line_pastes_do_not_crash(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server)
    open_dm(bob, "alice")

    # The sequence: 8,000 in a fresh client, then 4,000 followed by 5,000.
    for size in (8_000, 4_000, 5_000, 9_000):
        mark = len(alice.events)
        text = "g" * size
        assert send_paste(bob, alice, text, mark) == [text], f"the paste of {size}"
        assert bob.child.isalive(), f"the client died after a paste of {size}:\n{bob.text()}"

    # Over the limit (counted in Unicode scalars): the length error, nothing sent, still alive.
    bob.paste("g" * 12_000)
    bob.key("enter")
    bob.wait_text("the message has 12000 characters; the limit is 10000", timeout=30)
    assert bob.child.isalive()
    mark = len(alice.events)
    bob.line("still here")
    assert received(alice, "bob", since=mark) == ["still here"]
    assert b"malloc()" not in bob.raw_bytes() and b"Program crashed" not in bob.raw_bytes()

    # A paste that pauses in the middle (a stalled link: 2 s without a byte) is still one paste:
    # its second half was typed key by key when a paste ended after 1 s of silence.
    mark = len(alice.events)
    first, rest = "h" * 3_000, "i" * 3_000
    send_raw(bob, b"\x1b[200~" + first.encode())
    time.sleep(2)  # the pause is the input under test, not a wait for an outcome
    send_raw(bob, rest.encode() + b"\x1b[201~")
    bob.key("enter")
    assert received(alice, "bob", since=mark, timeout=30) == [first + rest]

    bob.line("/quit")
    # Non-zero: one message failed for good (too long), as the README says of the exit status.
    assert bob.wait_exit(10) == 1
