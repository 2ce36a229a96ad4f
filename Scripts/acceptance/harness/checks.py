"""Assertions about what users see, shared by the scenarios."""
from collections import Counter

STATE_ORDER = {"sending": 0, "sent": 1, "delivered": 2, "read": 3}


def texts(messages):
    return [m["text"] for m in messages]


def assert_no_duplicates(messages, who=""):
    seqs = Counter(m["seq"] for m in messages)
    dup_seqs = [s for s, n in seqs.items() if n > 1]
    assert not dup_seqs, f"{who}: seq shown more than once: {dup_seqs}"
    counts = Counter(m["text"] for m in messages)
    dups = [t[:40] for t, n in counts.items() if n > 1]
    assert not dups, f"{who}: messages shown more than once: {dups}"


def assert_ascending(messages, who=""):
    seqs = [m["seq"] for m in messages]
    assert seqs == sorted(seqs), f"{who}: history not in seq order: {seqs}"
    times = [m["server_time"] for m in messages]
    assert times == sorted(times), f"{who}: server times go backwards"


def view(messages):
    """What every member must agree on: position, sender and text."""
    return [(m["seq"], m["sender"], m["text"]) for m in messages]


def assert_same_view(histories):
    """histories: {who: messages}. Every member sees the same messages in the same order."""
    items = list(histories.items())
    first_who, first = items[0]
    for who, msgs in items:
        assert_no_duplicates(msgs, who)
        assert_ascending(msgs, who)
    for who, msgs in items[1:]:
        assert view(msgs) == view(first), (
            f"{who} and {first_who} disagree:\n{who}: {view(msgs)[-10:]}\n{first_who}: {view(first)[-10:]}")


def assert_monotonic_states(states, who=""):
    """A message's state never goes back (sending -> sent -> delivered -> read)."""
    for cid, seq in states.items():
        ranks = [STATE_ORDER[s] for s in seq if s in STATE_ORDER]
        assert ranks == sorted(ranks), f"{who}: states of {cid} went back: {seq}"


def mine(messages, sender):
    return [m for m in messages if m["sender"] == sender]


def usernames(entries):
    """/info lists people as names or as objects with a username."""
    return [e.get("username", e.get("user")) if isinstance(e, dict) else e for e in entries]
