"""Chaos: randomized corruptions of the client's outbox JSON file on start-up. Each time the
client says clearly that the outbox was bad, keeps the bad file aside (byte for byte, not deleted),
and starts. A sound outbox put back is then sent, once."""
import json
import os
import random

from harness.checks import texts
from harness.waiting import wait_until

ROUNDS = 8


def corrupt(original, rng):
    """A variant of the file that is not valid JSON any more."""
    while True:
        kind = rng.choice(["truncate", "flip", "insert", "binary", "prefix"])
        data = bytearray(original)
        if kind == "truncate":
            data = data[:rng.randint(1, len(data) - 1)]
        elif kind == "flip":
            for _ in range(rng.randint(1, 8)):
                data[rng.randrange(len(data))] = rng.getrandbits(8)
        elif kind == "insert":
            at = rng.randrange(len(data))
            data[at:at] = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 20)))
        elif kind == "binary":
            data = bytearray(rng.getrandbits(8) for _ in range(rng.randint(1, 400)))
        else:
            data[0:0] = b"}{,"
        try:
            json.loads(bytes(data).decode("utf-8"))
        except ValueError:  # UnicodeDecodeError is a ValueError too
            return kind, bytes(data)


def find_outbox(data_dir):
    found = [os.path.join(d, f) for d, _, files in os.walk(data_dir) for f in files
             if "outbox" in f.lower() and f.endswith(".json")]
    return found[0] if len(found) == 1 else None


def test_corrupt_outbox_on_startup(world):
    seed = int(os.environ.get("OUTBOX_SEED", "22"))
    rng = random.Random(seed)
    server = world.server()
    bob = world.user("bob", server.address)
    alice = world.user("alice", server.address)
    alice.cmd("/dm bob")
    bob.cmd("/open alice")
    server.kill()
    queued = ["kept through corruption 1", "kept through corruption 2"]
    for text in queued:
        alice.say(text)
    wait_until(lambda: len(alice.queue()) == 2, 15, "two messages in alice's outbox", interval=0.2)
    alice.kill()
    path = wait_until(lambda: find_outbox(alice.data_dir), 5, "the outbox JSON file in alice's data dir")
    with open(path, "rb") as f:
        original = f.read()
    folder = os.path.dirname(path)

    for round_ in range(ROUNDS):
        kind, bad = corrupt(original, rng)
        with open(path, "wb") as f:
            f.write(bad)
        alice.start()

        def told():
            lines = alice.stderr.snapshot() + [json.dumps(e) for e in alice.events.snapshot()]
            return any("outbox" in line.lower() for line in lines)

        wait_until(told, 15, f"round {round_} ({kind}, seed {seed}): a message about the bad outbox")
        assert alice.cmd("/whoami")["username"] == "alice"
        leftover = texts(alice.queue())
        assert set(leftover) <= set(queued), f"round {round_} ({kind}): invented messages {leftover}"
        kept = [n for n in os.listdir(folder) if os.path.join(folder, n) != path]

        def same(name):
            full = os.path.join(folder, name)
            return os.path.isfile(full) and open(full, "rb").read() == bad

        assert any(same(n) for n in kept), f"round {round_} ({kind}): the bad file was not kept aside"
        alice.kill()

    with open(path, "wb") as f:  # a sound outbox again: it is sent, once
        f.write(original)
    server.start()
    alice.start()
    alice.cmd("/open bob")
    alice.cmd("/wait sent 20", timeout=30)
    bob.cmd("/wait-messages 2 20", timeout=30)
    assert texts(bob.history()) == queued
