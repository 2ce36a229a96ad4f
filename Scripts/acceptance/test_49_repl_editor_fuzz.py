"""Scenario 47: the line editor fuzzed in a real pty (issue 24). Seeded rounds of random keys
(text, Home/End, arrows, Backspace, Ctrl-U, Ctrl-C), then a bracketed paste of 0 to 100,000
characters (ASCII, CJK, emoji with ZWJ, combining marks, invalid UTF-8, tabs, control
characters, CRLF), sometimes with a resize in the middle of it, then Enter. It passes when the
client never dies, every paste arrives as pasted after the documented normalisation, and a
paste over the limit (Unicode scalars, as the sender counts) gets the limit error.

MESSAGEAI_EDITOR_FUZZ_SEED picks the seed (printed on failure), MESSAGEAI_EDITOR_FUZZ_COUNT the
rounds (default 12, at most about a minute; Scripts/asan.sh runs a long count under ASan)."""
import os
import random
import time

import pytest

from harness import screen
from harness.waiting import Timeout
from harness.screen import open_dm, repl_user

pytestmark = pytest.mark.skipif(screen.pyte is None, reason="pyte/pexpect not installed")

LIMIT = 10_000
PIECES = {
    "ascii": ["a", "b", "z", "Q", "7", " ", "-", ".", "word", "x y"],
    "cjk": ["東", "京", "日本語", "テスト", "한국어", "中文"],
    "emoji": ["👍", "👍🏽", "👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "🇫🇷"],
    "combining": ["e\u0301", "a\u0308\u0323", "ก\u0e34", "\u0915\u094d\u0937"],
}
INVALID = [b"\xff", b"\xfe", b"\x80", b"\xc3a", b"\xe2\x82a"]  # each one U+FFFD (then the ASCII)
CONTROL = [b"\t", b"\x01", b"\x07", b"\x1f", b"\x7f"]
KEYS = [b"a", "東".encode(), "👍🏽".encode(), b" ", b"\x1b[D", b"\x1b[C", b"\x1b[H", b"\x1b[F", b"\x01", b"\x05", b"\x7f"]


def one_line(text):
    """A one-line paste as it joins the edit line (PasteText.oneLine): tabs as spaces, other
    control characters dropped."""
    return "".join(" " if c == "\t" else c for c in text if c == "\t" or not (ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F))


def expected(raw):
    """What the sender sends for the pasted bytes `raw` (KeyReader.paste, PasteText)."""
    text = raw.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n").rstrip("\n")
    return text if "\n" in text else one_line(text)


def make_paste(rng):
    """Pasted bytes: a size from 0 to 100,000 characters (mostly short), starting and ending
    with a letter so that no pasted line is a /command or all blank."""
    size = rng.choice([0, rng.randint(1, 300), rng.randint(300, 5_000), rng.randint(5_000, 12_000),
                       rng.randint(9_000, 11_000), rng.randint(12_000, 100_000)])
    if size == 0:
        return b""
    kinds = rng.sample(sorted(PIECES), rng.randint(1, len(PIECES)))
    multi = rng.random() < 0.25
    out, count = [b"a"], 1
    while count < size:
        r = rng.random()
        if r < 0.03:
            out.append(rng.choice(INVALID))
        elif r < 0.05 and not multi:
            out.append(rng.choice(CONTROL))
        elif r < 0.07 and multi:
            out.append(rng.choice([b"\r\n", b"\r", b"\n", b"\t"]))
        else:
            piece = rng.choice(PIECES[rng.choice(kinds)])
            out.append(piece.encode())
            count += len(piece)
            continue
        count += 1
    out.append(b"z")
    return b"".join(out)


def send_all(bob, data):
    """Writes all of `data` to the pty (pexpect's send may write only part of a long paste)."""
    view = memoryview(data)
    while view:
        view = view[os.write(bob.child.child_fd, view):]


def random_keys(rng, bob):
    """Keys typed and then thrown away: the line is cleared with Ctrl-U (libedit's own key),
    or with Ctrl-C, which the client handles on its next turn: the test waits for it to clear
    before pasting, as a person would see it."""
    for _ in range(rng.randint(0, 30)):
        bob.type(rng.choice(KEYS))
    if rng.random() < 0.7:
        bob.type(b"\x15")
        return
    bob.type(b"junk\x1b[H")
    # The line may wrap (seed 24 wrapped "j|unk" at 40 columns): read the rows it spans.
    bob.wait_screen(lambda _: "junk" in bob.cursor_rows(), what="the typed junk")
    bob.key("ctrl-c")
    bob.wait_screen(lambda _: "junk" not in bob.cursor_rows(), what="the line cleared by Ctrl-C")


class Skipped:
    """Stands for the REPL in a round that is not played (MESSAGEAI_EDITOR_FUZZ_FROM)."""
    def type(self, _): pass
    def key(self, _): pass
    def wait_screen(self, *_, **__): pass
    def cursor_rows(self): return ""


def test_line_editor_fuzz(world):
    seed = int(os.environ.get("MESSAGEAI_EDITOR_FUZZ_SEED", random.randrange(1 << 30)))
    rounds = int(os.environ.get("MESSAGEAI_EDITOR_FUZZ_COUNT", "12"))
    budget = float(os.environ.get("MESSAGEAI_EDITOR_FUZZ_SECONDS", "50"))
    # MESSAGEAI_EDITOR_FUZZ_FROM=N replays a seed from round N (earlier rounds are not played).
    first = int(os.environ.get("MESSAGEAI_EDITOR_FUZZ_FROM", "0"))
    rng = random.Random(seed)
    print(f"editor fuzz seed {seed} (MESSAGEAI_EDITOR_FUZZ_SEED repeats it)")
    server = world.server()
    alice = world.user("alice", server.address)
    bob = repl_user(world, "bob", server)
    open_dm(bob, "alice")
    started, sent, over, done = time.monotonic(), 0, 0, 0

    for n in range(rounds):
        if time.monotonic() - started > budget:
            break
        where = f"seed {seed}, round {n}"
        if n < first:
            # Replaying from a later round: the generator is advanced as those rounds would.
            random_keys(rng, Skipped())
            skipped = make_paste(rng)
            if rng.random() < 0.3:
                rng.randint(0, len(skipped) + 12)  # the markers' 12 bytes, as `body` below
                rng.choice([40, 80, 132])
            continue
        random_keys(rng, bob)
        raw = make_paste(rng)
        want = expected(raw)
        mark_events, mark_raw = len(alice.events), len(bob.raw_bytes())
        body = b"\x1b[200~" + raw + b"\x1b[201~"
        if rng.random() < 0.3:
            cut = rng.randint(0, len(body))
            send_all(bob, body[:cut])
            bob.resize(rng.choice([40, 80, 132]))
            send_all(bob, body[cut:])
        else:
            send_all(bob, body)
        lines = want.count("\n") + 1
        if "\n" in want and lines > 5:
            # The preview's first line, read from the output: the question after it is a prompt
            # that libedit wraps at 40 columns, and both are printed in the same turn.
            shown = f"pasted {lines} lines:".encode()
            bob.wait_screen(lambda _: shown in bob.raw_bytes()[mark_raw:], 30, what=f"{shown!r} ({where})")
            bob.line("y")
        elif "\n" not in want:
            bob.key("enter")
        scalars = len(want)
        if not want:
            pass
        elif scalars > LIMIT:
            error = f"the message has {scalars} characters; the limit is {LIMIT}".encode()
            try:
                bob.wait_screen(lambda _: error in bob.raw_bytes()[mark_raw:], 30, what=f"the limit error ({where})")
            except Timeout as e:
                raise Timeout(f"{e}\nthe client's last output: {bob.raw_bytes()[-600:]!r}") from None
            over += 1
        else:
            got = alice.events.wait_count(lambda e: e.get("type") == "message" and e.get("sender") == "bob",
                                          1, 30, mark_events, what=f"the paste ({where})")
            assert got[0]["text"] == want, f"{where}: sent {len(got[0]['text'])} scalars, pasted {scalars}"
            sent += 1
        assert bob.child.isalive(), f"{where}: the client died:\n{bob.text()}"
        done += 1

    # An empty paste sends nothing: every message alice got was one of the checked ones.
    mark = len(alice.events)
    bob.line("last")
    got = alice.events.wait_count(lambda e: e.get("type") == "message" and e.get("sender") == "bob", 1, 30, mark,
                                  what="the closing message")
    assert got[0]["text"] == "last"
    assert sum(1 for e in alice.events.snapshot(0) if e.get("type") == "message") == sent + 1
    print(f"editor fuzz: seed {seed}, {done} rounds, {sent} sent, {over} over the limit")
    bob.line("/quit")
    bob.wait_exit(15)
    assert b"AddressSanitizer" not in bob.raw_bytes() and b"Program crashed" not in bob.raw_bytes()
