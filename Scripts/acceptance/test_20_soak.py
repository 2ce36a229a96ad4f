"""Chaos soak: several clients exchange messages in a group for a bounded time while the server
and random clients are killed with kill -9 and restarted. In the end every message any sender saw
acknowledged is present exactly once, in the same order, for every member.

SOAK_SECONDS sets the length (default 20 s for CI); SOAK_SEED replays a run."""
import os
import random
import time

from harness.group import acked, check_group_outcome, open_group, shown_sending

SECONDS = float(os.environ.get("SOAK_SECONDS", "20"))
# A hard bound on the loop whatever the duration, and below what one /history shows (500),
# so every member's whole history can be compared.
MAX_MESSAGES = 440


def test_soak_with_kills(world):
    seed = int(os.environ.get("SOAK_SEED", str(int(time.time()))))
    rng = random.Random(seed)
    print(f"\nsoak: {SECONDS:.0f} s, seed {seed}")
    server = world.server()
    clients = [world.user(n, server.address) for n in ("alice", "bob", "carol", "dave")]
    open_group(clients[0], clients[1:], "soak")

    typed = {c.name: [] for c in clients}
    acked_by = {c.name: set() for c in clients}
    sending = {c.name: set() for c in clients}
    server_kills = client_kills = 0
    deadline = time.monotonic() + SECONDS
    next_chaos = time.monotonic() + rng.uniform(1.5, 4)
    while time.monotonic() < deadline and sum(map(len, typed.values())) < MAX_MESSAGES:
        c = rng.choice(clients)
        text = f"{c.name} soak {len(typed[c.name]):04d}"
        c.say(text)
        typed[c.name].append(text)
        if time.monotonic() >= next_chaos:
            if rng.random() < 0.5:
                server.kill()
                server_kills += 1
                # Messages keep being typed into the outboxes while the server is down.
                for _ in range(rng.randint(3, 10)):
                    d = rng.choice(clients)
                    t = f"{d.name} soak {len(typed[d.name]):04d}"
                    d.say(t)
                    typed[d.name].append(t)
                server.start()
            else:
                victim = rng.choice(clients)
                acked_by[victim.name] |= acked(victim)
                sending[victim.name] |= shown_sending(victim)
                victim.restart()
                victim.cmd("/open soak", timeout=20)
                client_kills += 1
            next_chaos = time.monotonic() + rng.uniform(1.5, 4)
        # The pace of typing, not a synchronisation: up to 40 messages a second in all, slower
        # for long soaks so that they stay within MAX_MESSAGES.
        time.sleep(max(0.025, SECONDS / (MAX_MESSAGES - 60)))

    # Drain every outbox, then one last message each, acknowledged in turn: the last ack's seq
    # is the number of messages the conversation holds (seqs are gapless from 1).
    last_seq = 0
    for c in clients:
        c.cmd("/wait sent 60", timeout=70)
    for c in clients:
        mark = len(c.events)
        text = f"{c.name} soak done"
        c.say(text)
        typed[c.name].append(text)
        c.cmd("/wait sent 30", timeout=40)
        last_seq = max(last_seq, max(s for s, _ in acked(c, mark)))
    for c in clients:
        acked_by[c.name] |= acked(c)
        sending[c.name] |= shown_sending(c)

    view, present = check_group_outcome(clients, typed, acked_by, last_seq, total_timeout=90,
                                        sending=sending)
    typed_total = sum(map(len, typed.values()))
    acked_total = sum(map(len, acked_by.values()))
    sending_total = sum(map(len, sending.values()))
    print(f"soak counts: typed {typed_total}, shown sending {sending_total}, acknowledged {acked_total}, in every history "
          f"{len(view)}, lost before reaching an outbox {typed_total - present}, "
          f"server kills {server_kills}, client kills {client_kills}")
    assert len(view) >= acked_total
