"""Scenario 53: the assistant's items follow edits and new members, through real clients.
An edit that keeps the work keeps the item and its done mark (with the new due date) on every
device; an edit to other work withdraws it and adds the new one; a member added to the group
later receives the group's items as pushes, without asking (/actions) first."""
import pytest

from harness.waiting import wait_until

pytestmark = pytest.mark.storage  # run again on PostgreSQL by run-all.sh


def _open_group(c, name="launch"):
    wait_until(lambda: any(r.get("name") == name for r in c.conversations()), 15, f"{c.name} to see {name}", interval=0.2)
    c.cmd(f"/open {name}")


def test_edit_keeps_or_replaces_items_and_a_new_member_gets_them(world):
    server = world.server()
    ann, ben, cat, dan = (world.user(n, server.address) for n in ("ann", "ben", "cat", "dan"))
    ann.cmd("/group create launch ben cat")
    for c in (ann, ben, cat):
        _open_group(c)
    ann.say("Decision: we ship 2.3 on Thursday.")
    ann.cmd("/wait sent 15", timeout=20)
    ann.say("Ben, please tag the 2.3 hotfix branch by 5pm 🙌🏽")
    ann.cmd("/wait sent 15", timeout=20)

    def bens(due):
        return next((i for i in ben.cmd("/actions all")["actions"] if "hotfix" in i["what"] and i["due"] == due), None)
    item = wait_until(lambda: bens("5pm"), 15, "ben's item", interval=0.3)
    ben.cmd(f"/done {item['item_id']}")

    # Same work, later: the same item, still done, due 6pm, seen on cat's device by push.
    ann.cmd(f"/edit #{item['seq']} Ben, please tag the 2.3 hotfix branch by 6pm 🙌🏽")
    moved = cat.wait_event(lambda e: e.get("type") == "assistant_item" and e.get("item_id") == item["item_id"]
                           and e.get("due") == "6pm", 15, what="the moved item pushed")
    assert moved["done"] is True and moved["done_by"] == "ben", moved

    # Other work: the old item goes, a new open one for cat comes.
    ann.cmd(f"/edit #{item['seq']} Cat, please book the room for the 東京 review by Friday.")
    new = wait_until(lambda: next((i for i in cat.cmd("/actions mine")["actions"] if "room" in i["what"]), None),
                     15, "cat's new item", interval=0.3)
    assert new["item_id"] != item["item_id"] and new["done"] is False, new
    assert not [i for i in ben.cmd("/actions all")["actions"] if i["item_id"] == item["item_id"]]

    # Dan joins later: the group's items reach his client as pushes before he asks for them.
    since = len(dan.events.snapshot())
    ann.cmd("/group add dan")
    got = wait_until(lambda: {e["item_id"] for e in dan.of_type("assistant_item", since)} >= {new["item_id"]} or None,
                     15, "the group's items pushed to dan", interval=0.2)
    assert got
    kinds = {e["kind"] for e in dan.of_type("assistant_item", since)}
    assert kinds == {"action", "decision"}, kinds
