"""The client in a real pseudo-terminal (libedit REPL), driven with pexpect."""
import os

from . import trust

try:
    import pexpect
except ImportError:  # run-all.sh installs it when missing; a lone pytest run skips pty checks
    pexpect = None


class PtyClient:
    def __init__(self, exe, server_address, data_dir, log_path, extra_args=()):
        if pexpect is None:
            raise RuntimeError("pexpect is not installed (pip install pexpect)")
        os.makedirs(data_dir, exist_ok=True)
        self.log = open(log_path, "a", encoding="utf-8")
        args = ["--server", server_address, "--data-dir", str(data_dir), "--no-bell"] + trust.client_args(server_address, extra_args) + list(extra_args)
        env = dict(os.environ, TERM="xterm", LANG="C.UTF-8", LC_ALL="C.UTF-8", HOME=str(data_dir))
        self.child = pexpect.spawn(exe, args, env=env, encoding="utf-8", codec_errors="replace",
                                   dimensions=(40, 120), timeout=15)
        self.child.logfile_read = self.log

    def line(self, text):
        self.child.send(text + "\r")

    def type(self, text):
        """Typed but not entered: stays on the edit line."""
        self.child.send(text)

    def expect(self, pattern, timeout=15):
        return self.child.expect(pattern, timeout=timeout)

    def screen_since_expect(self):
        return self.child.before

    def close(self):
        if self.child.isalive():
            self.child.kill(9)
        self.child.close(force=True)
        self.log.close()
