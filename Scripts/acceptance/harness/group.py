"""A group conversation shared by several registered clients, used by the crash scenarios."""
from .checks import assert_same_view
from .waiting import wait_until


def open_group(creator, others, name):
    creator.cmd(f"/group create {name} " + " ".join(c.name for c in others))
    for c in others:
        wait_until(lambda: any(r.get("name") == name for r in c.conversations()), 20,
                   f"{c.name} to see group {name}", interval=0.2)
        c.cmd(f"/open {name}")


def acked(client, since=0):
    """(seq, client_id) of every message this client process reported as sent (acknowledged)."""
    return {(e.get("seq"), e.get("client_id")) for e in client.of_type("state", since)
            if e.get("state") in ("sent", "delivered", "read") and e.get("seq")}


def shown_sending(client, since=0):
    """Texts the client showed as "sending": by then they must be in the durable outbox. The
    text is an extra field of the state event (CONTRACT.md allows more fields); empty if absent."""
    return {e["text"] for e in client.of_type("state", since) if e.get("state") == "sending" and "text" in e}


def check_group_outcome(clients, typed, acked_by, expected, total_timeout=60, sending=None):
    """Every member converges on one history in which every acknowledged message is present with
    its sender, nothing is duplicated, and each sender's messages keep the order they were typed.
    typed: {sender: [texts in typing order]}, acked_by: {sender: {(seq, client_id)}},
    expected: how many messages the conversation holds in the end; sending: {sender: texts shown
    as sending}, which must all be there too (a kill -9 may lose a line never shown)."""
    present_total = None
    for c in clients:
        c.cmd("/wait sent 40", timeout=total_timeout)
    histories = {}
    for c in clients:
        c.cmd(f"/wait-messages {expected} 40", timeout=total_timeout)
        histories[c.name] = c.history(expected + 100)
    assert_same_view(histories)
    view = next(iter(histories.values()))
    assert len(view) == expected, f"{len(view)} messages in the history, expected {expected}"
    by_seq = {m["seq"]: m for m in view}
    for sender, acks in acked_by.items():
        for seq, _ in acks:
            assert seq in by_seq, f"{sender}'s acknowledged message seq {seq} is missing"
            assert by_seq[seq]["sender"] == sender, f"seq {seq} acked to {sender}, shown as {by_seq[seq]}"
    for sender, texts_shown in (sending or {}).items():
        have = {m["text"] for m in view if m["sender"] == sender}
        lost = sorted(texts_shown - have)
        assert not lost, f"{sender}: shown as sending, then lost: {lost[:5]}"
    for sender, texts_typed in typed.items():
        shown = [m["text"] for m in view if m["sender"] == sender]
        order = {t: i for i, t in enumerate(texts_typed)}
        assert all(t in order for t in shown), f"{sender}: unknown text in history"
        positions = [order[t] for t in shown]
        assert positions == sorted(positions), f"{sender}'s messages out of typing order"
        present_total = (present_total or 0) + len(shown)
    return view, present_total


def say_in_turns(clients, typed, wait_seconds):
    """Each client says its texts (typed: {name: [texts]}), in turns, one line each, then waits
    until its outbox is empty (every text acknowledged) within wait_seconds."""
    for i in range(max(len(t) for t in typed.values())):
        for c in clients:
            if i < len(typed[c.name]):
                c.say(typed[c.name][i])
    for c in clients:
        c.cmd(f"/wait sent {wait_seconds}", timeout=wait_seconds + 10)
