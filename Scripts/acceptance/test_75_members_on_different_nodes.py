"""Scenario 75 (issue 26, stage B): three nodes on one PostgreSQL behind a real HAProxy in TCP
mode (TLS passes through; every node serves one certificate). alice and bob come through the
balancer (leastconn puts them on different nodes; `admin online` proves it), carol and dave
connect straight to the third node. What one member does reaches the others on other nodes:
a DM's states up to read, a group's messages and receipts, presence both ways, typing from a
REPL, and bob on two nodes at once from two devices: both devices get everything, and closing
one does not show him offline."""
import pytest

from harness import screen
from harness.client import PASSWORD
from harness.screen import open_dm, repl_user
from harness.spread import start_balanced_nodes, where
from harness.waiting import Timeout, wait_until

pytestmark = [pytest.mark.storage, pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")]


def message_from(sender, text):
    return lambda e: e.get("type") == "message" and e.get("sender") == sender and e.get("text") == text


def presence(user, online):
    return lambda e: e.get("type") == "presence" and e.get("user") == user and bool(e.get("online")) == online


def test_members_on_different_nodes(world, postgres_database):
    nodes = start_balanced_nodes(world, postgres_database)
    balancer = world.haproxy(*nodes, source="127.0.0.3")
    wait_until(lambda: all(s["status"] == "UP" for s in balancer.servers().values()), 20, what="HAProxy to see 3 nodes up")

    alice = world.user("alice", balancer.address)
    bob = world.user("bob", balancer.address)
    wait_until(lambda: len(where(world, nodes, "alice")) == 1 and len(where(world, nodes, "bob")) == 1, 15,
               what="alice and bob on a node each")
    [a], [b] = where(world, nodes, "alice"), where(world, nodes, "bob")
    assert a != b, f"leastconn put alice and bob on one node ({nodes[a].address})"
    third = nodes[({0, 1, 2} - {a, b}).pop()]
    carol = world.user("carol", third.address)

    # A DM across nodes: sent, delivered, read, and the reply.
    world.contacts(alice, bob)
    alice.cmd("/dm bob")
    mark = len(alice.events)
    alice.say("hi bob, from another node 👋")
    bob.wait_event(message_from("alice", "hi bob, from another node 👋"), 20, what="alice's DM")
    alice.cmd("/wait delivered 20", timeout=25)
    bob.cmd("/open alice")
    alice.cmd("/wait read 20", timeout=25)
    states = list(alice.states(mark).values())
    assert states and [s for s in states[0] if s != "sending"] == ["sent", "delivered", "read"], states
    bob.say("hi alice ✓")
    alice.wait_event(message_from("bob", "hi alice ✓"), 20, what="bob's reply")

    # A group whose three members sit on three nodes: messages and a read receipt.
    alice.cmd("/group create trio bob carol")
    for c in (bob, carol):
        wait_until(lambda c=c: any(r.get("name") == "trio" for r in c.conversations()), 20, what=f"{c.name} to see trio",
                   interval=0.3)
    alice.cmd("/open trio")
    mark = len(alice.events)
    alice.say("trio: lunch at noon?")
    for c in (bob, carol):
        c.wait_event(message_from("alice", "trio: lunch at noon?"), 20, what="the group message")
    carol.cmd("/open trio")
    carol.say("trio: yes")
    alice.wait_event(message_from("carol", "trio: yes"), 20, what="carol's answer from the third node")
    bob.cmd("/open trio")
    alice.cmd("/wait read 20", timeout=25)
    assert any("read" in s for s in alice.states(mark).values()), alice.states(mark)

    # Typing from a REPL on the third node reaches alice on hers.
    dave = repl_user(world, "dave", third, columns=100, rows=30)
    open_dm(dave, "alice")
    mark = len(alice.events)
    dave.type("hel")
    alice.wait_event(lambda e: e.get("type") == "typing" and e.get("user") == "dave", 20, mark, what="dave typing, across nodes")

    # Presence: bob leaves his node and comes back through the balancer.
    mark = len(alice.events)
    assert bob.close() == 0
    offline = alice.wait_event(presence("bob", False), 20, mark, what="bob offline, across nodes")
    assert offline.get("last_seen"), offline
    mark = len(alice.events)
    bob.start()
    bob.wait_online(timeout=30)
    alice.wait_event(presence("bob", True), 20, mark, what="bob online again")

    # bob on two nodes at once from two devices: the phone on a node bob is not on.
    wait_until(lambda: len(where(world, nodes, "bob")) == 1, 15, what="bob on one node")
    [b] = where(world, nodes, "bob")
    other = nodes[(b + 1) % 3]
    phone = world.client("bob-phone", other.address)
    phone.cmd(f"/login bob {PASSWORD}", timeout=20)
    assert sorted(where(world, nodes, "bob")) == sorted([b, (b + 1) % 3]), "bob's two devices on two nodes"
    phone.cmd("/open alice")
    alice.cmd("/open bob")
    alice.say("to both of your devices")
    for device in (bob, phone):
        device.wait_event(message_from("alice", "to both of your devices"), 20, what=f"{device.name}: alice's message")
    phone.say("from my phone")
    alice.wait_event(message_from("bob", "from my phone"), 20, what="the phone's message")
    bob.wait_event(lambda e: e.get("type") == "message" and e.get("text") == "from my phone", 20,
                   what="bob's laptop gets what his phone sent")
    mark = len(alice.events)
    assert bob.close() == 0
    wait_until(lambda: where(world, nodes, "bob") == [(b + 1) % 3], 15, what="bob's laptop gone")
    # bob still has his phone on another node: he is not shown offline (3 s: the other node
    # reads the log within 1 s).
    with pytest.raises(Timeout):
        alice.wait_event(presence("bob", False), 3, mark, what="no offline while the phone is on")
    assert phone.close() == 0
    alice.wait_event(presence("bob", False), 20, mark, what="bob offline once his last device goes")
