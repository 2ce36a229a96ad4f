"""Runs a command in a new pseudo-terminal (80x24) and exits with its status: libedit only
edits on a terminal. Used by Scripts/asan.sh for the libedit harness under valgrind."""
import fcntl
import os
import pty
import struct
import sys
import termios

pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
while True:
    try:
        if not os.read(fd, 65536):
            break
    except OSError:  # the child closed the terminal
        break
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)
