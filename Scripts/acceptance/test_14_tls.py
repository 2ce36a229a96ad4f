"""TLS on every connection, with trust on first use: real handshakes over loopback between the
real server and client processes (and raw sockets for what a broken peer sends)."""
import os
import re
import shutil
import signal
import socket
import stat
import subprocess

import pytest

from harness import tls
from harness.waiting import wait_until


def piped(world, address, lines, *args, home):
    """The client with no trust flags in piped mode; its own config dir (known_servers)."""
    env = dict(os.environ, XDG_CONFIG_HOME=str(home / "config"), HOME=str(home))
    return subprocess.run([world.client_exe, "--server", address, "--data-dir", str(home / "data"), *args],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60, env=env)


def log_has(server, text, timeout=10):
    wait_until(lambda: text in open(server.log_path, encoding="utf-8").read(), timeout, what=f"server log: {text}")


def offline_reason(client, needle, timeout=20):
    return client.wait_event(lambda e: e.get("type") == "connection" and needle in (e.get("reason") or ""),
                             timeout, what=f"connection refused with {needle!r}")


def test_generated_certificate(world):
    server = world.server()
    key = os.path.join(server.data_dir, "tls-key.pem")
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    assert server.fingerprint == tls.fingerprint(os.path.join(server.data_dir, "tls-cert.pem"))
    log_has(server, f"fingerprint: {server.fingerprint}")
    alice = world.user("alice", server.address)
    info = alice.cmd("/server")
    assert info["tls"] is True and info["tls_version"] == "TLSv1.3"
    assert info["fingerprint"] == server.fingerprint and info["alpn"] == "messageai/1"
    assert info["trusted_by"] == "--tls-fingerprint" and info["cipher"]
    # The certificate survives restarts: users keep trusting the same fingerprint.
    server.restart()
    assert server.print_fingerprint() == server.fingerprint


def test_ca_signed_chain_and_untrusted_server(world, tmp_path):
    ca = tls.ThrowawayCA(tmp_path / "ca")
    chain, key, fp = ca.leaf("srv")
    server = world.server("--tls-cert", chain, "--tls-key", key)
    assert server.fingerprint == fp
    alice = world.client("alice", server.address, "--ca-file", ca.root)
    alice.register()
    info = alice.cmd("/server")
    assert info["trusted_by"] == "certificate authority" and info["fingerprint"] == fp
    # Without the CA and without a fingerprint, a script is told what to check and how to trust.
    r = piped(world, server.address, ["/server"], home=tmp_path / "nobody")
    assert r.returncode == 1
    assert fp in r.stderr and "--tls-fingerprint" in r.stderr and "--print-fingerprint" in r.stderr


def test_fingerprint_mismatch_refused(world, tmp_path):
    server = world.server()
    other = "AB:" * 31 + "CD"
    bob = world.client("bob", server.address, "--tls-fingerprint", other)
    offline_reason(bob, "not the one given with --tls-fingerprint")
    # A known server whose certificate changed: refused loudly, both fingerprints, how to accept.
    home = tmp_path / "carol"
    (home / "config" / "messageai").mkdir(parents=True)
    known = home / "config" / "messageai" / "known_servers"
    known.write_text(f"{server.address} {other}\n")
    r = piped(world, server.address, ["/server"], home=home)
    assert r.returncode == 1
    assert "HAS CHANGED" in r.stderr and other in r.stderr and server.fingerprint in r.stderr
    assert str(known) in r.stderr and server.address in r.stderr
    assert known.read_text() == f"{server.address} {other}\n", "a refusal never rewrites known_servers"


