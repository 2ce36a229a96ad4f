"""Issue 27: admin commands on a running server, over the unix socket in its data directory.
An admin disables a connected user (the connection closes with account_disabled, logins are
refused), enables them again, lists who is online, revokes a session, resets a password, and
reads the stats; the socket is the server user's alone."""
import os
import pwd
import stat
import subprocess

import pytest

from harness.client import PASSWORD

pytestmark = pytest.mark.storage  # run again on PostgreSQL by run-all.sh


def admin(world, server, *words, user=None, check=True):
    args = [world.server_exe, "admin", "--data-dir", server.data_dir, *words]
    if user:
        args = ["runuser", "-u", user, "--"] + args
    r = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if check:
        assert r.returncode == 0, f"{words}: {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r


def log_text(server):
    return open(server.log_path, encoding="utf-8").read()


def test_admin_commands_on_a_running_server(world):
    server = world.server("--log-level", "info")
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    sock = os.path.join(server.data_dir, "admin.sock")
    assert stat.S_ISSOCK(os.stat(sock).st_mode) and stat.S_IMODE(os.stat(sock).st_mode) == 0o600

    online = admin(world, server, "online").stdout
    assert "alice" in online and "bob" in online and "127.0.0.1" in online
    users = admin(world, server, "users", "list").stdout
    assert [l.split()[0] for l in users.splitlines()[1:]] == ["alice", "bob"]
    assert "active" in users and "disabled" not in users

    # Disable bob while he is connected: his connection closes at once with the new error.
    mark = len(bob.events)
    out = admin(world, server, "users", "disable", "bob").stdout
    assert "bob is disabled: 1 connection(s) closed" in out
    bob.wait_event(lambda e: e.get("type") == "connection" and e.get("state") == "offline"
                   and "disabled" in (e.get("reason") or ""), 10, mark, what="bob's connection closed as disabled")
    bob.wait_event(lambda e: e.get("type") == "error" and e.get("code") == "account_disabled", 20, mark,
                   what="bob's resume refused")
    assert "disabled" in admin(world, server, "users", "list").stdout
    # A fresh login with the right password is refused too.
    bob2 = world.client("bob2", server.address)
    err = bob2.cmd(f"/login bob {PASSWORD}", expect_error=True)
    assert err["code"] == "account_disabled"
    admin(world, server, "users", "enable", "bob")
    bob2.cmd(f"/login bob {PASSWORD}")
    assert "bob" in admin(world, server, "online").stdout

    # Revoke alice's session: her connection closes, her token no longer works.
    sessions = admin(world, server, "sessions", "list", "alice").stdout.splitlines()
    assert len(sessions) == 2 and sessions[1].split()[-1] == "1", sessions
    session_id = sessions[1].split()[0]
    mark = len(alice.events)
    assert "1 connection(s) closed" in admin(world, server, "sessions", "revoke", session_id).stdout
    alice.wait_event(lambda e: e.get("type") == "error" and e.get("code") == "invalid_token", 20, mark,
                     what="alice told her session ended")
    assert admin(world, server, "sessions", "revoke", session_id, check=False).returncode == 67

    # Reset bob's password: a one-time password on stdout; the old one stops working.
    r = admin(world, server, "users", "reset-password", "bob")
    new_password = r.stdout.strip()
    assert len(new_password) == 16 and "shown once" in r.stderr
    bob3 = world.client("bob3", server.address)
    assert bob3.cmd(f"/login bob {PASSWORD}", expect_error=True)["code"] == "invalid_credentials"
    bob3.cmd(f"/login bob {new_password}")

    stats = admin(world, server, "stats").stdout
    assert "users" in stats and "2 (0 disabled" in stats and "messages" in stats and "database" in stats

    bad = admin(world, server, "users", "frobnicate", check=False)
    assert bad.returncode == 64 and "usage" in bad.stderr
    assert admin(world, server, "users", "show", "nobody-here", check=False).returncode == 67

    log = log_text(server)
    uid = os.geteuid()
    assert f"admin (uid {uid}): users disable bob" in log
    assert f"admin (uid {uid}): users reset-password bob" in log
    assert new_password not in log and PASSWORD not in log


def test_admin_socket_refuses_other_users_and_a_stopped_server(world, tmp_path):
    server = world.server()
    if os.geteuid() == 0:
        pwd.getpwnam("nobody")
        r = admin(world, server, "online", user="nobody", check=False)
        assert r.returncode == 77 and "server's own user" in r.stderr, r
    server.terminate()
    r = admin(world, server, "online", check=False)
    assert r.returncode == 69 and "no server is running" in r.stderr


def test_a_user_lists_and_revokes_their_own_sessions(world):
    server = world.server()
    alice = world.user("alice", server.address)
    laptop = world.client("alice-laptop", server.address)
    laptop.cmd(f"/login alice {PASSWORD}")
    sessions = alice.cmd("/sessions")["sessions"]
    assert len(sessions) == 2 and sum(s["current"] for s in sessions) == 1
    mine = next(s["session_id"] for s in sessions if s["current"])
    other = next(s["session_id"] for s in sessions if not s["current"])
    assert alice.cmd(f"/revoke {mine}", expect_error=True)["code"] == "invalid_argument"
    mark = len(laptop.events)
    alice.cmd(f"/revoke {other}")
    laptop.wait_event(lambda e: e.get("type") == "connection" and e.get("state") == "offline"
                      and "revoked" in (e.get("reason") or ""), 10, mark, what="the laptop's connection closed")
    assert [s["session_id"] for s in alice.cmd("/sessions")["sessions"]] == [mine]


def test_delete_frees_the_name_and_keeps_the_messages(world):
    server = world.server()
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    bob.cmd("/dm alice")
    bob.say("a message that outlives its sender")
    bob.cmd("/wait sent 20", timeout=25)
    r = admin(world, server, "users", "delete", "bob", check=False)
    assert r.returncode == 64 and "cannot be undone" in r.stderr and "--yes" in r.stderr
    mark = len(bob.events)
    out = admin(world, server, "users", "delete", "bob", "--yes").stdout
    assert "bob is deleted (now deleted-2): 1 connection(s) closed" in out
    bob.wait_event(lambda e: e.get("type") == "connection" and "deleted" in (e.get("reason") or ""), 10, mark,
                   what="bob's connection closed")
    # Bob's password no longer opens anything; the name can be registered again.
    other = world.client("bob-again", server.address)
    assert other.cmd(f"/login bob {PASSWORD}", expect_error=True)["code"] == "invalid_credentials"
    other.register("bob")
    # Alice still has the message, from the deleted account (a new device of hers, so what
    # the server holds, not her cache of the old name).
    fresh = world.client("alice-new-device", server.address)
    fresh.cmd(f"/login alice {PASSWORD}")
    fresh.cmd("/open deleted-2")
    history = fresh.history()
    assert [(m["sender"], m["text"]) for m in history] == [("deleted-2", "a message that outlives its sender")]
    users = admin(world, server, "users", "list").stdout
    assert "deleted-2" in users and "disabled" in users
