"""Scenario 7: a group of three. Everyone sends; everyone sees every message with the right
sender; per-member read state is right (/info shows who has it and who read it)."""
import json

import pytest

from harness.checks import assert_same_view, mine, texts, usernames
from harness.waiting import wait_until

pytestmark = pytest.mark.storage  # run again on PostgreSQL by run-all.sh


def test_group_of_three(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    carol = world.user("carol", server.address)
    alice.cmd("/group create trio bob carol")
    for c in (bob, carol):
        wait_until(lambda: any(r.get("name") == "trio" for r in c.conversations()), 15,
                   f"{c.name} to see the group", interval=0.2)
        c.cmd("/open trio")

    members = alice.cmd("/group members")
    assert all(f'"{u}"' in json.dumps(members) for u in ("alice", "bob", "carol")), members

    sent = {}
    for c in (alice, bob, carol):
        sent[c.name] = [f"{c.name} in the group {i}" for i in range(3)]
        for text in sent[c.name]:
            c.say(text)
        c.cmd("/wait sent 15", timeout=20)
    for c in (alice, bob, carol):
        c.cmd("/wait-messages 9 15", timeout=20)
    histories = {c.name: c.history() for c in (alice, bob, carol)}
    assert_same_view(histories)
    for name, texts_sent in sent.items():
        assert texts(mine(histories["alice"], name)) == texts_sent

    # Carol looks elsewhere; bob keeps the group open.
    carol.cmd("/dm alice")
    alice.say("who reads this?")
    alice.cmd("/wait delivered 15", timeout=20)
    seq = alice.history()[-1]["seq"]

    def info_when(pred):
        return lambda: (lambda i: i if pred(i) else None)(alice.cmd(f"/info {seq}"))

    info = wait_until(info_when(lambda i: "bob" in usernames(i["read_by"])), 15, "bob in read_by", interval=0.2)
    assert info["recipient_count"] == 2
    assert set(usernames(info["delivered_to"])) == {"bob", "carol"}, info
    assert usernames(info["read_by"]) == ["bob"], info

    carol.cmd("/open trio")
    info = wait_until(info_when(lambda i: set(usernames(i["read_by"])) == {"bob", "carol"}), 15,
                      "carol in read_by after opening the group", interval=0.2)
    assert info["recipient_count"] == 2
    alice.cmd("/wait read 15", timeout=20)
