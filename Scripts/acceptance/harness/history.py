"""A history checker in the manner of Jepsen (issue 26).

Each client's history is what the real `messageai --json` process reported: "state" events for
its own messages (sending with the text, then sent with conversation and seq: the ack), "message"
events for what it received (`via`: live, gap for a hole filled by a sync, sync for a catch-up),
and, at the end, its final view of each conversation (`/history`). After the faults, `check`
verifies:

- every acknowledged message is in every member's final history exactly once (none lost);
- all members hold the same sequence per conversation, seqs 1..n with no gap;
- nothing appears that was never sent (no phantom: client id and text match a "sending");
- every acknowledged message is durable at the seq it was acknowledged with;
- no client was shown a conversation's messages out of seq order or twice (live order).

It works on plain dicts, so it is tested on hand-made histories (test_history_checker.py)."""
from collections import Counter, defaultdict
from dataclasses import dataclass, field


@dataclass
class ClientHistory:
    """One client process (or several runs of one data directory): who, its events in order,
    and its final view {conversation_id: [rows of /history]}."""
    name: str
    user: str
    events: list = field(default_factory=list)
    final: dict = field(default_factory=dict)


@dataclass
class Verdict:
    counts: Counter = field(default_factory=Counter)
    violations: list = field(default_factory=list)

    @property
    def ok(self):
        return not self.violations

    def fail(self, rule, text):
        self.counts["violation:" + rule] += 1
        if len(self.violations) < 50:
            self.violations.append(f"{rule}: {text}")

    def summary(self):
        c = self.counts
        head = "history OK" if self.ok else f"history INVALID ({len(self.violations)} shown)"
        parts = [f"{c['conversations']} conversations", f"{c['clients']} clients", f"{c['sent']} sent",
                 f"{c['acked']} acked", f"{c['unacked']} never acked", f"{c['final_rows']} rows in final histories",
                 f"{c['shown']} messages shown (live {c['via:live']}, gap {c['via:gap']}, sync {c['via:sync']})",
                 f"lost {c['violation:lost']}", f"duplicated {c['violation:duplicated']}",
                 f"diverged {c['violation:diverged']}", f"gaps {c['violation:gap']}", f"phantom {c['violation:phantom']}",
                 f"not durable {c['violation:not_durable']}", f"reordered {c['violation:reordered']}"]
        return head + ": " + ", ".join(parts) + "".join("\n  " + v for v in self.violations)


def history_of(client, conversations, user=None, limit=500):
    """The ClientHistory of a running harness Client: its events so far and, for each named
    conversation ({conversation_id: name}), the rows of `/open NAME` then `/history`."""
    final = {}
    for cid, name in conversations.items():
        client.cmd(f"/open {name}")
        final[cid] = [r for r in client.history(limit) if r.get("seq")]
    return ClientHistory(client.name, user or client.name, list(client.events.snapshot()), final)


def _sends(histories, verdict):
    """(user, client_id) -> text of every message shown as sending; and the acks:
    (user, client_id) -> (conversation_id, seq)."""
    sent, acks = {}, {}
    for h in histories:
        for e in h.events:
            if e.get("type") != "state":
                continue
            key = (h.user, e.get("client_id"))
            if e.get("state") == "sending" and "text" in e:
                sent[key] = (e.get("conversation_id"), e["text"])
            elif e.get("state") in ("sent", "delivered", "read") and e.get("seq"):
                got = (e.get("conversation_id"), e["seq"])
                if key in acks and acks[key] != got:
                    verdict.fail("duplicated", f"{h.user}'s {key[1]} acknowledged at {acks[key]} and at {got}")
                acks.setdefault(key, got)
    return sent, acks


