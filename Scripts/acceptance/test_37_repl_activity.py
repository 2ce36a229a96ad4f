"""Scenario 37: other conversations in the REPL. A message elsewhere is a one-line notice
naming the conversation, the prompt keeps an activity list (`Act: carol 1`), /next jumps
there; opening a conversation shows its last messages with an unread marker; after a restart
the REPL is back in the conversation it was in."""
import pytest

from harness import screen
from harness.screen import ScreenClient, has_prompt, open_dm, received, repl_user

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")


def test_notices_activity_next_recap_and_restore(world):
    server = world.server()
    alice = world.user("alice", server.address)
    carol = world.user("carol", server.address)
    bob = repl_user(world, "bob", server, columns=100, rows=40)
    open_dm(bob, "alice")
    alice.cmd("/dm bob")
    carol.cmd("/dm bob")

    alice.say("said in the current conversation")
    bob.wait_text("alice: said in the current conversation")
    long = "psst from carol, this is a rather long message that goes on"
    carol.say(long)
    bob.wait_text(f"* [carol] carol: {long[:40]}… (1 unread, /next)")
    bob.wait_screen(lambda s: has_prompt(s, "alice", "|Act: carol 1"), what="the activity list")
    assert "goes on" not in bob.text()

    bob.line("/next")
    bob.wait_screen(lambda s: "goes on" in s.split("/next")[-1], what="the recap of carol's conversation")
    lines = bob.lines()
    at = max(i for i, l in enumerate(lines) if l == "now in [carol]")
    assert lines[at + 1] == "--- 1 unread ---", lines
    assert lines[at + 2].endswith("carol: " + long), lines
    bob.wait_screen(lambda s: has_prompt(bob.cursor_line(), "carol"), what="no activity left")
    bob.line("/next")
    bob.wait_text("no other conversation has unread messages")

    # Three arrive for alice's conversation meanwhile: /open shows the old one, the marker, the new.
    for i in range(3):
        alice.say(f"later {i}")
    bob.wait_text("Act: alice 3")
    bob.line("/open alice")
    bob.wait_screen(lambda s: "later 2" in s.split("/open alice")[-1], what="the recap of alice's conversation")
    lines = bob.lines()
    at = max(i for i, l in enumerate(lines) if l == "now in [alice]")
    shown = lines[at + 1:at + 6]
    assert shown[0].endswith("alice: said in the current conversation"), shown
    assert shown[1] == "--- 3 unread ---", shown
    assert [l.split(": ", 1)[1] for l in shown[2:]] == ["later 0", "later 1", "later 2"], shown

    # Restart: the REPL comes back in alice's conversation, and what is typed goes there.
    bob.line("/quit")
    bob.wait_exit(10)
    again = ScreenClient(world.client_exe, server.address, world.tmp / "clients" / "bob",
                         world.logs / "screen-bob-2.log", columns=100, rows=40)
    world.screens.append(again)
    again.wait_text("now in [alice]")
    again.wait_screen(lambda s: has_prompt(s, "alice"), what="the prompt back in alice's conversation")
    mark = len(alice.events)
    again.line("back again")
    assert received(alice, "bob", since=mark) == ["back again"]
