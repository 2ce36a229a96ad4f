"""Chaos soak: several clients exchange messages for a bounded time while the server and random
clients are killed with kill -9 and restarted. In the end every message any sender saw
acknowledged is present exactly once, in the same order, for every member.

Two conversations run at once: carol and dave write in a group of four, alice and bob in their
direct conversation (and receive the group's messages in the background), so start-up sync
covers several conversations. SOAK_SECONDS sets the length (default 20 s for CI); SOAK_SEED
replays a run."""
import os
import random
import time

import pytest

from harness.group import acked, check_group_outcome, open_group, shown_sending

pytestmark = pytest.mark.storage  # run again on PostgreSQL by run-all.sh

SECONDS = float(os.environ.get("SOAK_SECONDS", "20"))
# A hard bound on the loop whatever the duration, and below what one /history shows (500) in
# each conversation, so every member's whole history can be compared.
MAX_MESSAGES = 800
# Where each user writes: the group, or the direct conversation with the other.
HOME = {"alice": "bob", "bob": "alice", "carol": "soak", "dave": "soak"}
CONVERSATIONS = {"soak": ["carol", "dave"], "direct": ["alice", "bob"]}


def test_soak_with_kills(world):
    seed = int(os.environ.get("SOAK_SEED", str(int(time.time()))))
    rng = random.Random(seed)
    print(f"\nsoak: {SECONDS:.0f} s, seed {seed}")
    server = world.server()
    clients = {n: world.user(n, server.address) for n in HOME}
    open_group(clients["carol"], [clients[n] for n in ("alice", "bob", "dave")], "soak")
    for name in ("alice", "bob"):
        clients[name].cmd(f"/dm {HOME[name]}")

    typed = {n: [] for n in clients}
    acked_by = {n: set() for n in clients}
    sending = {n: set() for n in clients}
    kills = {"server": 0, "client": 0}

    def type_one():
        name = rng.choice(list(clients))
        text = f"{name} soak {len(typed[name]):04d}"
        clients[name].say(text)
        typed[name].append(text)

    def collect(name):
        acked_by[name] |= acked(clients[name])
        sending[name] |= shown_sending(clients[name])

    deadline = time.monotonic() + SECONDS
    next_chaos = time.monotonic() + rng.uniform(1.5, 4)
    while time.monotonic() < deadline and sum(map(len, typed.values())) < MAX_MESSAGES - 80:
        type_one()
        if time.monotonic() >= next_chaos:
            if rng.random() < 0.5:
                server.kill()
                kills["server"] += 1
                for _ in range(rng.randint(3, 10)):  # typed into the outboxes while it is down
                    type_one()
                server.start()
            else:
                victim = rng.choice(list(clients))
                collect(victim)
                clients[victim].restart()
                clients[victim].cmd(f"/open {HOME[victim]}", timeout=20)
                kills["client"] += 1
            next_chaos = time.monotonic() + rng.uniform(1.5, 4)
        # The pace of typing, not a synchronisation: up to 40 messages a second in all, slower
        # for long soaks so that they stay within MAX_MESSAGES.
        time.sleep(max(0.025, SECONDS / (MAX_MESSAGES - 120)))

    # Drain every outbox, then one last message each, acknowledged in turn: the highest seq
    # acknowledged in a conversation is how many messages it holds (seqs are gapless from 1).
    for c in clients.values():
        c.cmd("/wait sent 60", timeout=70)
    last_seq = {}
    for conv, senders in CONVERSATIONS.items():
        for name in senders:
            mark = len(clients[name].events)
            clients[name].say(f"{name} soak done")
            typed[name].append(f"{name} soak done")
            clients[name].cmd("/wait sent 30", timeout=40)
            last_seq[conv] = max([last_seq.get(conv, 0)] + [s for s, _ in acked(clients[name], mark)])
    for name in clients:
        collect(name)

    totals = {}
    for conv, senders in CONVERSATIONS.items():
        members = list(clients.values()) if conv == "soak" else [clients[n] for n in senders]
        for c in members:
            c.cmd(f"/open {conv if conv == 'soak' else HOME[c.name]}", timeout=20)
        pick = lambda d: {n: d[n] for n in senders}  # noqa: E731
        view, present = check_group_outcome(members, pick(typed), pick(acked_by), last_seq[conv],
                                            total_timeout=90, sending=pick(sending))
        totals[conv] = (sum(len(typed[n]) for n in senders), sum(len(sending[n]) for n in senders),
                        sum(len(acked_by[n]) for n in senders), len(view))
        assert len(view) >= totals[conv][2]
    for conv, (t, s, a, v) in totals.items():
        print(f"soak {conv}: typed {t}, shown sending {s}, acknowledged {a}, in every member's history {v}, "
              f"lost before reaching an outbox {t - v}")
    print(f"soak kills: server {kills['server']}, clients {kills['client']}")
