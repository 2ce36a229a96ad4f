"""The REPL in a real pseudo-terminal, read through a terminal emulator (pyte): tests assert
what a person would see on the screen, not only the bytes the client wrote.

The client starts with LANG and every LC_* variable removed (a fresh container), unless the
test passes its own environment."""
import os
import re
import signal
import threading
import time

from .waiting import Timeout
from . import trust

try:
    import pexpect
    import pyte
except ImportError:  # run-all.sh installs both; a lone pytest run skips these scenarios
    pexpect = pyte = None

BRACKETED_PASTE_ON = b"\x1b[?2004h"
BRACKETED_PASTE_OFF = b"\x1b[?2004l"


def prompt_re(name, rest=""):
    """The prompt of `name` (a conversation, or the user when none is open) while connected:
    the connection shows only when it is not online; a direct conversation may carry the peer's
    presence ("bob (online)", "bob, seen 5m ago") and a group its size ("team, 3 members").
    `rest` is what follows, such as "|Act: carol 1"."""
    return re.compile(r"\[" + re.escape(name) + r"(?: \([^)]*\)|, [^|\]]*)?" + re.escape(rest) + r"\]>")


def has_prompt(text, name, rest=""):
    return prompt_re(name, rest).search(text) is not None


def starts_prompt(text, name):
    """`text` begins with the prompt of `name`, whatever follows (marks, activity)."""
    return re.match(r"\[" + re.escape(name) + r"(?: \([^)]*\)|, [^|\]]*)?[|\]]", text) is not None and "|offline" not in text


def bare_environment(data_dir, **extra):
    env = {k: v for k, v in os.environ.items() if not (k == "LANG" or k.startswith("LC_") or k == "LANGUAGE")}
    env.update(TERM="xterm", HOME=str(data_dir))
    env.update(extra)
    return env