def test_trust_on_first_use_prompt(world, tmp_path):
    pexpect = pytest.importorskip("pexpect")
    server = world.server()
    home = tmp_path / "dave"
    env = {k: v for k, v in os.environ.items() if k != "XDG_CONFIG_HOME"}
    env.update(HOME=str(home), TERM="xterm", LANG="C.UTF-8")
    args = ["--server", server.address, "--data-dir", str(home / "data"), "--no-bell"]

    def spawn():
        child = pexpect.spawn(world.client_exe, args, env=env, encoding="utf-8", timeout=20)
        child.logfile_read = open(world.logs / "pty-dave.log", "a", encoding="utf-8")
        return child

    child = spawn()
    child.expect("SHA-256 fingerprint is:")
    child.expect(re.escape(server.fingerprint))
    child.expect(r"\(yes/no\)\? ")
    child.sendline("yes")
    child.expect("connected to")
    child.sendline("/quit")
    child.expect(pexpect.EOF)
    known = home / ".config" / "messageai" / "known_servers"
    assert known.read_text() == f"{server.address} {server.fingerprint}\n"
    assert stat.S_IMODE(os.stat(known).st_mode) == 0o600
    child = spawn()  # known now: no question
    index = child.expect(["connected to", r"\(yes/no\)"])
    assert index == 0, "asked again about a server already trusted"
    child.sendline("/quit")
    child.expect(pexpect.EOF)
    # "no" leaves nothing behind and does not connect.
    known.unlink()
    child = spawn()
    child.expect(r"\(yes/no\)\? ")
    child.sendline("no")
    child.expect("nothing saved")
    child.expect(pexpect.EOF)
    assert not known.exists()


def test_plaintext_and_tls_on_the_wrong_ports(world):
    server = world.server()
    plain = world.client("plain", server.address, "--plaintext")
    offline_reason(plain, "this server speaks TLS")
    log_has(server, "a plaintext client connected to the TLS port")
    world.user("alice", server.address)  # everyone else is served

    plain_server = world.server("--plaintext", name="plainserver")
    tls_client = world.client("tlsclient", plain_server.address, "--tls-fingerprint", server.fingerprint)
    offline_reason(tls_client, "--plaintext")
    log_has(plain_server, "a TLS client connected to this plaintext server")
    world.user("bob", plain_server.address)


