"""A throw-away PostgreSQL cluster, the twin of Tests/MessageAIPostgresTests/TestCluster.swift.

initdb into a fresh temporary directory, the server on a unix socket in that directory and a
free port on 127.0.0.1, stopped by its PID (SIGINT: fast shutdown) with a deadline, pass or
fail. As root both run as `postgres` through `setpriv`, which execs the program itself, so the
PID held is the postmaster's; `--pdeathsig SIGINT` stops the server if this process dies
without tearing down.
"""
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time

from harness.ports import free_port


def binaries():
    """MESSAGEAI_PG_BIN, else the newest /usr/lib/postgresql/*/bin (Debian's place, not on PATH)."""
    candidates = [os.environ["MESSAGEAI_PG_BIN"]] if os.environ.get("MESSAGEAI_PG_BIN") else glob.glob("/usr/lib/postgresql/*/bin")
    found = [d for d in candidates
             if os.access(os.path.join(d, "postgres"), os.X_OK) and os.access(os.path.join(d, "initdb"), os.X_OK)]
    found.sort(key=lambda d: int(d.split("/")[-2]) if d.split("/")[-2].isdigit() else 0, reverse=True)
    return found[0] if found else None


def _as_postgres(argv):
    if os.getuid() != 0:
        return ["setpriv", "--pdeathsig", "SIGINT", "--"] + argv
    return ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--pdeathsig", "SIGINT", "--"] + argv


class PostgresCluster:
    """`with PostgresCluster() as pg: pg.create_database("chat"); pg.url("chat")`."""

    def __init__(self, bin_dir=None, host_auth="trust"):
        """host_auth: pg_hba's method for TCP connections (`trust`, `scram-sha-256`); the unix
        socket in the directory always trusts, so the harness can make roles and databases."""
        self.host_auth = host_auth
        self.bin = bin_dir or binaries()
        if self.bin is None:
            raise RuntimeError("PostgreSQL not installed (no /usr/lib/postgresql/*/bin; run Scripts/install-deps.sh)")
        self.dir = tempfile.mkdtemp(prefix="messageai-pg.")
        self.port = free_port()
        self.proc = None

    def start(self, timeout=60):
        if os.getuid() == 0:
            pw = pwd.getpwnam("postgres")
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)  # initdb wants to own its directory
        log = open(os.path.join(self.dir, "server.log"), "ab")
        data = os.path.join(self.dir, "data")
        if not os.path.isdir(data):  # a restart keeps the cluster (and the port)
            subprocess.run(_as_postgres([os.path.join(self.bin, "initdb"), "-D", data, "-U", "postgres",
                                         "--auth-local=trust", f"--auth-host={self.host_auth}",
                                         "-E", "UTF8", "--no-instructions"]),
                           stdout=log, stderr=log, check=True, timeout=120)
        self.proc = subprocess.Popen(_as_postgres([
            os.path.join(self.bin, "postgres"), "-D", data, "-k", self.dir, "-p", str(self.port),
            "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "full_page_writes=off",
            "-c", "max_connections=40", "-c", "shared_buffers=32MB"]), stdout=log, stderr=log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"postgres exited at start:\n{self.log_tail()}")
            if self._ready():
                return self
            time.sleep(0.02)  # polling a condition (postmaster.pid says ready) under a deadline
        self.stop()
        raise RuntimeError(f"postgres not ready within {timeout} s:\n{self.log_tail()}")

    def _ready(self):
        try:
            with open(os.path.join(self.dir, "data", "postmaster.pid")) as f:
                lines = f.read().splitlines()
            if not lines or lines[-1].strip() != "ready":
                return False
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
        except OSError:
            return False

    def log_tail(self, lines=15):
        try:
            with open(os.path.join(self.dir, "server.log"), errors="replace") as f:
                return "\n".join(f.read().splitlines()[-lines:])
        except OSError:
            return ""

    def sql(self, statement):
        """One statement as the superuser over the unix socket (roles, grants)."""
        subprocess.run([os.path.join(self.bin, "psql"), "-h", self.dir, "-p", str(self.port), "-U", "postgres",
                        "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-qc", statement],
                       check=True, capture_output=True, timeout=60)

    def create_database(self, name, owner=None):
        subprocess.run([os.path.join(self.bin, "createdb"), "-h", self.dir, "-p", str(self.port), "-U", "postgres"] + (["-O", owner] if owner else []) + [name],
                       check=True, capture_output=True, timeout=60)

    def url(self, database, user="postgres"):
        return f"postgres://{user}@127.0.0.1:{self.port}/{database}?sslmode=disable"

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def restart(self, timeout=60):
        """Fast shutdown (SIGINT: open sessions are cut, as in a failover or an upgrade), then the
        same cluster on the same port again."""
        self.stop(remove=False)
        return self.start(timeout)

    def stop(self, timeout=20, remove=True):
        """Fast shutdown by PID, SIGKILL past the deadline; removes the directory unless asked
        not to. Safe twice."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if remove:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def require_postgres():
    """Skips a scenario when PostgreSQL is not installed; under CI (which installs it through
    Scripts/install-deps.sh) a missing PostgreSQL fails instead."""
    import pytest
    if binaries() is None:
        why = "PostgreSQL not installed (no /usr/lib/postgresql/*/bin; run Scripts/install-deps.sh --tests)"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
