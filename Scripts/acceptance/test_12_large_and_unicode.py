"""Scenario 12: a 9,000+ character message and a message mixing scripts and emoji arrive
byte-identical (no normalisation, no truncation, no re-encoding)."""
import pytest

from harness.checks import texts

pytestmark = pytest.mark.storage  # run again on PostgreSQL by run-all.sh

MIXED = ("Ελληνικά · Русский · 中文 · 日本語かな · 한국어 · العربية · עברית · हिन्दी · ไทย · "
         "e\u0301 vs é · 👩\u200d👩\u200d👧\u200d👦 · 🏳\ufe0f\u200d🌈 · 👍🏽 · 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 · \u200b zero-width")


def long_text():
    # 9,500 scalars, varied so a lost or repeated chunk changes the text.
    parts, i = [], 0
    while sum(len(p) for p in parts) < 9_500:
        parts.append(f"[{i:04d} lorem ipsum ✓ ü] ")
        i += 1
    return "".join(parts)[:9_500]


def test_large_and_mixed_script_messages(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    alice.cmd("/dm bob")
    bob.cmd("/open alice")
    big = long_text()
    assert len(big) == 9_500
    mark = len(bob.events)
    alice.say(big)
    alice.say(MIXED)
    alice.cmd("/wait sent 20", timeout=30)

    live = bob.events.wait_count(lambda e: e.get("type") == "message" and e.get("sender") == "alice",
                                 2, 20, mark, what="bob: both messages")
    assert [e["text"].encode("utf-8") for e in live] == [big.encode("utf-8"), MIXED.encode("utf-8")]
    for c in (alice, bob):
        got = c.history()
        assert [t.encode("utf-8") for t in texts(got)] == [big.encode("utf-8"), MIXED.encode("utf-8")]

    # Over the limit (10,000 scalars) is refused with a clear reason, and nothing is stored.
    too_long = "x" * 10_001
    alice.say(too_long)
    alice.wait_event(lambda e: "too_long" in str(e) or "too long" in str(e).lower(), 15, mark,
                     what="a clear too-long error")
    alice.say("still fine")
    bob.cmd("/wait-messages 3 15", timeout=20)
    assert texts(bob.history()) == [big, MIXED, "still fine"]
