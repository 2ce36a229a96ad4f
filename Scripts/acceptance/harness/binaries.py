"""Where the built executables are: $MESSAGEAI_BIN_DIR, else `swift build --show-bin-path`."""
import os
import pathlib
import subprocess

REPO = pathlib.Path(__file__).resolve().parents[3]


def bin_dir():
    configured = os.environ.get("MESSAGEAI_BIN_DIR")
    if configured:
        return pathlib.Path(configured)
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=REPO,
                         capture_output=True, text=True, timeout=120, check=True)
    return pathlib.Path(out.stdout.strip())


def executable(name):
    path = bin_dir() / name
    if not os.access(path, os.X_OK):
        raise FileNotFoundError(f"{path} is not built; run `swift build` or Scripts/acceptance/run-all.sh")
    return str(path)
