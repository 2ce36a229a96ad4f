"""Scenario 36: in the REPL a sent message is printed once; its state is a mark in the prompt
(✓ sent, ✓✓ delivered, ✓✓ read, read by N of M in a group), not a line per transition.
`--verbose` prints every transition, and --json keeps its state events (scenario 1 checks them)."""
import re

import pytest

from harness import screen
from harness.screen import has_prompt, open_dm, received, repl_user, starts_prompt

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")


def make_contacts(piped, repl, repl_name):
    """piped asks, the REPL user accepts: read receipts flow only between contacts (or after a
    reply to a message request)."""
    piped.cmd(f"/add {repl_name}")
    repl.line(f"/accept {piped.name}")
    repl.wait_text(f"{piped.name} is now a contact")


def test_one_line_per_message_and_a_mark_in_the_prompt(world):
    server = world.server()
    alice = world.user("alice", server.address)
    carol = world.user("carol", server.address)
    bob = repl_user(world, "bob", server)
    make_contacts(alice, bob, "bob")
    make_contacts(carol, bob, "bob")
    open_dm(bob, "alice")
    alice.cmd("/dm bob")  # alice looks at bob's conversation: what arrives is read

    bob.line("hello alice")
    received(alice, "bob")
    bob.wait_screen(lambda s: has_prompt(s, "alice", "|#1 ✓✓ read"), what="the read mark in the prompt")
    shown = bob.text()
    assert sum("hello alice" in l for l in bob.lines()) == 1, shown
    assert "sent: hello" not in shown and "delivered: hello" not in shown and "read: hello" not in shown

    # A group of three where only alice reads: read by 1 of 2.
    carol.cmd("/dm bob")
    bob.line("/group create team alice carol")
    bob.wait_screen(lambda s: any(starts_prompt(l, "team") for l in s.split("\n")), what="the group prompt")
    alice.cmd("/open team")
    bob.line("to the team")
    received(alice, "bob", 2)
    bob.wait_screen(lambda s: re.search(r"\[team, 3 members\|#\d+ ✓✓ read by 1 of 2\]>", s), what="read by 1 of 2")


def test_verbose_prints_every_transition(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server, extra_args=["--verbose"])
    make_contacts(alice, bob, "bob")
    open_dm(bob, "alice")
    alice.cmd("/dm bob")
    bob.line("tell me everything")
    bob.wait_screen(lambda s: "(sending)" in s and "sent: tell me" in s and "read: tell me" in s,
                    what="every transition as a line")
