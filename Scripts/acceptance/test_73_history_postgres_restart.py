"""Scenario 73 (issue 26): two server nodes on one PostgreSQL cluster of the test's own, three
clients of a group given both addresses; PostgreSQL is restarted (fast shutdown: every session
cut) in the middle of a send load. The nodes stay up and acknowledge nothing without a commit;
the outboxes resend. Then the history checker over every client's history, as in scenario 72."""
import pytest

from harness.history import check
from harness.nodes import final_histories, first_half, say_rounds, start_nodes, team, typed_texts

pytestmark = pytest.mark.storage

PER_SENDER = 20
NODES = 2


@pytest.fixture
def cluster(own_postgres):
    return own_postgres


def test_postgres_restart_during_a_load_on_two_nodes(world, cluster):
    nodes, addresses, trust = start_nodes(world, cluster.url("chat"), NODES)
    alice, bob, carol = (world.user(n, addresses, *trust) for n in ("alice", "bob", "carol"))
    team_id = team(alice, bob, carol)
    senders = (alice, bob, carol)
    marks = {c.name: len(c.events) for c in senders}

    typed = typed_texts(senders, PER_SENDER)
    first_half(senders, typed, marks, PER_SENDER)
    cluster.restart()
    say_rounds(senders, typed, PER_SENDER // 2, PER_SENDER)
    for c in senders:
        c.cmd("/wait sent 90", timeout=105)
    assert all(n.alive() for n in nodes), "a node died with its database"

    views = {c.name: [(team_id, "team", len(senders) * PER_SENDER)] for c in senders}
    verdict = check(final_histories(senders, marks, views), members={team_id: {c.name for c in senders}})
    print(f"\n{NODES} nodes, PostgreSQL restarted during the load")
    print(verdict.summary())
    assert verdict.ok, verdict.summary()
    assert verdict.counts["acked"] == len(senders) * PER_SENDER, "every message typed was acknowledged once"
