"""Scenario 79, opt-in (issue 26): a soak. Three nodes on a PostgreSQL cluster of the test's
own, four clients given every address, a group and a DM, a send load for SOAK_NODES_SECONDS
seconds (unset or 0: skipped; e.g. 300), and a fault every few rounds, chosen at random
(SOAK_SEED): kill -9 of a node (started again on its port a few rounds later) or a restart of
PostgreSQL. At the end the history checker (harness/history.py) over every client, its verdict
printed with the faults. The last result goes in BENCHMARKS.md ("Soak")."""
import os
import random
import time

import pytest

from harness.history import check
from harness.nodes import final_histories, say_rounds, start_nodes, team_and_dm

SECONDS = float(os.environ.get("SOAK_NODES_SECONDS", "0") or 0)
pytestmark = [pytest.mark.storage,
              pytest.mark.skipif(SECONDS <= 0, reason="opt-in soak: SOAK_NODES_SECONDS=300 (PostgreSQL pass)")]

ROUNDS_PER_FAULT = 6
NODES = 3


def test_soak_faults_on_three_nodes(world, own_postgres):
    rng = random.Random(int(os.environ.get("SOAK_SEED", "26")))
    nodes, addresses, trust = start_nodes(world, own_postgres.url("chat"), NODES)
    alice, bob, carol, dave = (world.user(n, addresses, *trust) for n in ("alice", "bob", "carol", "dave"))
    team, dm = team_and_dm(world, alice, bob, carol, dave)
    senders = (alice, bob, carol, dave)
    marks = {c.name: len(c.events) for c in senders}

    typed = {c.name: [] for c in senders}
    faults, down, rounds = [], None, 0
    end = time.monotonic() + SECONDS
    while time.monotonic() < end:
        for c in senders:
            typed[c.name].append(f"{c.name} {rounds:04d} ünïcode ⚡ {rng.randrange(10**6)}")
        say_rounds(senders, typed, rounds, rounds + 1)
        rounds += 1
        if rounds % ROUNDS_PER_FAULT:
            continue
        # The outboxes drain between faults (a client only ever holds a few rounds).
        for c in senders:
            c.cmd("/wait sent 120", timeout=135)
        if down is not None:
            down.restart()
            down = None
        elif rng.random() < 0.25:
            own_postgres.restart()
            faults.append("postgres restart")
        else:
            down = rng.choice(nodes)
            down.kill()
            faults.append(f"kill -9 {down.address}")
    if down is not None:
        down.restart()
    for c in senders:
        c.cmd("/wait sent 120", timeout=135)

    per_sender = rounds
    views = {"alice": [(team, "team", 3 * per_sender)], "carol": [(team, "team", 3 * per_sender)],
             "bob": [(team, "team", 3 * per_sender), (dm, "dave", per_sender)], "dave": [(dm, "bob", per_sender)]}
    verdict = check(final_histories(senders, marks, views), members={team: {"alice", "bob", "carol"}, dm: {"bob", "dave"}})
    print(f"\nsoak: {SECONDS:.0f} s, {rounds} rounds of {len(senders)} messages, {len(faults)} faults: {', '.join(faults)}")
    print(verdict.summary())
    assert verdict.ok, verdict.summary()
    assert verdict.counts["acked"] == len(senders) * per_sender, "every message typed was acknowledged once"
