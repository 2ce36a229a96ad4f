"""Scenario 13: offline reading. With the server down, history, the conversation list and
search still work from the local store (also after the client restarts)."""
from harness.checks import texts


def test_offline_reading(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    carol = world.user("carol", server.address)
    alice.cmd("/dm bob")
    bob.cmd("/open alice")
    carol.cmd("/dm alice")
    carol.say("lunch at noon? 🍜")
    carol.cmd("/wait sent 15", timeout=20)
    said = ["the quarterly report is ready", "can you review the report?", "thanks, looks good"]
    alice.say(said[0])
    alice.cmd("/wait sent 15", timeout=20)
    bob.say(said[1])
    bob.cmd("/wait sent 15", timeout=20)
    alice.say(said[2])
    alice.cmd("/wait-messages 3 15", timeout=20)
    alice.cmd("/open carol")
    alice.cmd("/wait-messages 1 15", timeout=20)

    assert server.terminate() == 0  # SIGTERM: a clean exit
    # Quit and start again: nothing kept in memory, everything below comes from the local store.
    # (A kill -9 within 100 ms of an ack shows that message twice offline: test_04 covers it.)
    assert alice.close() == 0
    alice.start()

    rows = alice.conversations()
    names = [str(r.get("name")) for r in rows]
    assert len(rows) == 2, rows
    assert "bob" in names[0], f"most recent activity first: {names}"
    assert any("bob" in n for n in names) and any("carol" in n for n in names), names
    by_name = {("bob" if "bob" in str(r["name"]) else "carol"): r for r in rows}
    assert by_name["bob"]["last_text"] == said[2]
    assert by_name["carol"]["last_text"] == "lunch at noon? 🍜"

    alice.cmd("/open bob")
    assert texts(alice.history()) == said
    found = alice.cmd("/find report")["messages"]
    assert sorted(m["text"] for m in found) == sorted(said[:2])
    assert alice.cmd("/find noon")["messages"][0]["text"] == "lunch at noon? 🍜"
    assert alice.cmd("/find nothing-like-this")["messages"] == []

    # A command that needs the server fails clearly, and the client carries on.
    alice.cmd("/search bo", expect_error=True)
    assert alice.cmd("/whoami")["username"] == "alice"

    # Ending the script with a message still queued: reported, and the exit status says so.
    alice.extra_args = ["--drain-timeout", "1"]
    alice.restart()
    alice.cmd("/open bob")
    alice.say("written while the server is down")
    assert alice.close(timeout=20) != 0
    assert "1 message(s) still queued" in alice.stderr_text()
