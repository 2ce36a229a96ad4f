"""Scenario 40: contacts by consent, message requests and blocking. A contact request is seen live
and in the requests list; presence shows only after the accept; a stranger's DM gets no read
receipt until the reply; a blocked user's messages do not arrive, the refusal does not say
"blocked", and unblocking restores delivery."""

import pytest

pytestmark = pytest.mark.storage  # run again on PostgreSQL by run-all.sh


def of(kind, user=None):
    return lambda e: e.get("type") == kind and (user is None or e.get("user") == user)


def test_contact_request_accept_presence_and_block(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    carol = world.user("carol", server.address)

    # A request: names only, no presence, while bob is online.
    mark_bob = len(bob.events)
    sent = alice.cmd("/add bob")
    assert sent["state"] == "requested" and sent["online"] is False, sent
    request = bob.wait_event(of("contact_request", "alice"), 15, mark_bob, what="alice's request, live")
    assert request["state"] == "incoming" and request["display_name"] == "Alice", request
    assert [r["username"] for r in bob.cmd("/requests")["requests"]] == ["alice"]
    seen = alice.cmd("/profile bob")
    assert seen["online"] is False and seen["state"] == "requested", seen

    # bob was offline when carol asked: he finds it in /requests after reconnecting.
    assert bob.close() == 0
    carol.cmd("/add bob")
    bob = world.client("bob", server.address)
    bob.wait_online()
    assert sorted(r["username"] for r in bob.cmd("/requests")["requests"]) == ["alice", "carol"]
    bob.cmd("/decline carol")
    assert [r["username"] for r in bob.cmd("/requests")["requests"]] == ["alice"]
    assert carol.cmd("/profile bob")["state"] == "requested", "carol is not told of the decline"

    # The accept: alice hears of it, then sees bob's presence, and it follows him.
    mark_alice = len(alice.events)
    assert bob.cmd("/accept alice")["state"] == "accepted"
    told = alice.wait_event(of("contact_accepted", "bob"), 15, mark_alice, what="bob's accept")
    assert told["online"] is True, told
    assert alice.cmd("/profile bob")["online"] is True
    states = {c["username"]: c["state"] for c in bob.cmd("/contacts")["contacts"]}
    assert states == {"alice": "accepted"}, states
    mark_alice = len(alice.events)
    assert bob.close() == 0
    gone = alice.wait_event(lambda e: e.get("type") == "presence" and e.get("user") == "bob" and not e.get("online"),
                            20, mark_alice, what="bob offline presence")
    assert gone.get("last_seen", 0) > 0

    # A block: carol's messages stop, and she is not told why.
    mark_alice = len(alice.events)
    carol.cmd("/dm alice")
    alice.wait_event(lambda e: e.get("type") == "message_request" and e.get("user") == "carol", 15, mark_alice,
                     what="carol's DM announced as a message request")
    carol.say("hola alice 👋🏽")
    carol.cmd("/wait sent 15", timeout=20)
    held = alice.cmd("/requests")["messages"]
    assert [(m["user"], m["last_text"]) for m in held] == [("carol", "hola alice 👋🏽")], held
    listed = {c["name"]: c["request"] for c in alice.cmd("/list")["conversations"]}
    assert listed["carol"] is True and not any(v for k, v in listed.items() if k != "carol"), listed
    alice.cmd("/open carol")
    assert [m["text"] for m in alice.history()] == ["hola alice 👋🏽"]
    # carol is a stranger: her DM is a message request, and alice's reading is not told. alice's
    # reply (sent after her read marker, on the same connection) accepts it.
    mark_carol = len(carol.events)
    alice.say("hola carol")
    carol.wait_event(lambda e: e.get("type") == "message" and e.get("text") == "hola carol", 15, mark_carol,
                     what="alice's reply")
    assert not any("read" in s for s in carol.states().values()), carol.states()
    assert alice.cmd("/requests")["messages"] == [], "the reply accepted it"
    assert {c["name"]: c["request"] for c in alice.cmd("/list")["conversations"]}["carol"] is False
    carol.say("gracias")
    carol.cmd("/wait read 15", timeout=20)  # accepted: alice, in the conversation, reads it
    alice.cmd("/block carol")
    assert [u["username"] for u in alice.cmd("/blocked")["users"]] == ["carol"]
    mark_carol = len(carol.events)
    carol.say("¿sigues ahí? 你好")
    refused = carol.wait_event(lambda e: e.get("type") == "error" and e.get("command") == "send", 15, mark_carol,
                               what="carol's refused send")
    assert "block" not in refused["message"].lower(), refused
    assert carol.queue() == [], "a refused message is not retried forever"
    assert [m["text"] for m in alice.history()][-1] == "gracias", "nothing from carol after the block"
    assert carol.cmd("/profile alice")["online"] is False

    alice.cmd("/unblock carol")
    assert alice.cmd("/blocked")["users"] == []
    mark_alice = len(alice.events)
    carol.say("back again")
    alice.wait_event(lambda e: e.get("type") == "message" and e.get("text") == "back again", 15, mark_alice,
                     what="carol's message after the unblock")
