"""Scenario 44: a REPL left logged out. The server closes a connection that has not logged in
after its login deadline; the client reconnects each time. The terminal is not told about that
routine reconnect (it would otherwise say "connection lost" every minute while a new user reads
/help), and the REPL still works: /register goes through afterwards."""
import pytest

from harness import screen
from harness.screen import ScreenClient
from harness.waiting import wait_until

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")


def test_logged_out_repl_reconnects_quietly(world):
    server = world.server("--login-timeout", "1", "--log-level", "debug")
    repl = ScreenClient(world.client_exe, server.address, world.tmp / "clients" / "dana",
                        world.logs / "screen-dana.log")
    world.screens = getattr(world, "screens", []) + [repl]
    repl.wait_screen(lambda s: "[not logged in|online]>" in s, 20, what="the logged-out prompt")
    # Two login deadlines pass: the server closed the client's connection at least twice.
    wait_until(lambda: sum("closed (deadline" in line for line in server.stderr.snapshot()) >= 2,
               15, what="two login-deadline closes in the server log")
    repl.wait_screen(lambda s: "[not logged in|online]>" in s, 10, what="back online")
    assert "connection lost" not in repl.text(), repl.text()
    assert repl.text().count("connected to") == 1, repl.text()  # the start's own line only
    repl.line("/register dana@example.test dana correct-horse-42 Dana")
    repl.wait_text("logged in as dana", timeout=20)