def _check_final(histories, members, sent, acks, verdict):
    by_conversation = defaultdict(list)
    for h in histories:
        for cid, rows in h.final.items():
            by_conversation[cid].append((h, rows))
            verdict.counts["final_rows"] += len(rows)
    verdict.counts["conversations"] = len(by_conversation)
    for cid, views in by_conversation.items():
        reference_who, reference = views[0][0].name, [(r["seq"], r.get("sender"), r.get("text")) for r in views[0][1]]
        for h, rows in views:
            seqs = [r["seq"] for r in rows]
            for seq, n in Counter(seqs).items():
                if n > 1:
                    verdict.fail("duplicated", f"{h.name}: seq {seq} of conversation {cid} held {n} times")
            if sorted(set(seqs)) != list(range(1, len(set(seqs)) + 1)):
                missing = sorted(set(range(1, max(seqs, default=0) + 1)) - set(seqs))
                verdict.fail("gap", f"{h.name}: conversation {cid} lacks seqs {missing[:10]}")
            for cid_key, n in Counter(r.get("client_id") for r in rows).items():
                if n > 1:
                    verdict.fail("duplicated", f"{h.name}: message {cid_key} held {n} times in conversation {cid}")
            for r in rows:
                origin = sent.get((r.get("sender"), r.get("client_id")))
                if origin is None or origin != (cid, r.get("text")):
                    verdict.fail("phantom", f"{h.name}: seq {r['seq']} {r.get('sender')}: {str(r.get('text'))[:40]!r} was never sent")
            view = [(r["seq"], r.get("sender"), r.get("text")) for r in rows]
            if view != reference:
                diff = next((i for i, (a, b) in enumerate(zip(view, reference)) if a != b), min(len(view), len(reference)))
                verdict.fail("diverged", f"{h.name} and {reference_who} differ in conversation {cid} from row {diff}: "
                                         f"{view[diff:diff + 2]} vs {reference[diff:diff + 2]}")
        # Acknowledged: in every member's final view once, at the acknowledged seq.
        for (user, client_id), (ack_cid, seq) in acks.items():
            if ack_cid != cid:
                continue
            for h, rows in views:
                if members and h.user not in members.get(cid, {h.user}):
                    continue
                held = [r for r in rows if r.get("client_id") == client_id and r.get("sender") == user]
                if not held:
                    verdict.fail("lost", f"{user}'s acknowledged {client_id} (seq {seq}) is not in {h.name}'s history")
                elif held[0]["seq"] != seq:
                    verdict.fail("not_durable", f"{user}'s {client_id} acknowledged at seq {seq}, held by {h.name} at {held[0]['seq']}")


def _check_live_order(histories, verdict):
    """Each client's message events: per conversation strictly ascending (a gap filled before
    the messages behind it; nothing shown twice)."""
    for h in histories:
        last, shown = {}, set()
        for e in h.events:
            if e.get("type") != "message" or not e.get("seq"):
                continue
            verdict.counts["shown"] += 1
            verdict.counts["via:" + str(e.get("via", "live"))] += 1
            cid, seq = e.get("conversation_id"), e["seq"]
            if (cid, seq) in shown:
                verdict.fail("duplicated", f"{h.name} was shown seq {seq} of conversation {cid} twice")
            elif seq < last.get(cid, 0):
                verdict.fail("reordered", f"{h.name} was shown seq {seq} of conversation {cid} after seq {last[cid]}")
            shown.add((cid, seq))
            last[cid] = max(last.get(cid, 0), seq)


def check(histories, members=None):
    """histories: [ClientHistory]; members: {conversation_id: {users}} (None: every history
    that holds a conversation is a member's). Returns a Verdict."""
    verdict = Verdict()
    verdict.counts["clients"] = len(histories)
    sent, acks = _sends(histories, verdict)
    verdict.counts["sent"] = len(sent)
    verdict.counts["acked"] = len(acks)
    verdict.counts["unacked"] = len(set(sent) - set(acks))
    _check_final(histories, members, sent, acks, verdict)
    for cid, users in (members or {}).items():
        acked_here = sum(1 for a in acks.values() if a[0] == cid)
        for user in users:
            if acked_here and not any(h.user == user and cid in h.final for h in histories):
                verdict.fail("lost", f"{user} holds none of the {acked_here} acknowledged messages of conversation {cid}")
    _check_live_order(histories, verdict)
    return verdict
