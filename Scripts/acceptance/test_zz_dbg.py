import os, time, pickle
import pytest
from harness import screen
from harness.screen import open_dm, repl_user
import importlib.util
spec=importlib.util.spec_from_file_location("t49", os.path.join(os.path.dirname(__file__), "test_49_repl_editor_fuzz.py"))
t=importlib.util.module_from_spec(spec); spec.loader.exec_module(t)

@pytest.mark.parametrize("cols0", [80, 132, 40])
def test_dbg(world, cols0):
    keys, raw, (cut, cols) = pickle.load(open('/tmp/r199.pkl','rb'))
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server)
    open_dm(bob, "alice")
    bob.resize(cols0)
    want = t.expected(raw)
    body = b"\x1b[200~" + raw + b"\x1b[201~"
    bob.type("東".encode())
    bob.type(b"junk\x1b[H")
    bob.wait_screen(lambda _: "junk" in bob.cursor_rows(), what="junk")
    bob.key("ctrl-c")
    bob.wait_screen(lambda _: "junk" not in bob.cursor_rows(), what="cleared")
    mark = len(bob.raw_bytes())
    t.send_all(bob, body[:cut]); bob.resize(cols); t.send_all(bob, body[cut:])
    t1 = time.monotonic()
    bob.key("enter")
    err = f"the message has {len(want)} characters".encode()
    try:
        bob.wait_screen(lambda _: err in bob.raw_bytes()[mark:], 40, what="limit error")
    finally:
        print(f"\ncols0 {cols0}: after enter {time.monotonic()-t1:.1f}s")
