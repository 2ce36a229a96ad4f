"""Scenario 66: the catch-up shown at start after 6 hours away (issue 28). alice uses the REPL;
"away" is the last time she used it at a terminal, which the client keeps in its cache
(`assistant_state` row `last_seen`, milliseconds). The test never sleeps: it moves that time
7 hours back by editing the cache file while the client is stopped (and once while it runs, for
a reconnect), then checks what she sees:
- nothing happened while away: no catch-up screen;
- two groups and a DM had activity: one screen, per conversation, with the decision, the work now
  hers, the mention and the question waiting for her, the same parts `/catchup away` gives;
- only once: a reconnect soon after shows nothing more;
- a reconnect after 6 hours without typing shows it again;
- a start with the server down shows it from the cache;
- a script (piped --json) never gets it unasked, and gets it with `/catchup away`."""
import sqlite3
import time

import pytest

from harness import screen
from harness.screen import ScreenClient, has_prompt, repl_user
from harness.waiting import wait_until

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")

HOUR_MS = 3600 * 1000
AWAY = "while you were away (since"


def _store(world, user="alice"):
    return world.tmp / "clients" / user / "accounts" / user / "store.sqlite"


def _last_seen(world):
    db = sqlite3.connect(str(_store(world)), timeout=10)
    try:
        row = db.execute("SELECT value FROM assistant_state WHERE name='last_seen'").fetchone()
        return row[0] if row else None
    finally:
        db.close()


def _set_last_seen(world, ms):
    db = sqlite3.connect(str(_store(world)), timeout=10)
    try:
        with db:
            db.execute("INSERT INTO assistant_state(name, value) VALUES('last_seen', ?) "
                       "ON CONFLICT(name) DO UPDATE SET value=excluded.value", (ms,))
    finally:
        db.close()


def _now_ms():
    return int(time.time() * 1000)


def _start_repl(world, server, label):
    repl = ScreenClient(world.client_exe, server.address, world.tmp / "clients" / "alice", world.logs / f"screen-alice-{label}.log",
                        columns=120, rows=50)
    world.screens = getattr(world, "screens", []) + [repl]
    return repl


def _quit(repl):
    repl.line("/quit")
    assert repl.wait_exit() == 0


def _decided_now(world, since):
    """The client decided about the catch-up: it moved "last seen" to now (it does so whether or
    not there was anything to show)."""
    wait_until(lambda: (_last_seen(world) or 0) >= since, 20, "the client to record that alice is back", interval=0.1)


def test_catchup_at_start_after_six_hours_away(world):
    server = world.server()
    bob, carol = world.user("bob", server.address), world.user("carol", server.address)
    alice = repl_user(world, "alice", server, columns=120, rows=50)
    before_quit = _now_ms()
    _quit(alice)
    assert (_last_seen(world) or 0) >= before_quit - 1000, "quitting the REPL records when alice was last here"

    # Away 7 hours with nothing new: no screen.
    _set_last_seen(world, _now_ms() - 7 * HOUR_MS)
    started = _now_ms()
    alice = _start_repl(world, server, "quiet")
    alice.wait_screen(lambda s: has_prompt(s, "alice"), 20, what="alice's online prompt")
    _decided_now(world, started)
    assert AWAY not in alice.text()
    _quit(alice)

    # Away 7 hours while two groups and a DM talk to her.
    _set_last_seen(world, _now_ms() - 7 * HOUR_MS)
    bob.cmd("/group create billing alice carol")
    bob.cmd("/group create design alice carol")
    wait_until(lambda: {"billing", "design"} <= {r.get("name") for r in carol.conversations()}, 15, "carol to see both groups", interval=0.2)
    talk = [
        (bob, "/open billing", "How about we keep the old read replicas until the cutover?"),
        (carol, "/open billing", "That works."),
        (bob, "/open billing", "Alice, could you request staging access from infra by Friday?"),
        (bob, "/open design", "@alice can you check the contrast of the new palette by Monday?"),
        (carol, "/dm alice", "Is the dark palette final?"),
    ]
    for who, where, text in talk:
        who.cmd(where)
        who.say(text)
        who.cmd("/wait sent 15", timeout=20)
    alice = _start_repl(world, server, "away")
    seen = alice.wait_text(AWAY, 30)
    seen = alice.wait_text("(/catchup away shows this again)", 15)
    assert "7h away" in seen, seen
    for expected in ("[billing]", "decision: ", "read replicas", "yours: request staging access from infra",
                     "[design]", "mention: bob: @alice can you check the contrast", "[carol]", "waiting for you: Is the dark palette final?"):
        assert expected in seen, f"{expected!r} not on the screen:\n{seen}"

    # Only once: a reconnect right after shows nothing more.
    connected = alice.raw_bytes().count(b"* connected to")
    server.kill()
    server.start()
    wait_until(lambda: alice.raw_bytes().count(b"* connected to") > connected, 30, "alice to reconnect", interval=0.1)
    alice.line("/catchup away")
    alice.wait_text("catch-up since", 20)
    assert alice.raw_bytes().count(AWAY.encode()) == 1, alice.text()

    # A reconnect after 6 hours without a line typed here: shown again.
    _set_last_seen(world, _now_ms() - 8 * HOUR_MS)
    server.kill()
    server.start()
    wait_until(lambda: alice.raw_bytes().count(AWAY.encode()) == 2, 30, "the catch-up after the reconnect", interval=0.1)
    assert "8h away" in alice.text(), alice.text()
    _quit(alice)

    # A start with the server down: the catch-up comes from the cache.
    server.kill()
    _set_last_seen(world, _now_ms() - 7 * HOUR_MS)
    alice = _start_repl(world, server, "offline")
    seen = alice.wait_text("(/catchup away shows this again)", 30)
    assert "[billing]" in seen and "yours: request staging access from infra" in seen, seen
    _quit(alice)

    # A script is never shown it unasked; `/catchup away` gives the same parts.
    server.start()
    _set_last_seen(world, _now_ms() - 7 * HOUR_MS)
    piped = world.client("alice", server.address)
    piped.wait_online()
    answer = piped.cmd("/catchup away")
    parts = {p["conversation"]: p for p in answer["conversations"]}
    assert set(parts) == {"billing", "design", "carol"}, parts
    assert any("staging access" in a["what"] for a in parts["billing"]["yours"]), parts
    assert not any(e.get("automatic") for e in piped.of_type("catchup")), "a script gets no catch-up it did not ask for"
    assert piped.close() == 0
    assert _last_seen(world) < _now_ms() - 6 * HOUR_MS, "a script does not count as alice being back"
