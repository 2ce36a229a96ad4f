"""Scenario 43: colour in the REPL, as the terminal shows it: each sender's name in a colour
of its own (the same on every line), one's own messages grey, a message that mentions oneself
bold; none at all with NO_COLOR set."""
import re

import pytest

from harness import screen
from harness.screen import bare_environment, open_dm, repl_user

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")


def uniform(styles):
    assert len(set(styles)) == 1, styles
    return styles[0]


def test_names_own_messages_and_mentions_in_colour(world):
    server = world.server()
    alice = world.user("alice", server.address)
    env = bare_environment(world.tmp / "clients" / "bob")
    env.pop("NO_COLOR", None)
    bob = repl_user(world, "bob", server, columns=100, env=env)
    open_dm(bob, "alice")
    alice.cmd("/dm bob")
    alice.say("first from alice")
    alice.say("bob, are you there?")
    bob.wait_text("alice: bob, are you there?")
    bob.line("my own words")
    bob.wait_text("bob: my own words")

    name1 = uniform(bob.styles("alice: first")[:5])
    name2 = uniform(bob.styles("alice: bob, are")[:5])
    assert name1 == name2 and name1[0] != "default", (name1, name2)
    assert uniform(bob.styles("first from alice")) == ("default", False)
    assert uniform(bob.styles("bob, are you there?"))[1] is True, "a mention is bold"
    assert uniform(bob.styles("bob: my own words")) == ("brightblack", False), "own messages are grey"


def test_no_color_means_none(world):
    server = world.server()
    alice = world.user("alice", server.address)
    env = bare_environment(world.tmp / "clients" / "bob", NO_COLOR="1")
    bob = repl_user(world, "bob", server, columns=100, env=env)
    open_dm(bob, "alice")
    alice.cmd("/dm bob")
    alice.say("bob, plain please")
    bob.wait_text("alice: bob, plain please")
    assert uniform(bob.styles("alice: bob, plain please")) == ("default", False)
    assert not re.search(rb"\x1b\[(?:\d+;)*(?:3\d|9\d)m", bob.raw_bytes()), "no colour codes at all"