class ScreenClient:
    def __init__(self, exe, server_address, data_dir, log_path, columns=80, rows=24, env=None, extra_args=()):
        if pyte is None:
            raise RuntimeError("pyte and pexpect are needed (pip install pyte pexpect)")
        os.makedirs(data_dir, exist_ok=True)
        self.log = open(log_path, "ab")
        self.raw = bytearray()
        self.lock = threading.Lock()
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        args = (["--server", server_address, "--data-dir", str(data_dir), "--no-bell"]
                + trust.client_args(server_address, extra_args) + list(extra_args))
        self.child = pexpect.spawn(exe, args, env=env or bare_environment(data_dir), encoding=None,
                                   dimensions=(rows, columns), timeout=15)
        self.exit_status = None
        self.reader = threading.Thread(target=self._pump, daemon=True)
        self.reader.start()

    def _pump(self):
        while True:
            try:
                data = self.child.read_nonblocking(65536, timeout=0.2)
            except pexpect.TIMEOUT:
                continue
            except (pexpect.EOF, OSError):
                break
            with self.lock:
                self.raw += data
                self.stream.feed(data)
            self.log.write(data)
            self.log.flush()

    # --- input -------------------------------------------------------------------------------
    def type(self, text):
        """Keys typed, not entered."""
        self.child.send(text.encode("utf-8") if isinstance(text, str) else text)

    def line(self, text):
        self.type(text)
        self.child.send(b"\r")

    def paste(self, text):
        """What a terminal sends for a paste while bracketed paste mode is on."""
        self.child.send(b"\x1b[200~" + text.replace("\n", "\r").encode("utf-8") + b"\x1b[201~")

    def key(self, name):
        self.child.send({"backspace": b"\x7f", "enter": b"\r", "ctrl-c": b"\x03", "ctrl-d": b"\x04",
                         "left": b"\x1b[D", "right": b"\x1b[C"}[name])

    def interrupt(self):
        """Ctrl-C as the terminal delivers it (SIGINT to the foreground process)."""
        self.child.kill(signal.SIGINT)

    def resize(self, columns, rows=None):
        rows = rows or self.screen.lines
        with self.lock:
            self.screen.resize(rows, columns)
        self.child.setwinsize(rows, columns)  # the kernel sends SIGWINCH

    # --- what is seen ------------------------------------------------------------------------
    def lines(self):
        with self.lock:
            return self._rows()

    def _rows(self):
        try:
            return [l.rstrip() for l in self.screen.display]
        except (IndexError, AssertionError):
            # pyte trips over a wide character cut in half by a resize (an empty cell): the
            # cells as they are.
            return ["".join(self.screen.buffer[y][x].data for x in range(self.screen.columns)).rstrip()
                    for y in range(self.screen.lines)]

    def text(self):
        return "\n".join(self.lines())

    def styles(self, text):
        """(fg, bold) of each character of the first row holding `text`, from the emulator's cells."""
        with self.lock:
            for y in range(self.screen.lines):
                row = "".join(self.screen.buffer[y][x].data for x in range(self.screen.columns))
                at = row.find(text)
                if at >= 0:
                    return [(self.screen.buffer[y][x].fg, self.screen.buffer[y][x].bold) for x in range(at, at + len(text))]
        raise AssertionError(f"{text!r} not on the screen:\n{self.text()}")

    def cursor_line(self):
        with self.lock:
            return self._rows()[self.screen.cursor.y]

    def cursor_rows(self, count=3):
        """The cursor's row and the `count - 1` rows above it, joined without line ends: an edit
        line wrapped at the terminal's width (a 40-column resize, emoji libedit counts as 4
        columns) reads as typed."""
        with self.lock:
            rows = self._rows()
            y = self.screen.cursor.y
            return "".join(rows[max(0, y - count + 1):y + 1])

    def raw_bytes(self):
        with self.lock:
            return bytes(self.raw)

    def wait_screen(self, predicate, timeout=15, what="screen"):
        deadline = time.monotonic() + timeout
        while True:
            seen = self.text()
            if predicate(seen):
                return seen
            if time.monotonic() >= deadline:
                raise Timeout(f"{what} not seen in {timeout}s; screen:\n{seen}")
            time.sleep(0.05)

    def wait_text(self, text, timeout=15):
        return self.wait_screen(lambda s: text in s, timeout, what=repr(text))

    def wait_exit(self, timeout=10):
        deadline = time.monotonic() + timeout
        while self.child.isalive():
            if time.monotonic() >= deadline:
                raise Timeout(f"the client did not exit in {timeout}s; screen:\n{self.text()}")
            time.sleep(0.02)
        self.reader.join(timeout=2)
        self.child.close()
        self.exit_status = self.child.exitstatus
        return self.exit_status

    def close(self):
        if self.child.isalive():
            self.child.kill(signal.SIGKILL)
        self.child.close(force=True)
        self.log.close()


def repl_user(world, name, server, columns=80, rows=24, env=None, extra_args=()):
    """`name` registered through a piped client, then the REPL on the same data dir, online."""
    piped = world.user(name, server.address)
    assert piped.close() == 0
    data_dir = world.tmp / "clients" / name
    repl = ScreenClient(world.client_exe, server.address, data_dir, world.logs / f"screen-{name}.log",
                        columns=columns, rows=rows, env=env, extra_args=extra_args)
    world.screens = getattr(world, "screens", []) + [repl]
    repl.wait_screen(lambda s: has_prompt(s, name), 20, what=f"{name}'s online prompt")
    return repl


def open_dm(repl, peer):
    repl.line(f"/dm {peer}")
    repl.wait_screen(lambda s: any(starts_prompt(l, peer) for l in s.split("\n")), 15,
                     what=f"the prompt of the conversation with {peer}")


def received(piped, sender, count=1, timeout=15, since=0):
    """Texts of the next `count` messages from `sender` that `piped` (a --json client) receives."""
    events = piped.events.wait_count(lambda e: e.get("type") == "message" and e.get("sender") == sender,
                                     count, timeout, since=since, what=f"{count} message(s) from {sender}")
    return [e["text"] for e in events]
