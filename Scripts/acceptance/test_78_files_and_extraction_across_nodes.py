"""Scenario 78 (issue 26 stage C): files and the assistant's extraction across nodes on one
PostgreSQL database.

1. Two nodes share one files directory (`--files-directory`). An upload through node 1 (behind
   a bandwidth-limited proxy, so that "half-way" is reachable) is cut by kill -9 of node 1; the
   proxy then leads to node 2, the client resumes from where node 1 stopped (not from zero),
   and bob, on node 2, saves the file: the same bytes, stored once.
2. Node 1 holds every batch of extraction jobs it claims (MESSAGEAI_EXTRACTION_HOLD_MS, a test
   knob, its lease renewed): asks are sent, node 1 claims them and is killed with -9 mid-batch. A new node takes
   node 1's address (as a replacement behind one name would): the clients reconnect, the jobs
   are done by the new node, and every ask has its action item exactly once."""
import subprocess

import pytest

from harness.waiting import wait_until
from test_50_files import BIG, file_messages, progress, random_file, saved_sha

pytestmark = pytest.mark.storage


def test_an_upload_cut_by_kill_resumes_through_the_other_node(world, postgres_database):
    shared = str(world.tmp / "shared-files")
    node1 = world.server("--plaintext", "--files-directory", shared, name="node1", database=postgres_database)
    node2 = world.server("--plaintext", "--files-directory", shared, name="node2", database=postgres_database)
    proxy = world.proxy(node1)
    proxy.rate = 4 << 20  # 4 MiB/s: half-way is a moment the test can reach
    alice = world.user("alice", proxy.address)
    bob = world.user("bob", node2.address)
    alice.cmd("/dm bob")
    wait_until(lambda: any(r.get("name") == "alice" for r in bob.conversations()), 30, "bob to see the DM", interval=0.3)
    bob.cmd("/open alice")

    src = world.tmp / "big.bin"
    digest = random_file(src, BIG, seed=78)
    alice.cmd(f"/send-file {src} the whole dataset")
    wait_until(lambda: any(e["bytes"] >= BIG // 3 for e in progress(alice)), 120, "a third of the upload")
    reached = max(e["bytes"] for e in progress(alice))
    assert reached < BIG, "the upload finished before the kill"
    node1.kill()
    proxy.retarget(node2.host, node2.port)

    since = len(alice.events)
    alice.cmd("/wait sent 120", timeout=130)
    resumed = progress(alice, since)
    assert resumed, "no progress after the move to node 2"
    assert resumed[0]["bytes"] >= reached * 9 // 10, (
        f"the upload started over at {resumed[0]['bytes']} instead of resuming near {reached}")
    bob.cmd("/wait-messages 1 60", timeout=70)
    msgs = file_messages(bob)
    assert len(msgs) == 1, f"the file message arrived {len(msgs)} times"
    _, got = saved_sha(world, bob, f"#{msgs[0]['seq']}")
    assert got == digest, "node 2 served other bytes than alice uploaded through node 1"
    blobs = sorted(p.name for p in (world.tmp / "shared-files" / "blobs").iterdir())
    assert blobs == [digest], f"the shared directory holds the file once, by its hash: {blobs}"
    assert list((world.tmp / "shared-files" / "partial").iterdir()) == []


def _rows(url, sql):
    out = subprocess.run(["psql", "-X", "-A", "-t", "-d", url, "-c", sql], capture_output=True, text=True, timeout=30, check=True)
    return [line for line in out.stdout.splitlines() if line]


def _scalar(url, sql):
    return int(_rows(url, sql)[0])


ASKS = 12


def test_an_extraction_batch_cut_by_kill_is_finished_once_by_another_node(world, postgres_database, monkeypatch):
    monkeypatch.setenv("MESSAGEAI_EXTRACTION_HOLD_MS", "600000")
    node1 = world.server("--plaintext", name="node1", database=postgres_database)
    monkeypatch.delenv("MESSAGEAI_EXTRACTION_HOLD_MS")
    users = {n: world.user(n, node1.address) for n in ("ann", "ben", "cat")}
    users["ann"].cmd("/group create release ben cat")
    for c in users.values():
        wait_until(lambda: any(r.get("name") == "release" for r in c.conversations()), 15, f"{c.name} to see release", interval=0.2)
        c.cmd("/open release")
    for i in range(ASKS):
        users["ann"].say(f"Ben, could you tag the 2.{i} hotfix branch by 5pm?")
    users["ann"].cmd("/wait sent 30", timeout=40)

    jobs = "SELECT count(*) FROM extraction_jobs"
    claimed = "SELECT count(*) FROM extraction_jobs WHERE claimed_until > (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT"
    wait_until(lambda: _scalar(postgres_database, claimed) > 0, 30,
               "node 1 to hold a claimed batch", interval=0.2)
    assert _scalar(postgres_database, "SELECT count(*) FROM assistant_items") == 0, "nothing stored while held"

    ben = users["ben"]
    before_kill = len(ben.events)
    node1.kill()
    node2 = world.server("--plaintext", name="node2", database=postgres_database, start=False)
    node2.port = node1.port  # the replacement answers at the same address; the clients reconnect to it
    node2.start()
    ben.wait_online(timeout=60, since=before_kill)  # back, through the address node 2 now answers at
    # Items stored before ben was back reach him by his sync, not as pushes (no event then).
    back_before_items = _scalar(postgres_database, "SELECT count(*) FROM assistant_items") == 0
    # Node 1's lease (10 s) runs out; node 2's next poll (every 2 s) takes its jobs.
    wait_until(lambda: _scalar(postgres_database, jobs) == 0, 45, "node 2 to finish node 1's batch", interval=0.3)
    whats = sorted(_rows(postgres_database, "SELECT text FROM assistant_items WHERE who = 'ben'"))
    assert len(whats) == ASKS, whats
    for i in range(ASKS):
        assert sum(f"2.{i} hotfix" in w for w in whats) == 1, f"ask {i} has {whats} items"

    if back_before_items:
        def pushed():
            got = [e for e in ben.of_type("assistant_item", before_kill) if e.get("kind") == "action"]
            return got if len({e["seq"] for e in got}) >= ASKS else None
        shown = wait_until(pushed, 45, "ben to be shown every ask's action item", interval=0.3)
        items = list({e["item_id"]: e for e in shown}.values())  # a push and a sync may show one item twice
        assert len(items) == ASKS, items
        for i in range(ASKS):
            assert sum(f"2.{i} hotfix" in e["what"] for e in items) == 1, f"ask {i} shown as {items}"
        assert all(i["who"] == "ben" for i in items), items
    assert _scalar(postgres_database, "SELECT count(*) FROM assistant_items") == ASKS, "each message's items once"
    # Ben's own list, asked through the new node after the reconnect: answered at once (the
    # command's 15 s), from the server, every ask once.
    mine = ben.cmd("/actions mine")
    assert mine["source"] == "server", mine
    for i in range(ASKS):
        assert sum(f"2.{i} hotfix" in a["what"] for a in mine["actions"]) == 1, f"ask {i} listed as {mine['actions']}"
