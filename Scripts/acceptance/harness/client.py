"""A real `messageai` client in piped mode with --json: one JSON object per stdout line.

Each user gets its own --data-dir, so a user's client can be killed and started again on
the same local store and outbox. Results are matched to the command that asked for them."""
import json
import os
import signal
import subprocess
import threading

from . import trust
from .waiting import EventLog, Timeout

# Commands whose result has its own type; every other command answers {"type":"ok","command":...}.
# All of them here, not added by the scenarios that use them: a scenario run on its own (by its
# file) imports no other scenario, and waited for an "ok" that never came (a prompt /actions
# answer read as a 15 s timeout, slow78).
RESULT_TYPES = {
    "/list": "conversations", "/history": "history", "/find": "search", "/queue": "queue",
    "/info": "info", "/search": "users", "/contacts": "contacts", "/profile": "profile",
    "/whoami": "whoami", "/group members": "members", "/help": "help", "/server": "server",
    "/requests": "requests", "/blocked": "blocked", "/check mode": "check_mode", "/unread": "unread", "/mentions": "mentions", "/save": "saved",
    "/sessions": "sessions",
    "/summary": "summary", "/actions": "actions", "/decisions": "decisions", "/done": "assistant_item",
    "/undo": "assistant_item", "/rewrite": "rewrite", "/assistant": "assistant_settings", "/check": "check",
    "/catchup": "catchup",
}
PASSWORD = "correct-horse-42"
# Longer than the client's own bound on a server command (up to 5 s for a connection, then 15 s
# for the answer): a server that never answers shows as the client's `timeout` error, and only a
# client that never finished the command as a harness Timeout (at 15 s the two could not be told
# apart, flake50).
CMD_TIMEOUT = 25
# The client accepts /history N up to 500 (CONTRACT.md names no bound); larger runs stay below it.
HISTORY_MAX = 500
SERVER_ERROR_CODES = {"username_taken", "email_taken", "invalid_username", "invalid_email",
                      "weak_password", "throttled", "invalid_credentials"}


class CommandFailed(AssertionError):
    def __init__(self, line, event):
        super().__init__(f"{line!r} failed: {event}")
        self.event = event


def _command_word(value):
    word = (value or "").split()[0] if (value or "").split() else ""
    return word if word.startswith("/") else "/" + word


