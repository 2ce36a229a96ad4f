"""Scenario 47 (issue 24): `Scripts/run.sh` on a tree that is already built starts in seconds
and prints nothing from the compiler (it built each product separately, which took two
minutes, and showed about 20 warnings). The build it uses is the one the tests built
(RUN_BUILD=debug); the server it starts listens on a free port with its data under a temp HOME."""
import os
import re
import subprocess
import time
from pathlib import Path
from harness.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
# What swift build prints (the client's own "error: /whoami: ..." is not among it).
COMPILER = re.compile(r"\.swift:\d+:\d+: (warning|error)|warning:|Compiling|Building for|Build complete|Planning build|Linking|Write swift-version")


def run_script(tmp_path, timeout):
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(tmp_path / "home"), RUN_BUILD="debug", MESSAGEAI_PORT=str(free_port()), TMPDIR=str(tmp_path))
    started = time.monotonic()
    p = subprocess.run([str(ROOT / "Scripts" / "run.sh")], input="/whoami\n/quit\n", capture_output=True, text=True,
                       env=env, cwd=str(tmp_path), timeout=timeout)
    return p, time.monotonic() - started


def test_second_run_is_quick_and_quiet(tmp_path):
    (tmp_path / "home").mkdir()
    first, _ = run_script(tmp_path, timeout=1800)  # builds whatever the tests' build lacks
    assert "server started" in first.stderr, first.stderr[-3000:]
    second, seconds = run_script(tmp_path, timeout=300)
    output = second.stdout + second.stderr
    assert not COMPILER.search(output), f"compiler output on a built tree:\n{output[-3000:]}"
    assert "server started" in second.stderr, output[-3000:]
    assert "not logged in" in output, output[-3000:]  # the client ran its first command
    print(f"second run.sh on a built tree: {seconds:.1f} s")
    assert seconds < 60, f"run.sh took {seconds:.1f} s on a built tree"
