"""Scenario 35: /help in a terminal wraps at word boundaries to the terminal's width, at 40
columns and at 100, and says the same words as the command table."""
import pytest

from harness import screen
from harness.screen import repl_user

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")

FIND_HELP = "search messages by word, newest first, queued ones too (same rules online and offline)"


def rows_after(repl, first, count):
    lines = repl.lines()
    start = max(i for i, l in enumerate(lines) if l.startswith(first))
    return lines[start + 1:start + 1 + count]


@pytest.mark.parametrize("columns", [40, 100])
def test_help_wraps_between_words(world, columns):
    server = world.server()
    bob = repl_user(world, "bob", server, columns=columns, rows=60)
    bob.line("/help find")
    bob.wait_text("and offline)")
    body = rows_after(bob, "/find QUERY...", 3)
    body = body[:next((i + 1 for i, l in enumerate(body) if l.endswith("offline)")), len(body))]
    assert all(l.startswith("    ") and len(l) < columns for l in body), body
    assert " ".join(l.strip() for l in body) == FIND_HELP

    bob.line("/help")
    bob.wait_text("/quit")
    shown = bob.lines()
    words = {w for l in shown for w in l.split()}
    for word in ["conversation", "messages", "current", "outbox"]:
        assert any(word in w for w in words), (word, bob.text())
    # A word the terminal had to break: a row filled to the last column by a letter, and the
    # next row going on with letters.
    split = [(a, b) for a, b in zip(shown, shown[1:]) if len(a) == columns and a[-1].isalnum() and b[:1].isalnum()]
    assert not split, split
