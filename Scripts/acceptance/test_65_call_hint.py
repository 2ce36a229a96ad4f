"""Scenario 65: "this would be quicker as a call" (issue 28, seed story US-2.11). alice (the REPL
in a pty) and bob (a script) go back and forth on a question neither can settle: after the sixth
change of speaker, each of them gets one dim line saying a call would be quicker, once for the
episode however long it goes on. `/set callhint off` silences it for alice while bob, whose
setting is on, still gets the next episode's hint; the same exchange in a group of five gets
no hint at all."""
import pytest

from harness import screen
from harness.screen import bare_environment, open_dm, received, repl_user
from harness.waiting import wait_until

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")

HINT = "this would be quicker as a call"

STAGING = [
    ("alice", "Which port does the staging gateway listen on now?"),
    ("bob", "8443, same as before I think"),
    ("alice", "That doesn't work, connection refused on 8443."),
    ("bob", "Are you on the VPN?"),
    ("alice", "Yes, since this morning."),
    ("bob", "Hmm, then try 8080?"),
    ("alice", "Still refused."),
    ("bob", "Which host are you hitting, the old one or gw2?"),
    ("alice", "What do you mean by gw2? I only know staging-gw."),
]
SETTLED = [("bob", "gw2 is the new name of staging-gw, so 8080 there."), ("alice", "That works now, thanks!")]
EXPORT = [
    ("bob", "Should the export button live in the header or in the table toolbar?"),
    ("alice", "Header, people look there first."),
    ("bob", "But the header is already crowded on mobile."),
    ("alice", "Not if we drop the breadcrumb, no?"),
    ("bob", "I don't think we can drop it, support relies on it."),
    ("alice", "Which support flow? I thought that was the old console."),
    ("bob", "No, the new one still links to it."),
]


def _talk(alice, bob, lines):
    """Each line sent and seen by the other side before the next one: the order is the talk's."""
    for who, text in lines:
        if who == "alice":
            mark = len(bob.events)
            alice.line(text)
            assert received(bob, "alice", since=mark) == [text]
        else:
            bob.say(text)
            bob.cmd("/wait sent 15", timeout=20)
            alice.wait_text(f"bob: {text}")


def _hints(alice):
    return alice.raw_bytes().decode("utf-8", "replace").count(f"· {HINT}:")


def _settle(alice):
    """A command answered: everything the client printed before it is on the screen."""
    answers = alice.raw_bytes().count(b"callhint = ")
    alice.line("/set callhint")
    wait_until(lambda: alice.raw_bytes().count(b"callhint = ") > answers, 15, "the answer to /set callhint")


def test_call_hint_once_per_episode_and_only_where_it_fits(world):
    server = world.server()
    bob = world.user("bob", server.address)
    for name in ("carol", "dave", "erin"):
        world.user(name, server.address)
    env = bare_environment(world.tmp / "clients" / "alice")
    env.pop("NO_COLOR", None)
    alice = repl_user(world, "alice", server, columns=200, rows=50, env=env)
    bob.cmd("/add alice")
    alice.line("/accept bob")
    alice.wait_text("bob is now a contact")
    open_dm(alice, "bob")
    bob.cmd("/dm alice")

    # Six changes of speaker on one unsettled question: the hint, dim, on both sides.
    _talk(alice, bob, STAGING[:6])
    assert _hints(alice) == 0, alice.text()
    mark = len(bob.events)
    _talk(alice, bob, STAGING[6:7])
    alice.wait_text(HINT)
    line = next(l for l in alice.lines() if HINT in l)
    assert line.startswith(f'· {HINT}: 6 back-and-forths with bob in '), line
    assert 'on "Which port does the staging gateway listen on now?"' in line, line
    assert "\x1b[2m· " + HINT in alice.raw_bytes().decode("utf-8", "replace"), "the hint is dim"
    event = bob.wait_event(lambda e: e.get("type") == "call_hint", since=mark, what="bob's call hint")
    assert event["with"] == ["alice"] and event["turns"] == 6, event

    # The same episode goes on, then is settled: no second hint.
    _talk(alice, bob, STAGING[7:] + SETTLED)
    _settle(alice)
    assert _hints(alice) == 1, alice.text()
    assert len(bob.of_type("call_hint")) == 1

    # Silenced for alice; bob's client still sees the next episode.
    alice.line("/set callhint off")
    alice.wait_text("callhint = off")
    mark = len(bob.events)
    _talk(alice, bob, EXPORT)
    bob.wait_event(lambda e: e.get("type") == "call_hint", since=mark, what="bob's hint for the second episode")
    _settle(alice)
    assert _hints(alice) == 1, alice.text()
    alice.line("/set callhint on")
    alice.wait_text("callhint = on")

    # A group of five: the same exchange is no call's business.
    alice.line("/group create everyone bob carol dave erin")
    alice.wait_text("now in [everyone]")
    bob.cmd("/open everyone")
    mark = len(bob.events)
    _talk(alice, bob, STAGING)
    _settle(alice)
    assert _hints(alice) == 1, alice.text()
    assert not [e for e in bob.events.snapshot(mark) if e.get("type") == "call_hint"], "no hint in a group of five"
