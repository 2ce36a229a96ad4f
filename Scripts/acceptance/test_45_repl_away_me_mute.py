"""Scenario 45: the commands people bring from irssi, WeeChat and Slack. /away with a text
shows in the peer's prompt and as a line, /back clears it, and it outlasts a restart; the
prompt names the peer's presence or last seen, a group's size, the connection only when it is
not online; /me is an action on both screens (and plain text for an old client); /mute
silences a conversation except for mentions; /unread, /mentions and /clear."""
import os
import stat

import pytest

from harness import screen
from harness.screen import has_prompt, open_dm, received, repl_user
from harness.waiting import wait_until

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")


def test_away_prompt_presence_and_actions(world):
    server = world.server()
    alice = world.user("alice", server.address)
    carol = world.user("carol", server.address)
    bob = repl_user(world, "bob", server, columns=100, rows=40)
    alice.cmd("/add bob")
    bob.line("/accept alice")
    bob.wait_text("alice is now a contact")
    open_dm(bob, "alice")
    bob.wait_screen(lambda s: "[alice (online)]>" in s, what="the peer's presence in the prompt")

    alice.cmd("/away lunch 🍜, back at 2")
    bob.wait_text("* alice is away: lunch 🍜, back at 2")
    bob.wait_screen(lambda s: "[alice (away: lunch 🍜, back at 2)]>" in s, what="away in the prompt")
    alice.cmd("/back")
    bob.wait_text("* alice is back")
    bob.wait_screen(lambda s: "[alice (online)]>" in s, what="online again")

    # Away outlasts the client going and coming back; offline shows last seen.
    alice.cmd("/away gone fishing")
    bob.wait_screen(lambda s: "[alice (away: gone fishing)]>" in s, what="away again")
    assert alice.close() == 0
    bob.wait_text("* alice is offline (away: gone fishing)")
    bob.wait_screen(lambda s: "[alice (away: gone fishing)]>" in s, what="still away while offline")
    alice = world.client("alice", server.address)
    alice.wait_online()
    profile = alice.cmd("/profile")
    assert profile["away"] is True and profile["away_message"] == "gone fishing", profile
    alice.cmd("/back")
    assert alice.close() == 0
    bob.wait_screen(lambda s: "[alice, seen just now]>" in s, what="last seen in the prompt")

    # /me: an action on the REPL's screen, and text with "/me " for a client that reads the text.
    alice = world.client("alice", server.address)
    alice.wait_online()
    alice.cmd("/dm bob")
    mark = len(alice.events)
    bob.line("/me waves 👋🏽")
    assert received(alice, "bob", since=mark) == ["/me waves 👋🏽"]
    event = [e for e in alice.events.snapshot()[mark:] if e.get("type") == "message"][-1]
    assert event["action"] == "waves 👋🏽", event
    bob.wait_screen(lambda s: any(l.endswith("* bob waves 👋🏽") for l in s.split("\n")), what="bob's own action")
    alice.cmd("/me nods")
    bob.wait_screen(lambda s: any(l.endswith("* alice nods") for l in s.split("\n")), what="alice's action")
    assert "alice: /me nods" not in bob.text()

    # A group's prompt shows its size.
    bob.line("/group create crew alice carol")
    bob.wait_screen(lambda s: "[crew, 3 members]>" in s, what="the group's size in the prompt")


def test_mute_unread_mentions_and_clear(world):
    server = world.server()
    alice = world.user("alice", server.address)
    carol = world.user("carol", server.address)
    notified = world.tmp / "notified.txt"
    script = world.tmp / "notify.sh"
    script.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$1\" >> '{notified}'\n")
    os.chmod(script, stat.S_IRWXU)
    bob = repl_user(world, "bob", server, columns=100, rows=40, extra_args=("--notify-command", str(script)))
    bob.line("/group create noisy alice carol")
    bob.wait_text("now in [noisy]")
    bob.line("/mute")
    bob.wait_text("[noisy] is muted")
    open_dm(bob, "alice")
    carol.cmd("/open noisy")
    carol.say("chatter nobody needs to hear")
    bob.wait_text("* [noisy] carol: chatter nobody needs to hear")
    carol.say("@bob this one is for you")
    bob.wait_text("* [noisy] carol: @bob this one is for you")
    alice.cmd("/dm bob")
    carol.cmd("/dm bob")
    carol.say("a direct word")
    bob.wait_text("* [carol] carol: a direct word")
    wait_until(lambda: notified.exists() and "a direct word" in notified.read_text(), 10, what="the DM's notification")
    lines = notified.read_text().splitlines()
    assert not any("chatter" in l for l in lines), lines
    assert any("this one is for you" in l for l in lines), "a mention rings even in a muted conversation"
    # Muted conversations stay out of the activity list.
    bob.wait_screen(lambda s: has_prompt(s, "alice", "|Act: carol 1"), what="only carol in Act:")

    bob.line("/unread")
    bob.wait_text("noisy: 2 unread (muted)")
    assert "carol: 1 unread" in bob.text()
    bob.line("/mentions")
    bob.wait_screen(lambda s: any(l.endswith("carol: @bob this one is for you") for l in s.split("\n")),
                    what="the mention listed")
    bob.line("/unmute noisy")
    bob.wait_text("[noisy] is not muted")
    bob.line("/unmute noisy")
    bob.wait_text("[noisy] was already not muted")

    bob.type("half typed")
    bob.key("ctrl-c")
    bob.line("/clear")
    bob.wait_screen(lambda s: "chatter" not in s and "/unread" not in s, what="a cleared screen")
    # The prompt is redrawn after the screen is cleared: wait for it, do not read it at once.
    bob.wait_screen(lambda s: has_prompt(s, "alice", "|Act: carol 1, noisy 2"), what="the prompt redrawn with noisy back in Act:")
