"""Scenario 46 (issue 24): a long line edited in the middle is drawn right, and messages wrap
between words. A 959-character line pasted, Home, `START ` typed: rows 3 and 4 of the input
showed fragments until Ctrl-L. A message wider than the terminal broke in the middle of words."""
import pytest

from harness import screen
from harness.screen import open_dm, received, repl_user

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")

COLUMNS = 80


def words(count, tail="abc"):
    return " ".join(f"w{i:03d}{tail}" for i in range(count))


def full_rows(repl):
    """The screen's rows at full width (a wrapped line continues in the next row)."""
    with repl.lock:
        return list(repl.screen.display)


def input_text(repl, prompt_start):
    """The rows from the last one starting with `prompt_start` to the bottom, joined."""
    rows = full_rows(repl)
    starts = [i for i, r in enumerate(rows) if r.startswith(prompt_start)]
    if not starts:
        return ""
    return "".join(rows[starts[-1]:]).rstrip()


def test_home_and_typing_in_a_long_line_redraws_it_whole(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server, columns=COLUMNS, rows=30)
    open_dm(bob, "alice")
    alice.cmd("/dm bob")
    line = words(120)
    assert len(line) == 959
    bob.paste(line)
    tail = line[-20:]
    bob.wait_screen(lambda s: tail in input_text(bob, "[alice"), what="the pasted line")
    bob.type("\x1b[H")  # Home
    bob.type("START ")
    expected = "START " + line
    bob.wait_screen(lambda s: expected in input_text(bob, "[alice"), timeout=10,
                    what="the whole edited line, row after row, with no fragments")
    rows = full_rows(bob)
    prompt_row = max(i for i, r in enumerate(rows) if r.startswith("[alice"))
    drawn = "".join(rows[prompt_row:])
    assert drawn.rstrip().endswith(line[-40:]), "\n".join(rows)
    mark = len(alice.events)
    bob.key("enter")
    assert received(alice, "bob", since=mark) == [expected]


def test_messages_wrap_between_words(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server, columns=COLUMNS, rows=30)
    open_dm(bob, "alice")
    alice.cmd("/dm bob")
    text = words(40, tail="abcd")  # 359 columns, words that do not line up with the rows
    alice.say(text)
    bob.wait_screen(lambda s: "w039abcd" in s, what="the message")
    rows = [r.rstrip() for r in full_rows(bob)]
    first = next(i for i, r in enumerate(rows) if "alice: w000abcd" in r)
    shown = []
    for r in rows[first:]:
        if r.startswith("[alice]>"):  # the prompt, below the message
            break
        shown.extend(r.split())
    expected = text.split()
    assert shown[shown.index("w000abcd"):][:len(expected)] == expected, "\n".join(rows)
