"""Scenario 69 (issue 25): PostgreSQL goes away during a send load and comes back. While it is
down the server stays up and refuses sends with a clear, retryable error (database_unavailable,
code 77): nothing is acknowledged without a commit. The clients' outboxes keep what was typed and
resend it once the database is back. In the end every message typed is in every member's
history exactly once, in the order it was typed, and everything acknowledged before the
outage is still there. Its own cluster: the session's is never restarted."""
import json

import pytest

from harness.group import acked, check_group_outcome, open_group, say_in_turns
from harness.pgcluster import PostgresCluster, require_postgres

PER_PHASE = 12


def says_unavailable(e):
    blob = json.dumps(e).lower()
    return e.get("type") in ("error", "notice", "state") and "database" in blob and "unavailable" in blob


@pytest.fixture
def cluster():
    require_postgres()
    pg = PostgresCluster().start()
    pg.create_database("chat")
    yield pg
    pg.stop()


def test_postgres_restart_during_sends(world, cluster):
    server = world.server(database=cluster.url("chat"))
    alice, bob = world.user("alice", server.address), world.user("bob", server.address)
    carol = world.user("carol", server.address)  # a group has three members at least; she reads
    open_group(alice, [bob, carol], "outage")
    marks = {c.name: len(c.events) for c in (alice, bob)}
    typed = {c.name: [f"{c.name} before {i:02d}" for i in range(PER_PHASE)] for c in (alice, bob)}
    say_in_turns((alice, bob), typed, 30)
    before = {c.name: acked(c, marks[c.name]) for c in (alice, bob)}

    cluster.stop(remove=False)
    during = {c.name: [f"{c.name} during {i:02d}" for i in range(PER_PHASE)] for c in (alice, bob)}
    mark = len(alice.events)
    for i in range(PER_PHASE):
        for c in (alice, bob):
            c.say(during[c.name][i])
    alice.wait_event(says_unavailable, 30, mark, what="the client told the database is unavailable")
    assert server.alive(), "the server died with its database"
    # Nothing typed during the outage was acknowledged: there was no commit to acknowledge.
    during_acked = [e for e in alice.of_type("state", mark) if e.get("state") == "sent"]
    assert not during_acked, f"acknowledged without a database: {during_acked[:3]}"

    cluster.start()
    for c in (alice, bob):
        typed[c.name] += during[c.name]
    view, present = check_group_outcome([alice, bob, carol], typed, before, 4 * PER_PHASE, total_timeout=90)
    assert present == 4 * PER_PHASE
    print(f"\nacked before the outage: {sum(len(a) for a in before.values())}; after: {len(view)} in every member's history")
