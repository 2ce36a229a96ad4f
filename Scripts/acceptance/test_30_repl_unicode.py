"""Scenario 30: a person types accents, CJK, emoji with skin tone and ZWJ, and Arabic in the
REPL, with no locale set at all (a fresh container). The other user gets the text byte for
byte; the screen shows it; Backspace and the arrows work on whole graphemes."""
import pytest

from harness import screen
from harness.screen import open_dm, received, repl_user

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")

TYPED = "café 東京 👍🏽 👨‍👩‍👧 مرحبا"


def test_typed_text_arrives_byte_for_byte_without_a_locale(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server)  # LANG and LC_* unset
    open_dm(bob, "alice")

    bob.line(TYPED)
    [got] = received(alice, "bob")
    assert got.encode("utf-8") == TYPED.encode("utf-8")
    # bob sees his own line as typed. pyte drops the rest of a row after a ZWJ sequence (its
    # limitation, not the client's), so the Arabic is checked on a line of its own.
    bob.wait_screen(lambda s: "bob: café 東京 👍🏽" in s, what="bob's own message on his screen")
    bob.line("مرحبا بالعالم")
    assert received(alice, "bob", 2)[1] == "مرحبا بالعالم"
    bob.wait_screen(lambda s: "bob: مرحبا بالعالم" in s, what="the Arabic line on bob's screen")


def test_backspace_and_arrows_take_whole_graphemes(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server)
    open_dm(bob, "alice")

    mark = len(alice.events)
    # One Backspace removes the family (five code points) and the thumbs up with its tone (two).
    bob.type("ab👨‍👩‍👧")
    bob.key("backspace")
    bob.type("c👍🏽")
    bob.key("backspace")
    bob.line("d")
    # Left over a toned emoji as one step, insert before it; right steps over it again.
    bob.type("x👍🏽y")
    bob.key("left")
    bob.key("left")
    bob.type("<")
    bob.key("right")
    bob.line(">")
    assert received(alice, "bob", 2, since=mark) == ["abcd", "x<👍🏽>y"]
