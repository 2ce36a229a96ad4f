"""Scenario 50: the server's assistant. A 30-message thread between three users, then /summary,
/actions, /done and /decisions on two clients of the same user: both list the same items, and
an item marked done on one shows done on the other (pushed, and after a restart from the cache)."""
import pytest

from harness.client import PASSWORD
from harness.waiting import wait_until

pytestmark = pytest.mark.storage  # run again on PostgreSQL by run-all.sh


THREAD = [
    ("ann", "Morning! The 2.3 release is the topic today."),
    ("ben", "I merged the login-timeout fix last night."),
    ("cat", "Great. Staging is green since 7am."),
    ("ann", "Do we ship on Thursday or Friday?"),
    ("ben", "Thursday works for me if QA signs off."),
    ("cat", "QA signed off an hour ago."),
    ("ann", "Decision: we ship 2.3 on Thursday."),
    ("ben", "Ann, could you write the release notes by Wednesday 5pm?"),
    ("ann", "Yes, I'll take it."),
    ("cat", "Ann, please also tag the 2.3 hotfix branch after standup."),
    ("ben", "I will update the status page tomorrow."),
    ("cat", "Who owns the rollback plan?"),
    ("ann", "Good question, nobody yet."),
    ("ben", "I can look at it if we have time next week."),
    ("cat", "Let's keep the rollback plan as an open point."),
    ("ann", "The dashboard numbers look odd for Europe."),
    ("ben", "Ann, can you check the Europe dashboard numbers by Friday?"),
    ("ann", "Sure, I'll check them Friday morning."),
    ("cat", "Agreed: the beta flag stays on for one more week."),
    ("ben", "Nice, that gives us room."),
    ("ann", "Cat, could you send the customer email on Thursday?"),
    ("cat", "Yes, I'll send it Thursday at noon."),
    ("ben", "Is the translation of the notes needed?"),
    ("ann", "Only for Japanese — 日本語 — this time."),
    ("cat", "Ben, please book the Japanese review with Aiko by Tuesday."),
    ("ben", "Done, booked for Tuesday 10:00."),
    ("ann", "Thanks all 🙌🏽"),
    ("cat", "One more: the status page copy needs a check."),
    ("ben", "I'll check the status page copy tomorrow."),
    ("ann", "Great, see you at standup."),
]


def _open_group(c, name="launch"):
    wait_until(lambda: any(r.get("name") == name for r in c.conversations()), 15, f"{c.name} to see {name}", interval=0.2)
    c.cmd(f"/open {name}")


def test_thread_summary_actions_done_on_two_devices(world):
    server = world.server()
    users = {n: world.user(n, server.address) for n in ("ann", "ben", "cat")}
    laptop = world.client("ann-laptop", server.address)
    laptop.wait_online()
    laptop.cmd(f"/login ann {PASSWORD}")
    users["ann"].cmd("/group create launch ben cat")
    for c in (users["ben"], users["cat"], laptop):
        _open_group(c)

    for who, text in THREAD:
        users[who].say(text)
        users[who].cmd("/wait sent 15", timeout=20)
    for c in (*users.values(), laptop):
        c.cmd("/wait-messages 30 20", timeout=25)

    summary = users["ann"].cmd("/summary")
    assert summary["source"] == "server" and summary["engine"] == "local", summary
    assert summary["messages"] == 30 and summary["covered"] == 30, summary
    assert summary["summary"], summary
    assert any("thursday" in d.lower() for d in summary["decisions"]), summary
    again = laptop.cmd("/summary")
    assert again["cached"] is True and again["summary"] == summary["summary"], again

    # Items are extracted after delivery: wait for them, then both devices list the same ones.
    def mine(c):
        # Every ask of ann's extracted (a count alone can be reached before the last one is).
        items = c.cmd("/actions mine")["actions"]
        whats = " | ".join(i["what"] for i in items)
        return items if len(items) >= 3 and "release notes" in whats and "dashboard" in whats else None
    phone_items = wait_until(lambda: mine(users["ann"]), 15, "ann's action items", interval=0.3)
    laptop_items = wait_until(lambda: mine(laptop), 15, "ann's action items on the laptop", interval=0.3)
    assert [i["item_id"] for i in phone_items] == [i["item_id"] for i in laptop_items]
    whats = " | ".join(i["what"] for i in phone_items)
    assert "release notes" in whats and "dashboard" in whats, whats
    assert all(i["who"] == "ann" for i in phone_items), phone_items

    notes = next(i for i in phone_items if "release notes" in i["what"])
    done = users["ann"].cmd(f"/done {notes['item_id']}")
    assert done["done"] is True and done["done_by"] == "ann", done

    def laptop_shows_done():
        rows = laptop.cmd("/actions all")["actions"]
        row = next((r for r in rows if r["item_id"] == notes["item_id"]), None)
        return row if row and row["done"] else None
    row = wait_until(laptop_shows_done, 15, "the laptop to show the item done", interval=0.3)
    assert row["done_by"] == "ann"
    assert notes["item_id"] not in [i["item_id"] for i in laptop.cmd("/actions mine")["actions"]]
    # Ben, who asked, sees it done too.
    ben_row = wait_until(lambda: next((r for r in users["ben"].cmd("/actions all")["actions"]
                                       if r["item_id"] == notes["item_id"] and r["done"]), None),
                         15, "ben to see the item done", interval=0.3)
    assert ben_row["done_by"] == "ann"

    d1 = [d["decision"] for d in users["ann"].cmd("/decisions")["decisions"]]
    d2 = [d["decision"] for d in laptop.cmd("/decisions")["decisions"]]
    assert d1 == d2 and any("thursday" in d.lower() for d in d1), (d1, d2)

    # Undo on the laptop; the phone sees it open again.
    laptop.cmd(f"/undo {notes['item_id']}")
    wait_until(lambda: notes["item_id"] in [i["item_id"] for i in users["ann"].cmd("/actions mine")["actions"]],
               15, "the item open again on the phone", interval=0.3)

    # Offline, the laptop reads the same items from its cache (once it knows it is offline: a
    # request in flight when the server dies fails with connection_lost, as it should).
    before_kill = len(laptop.events)
    server.kill()
    laptop.wait_offline(since=before_kill)
    cached = laptop.cmd("/actions mine")
    assert cached["source"] == "cache", cached
    assert sorted(i["item_id"] for i in cached["actions"]) == sorted(i["item_id"] for i in phone_items)
