"""The history checker (harness/history.py) on hand-made histories: a good one passes, and one
that breaks each rule fails with that rule named. No process is started."""
import copy

from harness.history import ClientHistory, check

A, B = "alice", "bob"
CID = 7


def sending(cid_, client_id, text):
    return {"type": "state", "state": "sending", "conversation_id": cid_, "client_id": client_id, "seq": 0, "text": text}


def acked(cid_, client_id, seq):
    return {"type": "state", "state": "sent", "conversation_id": cid_, "client_id": client_id, "seq": seq}


def shown(seq, sender, client_id, text, via="live"):
    return {"type": "message", "conversation_id": CID, "seq": seq, "sender": sender, "client_id": client_id, "text": text, "via": via}


def row(seq, sender, client_id, text):
    return {"seq": seq, "sender": sender, "client_id": client_id, "text": text}


def good():
    """alice sends a1, a2 (acked 1, 3); bob sends b1 (acked 2); each sees the other's live,
    bob's a2 after a hole filled by a sync."""
    rows = [row(1, A, "a1", "one"), row(2, B, "b1", "two"), row(3, A, "a2", "three")]
    alice = ClientHistory("alice", A, [sending(CID, "a1", "one"), acked(CID, "a1", 1), shown(2, B, "b1", "two"),
                                       sending(CID, "a2", "three"), acked(CID, "a2", 3)], {CID: list(rows)})
    bob = ClientHistory("bob", B, [shown(1, A, "a1", "one"), sending(CID, "b1", "two"), acked(CID, "b1", 2),
                                   shown(3, A, "a2", "three", via="gap")], {CID: list(rows)})
    return [alice, bob]


def rules(histories):
    v = check(histories, members={CID: {A, B}})
    return {k.split(":", 1)[1] for k, n in v.counts.items() if k.startswith("violation:") and n}, v


def test_a_good_history_passes_with_counts():
    found, v = rules(good())
    assert v.ok and not found, v.summary()
    assert (v.counts["acked"], v.counts["sent"], v.counts["shown"], v.counts["via:gap"]) == (3, 3, 3, 1)
    assert "history OK" in v.summary()


def test_an_acknowledged_message_missing_from_a_member_is_lost():
    h = good()
    h[1].final[CID] = [r for r in h[1].final[CID] if r["client_id"] != "a2"]
    assert "lost" in rules(h)[0]


def test_a_member_without_the_conversation_is_lost():
    h = good()
    del h[1].final[CID]
    assert "lost" in rules(h)[0]


def test_a_message_held_twice_is_duplicated():
    h = good()
    h[0].final[CID].append(row(4, A, "a2", "three"))
    h[1].final[CID].append(row(4, A, "a2", "three"))
    assert "duplicated" in rules(h)[0]


def test_a_message_acknowledged_at_two_seqs_is_duplicated():
    h = good()
    h[0].events.append(acked(CID, "a1", 4))
    assert "duplicated" in rules(h)[0]


def test_members_that_disagree_diverge():
    h = good()
    h[1].final[CID] = [h[1].final[CID][1], h[1].final[CID][0], h[1].final[CID][2]]
    h[1].final[CID][0]["seq"], h[1].final[CID][1]["seq"] = 1, 2
    h[1].final[CID] = copy.deepcopy(h[1].final[CID])
    assert "diverged" in rules(h)[0]


def test_a_hole_in_the_seqs_is_a_gap():
    h = good()
    for c in h:
        c.final[CID] = [r for r in c.final[CID] if r["seq"] != 2]
    assert "gap" in rules(h)[0]


def test_a_message_nobody_sent_is_a_phantom():
    h = good()
    for c in h:
        c.final[CID].append(row(4, B, "zz", "never typed"))
    assert "phantom" in rules(h)[0]


def test_a_message_whose_text_changed_is_a_phantom():
    h = good()
    for c in h:
        c.final[CID][0] = row(1, A, "a1", "ONE")
    assert "phantom" in rules(h)[0]


def test_an_acknowledged_message_at_another_seq_is_not_durable():
    h = good()
    for c in h:
        c.final[CID] = [row(1, A, "a1", "one"), row(2, A, "a2", "three"), row(3, B, "b1", "two")]
    assert "not_durable" in rules(h)[0]


def test_live_messages_shown_out_of_order_are_reordered():
    h = good()
    h[1].events = [sending(CID, "b1", "two"), acked(CID, "b1", 2), shown(3, A, "a2", "three"), shown(1, A, "a1", "one", via="gap")]
    assert rules(h)[0] == {"reordered"}


def test_a_message_shown_twice_is_duplicated():
    h = good()
    h[1].events.append(shown(3, A, "a2", "three", via="live"))
    assert rules(h)[0] == {"duplicated"}
