"""Scenario 77 (issue 26): two server nodes on one PostgreSQL; node1 reaches it through a
HAProxy of the test's own, node2 directly. In the middle of a send load, HAProxy cuts node1
off (server disabled, sessions shut) while its clients stay connected to it. node1 must
acknowledge nothing without a commit: its SENDs fail with 77, and after `--database-cutoff`
(3 s here, 10 s by default) without the database it closes its clients' connections (77,
`closes`) and refuses new ones, so the
clients, given both addresses, move to node2 and their outboxes resend there. Then the
history checker over every client's history, as in scenarios 72 and 73."""
import pytest

from harness.history import check
from harness.nodes import final_histories, first_half, node_of, say_rounds, team, typed_texts
from harness.pgforward import DatabaseForward
from harness.waiting import wait_until

pytestmark = pytest.mark.storage

PER_SENDER = 20


@pytest.fixture
def cluster(own_postgres):
    return own_postgres


@pytest.fixture
def forward(world, cluster):
    f = DatabaseForward(str(world.tmp), cluster.port).start()
    yield f
    f.stop()


def land_on(client, address, tries=12):
    """Reconnects the client until it starts at `address` (each start picks a node at random)."""
    for _ in range(tries):
        if node_of(client) == address:
            return
        client.close(timeout=30)
        client.start()
        client.wait_online(timeout=30, since=len(client.events))
    assert node_of(client) == address, f"{client.name} never started at {address}"


def test_a_node_cut_off_from_postgres_hands_its_clients_over(world, cluster, forward):
    # A shorter cutoff than the default 10 s, so the scenario runs faster. The handover is the
    # same; SENDs still waiting on the store (it gives up after 5 s) go with their connection
    # and are resent on node2, which the history checker covers.
    node1 = world.server("--database-cutoff", "3", name="node1", database=forward.url("chat"))
    flags = ("--tls-cert", f"{node1.data_dir}/tls-cert.pem", "--tls-key", f"{node1.data_dir}/tls-key.pem")
    node2 = world.server(*flags, name="node2", database=cluster.url("chat"))
    addresses = f"{node1.address},{node2.address}"
    trust = ("--tls-fingerprint", node1.fingerprint)
    alice, bob, carol = (world.user(n, addresses, *trust) for n in ("alice", "bob", "carol"))
    for c in (alice, bob):
        land_on(c, node1.address)
    team_id = team(alice, bob, carol)
    senders = (alice, bob, carol)
    marks = {c.name: len(c.events) for c in senders}

    typed = typed_texts(senders, PER_SENDER)
    first_half(senders, typed, marks, PER_SENDER)
    moved = {c.name: len(c.events) for c in (alice, bob)}
    forward.cut()
    say_rounds(senders, typed, PER_SENDER // 2, PER_SENDER)
    for c in (alice, bob):
        wait_until(lambda c=c: node_of(c, moved[c.name]) == node2.address, 60, f"{c.name} to move to node2", interval=0.3)
    for c in senders:
        c.cmd("/wait sent 90", timeout=105)
    assert node1.alive(), "the node cut off from its database stays up"
    log = open(node1.log_path, encoding="utf-8", errors="replace").read()
    assert "database unreachable for 3 s: closing" in log, "node1 says why it closed its connections, after its cutoff"
    assert "so that their clients move to another node" in log

    views = {c.name: [(team_id, "team", len(senders) * PER_SENDER)] for c in senders}
    verdict = check(final_histories(senders, marks, views), members={team_id: {c.name for c in senders}})
    print("\n2 nodes, node1 cut off from PostgreSQL during the load")
    print(verdict.summary())
    assert verdict.ok, verdict.summary()
    assert verdict.counts["acked"] == len(senders) * PER_SENDER, "every message typed was acknowledged once"
