"""A real HAProxy (Debian's package) in TCP mode between one server node and PostgreSQL, that
the test cuts through HAProxy's stats socket (scenario 77): the server is disabled and its
sessions shut, so the node's pooled and LISTEN connections drop and new ones are closed at
once, while PostgreSQL itself and the other nodes carry on. Started in the foreground by its
PID, stopped by that PID; `--pdeathsig` stops it if the test process dies without tearing down."""
from harness.haproxy import HAProxyProcess

CONFIG = """global
    stats socket {stats} mode 600 level admin
defaults
    mode tcp
    timeout connect 2s
    timeout client 1h
    timeout server 1h
frontend database
    bind 127.0.0.1:{port}
    default_backend database
backend database
    server postgres 127.0.0.1:{target}
"""


class DatabaseForward(HAProxyProcess):
    def __init__(self, workdir, target_port):
        super().__init__(workdir, "pgforward")
        self.write(CONFIG.format(stats=self.stats, port=self.port, target=target_port))

    def url(self, database, user="postgres"):
        return f"postgres://{user}@127.0.0.1:{self.port}/{database}?sslmode=disable"

    def cut(self):
        """No new connection reaches PostgreSQL, and every open one is closed."""
        self.command("disable server database/postgres")
        self.command("shutdown sessions server database/postgres")
