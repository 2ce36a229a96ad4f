"""Scenario 33: the REPL while the server is down. The prompt says "offline" once and counts
down to the next attempt (never offline/reconnecting flicker); a command that needs the server
fails at once saying when the next attempt is; /quit leaves at once and says how many
messages stay queued, and they are sent on the next start."""
import re
import time

import pytest

from harness import screen
from harness.screen import open_dm, received, repl_user

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")

PROMPT = re.compile(rb"\[alice\|([^\]|]*)")


def test_offline_prompt_commands_and_quit(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server)
    open_dm(bob, "alice")

    server.kill()
    bob.wait_screen(lambda s: "[alice|offline" in s, what="the offline prompt")
    # Watch the prompt for three seconds of reconnect attempts (an observation window, not a wait).
    start = len(bob.raw_bytes())
    began = time.monotonic()
    time.sleep(3)
    watched = time.monotonic() - began
    states = [m.group(1) for m in PROMPT.finditer(bob.raw_bytes()[start:])]
    # No draw at all is fine (the state did not change); every draw says offline.
    assert "[alice|offline" in bob.text()
    assert all(s.startswith(b"offline") for s in states), states
    changes = sum(1 for a, b in zip(states, states[1:]) if a != b)
    print(f"prompt states over {watched:.1f}s offline: {len(states)} draws, {changes} changes: {set(states)}")
    assert changes <= watched + 1, states

    began = time.monotonic()
    bob.line("/profile alice")
    bob.wait_screen(lambda s: re.search(r"offline \(.*\): (next reconnect attempt in \d+ s|reconnecting now)",
                                        "".join(bob.lines())),
                    timeout=4, what="the offline error with the next attempt")
    print(f"/profile failed after {time.monotonic() - began:.2f}s")

    bob.line("sent while offline")
    bob.wait_screen(lambda s: "1 queued" in s, what="the queued count in the prompt")
    began = time.monotonic()
    bob.line("/quit")
    bob.wait_text("1 message(s) stay queued", timeout=4)
    # The exit status follows the scripts' rule: non-zero while something is left queued.
    assert bob.wait_exit(4) == 1
    print(f"/quit with one queued message exited after {time.monotonic() - began:.2f}s")

    server.start()
    mark = len(alice.events)
    again = world.client("bob", server.address)
    again.wait_online()
    assert received(alice, "bob", since=mark) == ["sent while offline"]
    assert again.close() == 0
