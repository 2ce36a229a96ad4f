#!/usr/bin/env python3
"""File transfer throughput over loopback (issue 11): a 100 MiB file sent with /send-file by a
real client to a real server (TLS unless PLAINTEXT=1), then fetched by another client with
/save, against raw TCP on the same machine (one socket, sendall of the same bytes).

    Scripts/bench/files.py [SIZE_MIB]       # default 100; uses the built binaries
                                            # (MESSAGEAI_BIN_DIR, else `swift build --show-bin-path`)

Prints MiB/s and the ratio to raw TCP. Times include what a user waits for: hashing and
copying into the outbox, the upload, the server's check, the SEND and its ack (upload); the
download, its hash check and the copy out (download)."""
import hashlib
import os
import pathlib
import random
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "acceptance"))
from harness.binaries import executable  # noqa: E402
from harness.client import Client  # noqa: E402
from harness.server import Server  # noqa: E402

SIZE = int(sys.argv[1]) << 20 if len(sys.argv) > 1 else 100 << 20


def raw_tcp(data):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    got = []

    def sink():
        conn, _ = listener.accept()
        n = 0
        while True:
            b = conn.recv(1 << 20)
            if not b:
                break
            n += len(b)
        got.append(n)
        conn.close()

    t = threading.Thread(target=sink)
    t.start()
    start = time.monotonic()
    s = socket.create_connection(listener.getsockname())
    s.sendall(data)
    s.close()
    t.join()
    assert got == [len(data)]
    return time.monotonic() - start


def main():
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="files-bench-"))
    data = random.Random(11).randbytes(SIZE)
    src = tmp / "payload.bin"
    src.write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    extra = ("--plaintext",) if os.environ.get("PLAINTEXT") == "1" else ()
    server = Server(executable("messageai-server"), tmp / "server", tmp / "server.log",
                    extra_args=extra + ("--max-file-size", str(max(100, SIZE >> 20) + 1))).start()
    clients = []
    try:
        for name in ("alice", "bob"):
            c = Client(executable("messageai"), server.address, tmp / name, tmp / f"{name}.log", name).start()
            c.register(timeout=60)
            clients.append(c)
        alice, bob = clients
        alice.cmd("/dm bob")
        bob.cmd("/open alice")
        start = time.monotonic()
        alice.cmd(f"/send-file {src}")
        alice.cmd("/wait sent 600", timeout=610)
        up = time.monotonic() - start
        bob.cmd("/wait-messages 1 60", timeout=70)
        seq = bob.history()[-1]["seq"]
        start = time.monotonic()
        saved = bob.cmd(f"/save #{seq} {tmp / 'out.bin'}", timeout=600)
        down = time.monotonic() - start
        assert hashlib.sha256(pathlib.Path(saved["path"]).read_bytes()).hexdigest() == digest
        raw = raw_tcp(data)
        mib = SIZE / (1 << 20)
        print(f"files over loopback, {mib:.0f} MiB, {'plaintext' if extra else 'TLS'}:")
        print(f"  upload   (/send-file until acked): {mib / up:8.1f} MiB/s  ({up:.2f} s)")
        print(f"  download (/save, verified):        {mib / down:8.1f} MiB/s  ({down:.2f} s)")
        print(f"  raw TCP  (one socket, sendall):    {mib / raw:8.1f} MiB/s  ({raw:.2f} s)")
        print(f"RESULT files_upload_mib_s={mib / up:.1f} files_download_mib_s={mib / down:.1f} raw_tcp_mib_s={mib / raw:.1f} "
              f"upload_vs_raw={up / raw:.1f}x download_vs_raw={down / raw:.1f}x")
    finally:
        for c in clients:
            c.kill()
        server.kill()


if __name__ == "__main__":
    main()