class Client:
    def __init__(self, exe, server_address, data_dir, log_path, name, extra_args=()):
        self.exe = exe
        self.server_address = server_address
        self.data_dir = str(data_dir)
        self.log_path = str(log_path)
        self.name = name
        self.extra_args = list(extra_args)
        self.proc = None
        self.events = EventLog()
        self.stderr = EventLog()
        self.starts = 0

    # --- process -------------------------------------------------------------------------
    def start(self):
        os.makedirs(self.data_dir, exist_ok=True)
        args = [self.exe, "--server", self.server_address, "--data-dir", self.data_dir, "--json",
                "--no-bell"] + trust.client_args(self.server_address, self.extra_args) + self.extra_args
        self.starts += 1
        self.events = EventLog()
        self.stderr = EventLog()
        log = open(self.log_path, "a", encoding="utf-8")
        log.write(f"=== start #{self.starts}: {' '.join(args)}\n")
        log.flush()
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        threading.Thread(target=self._read_stdout, args=(self.proc.stdout, log, self.events),
                         daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(self.proc.stderr, log, self.stderr),
                         daemon=True).start()
        return self

    @staticmethod
    def _read_stdout(stream, log, events):
        for raw in iter(stream.readline, b""):
            text = raw.decode("utf-8", "replace").rstrip("\n")
            log.write("out: " + text + "\n")
            log.flush()
            try:
                event = json.loads(text)
                if not isinstance(event, dict):
                    event = {"type": "_raw", "line": text}
            except ValueError:
                event = {"type": "_raw", "line": text}
            events.append(event)
        events.close()

    @staticmethod
    def _read_stderr(stream, log, events):
        for raw in iter(stream.readline, b""):
            text = raw.decode("utf-8", "replace").rstrip("\n")
            log.write("err: " + text + "\n")
            log.flush()
            events.append(text)
        events.close()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def write(self, line):
        self.proc.stdin.write((line + "\n").encode("utf-8"))
        self.proc.stdin.flush()

    def kill(self):
        """kill -9: the outbox and local store must survive on their own."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        if self.proc:
            self.proc.wait(timeout=10)

    def close(self, timeout=30):
        """EOF on stdin: the client drains its outbox (up to --drain-timeout) and exits."""
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise Timeout(f"{self.name}: client did not exit {timeout}s after EOF")

    def restart(self):
        self.kill()
        return self.start()

    # --- commands ------------------------------------------------------------------------
    def cmd(self, line, timeout=CMD_TIMEOUT, expect_error=False):
        """Writes one command line and returns its result event (or its error event when
        expect_error). Commands run one after another, so the first matching event after
        the write is this command's answer."""
        word = _command_word(line)
        words = line.split()
        want = RESULT_TYPES.get(" ".join(words[:2]).lower(), RESULT_TYPES.get(word, "ok"))
        since = len(self.events)
        self.write(line)

        def answers(e):
            if e.get("type") == "error":
                # Errors without a command are asynchronous (sync, a refused send), not answers.
                return bool(e.get("command")) and _command_word(e.get("command")) == word
            if e.get("type") != want:
                return False
            return want != "ok" or _command_word(e.get("command")) == word

        event = self.events.wait_for(answers, timeout, since, what=f"{self.name}: answer to {line[:60]!r}")
        if (event.get("type") == "error") != expect_error:
            if expect_error:
                raise AssertionError(f"{self.name}: {line!r} should have failed, got {event}")
            raise CommandFailed(line, event)
        return event

    def say(self, text):
        """Plain text: a message to the current conversation (queued when offline)."""
        assert not text.startswith("/"), text
        self.write(text)

    def wait_event(self, predicate, timeout=15, since=0, what="event"):
        return self.events.wait_for(predicate, timeout, since, what=f"{self.name}: {what}")

    def wait_online(self, timeout=20, since=0):
        return self.wait_event(lambda e: e.get("type") == "connection" and e.get("state") == "online",
                               timeout, since, what="connection online")

    def wait_offline(self, timeout=15, since=0):
        """Until the client has noticed its connection ended (after `since`): a command written
        before that may go out on the dying connection and fail with connection_lost instead of
        being answered from the cache (flake50: 1 PostgreSQL run in 45 of scenario 50)."""
        return self.wait_event(lambda e: e.get("type") == "connection" and e.get("state") == "offline",
                               timeout, since, what="connection offline")

    def of_type(self, kind, since=0):
        return [e for e in self.events.snapshot(since) if e.get("type") == kind]

    # --- accounts and conversations -------------------------------------------------------
    def register(self, username=None, timeout=20):
        """Registers (and so logs in). A client may still be connecting when it starts; a
        client-side refusal then is retried once the connection is online."""
        username = username or self.name
        line = f"/register {username}@example.test {username} {PASSWORD} {username.title()}"
        try:
            return self.cmd(line, timeout)
        except CommandFailed as failure:
            if failure.event.get("code") in SERVER_ERROR_CODES:
                raise
            self.wait_online(timeout)
            return self.cmd(line, timeout)

    def history(self, n=HISTORY_MAX, timeout=15):
        """The last n messages of the current conversation, oldest first (and, with seq 0 and
        state "sending", what is still in the outbox)."""
        return self.cmd(f"/history {min(n, HISTORY_MAX)}", timeout)["messages"]

    def full_history(self, timeout=15):
        """Every stored message of the current conversation, oldest first, read backwards in
        pages of HISTORY_MAX (`/history N before #SEQ`): a long load holds more than one page."""
        rows = [r for r in self.history(timeout=timeout) if r.get("seq")]
        while rows and rows[0]["seq"] > 1:
            page = self.cmd(f"/history {HISTORY_MAX} before #{rows[0]['seq']}", timeout)["messages"]
            page = [r for r in page if r.get("seq") and r["seq"] < rows[0]["seq"]]
            if not page:
                break
            rows = page + rows
        return rows

    def conversations(self, timeout=15):
        return self.cmd("/list", timeout)["conversations"]

    def queue(self, timeout=15):
        return self.cmd("/queue", timeout)["messages"]

    def states(self, since=0):
        """client_id -> list of states in the order the client reported them."""
        out = {}
        for e in self.of_type("state", since):
            out.setdefault(e.get("client_id"), []).append(e.get("state"))
        return out

    def stderr_text(self):
        return "\n".join(self.stderr.snapshot())
