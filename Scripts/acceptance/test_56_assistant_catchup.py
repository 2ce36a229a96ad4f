"""Scenario 56: /catchup across conversations (issue 28). Two groups and a direct conversation get
messages while alice reads none of them; `/catchup` then tells, per conversation with activity,
the decisions, the work now hers, the questions waiting for her and the mentions, in one answer,
and gives the same answer with the server down (the local cache and the local engine)."""
from harness.waiting import wait_until


def _wait_group(c, name):
    wait_until(lambda: any(r.get("name") == name for r in c.conversations()), 15, f"{c.name} to see {name}", interval=0.2)


def test_catchup_across_conversations_online_and_offline(world):
    server = world.server()
    alice, bob, carol = (world.user(n, server.address) for n in ("alice", "bob", "carol"))
    bob.cmd("/group create billing alice carol")
    bob.cmd("/group create design alice carol")
    for c in (alice, carol):
        _wait_group(c, "billing")
        _wait_group(c, "design")
    talk = [
        (bob, "billing", "How about we keep the old read replicas until the cutover?"),
        (carol, "billing", "That works."),
        (bob, "billing", "Alice, could you request staging access from infra by Friday?"),
        (carol, "design", "Bob, please export the icon set."),
        (bob, "design", "@alice can you check the contrast of the new palette by Monday?"),
        (carol, "design", "Is the dark palette final, alice?"),
    ]
    for who, group, text in talk:
        who.cmd(f"/open {group}")
        who.say(text)
        who.cmd("/wait sent 15", timeout=20)
    wait_until(lambda: sum(r.get("unread", 0) for r in alice.cmd("/unread")["conversations"]) >= 6 or None, 20,
               "alice to receive the six messages", interval=0.3)

    def parts(answer):
        return {p["conversation"]: p for p in answer["conversations"]}

    online = parts(alice.cmd("/catchup"))
    assert set(online) == {"billing", "design"}, online
    billing, design = online["billing"], online["design"]
    assert any("read replicas" in d for d in billing["decisions"]), billing
    assert any("staging access" in a["what"] for a in billing["yours"]), billing
    assert any("contrast" in a["what"] for a in design["yours"]), design
    assert not any("icon set" in a["what"] for a in design["yours"]), "carol asked bob, not alice"
    assert [m["from"] for m in design["mentions"]] == ["bob"], design
    assert any("dark palette" in q for q in design["questions"]), design

    since = parts(alice.cmd("/catchup since 1h"))
    assert set(since) == {"billing", "design"}, since
    assert alice.cmd("/catchup since 0h", expect_error=True)["code"] == "usage"

    before_kill = len(alice.events)
    server.kill()
    alice.wait_offline(since=before_kill)  # a /catchup in flight when the server dies fails instead
    offline = parts(alice.cmd("/catchup"))
    assert offline == online, (offline, online)
