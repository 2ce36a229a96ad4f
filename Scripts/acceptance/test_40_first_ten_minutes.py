"""Scenario 40: a new user's first ten minutes, in two real terminals with no locale set.
Register (password asked without echo), contact each other, a DM with emoji both ways, a
group with a two-word name, a paste, a message written while the server is down, /quit and
back in the same conversation. A password prompt does not stop the network: a message sent
meanwhile is delivered, and shown once the password is entered."""
import pytest

from harness import screen
from harness.client import PASSWORD
from harness.screen import ScreenClient, received, starts_prompt

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")


def fresh(world, name, server):
    repl = ScreenClient(world.client_exe, server.address, world.tmp / "clients" / name,
                        world.logs / f"screen-{name}.log", columns=100, rows=40)
    world.screens = getattr(world, "screens", []) + [repl]
    return repl


def register(repl, name):
    repl.wait_text("[not logged in]>")
    repl.line(f"/register {name}@example.com {name}")
    repl.wait_text("password:")
    repl.line(PASSWORD)
    repl.wait_text(f"registered and logged in as {name}")
    assert PASSWORD not in repl.text()


def test_first_ten_minutes(world):
    server = world.server()
    alice, bob = fresh(world, "alice", server), fresh(world, "bob", server)
    register(alice, "alice")
    register(bob, "bob")
    carol = world.user("carol", server.address)

    alice.line("/add bob")
    bob.line("/add alice")
    alice.line("/contacts")
    alice.wait_text("bob")

    alice.line("/dm bob")
    alice.wait_screen(lambda s: any(starts_prompt(l, "bob") for l in s.split("\n")), what="the DM prompt")
    alice.line("hi bob 👋🏽 café")
    bob.wait_text("* [alice] alice: hi bob 👋🏽 café (1 unread, /next)")
    bob.line("/next")
    bob.wait_text("now in [alice]")
    bob.line("東京から こんにちは 👍🏽")
    alice.wait_text("bob: 東京から こんにちは 👍🏽")

    alice.line('/group create "Launch team" bob carol')
    alice.wait_text("now in [Launch team]")
    bob.wait_text("you are in the group Launch team")
    bob.line("/open launch")
    bob.wait_screen(lambda s: any(starts_prompt(l, "Launch team") for l in s.split("\n")), what="the group prompt")
    carol.cmd("/open Launch team")
    mark = len(carol.events)
    pasted = "step 1: build\n/quit\nstep 3: ship 🚀"
    alice.paste(pasted)
    assert received(carol, "alice", since=mark) == [pasted]

    # The server goes away; alice writes anyway; it arrives once the server is back.
    server.kill()
    alice.wait_text("[Launch team, 3 members|offline")
    alice.line("written while the server was down")
    alice.wait_text("1 queued")
    server.start()
    assert received(carol, "alice", 2, timeout=30, since=mark)[1] == "written while the server was down"
    bob.wait_text("alice: written while the server was down", timeout=30)

    # A password prompt does not hold the network: carol's message is delivered meanwhile.
    bob.line("/login bob")
    bob.wait_text("password:")
    carol.cmd("/dm bob")
    carol.say("while bob types a password")
    carol.cmd("/wait delivered 15", timeout=20)
    bob.line(PASSWORD)
    bob.wait_text("logged in as bob")
    bob.wait_text("carol: while bob types a password")

    # /quit and back: the same conversation is current again.
    bob.line("/quit")
    bob.wait_exit(10)
    again = fresh(world, "bob", server)
    again.wait_text("now in [Launch team]")
    again.wait_screen(lambda s: any(starts_prompt(l, "Launch team") for l in s.split("\n")), what="the group prompt again")
    mark = len(carol.events)
    carol.cmd("/open Launch team")
    again.line("back in the team")
    assert received(carol, "bob", since=mark) == ["back in the team"]
