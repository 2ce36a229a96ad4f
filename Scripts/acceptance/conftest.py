"""Fixtures for the acceptance suite: real server and client processes in a temp directory.

`world` starts servers and clients, and kills whatever is left at the end of each test; when a
test fails it prints the tail of every process log (the full logs stay under tmp_path/logs).

MESSAGEAI_ACCEPTANCE_DATABASE=postgres runs the same scenarios with every server on PostgreSQL:
one throw-away cluster for the session (started on first use, stopped by PID at the end), a new
database per server. run-all.sh does that for the scenarios marked `storage`."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from harness.binaries import executable  # noqa: E402
from harness.pgcluster import PostgresCluster  # noqa: E402
from harness.client import Client  # noqa: E402
from harness.proxy import Proxy  # noqa: E402
from harness.haproxy import HAProxy  # noqa: E402
from harness.server import Server  # noqa: E402
from harness import trust  # noqa: E402


BACKEND = os.environ.get("MESSAGEAI_ACCEPTANCE_DATABASE", "sqlite")
_cluster = None
_databases = 0


def session_cluster():
    """The session's PostgreSQL cluster, started on first use (on the main thread: its
    --pdeathsig follows the thread that started it)."""
    global _cluster
    if _cluster is None:
        _cluster = PostgresCluster().start()
    return _cluster


def pytest_sessionfinish(session, exitstatus):
    if _cluster is not None:
        _cluster.stop()


def pytest_collection_modifyitems(config, items):
    # On PostgreSQL only the scenarios that touch storage run (the REPL's own scenarios say
    # nothing about the backend).
    if BACKEND != "postgres":
        return
    skip = pytest.mark.skip(reason="not a storage scenario (MESSAGEAI_ACCEPTANCE_DATABASE=postgres)")
    for item in items:
        if item.get_closest_marker("storage") is None:
            item.add_marker(skip)


def new_database():
    """A new, empty database in the session cluster; the server migrates it at start."""
    global _databases
    _databases += 1
    name = f"accept{os.getpid()}_{_databases}"
    cluster = session_cluster()
    cluster.create_database(name)
    return cluster.url(name)


class World:
    def __init__(self, tmp_path, server_exe, client_exe):
        self.tmp = tmp_path
        self.server_exe = server_exe
        self.client_exe = client_exe
        self.logs = tmp_path / "logs"
        self.logs.mkdir(exist_ok=True)
        self.servers, self.clients, self.proxies = [], [], []
        self.balancers = []

    def server(self, *extra_args, name="server", start=True, database=None):
        """database: a PostgreSQL URL; None: a new database when the run is on PostgreSQL, else
        the embedded SQLite store in the data directory; "sqlite": SQLite whatever the run."""
        if database is None and BACKEND == "postgres":
            database = new_database()
        if database and database != "sqlite":
            extra_args = ("--database", database) + tuple(extra_args)
        s = Server(self.server_exe, self.tmp / name, self.logs / f"{name}.log", extra_args=extra_args)
        self.servers.append(s)
        return s.start() if start else s

    def client(self, name, address, *extra_args, start=True):
        c = Client(self.client_exe, address, self.tmp / "clients" / name, self.logs / f"client-{name}.log",
                   name, extra_args)
        self.clients.append(c)
        return c.start() if start else c

    def user(self, name, address, *extra_args):
        """A client started and registered as `name`."""
        c = self.client(name, address, *extra_args)
        c.register()
        return c

    def contacts(self, a, b):
        """Makes clients a and b accepted contacts (a asks, b accepts): a direct conversation
        between them is then no message request, so read receipts and typing flow both ways."""
        a.cmd(f"/add {b.name}")
        b.cmd(f"/accept {a.name}")

    def proxy(self, server):
        # The proxy reads frames to cut and delay them: it needs a --plaintext server.
        assert server.plaintext, "world.proxy needs a server started with --plaintext (it parses frames)"
        p = Proxy(server.host, server.port)
        trust.register(p.address, server.client_args())
        self.proxies.append(p)
        return p

    def haproxy(self, *servers, source="127.0.0.3"):
        """A real HAProxy from Packaging/haproxy.cfg in front of `servers` (TLS passes through,
        so clients trust the nodes' certificate); the nodes must trust `source`
        (`--trusted-proxy`), the address the balancer connects from."""
        workdir = self.tmp / f"haproxy{len(self.balancers) + 1}"
        workdir.mkdir()
        h = HAProxy(str(workdir), [s.address for s in servers], source=source)
        self.balancers.append(h)
        h.start()
        trust.register(h.address, servers[0].client_args())
        return h

    def teardown(self):
        for r in getattr(self, "screens", []):
            r.close()
        for c in self.clients:
            c.kill()
        for p in self.proxies:
            p.close()
        for h in self.balancers:
            h.stop()
        for s in self.servers:
            s.kill()

    def log_tails(self, lines=40):
        out = []
        for path in sorted(self.logs.glob("*.log")):
            with open(path, encoding="utf-8", errors="replace") as f:
                tail = f.readlines()[-lines:]
            out.append(f"----- {path} (last {len(tail)} lines)\n" + "".join(tail))
        return "\n".join(out)


@pytest.fixture(scope="session")
def executables():
    return executable("messageai-server"), executable("messageai")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, "rep_" + report.when, report)


@pytest.fixture
def world(tmp_path, executables, request):
    w = World(tmp_path, *executables)
    yield w
    w.teardown()
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        print("\n" + w.log_tails())


@pytest.fixture
def postgres_database():
    """A new database in the session's PostgreSQL cluster (its URL), for scenarios that run
    several servers on one database; skipped unless the run is on PostgreSQL."""
    if BACKEND != "postgres":
        pytest.skip("several servers share a database only on PostgreSQL (MESSAGEAI_ACCEPTANCE_DATABASE=postgres)")
    return new_database()


@pytest.fixture
def own_postgres(postgres_database):  # postgres_database: skipped unless the PostgreSQL pass
    """A PostgreSQL cluster of the test's own, with a database `chat`: for scenarios that
    restart it or cut a node off from it, which the session's shared cluster must not see."""
    from harness.pgcluster import PostgresCluster, require_postgres
    require_postgres()
    pg = PostgresCluster().start()
    pg.create_database("chat")
    yield pg
    pg.stop()
