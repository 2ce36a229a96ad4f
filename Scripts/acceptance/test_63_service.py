"""Issue 27: the server as a service. `systemd-analyze verify` accepts Packaging/messageai-server.service;
the unit's own ExecStart line runs the server as an unprivileged user with `--config`; the admin,
as that user, lists who is online; SIGHUP re-reads the log level and rate limit from the file;
`--check-config` prints the settings with the API key only as set; `--log-format json` writes one
JSON object per log line; /metrics answers; SIGTERM stops it with status 0. In between, as that
user: the fingerprint is handed out, a connected user is disabled (their connection closes),
a password is reset, a backup is taken and /metrics scraped (issue 27's "done when")."""
import json
import os
import pwd
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import urllib.request

import pytest

from harness import trust
from harness.waiting import EventLog, wait_until

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UNIT = os.path.join(ROOT, "Packaging", "messageai-server.service")


def unit_exec_start():
    line = next(l for l in open(UNIT, encoding="utf-8") if l.startswith("ExecStart="))
    return shlex.split(line[len("ExecStart="):])


def test_unit_passes_systemd_analyze_verify(world, tmp_path):
    exe = shutil.which("systemd-analyze")
    if exe is None:
        pytest.fail("systemd-analyze is missing: run Scripts/install-deps.sh --tests")
    # verify checks that ExecStart's program exists: point it at this build.
    text = open(UNIT, encoding="utf-8").read().replace("/usr/local/bin/messageai-server", world.server_exe)
    unit = tmp_path / "messageai-server.service"
    unit.write_text(text)
    r = subprocess.run([exe, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    problems = [l for l in (r.stdout + r.stderr).splitlines() if "messageai-server.service" in l]
    assert r.returncode == 0 and not problems, r.stdout + r.stderr


@pytest.fixture
def service_home():
    """A directory the unprivileged user owns, outside root's 0700 pytest tree."""
    if os.geteuid() != 0:
        pytest.skip("needs root to run the server as another user")
    nobody = pwd.getpwnam("nobody")
    home = tempfile.mkdtemp(prefix="messageai-service-")
    os.chmod(home, 0o755)
    yield home, nobody
    shutil.rmtree(home, ignore_errors=True)


def as_nobody(*args):
    # setpriv execs the program itself (runuser would stay the parent and keep SIGHUP from it).
    user = pwd.getpwnam("nobody")
    return ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--", *args]


def test_service_exec_start_as_unprivileged_user(world, service_home):
    home, nobody = service_home
    exe = os.path.join(home, "messageai-server")
    shutil.copy(world.server_exe, exe)
    os.chmod(exe, 0o755)
    data = os.path.join(home, "data")
    config = os.path.join(home, "server.yaml")
    key = os.path.join(home, "api-key")
    with open(key, "w") as f:
        f.write("sk-do-not-print-me\n")
    os.chmod(key, 0o600)
    os.chown(key, nobody.pw_uid, nobody.pw_gid)

    def write_config(level, limit):
        with open(config, "w") as f:
            f.write(f"host: 127.0.0.1\nport: 0\nlog-level: {level}\nlog-format: json\nrate-limit: {limit}\n"
                    "metrics-listen: 127.0.0.1:0\nassistant-base-url: http://127.0.0.1:9\n"
                    f"assistant-api-key-file: {key}\n")
    write_config("info", 100)
    args = [a.replace("/usr/local/bin/messageai-server", exe).replace("/etc/messageai/server.yaml", config)
            .replace("/var/lib/messageai", data) for a in unit_exec_start()]
    assert args[1:3] == ["--config", config]

    # --check-config: the effective settings, the command line over the file, no secret.
    r = subprocess.run(as_nobody(*args, "--check-config", "--rate-limit", "250"), capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "rate-limit: 250" in r.stdout and "log-format: json" in r.stdout and f"data-dir: {data}" in r.stdout
    assert "assistant-api-key: set" in r.stdout and "sk-do-not-print-me" not in r.stdout + r.stderr
    bad = subprocess.run([exe, "--config", config, "--check-config", "--log-format", "xml"], capture_output=True, text=True)
    assert bad.returncode != 0 and "--log-format" in bad.stderr
    typo = os.path.join(home, "typo.yaml")
    with open(typo, "w") as f:
        f.write("rate-limt: 5\n")
    bad = subprocess.run([exe, "--config", typo, "--check-config"], capture_output=True, text=True)
    assert bad.returncode != 0 and "unknown setting 'rate-limt'" in bad.stderr

    os.makedirs(data)
    os.chown(data, nobody.pw_uid, nobody.pw_gid)
    os.chmod(data, 0o700)
    proc = subprocess.Popen(as_nobody(*args), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    lines = EventLog()
    import threading

    def pump():
        for raw in iter(proc.stderr.readline, b""):
            lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
        lines.close()
    threading.Thread(target=pump, daemon=True).start()
    try:
        listening = lines.wait_for(lambda l: l.startswith("listening on "), 30, what="listening")
        metrics = lines.wait_for(lambda l: l.startswith("metrics on "), 5, what="metrics").split()[-1]
        assert re.match(r"listening on 127\.0\.0\.1:\d+", listening)
        assert os.stat(os.path.join(data, "messageai.sqlite")).st_uid == nobody.pw_uid

        # The admin, as the server's user, hands out the fingerprint; two users connect.
        address = listening.split()[-1]
        fp = subprocess.run(as_nobody(exe, "--config", config, "--data-dir", data, "--print-fingerprint"),
                            capture_output=True, text=True, timeout=60)
        assert fp.returncode == 0, fp.stderr
        trust.register(address, ["--tls-fingerprint", fp.stdout.strip()])
        alice = world.user("alice", address)
        bob = world.user("bob", address)

        def admin(*words):
            r = subprocess.run(as_nobody(exe, "admin", "--data-dir", data, *words), capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, (words, r.stderr)
            return r.stdout
        assert "alice" in admin("online") and "bob" in admin("online")
        mark = len(bob.events)
        admin("users", "disable", "bob")
        bob.wait_event(lambda e: e.get("type") == "connection" and "disabled" in (e.get("reason") or ""), 10, mark,
                       what="bob's connection closed as disabled")
        assert len(admin("users", "reset-password", "alice").strip()) == 16
        # A backup as the service user, into a directory it owns (the unit's ReadWritePaths).
        backups = os.path.join(home, "backups")
        os.makedirs(backups)
        os.chown(backups, nobody.pw_uid, nobody.pw_gid)
        r = subprocess.run(as_nobody(exe, "backup", os.path.join(backups, "today"), "--data-dir", data),
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0 and "backup complete" in r.stdout, r.stderr
        assert "users" in admin("stats")
        with urllib.request.urlopen(f"http://{metrics}/healthz", timeout=10) as h:
            assert h.status == 200
        with urllib.request.urlopen(f"http://{metrics}/metrics", timeout=10) as m:
            scraped = m.read().decode()
        assert re.search(r"^messageai_registrations_total 2$", scraped, re.M), scraped

        # SIGHUP (systemctl reload): the file's new log level and rate limit apply at once.
        write_config("debug", 300)
        proc.send_signal(signal.SIGHUP)
        lines.wait_for(lambda l: "log level info -> debug" in l, 10, what="the log level reloaded")
        lines.wait_for(lambda l: "rate limit 100 per 60.0 s -> 300 per 60.0 s" in l, 10, what="the rate limit reloaded")

        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    # --log-format json: every log line is one JSON object (the two address lines are plain).
    logged = [l for l in lines.snapshot() if not l.startswith(("listening on ", "metrics on "))]
    assert logged
    for l in logged:
        entry = json.loads(l)
        assert {"time", "level", "label", "message"} <= set(entry)
    assert "sk-do-not-print-me" not in "\n".join(lines.snapshot())
