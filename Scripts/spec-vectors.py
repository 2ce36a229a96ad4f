#!/usr/bin/env python3
"""Refreshes the hex blocks in Protocol/PROTOCOL.md from Protocol/vectors/*.hex.

Each example in the spec is written as
    <!-- vector: NAME -->
    ```hex
    ...
    ```
and this script replaces the block's body with the file's bytes. The tests (VectorTests) check
that both agree and that the bytes decode to the documented values.
"""
import pathlib, re, sys

root = pathlib.Path(__file__).resolve().parent.parent
spec_path = root / "Protocol" / "PROTOCOL.md"
spec = spec_path.read_text()

def body(m):
    name = m.group(1)
    f = root / "Protocol" / "vectors" / f"{name}.hex"
    if not f.exists():
        sys.exit(f"no vector file for {name}")
    return f"<!-- vector: {name} -->\n```hex\n{f.read_text().strip()}\n```"

new = re.sub(r"<!-- vector: ([a-z0-9-]+) -->\n```hex\n.*?```", body, spec, flags=re.S)
spec_path.write_text(new)
