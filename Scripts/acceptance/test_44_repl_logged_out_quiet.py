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
    repl.wait_screen(lambda s: "[not logged in]>" in s, 20, what="the logged-out prompt")
    # Two login deadlines pass: the server closed the client's connection at least twice.
    wait_until(lambda: sum("closed (deadline" in line for line in server.stderr.snapshot()) >= 2,
               15, what="two login-deadline closes in the server log")
    repl.wait_screen(lambda s: "[not logged in]>" in s, 10, what="back online")
    # The online prompt no longer names the connection, so it looks the same before a close
    # and after the reconnect: the server's log says when a fresh connection said HELLO after
    # the latest close, which leaves /register the whole login window.
    def counts():
        lines = server.stderr.snapshot()
        return sum("closed (deadline" in l for l in lines), sum(", protocol " in l for l in lines)
    assert "connection lost" not in repl.text(), repl.text()
    assert repl.text().count("connected to") == 1, repl.text()  # the start's own line only
    # This server's login window is 1 s, TLS handshake included, shorter than any person's
    # typing: a /register that meets the close is lost with a clear error, and typed again.
    for attempt in range(3):
        closes = counts()[0]
        wait_until(lambda: counts()[0] > closes, 10, what="the next login-deadline close")
        wait_until(lambda: counts()[1] > counts()[0], 10, what="a fresh connection after it")
        lost = repl.text().count("connection to the server was lost")
        repl.line("/register dana@example.test dana correct-horse-42 Dana")
        wait_until(lambda: "logged in as dana" in repl.text() or repl.text().count("connection to the server was lost") > lost,
                   20, what="the answer to /register")
        if "logged in as dana" in repl.text():
            break
    repl.wait_text("logged in as dana", timeout=20)
