"""Scenario 68 (issue 25): a server started on a PostgreSQL it cannot use says why in one line
and exits non-zero within seconds: nothing listening, a refused password, a password file others
can read, a password in the URL. It never hangs and never prints the password. With the right
password (from a file of mode 0600) it serves a client."""
import os
import subprocess
import time

import pytest

from harness.pgcluster import PostgresCluster, require_postgres
from harness.ports import free_port

PASSWORD = "Sésame-ouvre-toi 42"  # spaces and an accent: quoted right in the file and the log
BOUND = 15  # seconds: a server that cannot reach its database gives up and says so


def start_failing(exe, tmp, *args):
    """Runs the server, expecting it to exit; returns (exit status, stderr lines, seconds)."""
    began = time.monotonic()
    out = subprocess.run([exe, "--port", "0", "--data-dir", str(tmp / "data")] + list(args),
                         capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    lines = [l for l in (out.stderr + out.stdout).splitlines() if l.strip()]
    return out.returncode, lines, time.monotonic() - began


def password_file(tmp, text, mode):
    path = tmp / f"pw-{mode:o}"
    path.write_text(text + "\n")
    os.chmod(path, mode)
    return str(path)


@pytest.fixture(scope="module")
def cluster():
    require_postgres()
    pg = PostgresCluster(host_auth="scram-sha-256").start()
    pg.sql(f"CREATE ROLE chat LOGIN PASSWORD '{PASSWORD.replace(chr(39), chr(39) * 2)}'")
    pg.create_database("chat", owner="chat")
    yield pg
    pg.stop()


def test_nothing_listening(executables, tmp_path):
    server_exe, _ = executables
    port = free_port()
    status, lines, took = start_failing(server_exe, tmp_path, "--database", f"postgres://chat@127.0.0.1:{port}/chat?sslmode=disable")
    assert status != 0, lines
    assert took < BOUND, f"took {took:.1f} s to give up"
    last = lines[-1].lower()
    assert "database" in last and str(port) in last and ("refused" in last or "unreachable" in last), lines


def test_refused_password_and_unsafe_file(executables, tmp_path, cluster):
    server_exe, _ = executables
    url = cluster.url("chat", user="chat")
    status, lines, took = start_failing(server_exe, tmp_path, "--database", url,
                                        "--database-password-file", password_file(tmp_path, "not-the-password", 0o600))
    assert status != 0 and took < BOUND, (status, took, lines)
    assert "password authentication failed" in lines[-1], lines
    assert "not-the-password" not in "\n".join(lines)

    # A password file that others can read is refused before any connection, naming the file.
    readable = password_file(tmp_path, PASSWORD, 0o644)
    status, lines, _ = start_failing(server_exe, tmp_path, "--database", url, "--database-password-file", readable)
    assert status != 0 and any(readable in l and "644" in l for l in lines), lines
    assert PASSWORD not in "\n".join(lines)

    # A password in the URL (a flag's value: visible in ps and shell history) is refused.
    inline = url.replace("chat@", "chat:hunter2@")
    status, lines, _ = start_failing(server_exe, tmp_path, "--database", inline)
    assert status != 0 and any("password" in l.lower() for l in lines), lines
    assert "hunter2" not in "\n".join(lines)


def test_right_password_serves_a_client(world, cluster, tmp_path):
    url = cluster.url("chat", user="chat")
    server = world.server("--database-password-file", password_file(tmp_path, PASSWORD, 0o600), database=url)
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    world.contacts(alice, bob)
    alice.cmd("/dm bob")
    alice.say("über den Wolken ☁️")
    alice.cmd("/wait sent 20", timeout=30)
    assert server.terminate() == 0
    log = open(server.log_path, encoding="utf-8", errors="replace").read()
    assert PASSWORD not in log and "über den Wolken" not in log
