"""Scenario 70 (issue 25): what the store must keep, read back after a server restart by a
second device that never saw it live. Replies, reactions, an edit and a delete for everyone;
search by words with accents, CJK and a prefix; the deleted text is found by no one and shown to
no one. Marked `storage`: run-all.sh runs it on SQLite and again on PostgreSQL."""
import pytest

from harness.client import PASSWORD
from harness.checks import texts

pytestmark = pytest.mark.storage

FIRST = "Café au lait at the 東京 office, 10:00 📦"
SECOND = "the rollout plan is gänzlich neu"
EDITED = "the rollout plan is final"
SECRET = "launch codename quokka-7"


def found(client, query):
    return [m["text"] for m in client.cmd(f"/find {query}")["messages"]]


def test_changes_survive_restart_and_read_the_same_everywhere(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    world.contacts(alice, bob)
    alice.cmd("/dm bob")
    bob.cmd("/open alice")
    for text in (FIRST, SECOND, SECRET):
        alice.say(text)
    alice.cmd("/wait sent 20", timeout=30)
    bob.cmd("/wait-messages 3 20", timeout=30)
    seqs = {m["text"]: m["seq"] for m in bob.history()}

    bob.cmd(f"/reply #{seqs[FIRST]} ok 👍 see you there")
    bob.cmd(f"/react #{seqs[FIRST]} :tada:")
    alice.cmd(f"/edit #{seqs[SECOND]} {EDITED}")
    alice.cmd(f"/delete #{seqs[SECRET]}")
    mark = 0
    bob.wait_event(lambda e: e.get("type") == "change" and e.get("action") == "delete", 20, mark,
                   what="the delete, live")

    # Read back from the store alone: the server restarts, and a second device of bob's logs in.
    assert server.terminate() == 0
    server.start()
    phone = world.client("bob-phone", server.address)
    phone.wait_online()
    phone.cmd(f"/login bob {PASSWORD}")
    phone.cmd("/open alice")
    phone.cmd("/wait-messages 4 20", timeout=30)
    history = phone.history()
    by_seq = {m["seq"]: m for m in history}
    assert SECRET not in texts(history), "the deleted text is still shown"
    assert by_seq[seqs[SECRET]].get("deleted") is True, by_seq.get(seqs[SECRET])
    assert by_seq[seqs[SECOND]]["text"] == EDITED and by_seq[seqs[SECOND]].get("edited_at"), by_seq[seqs[SECOND]]
    replies = [m for m in history if m.get("reply_to") == seqs[FIRST]]
    assert [m["text"] for m in replies] == ["ok 👍 see you there"]
    assert "🎉" in str(by_seq[seqs[FIRST]].get("reactions", "")), by_seq[seqs[FIRST]]

    # Search: every word, accents and case ignored, the last word a prefix, CJK as typed.
    assert found(phone, "cafe LAIT") == [FIRST]
    assert found(phone, "東京") == [FIRST]
    assert found(phone, "rollout fin") == [EDITED]
    assert found(phone, "gänzlich") == [], "the text before the edit is still indexed"
    for who in (phone, alice):
        assert found(who, "quokka") == [], f"{who.name}: the deleted message is still found"
