"""Scenario 8: username search and contacts. Several users; search by prefix (case-insensitive);
contact requests; presence only once accepted; profiles only for requests, contacts or conversation
partners."""
import pytest

from harness.checks import usernames

pytestmark = pytest.mark.storage  # run again on PostgreSQL by run-all.sh


def names(event, key):
    return sorted(usernames(event[key]))


def test_search_contacts_and_profiles(world):
    server = world.server()
    for name in ("bobby", "bob_two", "carol", "dave"):
        world.user(name, server.address).close()
    bob = world.user("bob", server.address)
    alice = world.user("alice", server.address)

    assert names(alice.cmd("/search bob"), "users") == ["bob", "bob_two", "bobby"]
    assert names(alice.cmd("/search BOB_"), "users") == ["bob_two"]
    assert names(alice.cmd("/search ca"), "users") == ["carol"]
    assert names(alice.cmd("/search zz"), "users") == []

    # Not a contact and no shared conversation: no profile.
    err = alice.cmd("/profile carol", expect_error=True)
    assert err.get("code") == "not_a_contact", err
    err = alice.cmd("/profile nobody_here", expect_error=True)
    assert err.get("code") == "not_found", err

    assert alice.cmd("/add carol")["state"] == "requested"
    assert alice.cmd("/add bob")["state"] == "requested"
    assert bob.cmd("/accept alice")["state"] == "accepted"
    contacts = alice.cmd("/contacts")["contacts"]
    assert names({"c": contacts}, "c") == ["bob", "carol"]
    online = {c["username"]: (c.get("state"), c.get("online")) for c in contacts}
    assert online["bob"] == ("accepted", True) and online["carol"] == ("requested", False), online

    profile = alice.cmd("/profile carol")
    assert profile["username"] == "carol" and profile["display_name"] == "Carol"

    # bob and dave share nothing: no profile.
    err = bob.cmd("/profile dave", expect_error=True)
    assert err.get("code") == "not_a_contact", err
    # A shared conversation makes the profile visible.
    alice.cmd("/dm dave")
    alice.say("hi dave")
    alice.cmd("/wait sent 15", timeout=20)
    dave = world.client("dave", server.address)
    dave.wait_online()
    assert dave.cmd("/profile alice")["username"] == "alice"

    alice.cmd("/remove carol")
    assert names(alice.cmd("/contacts"), "contacts") == ["bob"]
    err = alice.cmd("/profile carol", expect_error=True)
    assert err.get("code") == "not_a_contact", err
    assert alice.cmd("/whoami")["username"] == "alice"
