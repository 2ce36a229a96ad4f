"""A real HAProxy (Debian's package) in front of server nodes, from the shipped configuration
Packaging/haproxy.cfg: the test keeps every timeout and option of the file and replaces only
the addresses (the listening port, the nodes, and where the balancer connects from).

Started in the foreground (-db) by its PID, stopped by that PID (SIGTERM, then SIGKILL at a
deadline); `--pdeathsig` stops it if the test process dies without tearing down."""
import os
import re
import shutil
import signal
import socket
import subprocess

from harness.ports import free_port
from harness.waiting import wait_until

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SHIPPED = os.path.join(ROOT, "Packaging", "haproxy.cfg")


def require_haproxy():
    """The haproxy binary, or a failure naming the package (CI installs it: Scripts/install-deps.sh)."""
    exe = shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.access("/usr/sbin/haproxy", os.X_OK) else None)
    assert exe, "haproxy is not installed (apt-get install haproxy; Scripts/install-deps.sh does it)"
    return exe


def configuration(nodes, listen, source, stats):
    """The shipped file with `bind` on `listen` (host, port), one `server` line per node
    address "host:port", connections to the nodes from `source` (the address the nodes
    trust), and a stats socket at `stats` for the test to read the health checks."""
    text = open(SHIPPED, encoding="utf-8").read()
    text = re.sub(r"^global\n", f"global\n    stats socket {stats} mode 600 level user\n", text, count=1, flags=re.M)
    text = re.sub(r"^(\s*)bind .*$", lambda m: f"{m.group(1)}bind {listen[0]}:{listen[1]}", text, count=1, flags=re.M)
    text = re.sub(r"^\s*server node\d+ .*\n", "", text, flags=re.M)
    servers = "".join(f"    server node{i + 1} {a}\n" for i, a in enumerate(nodes))
    text = text.rstrip("\n") + "\n" + f"    source {source}\n" + servers
    return text


class HAProxyProcess:
    """One haproxy in the foreground from a configuration the caller writes (`write`), listening
    on a free port of `host`, with a stats socket at `self.stats`: started and stopped by its PID.
    `HAProxy` (in front of the nodes) and `pgforward.DatabaseForward` (between a node and
    PostgreSQL) are both this process with their own configuration."""

    def __init__(self, workdir, name, host="127.0.0.1"):
        self.exe = require_haproxy()
        self.host = host
        self.port = free_port(host)
        self.name = name
        self.path = os.path.join(workdir, f"{name}.cfg")
        self.log_path = os.path.join(workdir, f"{name}.log")
        self.stats = os.path.join(workdir, f"{name}.sock")
        self.process = None

    @property
    def address(self):
        return f"{self.host}:{self.port}"

    def write(self, text):
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(text)

    def start(self, timeout=20):
        check = subprocess.run([self.exe, "-c", "-f", self.path], capture_output=True, text=True, timeout=30)
        assert check.returncode == 0, f"haproxy -c refused the configuration:\n{check.stdout}{check.stderr}"
        self.log = open(self.log_path, "w", encoding="utf-8")
        self.process = subprocess.Popen(["setpriv", "--pdeathsig", "SIGTERM", "--", self.exe, "-db", "-f", self.path],
                                        stdout=self.log, stderr=subprocess.STDOUT)

        def listening():
            assert self.process.poll() is None, f"haproxy exited: {open(self.log_path).read()}"
            with socket.socket() as s:
                return s.connect_ex((self.host, self.port)) == 0
        wait_until(listening, timeout, f"{self.name} (haproxy) to listen", interval=0.1)
        return self

    def command(self, line):
        """One command on the stats socket; its whole answer."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(10)
            s.connect(self.stats)
            s.sendall(line.encode() + b"\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        return data.decode()

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


class HAProxy(HAProxyProcess):
    def __init__(self, workdir, nodes, source="127.0.0.3", host="127.0.0.1"):
        super().__init__(workdir, "haproxy", host)
        self.write(configuration(nodes, (host, self.port), source, self.stats))

    def servers(self):
        """`show stat` for the backend's servers: {name: row} with the CSV's columns
        (`check_status`: L4OK after a health check connected; `status`: UP or DOWN)."""
        lines = self.command("show stat").splitlines()
        header = lines[0].lstrip("# ").split(",")
        rows = [dict(zip(header, line.split(","))) for line in lines[1:] if line]
        return {r["svname"]: r for r in rows if r["svname"] not in ("FRONTEND", "BACKEND")}
