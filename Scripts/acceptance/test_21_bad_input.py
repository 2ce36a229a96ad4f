"""Chaos: bad input against a live server over raw sockets. Truncated frames, oversized lengths,
random bytes, valid frames with garbage fields, a client that never sends, one that never reads,
and 2,000 connections opened and dropped. Throughout, a well-behaved client pair keeps talking
and the server process stays alive and serving."""
import os
import random
import select
import socket
import struct
import time

import pytest

from harness import wire
from harness.checks import texts

IDLE_TIMEOUT = 4


@pytest.fixture
def live(world):
    # Plaintext: raw frames from Python sockets. The framing under TLS is the same code; the
    # TLS-level bad input (plaintext on the TLS port, truncated handshakes) is test_14_tls.py.
    server = world.server("--plaintext", "--idle-timeout", str(IDLE_TIMEOUT), "--ping-interval", "1")
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    alice.cmd("/dm bob")
    bob.cmd("/open alice")
    probes = []

    def still_serving(label):
        assert server.alive(), f"the server died after: {label}"
        probes.append(f"probe after {label}")
        alice.say(probes[-1])
        bob.cmd(f"/wait-messages {len(probes)} 15", timeout=20)
        assert texts(bob.history())[-1] == probes[-1]

    still_serving.alice = alice
    return server, still_serving


def raw(server):
    return wire.RawConnection(server.host, server.port)


def expect_error_then_close(conn, code):
    f = conn.read_frame(10)
    assert f is not None and f[0] == wire.ERROR, f"expected ERROR {code}, got {f}"
    assert wire.error_name(f[3]) == code
    assert conn.closed_by_server(10), f"the server kept the connection open after {code}"


def test_framing_errors(live):
    server, still_serving = live
    c = raw(server)
    c.send_bytes(struct.pack(">I", 0xFFFFFFFF) + b"\x00" * 8)
    expect_error_then_close(c, "frame_too_large")
    still_serving("an oversized length")

    c = raw(server)
    c.send_bytes(struct.pack(">IHBBI", 3, 1, 0, 0, 1))
    expect_error_then_close(c, "malformed_frame")
    still_serving("a length shorter than the header")

    c = raw(server)
    c.send_bytes(wire.frame(wire.PING, 1))
    expect_error_then_close(c, "handshake_required")

    c = raw(server)  # a client from the future: versions 7 to 9 only
    c.send_bytes(wire.frame(wire.HELLO, 1, wire.fields((1, 9), (2, 7))))
    expect_error_then_close(c, "unsupported_version")

    for cut in (2, 7, 13, 30):  # truncated frames, then the peer goes away
        c = raw(server)
        c.send_bytes(wire.hello()[:cut] if cut < len(wire.hello()) else wire.hello()[:-1])
        c.close()
    still_serving("truncated frames")


KNOWN_TYPES = [0x0001, 0x0003, 0x0101, 0x0102, 0x0103, 0x0106, 0x0109, 0x0201, 0x0203, 0x0207,
               0x0301, 0x0303, 0x0304, 0x0307, 0x0401, 0x0404, 0x0406, 0x0408, 0x040B, 0x040D, 0x0502]


def test_random_bytes(live):
    server, still_serving = live
    rng = random.Random(int(os.environ.get("BAD_INPUT_SEED", "21")))
    for i in range(60):  # raw noise: mostly absurd lengths
        c = raw(server)
        prefix = wire.hello() if i % 2 else b""
        try:
            c.send_bytes(prefix + bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 3000))))
        except OSError:
            pass  # the server may close as soon as it sees garbage
        c.close()
    still_serving("random bytes")
    # Well-framed noise: a real header with a known type and random payload bytes, which goes
    # past the framing into every payload decoder, before and after login.
    for i in range(6):
        c = wire.login_raw(server.host, server.port, f"fuzz{i}") if i % 2 else raw(server)
        if i % 2 == 0:
            c.send_bytes(wire.hello())
        try:
            for n in range(150):
                payload = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 200)))
                c.send_bytes(wire.frame(rng.choice(KNOWN_TYPES), n + 10, payload, flags=rng.choice([0, 0, 0, 2])))
        except OSError:
            pass  # closed on a framing error (reserved flag bits): fine
        c.close()
    still_serving("well-framed random payloads")