def test_truncated_and_stalled_handshakes(world):
    server = world.server("--idle-timeout", "3", "--ping-interval", "1")
    hello = tls.client_hello()
    half = socket.create_connection((server.host, server.port))
    half.sendall(hello[:len(hello) // 2])  # then nothing: a stalled handshake
    silent = socket.create_connection((server.host, server.port))  # connects, never says anything
    gone = socket.create_connection((server.host, server.port))
    gone.sendall(hello)
    gone.close()  # the ClientHello, then away before the answer
    # While those hang, the hub serves others: two users register and talk.
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    alice.cmd("/dm bob")
    alice.say("past the stuck handshakes")
    bob.wait_event(lambda e: e.get("type") == "message" and e.get("text") == "past the stuck handshakes", 20)
    for s in (half, silent):
        s.settimeout(15)
        try:
            assert s.recv(100) == b"", "the server closes a handshake that never finishes"
        except ConnectionResetError:
            pass
        s.close()
    log_has(server, "closed before the TLS handshake finished")
    assert server.alive()


def test_sighup_reloads_the_certificate_without_dropping_clients(world, tmp_path):
    ca = tls.ThrowawayCA(tmp_path / "ca")
    chain1, key1, fp1 = ca.leaf("one")
    chain2, key2, fp2 = ca.leaf("two")
    cert, key = str(tmp_path / "cert.pem"), str(tmp_path / "key.pem")
    shutil.copy(chain1, cert)
    shutil.copy(key1, key)
    server = world.server("--tls-cert", cert, "--tls-key", key)
    alice = world.client("alice", server.address, "--ca-file", ca.root)
    alice.register()
    bob = world.client("bob", server.address, "--ca-file", ca.root)
    bob.register()
    alice.cmd("/dm bob")
    connects = len(alice.of_type("connection"))

    shutil.copy(chain2, cert)  # a renewed certificate (new key too)
    shutil.copy(key2, key)
    server.proc.send_signal(signal.SIGHUP)
    log_has(server, f"reloaded from {cert}; SHA-256 fingerprint {fp2}")
    alice.say("after the reload")
    bob.wait_event(lambda e: e.get("type") == "message" and e.get("text") == "after the reload", 20)
    assert alice.cmd("/server")["fingerprint"] == fp1, "the open connection kept its session"
    assert len(alice.of_type("connection")) == connects, "nobody was disconnected"
    carol = world.client("carol", server.address, "--ca-file", ca.root)
    carol.register()
    assert carol.cmd("/server")["fingerprint"] == fp2
    # A key that does not match is refused and the server keeps the certificate it has.
    shutil.copy(key1, key)
    server.proc.send_signal(signal.SIGHUP)
    log_has(server, "TLS reload failed, still serving the previous certificate")
    dave = world.client("dave", server.address, "--tls-fingerprint", fp2)
    dave.register()


def test_kill9_mid_handshake_then_reconnect(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    alice.cmd("/dm bob")
    alice.kill()
    server.proc.send_signal(signal.SIGSTOP)  # the kernel still accepts; the handshake never answers
    alice.start()
    alice.cmd("/open bob")  # from the local cache: the server is not answering
    alice.say("queued during the handshake")
    assert alice.cmd("/server")["connection"] != "online"
    server.kill()  # kill -9 while alice waits for the ServerHello
    server.start()
    alice.cmd("/wait sent 30", timeout=40)
    got = bob.wait_event(lambda e: e.get("type") == "message" and e.get("text") == "queued during the handshake", 30)
    assert got
    assert alice.cmd("/server")["fingerprint"] == server.fingerprint
    bob.cmd("/open alice")
    history = [m["text"] for m in bob.history()]
    assert history.count("queued during the handshake") == 1


def print_fingerprint(world, *args):
    return subprocess.run([world.server_exe, *args, "--print-fingerprint"], capture_output=True, text=True, timeout=60)


def test_print_fingerprint_only_reads(world, tmp_path):
    """Issue 27: --print-fingerprint prints what a server with the same flags serves, and writes nothing."""
    # No data directory yet: it is not created, and the admin is told how to get a certificate.
    fresh = tmp_path / "fresh"
    r = print_fingerprint(world, "--data-dir", str(fresh))
    assert r.returncode == 1 and r.stdout == ""
    assert "no certificate yet" in r.stderr and "--tls-cert" in r.stderr and "first start" in r.stderr
    assert not fresh.exists()
    # A server serving a CA-signed chain from --tls-cert: with the same flags, that chain's
    # fingerprint; without them, no self-signed certificate appears in its data directory.
    ca = tls.ThrowawayCA(tmp_path / "ca")
    chain, key, fp = ca.leaf("srv")
    server = world.server("--tls-cert", chain, "--tls-key", key)
    alice = world.user("alice", server.address)
    assert alice.cmd("/server")["fingerprint"] == fp
    before = sorted(os.listdir(server.data_dir))
    r = print_fingerprint(world, "--data-dir", server.data_dir, "--tls-cert", chain, "--tls-key", key)
    assert r.returncode == 0 and r.stdout.strip() == fp
    r = print_fingerprint(world, "--data-dir", server.data_dir)
    assert r.returncode == 1 and r.stdout == "" and "no certificate yet" in r.stderr
    assert sorted(os.listdir(server.data_dir)) == before
    assert "tls-cert.pem" not in before
    # The self-signed case: what the running server presents, byte for byte the same fingerprint.
    plain = world.server(name="selfsigned")
    r = print_fingerprint(world, "--data-dir", plain.data_dir)
    assert r.returncode == 0 and r.stdout.strip() == tls.fingerprint(os.path.join(plain.data_dir, "tls-cert.pem"))
    bob = world.user("bob", plain.address)
    assert bob.cmd("/server")["fingerprint"] == r.stdout.strip()
