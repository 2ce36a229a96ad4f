"""Issue 27: online backup and restore. A backup taken while a client sends, restored into a
fresh directory and served by a new server, holds every message acknowledged before the backup
began, every file with the same SHA-256, the same accounts, and the same TLS certificate."""
import hashlib
import os
import stat
import subprocess

from harness.client import PASSWORD

from test_50_files import random_file, sha_of


def run(world, *args):
    return subprocess.run([world.server_exe, *args], capture_output=True, text=True, timeout=300)


def modes(root):
    """Every file and directory under root with its permission bits."""
    out = {}
    for d, dirs, files in os.walk(root):
        out[d] = stat.S_IMODE(os.stat(d).st_mode)
        for f in files:
            out[os.path.join(d, f)] = stat.S_IMODE(os.stat(os.path.join(d, f)).st_mode)
    return out


def test_backup_under_load_restore_and_serve(world, tmp_path):
    server = world.server("--rate-limit", "100000")
    alice = world.user("alice", server.address)
    bob = world.user("bob", server.address)
    alice.cmd("/dm bob")
    originals = {}
    for i, size in enumerate([700 * 1024, 64 * 1024]):
        path = tmp_path / f"data-{i}.bin"
        originals[f"data-{i}.bin"] = random_file(path, size, seed=i)
        alice.cmd(f"/send-file {path}")
    for i in range(20):
        alice.say(f"before {i}")
    alice.cmd("/wait sent 60", timeout=70)

    # The load: 300 more messages written to alice's client, sent while the backup runs.
    for i in range(300):
        alice.say(f"during {i}")
    acked = {e["seq"] for e in alice.of_type("state") if e.get("state") == "sent"}
    assert len(acked) >= 22
    print(f"acknowledged when the backup began: {len(acked)} of 322")
    assert len(acked) < 322, "the load must still be running when the backup starts"
    backup_dir = tmp_path / "backup"
    r = run(world, "backup", str(backup_dir), "--data-dir", server.data_dir)
    assert r.returncode == 0, r.stderr + r.stdout
    assert "backup complete" in r.stdout and "database:" in r.stdout and "files:" in r.stdout and "TLS:" in r.stdout
    for path, mode in modes(backup_dir).items():
        assert mode == (0o700 if os.path.isdir(path) else 0o600), (path, oct(mode))
    # Every stored file is named by its content's SHA-256.
    blobs = backup_dir / "files" / "blobs"
    for name in os.listdir(blobs):
        assert hashlib.sha256((blobs / name).read_bytes()).hexdigest() == name
    assert set(originals.values()) <= set(os.listdir(blobs))
    alice.cmd("/wait sent 60", timeout=70)  # the load finishes against the live server

    # A live data directory is never overwritten; a fresh one is restored.
    r = run(world, "restore", str(backup_dir), "--data-dir", server.data_dir, "--overwrite")
    assert r.returncode == 1 and "a server is running" in r.stderr
    restored_dir = world.tmp / "restored"
    r = run(world, "restore", str(backup_dir), "--data-dir", str(restored_dir))
    assert r.returncode == 0, r.stderr
    r = run(world, "restore", str(backup_dir), "--data-dir", str(restored_dir))
    assert r.returncode == 1 and "--overwrite" in r.stderr

    restored = world.server(name="restored")
    assert restored.fingerprint == server.fingerprint, "the same certificate: users keep trusting it"
    alice2 = world.client("alice-restored", restored.address)
    alice2.cmd(f"/login alice {PASSWORD}")
    bob2 = world.client("bob-restored", restored.address)
    bob2.cmd(f"/login bob {PASSWORD}")
    bob2.cmd("/open alice")
    history = bob2.history()
    seqs = {m["seq"] for m in history}
    missing = acked - seqs
    assert not missing, f"acknowledged before the backup but not restored: {sorted(missing)}"
    print(f"messages in the restored conversation: {len(history)} (22 acknowledged before the backup began)")
    texts = [m["text"] for m in history]
    assert all(f"before {i}" in texts for i in range(20))
    out = world.tmp / "saved"
    out.mkdir()
    files = [m for m in history if str(m["text"]).startswith("[file: ")]
    assert len(files) == 2
    for m in files:
        event = bob2.cmd(f"/save #{m['seq']} {out}", timeout=60)
        assert sha_of(event["path"]) == originals[os.path.basename(event["path"])]
