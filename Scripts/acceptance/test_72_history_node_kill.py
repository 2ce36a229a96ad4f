"""Scenario 72 (issue 26): three server processes on one PostgreSQL database serving one
certificate; four clients, each given every node's address (`--server n1,n2,n3`, a random
start), in a group and a DM; a send load; kill -9 of the node serving most clients in the
middle. Its clients reconnect to the nodes left and their outboxes resend. Then the history
checker (harness/history.py) over every client's history: nothing acknowledged lost or
duplicated, one sequence per conversation with no gap, no phantom, no reordering of what
each client was shown. Until cross-node delivery (the event log) lands, the final histories
come from a sync: each client reconnects once at the end, as a device coming back would."""
from collections import Counter

import pytest

from harness.history import check, ClientHistory
from harness.waiting import wait_until

pytestmark = pytest.mark.storage

PER_SENDER = 24
NODES = 3


def node_of(client, since=0):
    """The address the client's last "online" event names (the node it is connected to)."""
    online = [e for e in client.events.snapshot(since) if e.get("type") == "connection" and e.get("state") == "online"]
    return online[-1].get("server") if online else None


def conversation_id(client, name):
    return next(r["conversation_id"] for r in client.conversations() if r.get("conversation") == name or r.get("name") == name)


def test_kill_a_node_during_a_send_load(world, postgres_database):
    first = world.server(name="node1", database=postgres_database)
    cert = [("--tls-cert", f"{first.data_dir}/tls-cert.pem"), ("--tls-key", f"{first.data_dir}/tls-key.pem")]
    flags = [a for pair in cert for a in pair]
    nodes = [first] + [world.server(*flags, name=f"node{i}", database=postgres_database) for i in range(2, NODES + 1)]
    assert len({n.fingerprint for n in nodes}) == 1, "every node serves the same certificate"
    addresses = ",".join(n.address for n in nodes)
    trust = ("--tls-fingerprint", first.fingerprint)

    alice, bob, carol, dave = (world.user(n, addresses, *trust) for n in ("alice", "bob", "carol", "dave"))
    world.contacts(dave, bob)
    alice.cmd("/group create team bob carol")
    dave.cmd("/dm bob")
    # A node learns of a conversation made on another through the database: a member's next
    # sync finds it (cross-node pushes are the event log's).
    for c in (bob, carol):
        c.close()
        c.start()
        c.wait_online()
        wait_until(lambda: any(r.get("name") == "team" for r in c.conversations()), 30, f"{c.name} to see team", interval=0.3)
        c.cmd("/open team")
    alice.cmd("/open team")
    team, dm = conversation_id(alice, "team"), conversation_id(dave, "bob")
    senders = (alice, bob, carol, dave)
    marks = {c.name: len(c.events) for c in senders}

    typed = {c.name: [f"{c.name} {i:02d} ünïcode ⚡" for i in range(PER_SENDER)] for c in senders}
    half = PER_SENDER // 2
    for i in range(half):
        for c in senders:
            c.say(typed[c.name][i])
    sent = lambda e: e.get("type") == "state" and e.get("state") == "sent"
    alice.events.wait_count(sent, 3, 30, marks["alice"], what="alice: first acknowledgements")

    spread = Counter(node_of(c) for c in senders)
    victim = next(n for n in nodes if n.address == spread.most_common(1)[0][0])
    moved = [c for c in senders if node_of(c) == victim.address]
    # Marked before the kill: a client may be back online on another node before kill() returns.
    killed_at = {c.name: len(c.events) for c in senders}
    victim.kill()
    for i in range(half, PER_SENDER):
        for c in senders:
            c.say(typed[c.name][i])
    for c in senders:
        c.cmd("/wait sent 60", timeout=75)
    for c in moved:
        now = node_of(c, killed_at[c.name])
        assert now and now != victim.address, f"{c.name} did not move off the killed node: {now}"

    # The final views: each client reconnects once (its SYNC reads the database), keeping the
    # events of its first run for the checker.
    # Which conversations each client must hold in the end, under which name, with how many.
    in_team = (team, "team", 3 * PER_SENDER)
    views = {"alice": [in_team], "carol": [in_team], "bob": [in_team, (dm, "dave", PER_SENDER)],
             "dave": [(dm, "bob", PER_SENDER)]}
    histories = []
    for c in senders:
        before = c.events.snapshot(marks[c.name])
        c.close(timeout=40)
        c.start()
        c.wait_online(timeout=30)
        final = {}
        for cid, name, count in views[c.name]:
            c.cmd(f"/open {name}")
            c.cmd(f"/wait-messages {count} 30", timeout=40)
            final[cid] = [r for r in c.history(500) if r.get("seq")]
        histories.append(ClientHistory(c.name, c.name, before + c.events.snapshot(), final))

    verdict = check(histories, members={team: {"alice", "bob", "carol"}, dm: {"bob", "dave"}})
    print(f"\n{NODES} nodes, killed {victim.address} (had {len(moved)} of {len(senders)} clients, spread {dict(spread)})")
    print(verdict.summary())
    assert verdict.ok, verdict.summary()
    assert verdict.counts["acked"] == len(senders) * PER_SENDER, "every message typed was acknowledged once"
    assert verdict.counts["unacked"] == 0
