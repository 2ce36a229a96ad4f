"""Scenario 71 (issues 25 and 26): two server processes on one PostgreSQL database, each with a
member of one group sending into it at full speed. The transactions alone must give the
conversation gap-free, duplicate-free sequence numbers (1..N, each message once, each sender's in
the order typed), and the event log must bring each node's messages to the other node's members
live: both senders' own clients see every message pushed, in order, once, with no sync.
The `storage` pass runs it; on SQLite alone it is skipped (two processes cannot share a file)."""
import pytest

from harness.checks import assert_no_duplicates
from harness.group import say_in_turns
from harness.client import PASSWORD
from harness.waiting import wait_until

pytestmark = pytest.mark.storage

PER_SENDER = 60


def test_two_servers_append_into_one_conversation(world, postgres_database):
    url = postgres_database
    one = world.server(name="node1", database=url)
    two = world.server(name="node2", database=url)
    alice = world.user("alice", one.address)
    bob = world.user("bob", two.address)
    world.user("carol", one.address)  # a group has three members at least
    alice.cmd("/group create race bob carol")
    # bob's node hears of the group through the event log: pushed to him, no reconnect.
    wait_until(lambda: any(r.get("name") == "race" for r in bob.conversations()), 30, "bob to see group race", interval=0.3)
    bob.cmd("/open race")

    typed = {c.name: [f"{c.name} {i:03d} ⚡" for i in range(PER_SENDER)] for c in (alice, bob)}
    say_in_turns((alice, bob), typed, 60)

    # Each sender's own client got the other node's messages live (no restart, no sync since
    # before the group existed): every message shown once, in seq order, each sender's in order.
    for c in (alice, bob):
        other = "bob" if c is alice else "alice"
        live = c.events.wait_count(lambda e: e.get("type") == "message" and e.get("sender") == other, PER_SENDER, 40)
        seqs = [e.get("seq") for e in live]
        assert seqs == sorted(set(seqs)), f"{c.name}: {other}'s messages not pushed in order once: {seqs[:10]}..."
        check_history(c, typed)

    # And a fresh look from each node: a new device of each member logs in and syncs it.
    for name, node in (("alice", one), ("bob", two)):
        c = world.client(f"{name}-new", node.address)
        c.wait_online()
        c.cmd(f"/login {name} {PASSWORD}")
        wait_until(lambda: any(r.get("name") == "race" for r in c.conversations()), 30, f"{c.name} to see group race", interval=0.3)
        c.cmd("/open race")
        check_history(c, typed)
    print(f"\n{2 * PER_SENDER} messages through two servers: seqs 1..{2 * PER_SENDER}, no gap, no duplicate, "
          "each sender's client shown the other node's messages live")


def check_history(c, typed):
    c.cmd(f"/wait-messages {2 * PER_SENDER} 40", timeout=50)
    history = c.history(2 * PER_SENDER + 50)
    assert_no_duplicates(history, c.name)
    seqs = [m["seq"] for m in history]
    assert seqs == list(range(1, 2 * PER_SENDER + 1)), f"{c.name}: seqs are not 1..{2 * PER_SENDER}: {seqs[:5]}...{seqs[-5:]}"
    for sender, texts in typed.items():
        assert [m["text"] for m in history if m["sender"] == sender] == texts, f"{c.name}: {sender}'s messages lost or out of order"
