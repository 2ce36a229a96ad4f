"""Scenario 11: the server is killed with kill -9 during a burst from several clients, then
restarted: no acknowledged message is lost and none is duplicated after the clients resend."""
import pytest

from harness.group import acked, check_group_outcome, open_group, shown_sending

pytestmark = pytest.mark.storage  # run again on PostgreSQL by run-all.sh

PER_CLIENT = 30


def test_server_kill_during_burst(world):
    server = world.server()
    clients = [world.user(n, server.address) for n in ("alice", "bob", "carol")]
    open_group(clients[0], clients[1:], "burst")
    marks = {c.name: len(c.events) for c in clients}

    typed = {c.name: [f"{c.name} burst {i:02d}" for i in range(PER_CLIENT)] for c in clients}
    for i in range(PER_CLIENT):
        for c in clients:
            c.say(typed[c.name][i])
    # Kill once some, but not all, messages were acknowledged.
    clients[0].events.wait_count(lambda e: e.get("type") == "state" and e.get("state") == "sent",
                                 5, 20, marks["alice"], what="alice: first acknowledgements")
    server.kill()
    acked_before = {c.name: acked(c, marks[c.name]) for c in clients}
    total_before = sum(len(a) for a in acked_before.values())
    assert total_before < 3 * PER_CLIENT, "the burst finished before the kill; nothing was tested"

    server.start()
    view, present = check_group_outcome(clients, typed, acked_before, 3 * PER_CLIENT,
                                        sending={c.name: shown_sending(c, marks[c.name]) for c in clients})
    assert present == 3 * PER_CLIENT  # the outboxes resent everything typed, once
    acked_after = {c.name: acked(c, marks[c.name]) for c in clients}
    for name, before in acked_before.items():
        seqs_after = {s for s, _ in acked_after[name]}
        assert {s for s, _ in before} <= seqs_after
    print(f"\nacked before the kill: {total_before}; in history after restart: {len(view)}")
