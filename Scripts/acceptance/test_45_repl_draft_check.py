"""Scenario 45: the pre-send check. A draft typed in the REPL that the reader would have to ask
about ("Can you revert that?" with nothing named before it) is held: the reasons show above the
prompt, the draft stays on the line as typed, and Enter sends it as is; an edit is judged again;
Ctrl-C cancels. A message arriving meanwhile prints above without breaking the held line.
Piped input is never held up unless it asks (--check)."""
import pytest

from harness import screen
from harness.screen import open_dm, received, repl_user

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")

FLAGGED = "Can you revert that? ça presse 🙏🏽"


def test_a_flagged_draft_is_held_on_the_line_and_enter_sends_it_as_is(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server)
    open_dm(bob, "alice")

    mark = len(alice.events)
    bob.line(FLAGGED)
    bob.wait_text("check: this draft may need a second look")
    bob.wait_text("'that' has nothing to refer to here")
    bob.wait_screen(lambda s: FLAGGED in bob.cursor_line(), what="the draft back on the line, as typed")

    # Something arrives while the draft waits: printed above, the draft stays on the line.
    alice.cmd("/dm bob")
    alice.say("are you around?")
    bob.wait_text("alice: are you around?")
    bob.wait_screen(lambda s: FLAGGED in bob.cursor_line(), what="the held draft intact under the incoming line")
    assert not [e for e in alice.events.snapshot(mark) if e.get("type") == "message" and e.get("sender") == "bob"], \
        "a held draft is not sent"

    bob.key("enter")  # send as is
    assert received(alice, "bob", since=mark) == [FLAGGED]
    bob.wait_screen(lambda s: FLAGGED not in bob.cursor_line(), what="the line cleared after sending")


def test_an_edited_draft_is_judged_again_and_ctrl_c_cancels(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server)
    open_dm(bob, "alice")
    mark = len(alice.events)

    bob.line("Please fix it")
    bob.wait_text("check: this draft may need a second look")
    bob.wait_screen(lambda s: "Please fix it" in bob.cursor_line(), what="the held draft")
    for _ in range(2):
        bob.key("backspace")
    bob.line("the login-timeout bug in 2.4 by Friday")  # named and timed: clean, so sent
    assert received(alice, "bob", since=mark) == ["Please fix the login-timeout bug in 2.4 by Friday"]

    mark = len(alice.events)
    bob.line("Send me the doc whenever.")  # which doc, and when?
    bob.wait_screen(lambda s: "Send me the doc whenever." in bob.cursor_line(), what="the held draft")
    bob.key("ctrl-c")
    bob.wait_text("draft not sent")
    bob.wait_screen(lambda s: "the doc" not in bob.cursor_line(), what="the line cleared")
    bob.line("/check mode off")
    bob.wait_text("pre-send check: off")
    bob.line("Send me the doc whenever, really.")
    assert received(alice, "bob", since=mark) == ["Send me the doc whenever, really."], \
        "the cancelled draft is never sent; with the check off a draft goes at once"


def test_piped_input_is_held_up_only_when_it_asks(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)  # piped, default: no check
    bob.cmd("/dm alice")
    mark = len(alice.events)
    bob.say("Can you revert that?")
    assert received(alice, "bob", since=mark) == ["Can you revert that?"]
    assert not bob.of_type("draft_check")

    carol = world.user("carol", server.address, "--check", "confirm")
    carol.cmd("/dm alice")
    since = len(carol.events)
    carol.say("Can you revert that?")
    check = carol.wait_event(lambda e: e.get("type") == "draft_check", since=since, what="the check's report")
    assert check["outcome"] == "not_sent" and check["flags"][0]["task"] == "clarity"
    carol.wait_event(lambda e: e.get("type") == "error" and e.get("code") == "flagged", since=since, what="the refusal")
    carol.cmd("/check mode warn")
    carol.say("Can you revert that?")
    assert received(alice, "carol") == ["Can you revert that?"], "warn reports and sends"
