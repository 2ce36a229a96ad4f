#!/usr/bin/env python3
"""The server's memory while logged-in clients each hold a partial large frame (issue 23's
memory note), and after they close.

    Scripts/bench/partial-frames.py [--server PATH] [--connections 200] [--frame-kib 1024] [--piece-kib 0] [--tls]

Starts a plaintext server in a temporary data directory, registers one user, opens N
connections that log in by RESUME (the same session token), and on each sends the header of a
frame that declares --frame-kib KiB and all of its payload but the last byte. It prints the
server's RSS (VmRSS) before, while the frames are held, after the clients close, and once
more after the server has had a few seconds. Figures only: it asserts nothing.
"""
import argparse
import os
import shutil
import ssl
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "acceptance"))
from harness import wire  # noqa: E402


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def wait_until(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise TimeoutError(what)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default=None)
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--frame-kib", type=int, default=1024)
    parser.add_argument("--piece-kib", type=int, default=0,
                        help="send each partial frame in pieces of this size, round robin over the connections "
                             "(as slow links interleave them); 0: each at once")
    parser.add_argument("--tls", action="store_true", help="over TLS (the server's self-signed certificate)")
    args = parser.parse_args()
    exe = args.server
    if exe is None:
        out = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], capture_output=True, text=True)
        exe = os.path.join(out.stdout.strip(), "messageai-server")
    data = tempfile.mkdtemp(prefix="partial-frames-")
    log = open(os.path.join(data, "server.log"), "w")
    server = subprocess.Popen([exe] + ([] if args.tls else ["--plaintext"]) + ["--port", "0", "--data-dir", data, "--log-level", "info"],
                              stderr=subprocess.PIPE, stdout=log, text=True)
    try:
        port = None
        while port is None:
            line = server.stderr.readline()
            if not line:
                raise RuntimeError("the server exited before listening")
            if line.startswith("listening on "):
                port = int(line.strip().rsplit(":", 1)[1])
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # a measurement on loopback, not a trust decision
        context.set_alpn_protocols(["messageai/1"])

        def connect():
            c = wire.RawConnection("127.0.0.1", port)
            if args.tls:
                c.sock = context.wrap_socket(c.sock)
            return c

        first = connect()
        first.request(wire.hello())
        answer = first.request(wire.register("holder", "correct horse battery"))
        token = wire.parse_fields(answer[3])[1][0]
        before = rss_mib(server.pid)
        conns = []
        frame_len = args.frame_kib * 1024
        body = b"\x00" * (frame_len - 8 - 1)
        for i in range(args.connections):
            c = connect()
            c.request(wire.hello())
            c.request(wire.frame(0x0103, 2, wire.fields((1, token))))
            conns.append(c)
        # A SEND whose payload never completes: the server holds what arrived.
        partial = struct.pack(">IHBBI", frame_len, 0x0401, 0, 0, 3) + body
        piece = args.piece_kib * 1024 or len(partial)
        for start in range(0, len(partial), piece):
            for c in conns:
                c.send_bytes(partial[start:start + piece])
        held = wait_until(lambda: (r := rss_mib(server.pid)) > before + args.connections * args.frame_kib / 1024 * 0.8 and r,
                          30, "the server to hold the partial frames")
        time.sleep(1)
        held = max(held, rss_mib(server.pid))
        for c in conns:
            c.sock.close()
        first.sock.close()
        time.sleep(2)
        after_close = rss_mib(server.pid)
        time.sleep(5)
        later = rss_mib(server.pid)
        print(f"partial-frames: {'TLS' if args.tls else 'plaintext'}, {args.connections} logged-in connections x {args.frame_kib} KiB partial frame")
        print(f"  RSS before {before:.0f} MiB, holding {held:.0f} MiB, 2 s after close {after_close:.0f} MiB, "
              f"7 s after close {later:.0f} MiB")
    finally:
        server.terminate()
        server.wait(timeout=15)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
