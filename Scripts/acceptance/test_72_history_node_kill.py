"""Scenario 72 (issue 26): three server processes on one PostgreSQL database serving one
certificate; four clients, each given every node's address (`--server n1,n2,n3`, a random
start), in a group and a DM; a send load; kill -9 of the node serving most clients in the
middle. Its clients reconnect to the nodes left and their outboxes resend. Then the history
checker (harness/history.py) over every client's history: nothing acknowledged lost or
duplicated, one sequence per conversation with no gap, no phantom, no reordering of what
each client was shown. Every client must hold every message before it reconnects once at the
end (pushes cross nodes through the event log); the final histories come from that sync."""
from collections import Counter

import pytest

from harness.history import check
from harness.nodes import final_histories, first_half, node_of, say_rounds, start_nodes, team_and_dm, typed_texts

pytestmark = pytest.mark.storage

PER_SENDER = 24
NODES = 3


def test_kill_a_node_during_a_send_load(world, postgres_database):
    nodes, addresses, trust = start_nodes(world, postgres_database, NODES)
    alice, bob, carol, dave = (world.user(n, addresses, *trust) for n in ("alice", "bob", "carol", "dave"))
    team, dm = team_and_dm(world, alice, bob, carol, dave)
    senders = (alice, bob, carol, dave)
    marks = {c.name: len(c.events) for c in senders}

    typed = typed_texts(senders, PER_SENDER)
    first_half(senders, typed, marks, PER_SENDER)

    spread = Counter(node_of(c) for c in senders)
    victim = next(n for n in nodes if n.address == spread.most_common(1)[0][0])
    moved = [c for c in senders if node_of(c) == victim.address]
    # Marked before the kill: a client may be back online on another node before kill() returns.
    killed_at = {c.name: len(c.events) for c in senders}
    victim.kill()
    say_rounds(senders, typed, PER_SENDER // 2, PER_SENDER)
    for c in senders:
        c.cmd("/wait sent 60", timeout=75)
    for c in moved:
        now = node_of(c, killed_at[c.name])
        assert now and now != victim.address, f"{c.name} did not move off the killed node: {now}"

    # Which conversations each client must hold in the end, under which name, with how many.
    in_team = (team, "team", 3 * PER_SENDER)
    views = {"alice": [in_team], "carol": [in_team], "bob": [in_team, (dm, "dave", PER_SENDER)],
             "dave": [(dm, "bob", PER_SENDER)]}
    verdict = check(final_histories(senders, marks, views), members={team: {"alice", "bob", "carol"}, dm: {"bob", "dave"}})
    print(f"\n{NODES} nodes, killed {victim.address} (had {len(moved)} of {len(senders)} clients, spread {dict(spread)})")
    print(verdict.summary())
    assert verdict.ok, verdict.summary()
    assert verdict.counts["acked"] == len(senders) * PER_SENDER, "every message typed was acknowledged once"
    assert verdict.counts["unacked"] == 0
