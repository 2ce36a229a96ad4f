"""A real HAProxy (Debian's package) in TCP mode between one server node and PostgreSQL, that
the test cuts through HAProxy's stats socket (scenario 77): the server is disabled and its
sessions shut, so the node's pooled and LISTEN connections drop and new ones are closed at
once, while PostgreSQL itself and the other nodes carry on. Started in the foreground by its
PID, stopped by that PID; `--pdeathsig` stops it if the test process dies without tearing down."""
import os
import signal
import socket
import subprocess

from harness.haproxy import require_haproxy
from harness.ports import free_port
from harness.waiting import wait_until

CONFIG = """global
    stats socket {stats} mode 600 level admin
defaults
    mode tcp
    timeout connect 2s
    timeout client 1h
    timeout server 1h
frontend database
    bind 127.0.0.1:{port}
    default_backend database
backend database
    server postgres 127.0.0.1:{target}
"""


class DatabaseForward:
    def __init__(self, workdir, target_port):
        self.exe = require_haproxy()
        self.port = free_port("127.0.0.1")
        self.path = os.path.join(workdir, "pgforward.cfg")
        self.log_path = os.path.join(workdir, "pgforward.log")
        self.stats = os.path.join(workdir, "pgforward.sock")
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(CONFIG.format(stats=self.stats, port=self.port, target=target_port))
        self.process = None

    def start(self, timeout=20):
        self.log = open(self.log_path, "w", encoding="utf-8")
        self.process = subprocess.Popen(["setpriv", "--pdeathsig", "SIGTERM", "--", self.exe, "-db", "-f", self.path],
                                        stdout=self.log, stderr=subprocess.STDOUT)

        def listening():
            assert self.process.poll() is None, f"haproxy exited: {open(self.log_path).read()}"
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", self.port)) == 0
        wait_until(listening, timeout, "haproxy (to PostgreSQL) to listen", interval=0.1)
        return self

    def url(self, database, user="postgres"):
        return f"postgres://{user}@127.0.0.1:{self.port}/{database}?sslmode=disable"

    def command(self, line):
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(10)
            s.connect(self.stats)
            s.sendall(line.encode() + b"\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        return data.decode()

    def cut(self):
        """No new connection reaches PostgreSQL, and every open one is closed."""
        self.command("disable server database/postgres")
        self.command("shutdown sessions server database/postgres")

    def stop(self, timeout=10):
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout)
        self.log.close()
