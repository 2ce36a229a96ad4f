"""A real `messageai-server` process: start on port 0, read its `listening on` line, kill -9, restart."""
import os
import re
import signal
import subprocess
import threading
import time

from . import trust
from .waiting import EventLog, Timeout

LISTENING = re.compile(r"listening on (\S+):(\d+)")


class Server:
    """One server data directory; the process can be killed and started again on the same port."""

    def __init__(self, exe, data_dir, log_path, host="127.0.0.1", extra_args=(), netns=None):
        self.exe = exe
        self.data_dir = str(data_dir)
        self.log_path = str(log_path)
        self.host = host
        self.extra_args = list(extra_args)
        self.netns = netns
        self.port = 0
        self.proc = None
        self.stderr = None
        self.stdout = None
        self.starts = 0
        self.plaintext = "--plaintext" in self.extra_args
        self.fingerprint = None

    def client_args(self):
        """What a client passes to trust this server: its certificate's fingerprint."""
        return ["--plaintext"] if self.plaintext else ["--tls-fingerprint", self.fingerprint]

    def print_fingerprint(self):
        """`messageai-server --print-fingerprint`: reads the certificate the running server made or serves."""
        args = [self.exe, "--host", self.host, "--data-dir", self.data_dir] + self.extra_args + ["--print-fingerprint"]
        out = subprocess.run(args, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, f"--print-fingerprint failed: {out.stderr}"
        return out.stdout.strip()

    @property
    def address(self):
        return f"{self.host}:{self.port}"

    def start(self, timeout=20):
        """Starts the process; on a restart it asks for the same port, and tries again while
        that port is briefly unavailable after a kill (the server should use SO_REUSEADDR)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self._start_once(max(1.0, deadline - time.monotonic()))
            except Timeout:
                if self.port == 0 or time.monotonic() >= deadline or self.alive():
                    raise
                time.sleep(0.2)  # the old socket is going away; nothing to wait on but time

    def _start_once(self, timeout):
        os.makedirs(self.data_dir, exist_ok=True)
        args = [self.exe, "--host", self.host, "--port", str(self.port), "--data-dir", self.data_dir]
        args += self.extra_args
        if self.netns:
            args = ["ip", "netns", "exec", self.netns] + args
        self.starts += 1
        log = open(self.log_path, "a", encoding="utf-8")
        log.write(f"=== start #{self.starts}: {' '.join(args)}\n")
        log.flush()
        self.stderr = EventLog()
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        threading.Thread(target=self._pump, args=(self.proc.stderr, log, self.stderr), daemon=True).start()
        self.stdout = EventLog()
        threading.Thread(target=self._pump, args=(self.proc.stdout, log, self.stdout, "stdout: "),
                         daemon=True).start()
        try:
            line = self.stderr.wait_for(lambda l: LISTENING.search(l), timeout,
                                        what=f"`listening on` from the server (log: {self.log_path})")
        except Timeout:
            if self.alive():
                self.kill()
            else:
                self.proc.wait()
            raise
        _, port = LISTENING.search(line).groups()
        self.port = int(port)
        if not self.plaintext and self.fingerprint is None:
            self.fingerprint = self.print_fingerprint()
        trust.register(self.address, self.client_args())
        return self

    @staticmethod
    def _pump(stream, log, events, prefix=""):
        for raw in iter(stream.readline, b""):
            text = raw.decode("utf-8", "replace").rstrip("\n")
            log.write(prefix + text + "\n")
            log.flush()
            events.append(text)
        events.close()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        """kill -9: no chance to flush or close anything."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        if self.proc:
            self.proc.wait(timeout=10)

    def terminate(self, timeout=10):
        """SIGTERM: the contract says the server exits cleanly with status 0."""
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=timeout)

    def restart(self, timeout=20):
        self.kill()
        return self.start(timeout)

    def log_tail(self, n=30):
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as f:
                return "".join(f.readlines()[-n:])
        except OSError:
            return ""
