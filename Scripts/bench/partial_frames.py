#!/usr/bin/env python3
"""Server memory while logged-in connections hold partial frames (issue 23's memory note).

Starts messageai-server (plaintext, a scratch data directory), registers one user, opens N
connections that RESUME its session (no password hashing), and on each sends the header of a
SEND declaring a frame of SIZE bytes followed by all of it but its last byte. Prints the
server's RSS (VmRSS) before, once every connection's bytes are in the server, and after the
connections closed. Only the server's own figures are read (/proc/PID/status).

    Scripts/bench/partial_frames.py [--server .build/debug/messageai-server] [--connections 200] [--size 1048576] [--rounds 2]
"""
import argparse, os, socket, struct, subprocess, sys, tempfile, time


def uvarint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(tag, value):
    if isinstance(value, int):
        value = uvarint(value)
    elif isinstance(value, str):
        value = value.encode()
    return bytes([tag]) + uvarint(len(value)) + value


def frame(ftype, rid, payload):
    return struct.pack(">IHBBI", 8 + len(payload), ftype, 0, 0, rid) + payload


def read_frame(s):
    head = b""
    while len(head) < 12:
        chunk = s.recv(12 - len(head))
        if not chunk:
            raise EOFError
        head += chunk
    length, ftype, _, _, rid = struct.unpack(">IHBBI", head)
    body = b""
    while len(body) < length - 8:
        chunk = s.recv(length - 8 - len(body))
        if not chunk:
            raise EOFError
        body += chunk
    return ftype, rid, body


def fields(body):
    i, out = 0, {}
    while i < len(body):
        tag = body[i]; i += 1
        n, shift = 0, 0
        while True:
            b = body[i]; i += 1
            n |= (b & 0x7F) << shift; shift += 7
            if not b & 0x80:
                break
        out.setdefault(tag, body[i:i + n]); i += n
    return out


def connect(port):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(frame(0x0001, 1, field(1, 2) + field(2, 2)))
    assert read_frame(s)[0] == 0x0002, "no WELCOME"
    return s


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def settle(pid, timeout=30):
    """RSS once it stops moving (two readings 0.5 s apart within 1 MB)."""
    deadline, last = time.time() + timeout, rss_mb(pid)
    while time.time() < deadline:
        time.sleep(0.5)
        now = rss_mb(pid)
        if abs(now - last) < 1:
            return now
        last = now
    return last


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", default=".build/debug/messageai-server")
    ap.add_argument("--connections", type=int, default=200)
    ap.add_argument("--size", type=int, default=1 << 20, help="declared frame length")
    ap.add_argument("--rounds", type=int, default=2, help="hold-and-close rounds")
    args = ap.parse_args()
    data = tempfile.mkdtemp(prefix="partial-frames-")
    proc = subprocess.Popen([args.server, "--plaintext", "--port", "0", "--data-dir", data, "--log-level", "warning",
                             "--register-limit", "0", "--idle-timeout", "600", "--ping-interval", "300", "--frame-timeout", "600"],
                            stderr=subprocess.PIPE, text=True)
    port = None
    for line in proc.stderr:
        if line.startswith("listening on "):
            port = int(line.rsplit(":", 1)[1]); break
    assert port, "the server did not start"
    try:
        reg = connect(port)
        reg.sendall(frame(0x0101, 2, field(1, "mem@example.org") + field(2, "mem") + field(3, "correct horse battery")))
        ftype, _, body = read_frame(reg)
        assert ftype == 0x0104, f"REGISTER answered {ftype:#x}"
        token = fields(body)[1]
        print(f"connections {args.connections}, declared frame {args.size} bytes, sent {args.size - 1} of them each")
        print(f"idle after start and one login: RSS {settle(proc.pid):.0f} MB")
        for r in range(args.rounds):
            conns = []
            for _ in range(args.connections):
                s = connect(port)
                s.sendall(frame(0x0103, 3, field(1, token)))
                assert read_frame(s)[0] == 0x0104, "RESUME refused"
                conns.append(s)
            logged_in = settle(proc.pid)
            # A SEND header declaring SIZE (length counts the 8 header bytes), then all but one byte.
            head = struct.pack(">IHBBI", args.size, 0x0401, 0, 0, 9)
            filler = b"\x03" + b"\x00" * (args.size - 8 - 2)
            for s in conns:
                s.sendall(head + filler)
            holding = settle(proc.pid)
            for s in conns:
                s.close()
            time.sleep(1)
            closed = settle(proc.pid)
            print(f"round {r + 1}: logged in {logged_in:.0f} MB, holding partial frames {holding:.0f} MB, "
                  f"after they closed {closed:.0f} MB")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