def test_valid_frames_with_garbage_fields(live):
    server, still_serving = live
    c = raw(server)
    assert c.request(wire.hello())[0] == wire.WELCOME
    f = c.request(wire.send(1, "before login", 2))
    assert f[0] == wire.ERROR and wire.error_name(f[3]) == "not_authenticated"
    f = c.request(wire.frame(0x7777, 3, b"\x01\x01\x01"))
    assert f[0] == wire.ERROR and wire.error_name(f[3]) == "unknown_frame_type"
    f = c.request(wire.frame(wire.REGISTER, 4, b"\x01\x7f" + b"x" * 3))  # field longer than payload
    assert f[0] == wire.ERROR and wire.error_name(f[3]) == "bad_request"
    f = c.request(wire.frame(wire.REGISTER, 5, wire.fields((1, b"a@b.c"), (2, b"\xff\xfe"), (3, b"password123"))))
    assert f[0] == wire.ERROR and wire.error_name(f[3]) in ("invalid_utf8", "bad_request")
    f = c.request(wire.frame(wire.REGISTER, 6, wire.fields((1, "x@y.z"))))  # required fields missing
    assert f[0] == wire.ERROR and wire.error_name(f[3]) == "bad_request"
    f = c.request(wire.register("mallory", "correct-horse-42", 7))
    assert f[0] == wire.SESSION
    f = c.request(wire.frame(wire.SEND, 8, wire.fields((1, 1), (2, b"short"), (3, "bad id"))))
    assert f[0] == wire.ERROR and wire.error_name(f[3]) == "bad_request"
    f = c.request(wire.send(1, "not my conversation", 9))
    assert f[0] == wire.ERROR and wire.error_name(f[3]) in ("not_a_member", "not_found")
    f = c.request(wire.frame(wire.PING, 10))
    assert f[0] == wire.PONG, "the connection should stay usable after request errors"
    c.close()

    c = raw(server)  # compressed flag with a payload that is not zlib, after negotiating zlib
    f = c.request(wire.frame(wire.HELLO, 1, wire.fields((1, 2), (2, 2), (3, 1))))
    assert f[0] == wire.WELCOME
    c.send_bytes(wire.frame(wire.PING, 2, b"not zlib at all", flags=1))
    f = c.read_frame(10)
    assert f is None or f[0] == wire.ERROR
    assert c.closed_by_server(10)
    still_serving("garbage fields")


def test_silent_and_non_reading_clients(live):
    server, still_serving = live
    silent = [raw(server) for _ in range(20)]
    c = raw(server)
    c.send_bytes(wire.hello()[:5])  # half a frame, then silence
    silent.append(c)
    # A client that sends requests but never reads the answers.
    hog = socket.create_connection((server.host, server.port))
    hog.sendall(wire.hello())
    hog.setblocking(False)
    pings = b"".join(wire.frame(wire.PING, i + 2) for i in range(5000))
    sent, deadline = 0, time.monotonic() + 5
    while sent < 40 * len(pings) and time.monotonic() < deadline:
        try:
            sent += hog.send(pings)
        except BlockingIOError:
            # Full buffers: the server stopped reading from it (or is slow); wait a little for room.
            if not select.select([], [hog], [], 0.5)[1]:
                break
        except OSError:  # the server closed it (output_overflow): also fine
            break
    still_serving("a client that never reads")
    # The idle timeout closes the silent ones; the well-behaved pair pings and stays.
    for s in silent:
        assert s.closed_by_server(IDLE_TIMEOUT + 10), "a silent client was never closed"
    hog.close()
    still_serving("silent clients timed out")


def test_thousands_of_connections(live):
    server, still_serving = live
    opened = 0
    for batch in range(20):
        socks = []
        for i in range(100):
            s = socket.create_connection((server.host, server.port), timeout=10)
            if i % 3 == 0:
                s.sendall(wire.hello())
            if i % 3 == 1:  # reset instead of a clean close
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            socks.append(s)
        for s in socks:
            s.close()
        opened += len(socks)
        if batch % 5 == 4:
            still_serving(f"{opened} connections opened and dropped")
    assert opened == 2000
    c = raw(server)
    assert c.request(wire.hello())[0] == wire.WELCOME


def test_member_that_never_reads(live):
    """A logged-in member whose socket is never read while large messages are pushed to it:
    the server buffers or drops that connection, and the sender and everyone else go on."""
    server, still_serving = live
    alice = still_serving.alice
    sink = wire.login_raw(server.host, server.port, "sink", receive_buffer=4096)
    alice.cmd("/dm sink")
    big = "never read " * 800  # 8,800 characters
    for i in range(60):
        alice.say(f"{i:02d} {big}")
    alice.cmd("/wait sent 30", timeout=40)  # every one acknowledged: the sender is not held up
    alice.cmd("/dm bob")
    still_serving("60 large pushes to a member that never reads")
    sink.close()
