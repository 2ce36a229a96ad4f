"""Three nodes behind a real HAProxy (issue 26, scenarios 75 and 76): the nodes trust the
balancer's address for the PROXY protocol and serve one certificate; `admin online` tells
which node a client landed on (through the balancer every client shows one address)."""
import subprocess

BALANCER = "127.0.0.3"  # where HAProxy connects to the nodes from


def start_balanced_nodes(world, database, count=3):
    first = world.server("--trusted-proxy", BALANCER, name="node1", database=database)
    flags = ("--trusted-proxy", BALANCER, "--tls-cert", f"{first.data_dir}/tls-cert.pem",
             "--tls-key", f"{first.data_dir}/tls-key.pem")
    nodes = [first] + [world.server(*flags, name=f"node{i}", database=database) for i in range(2, count + 1)]
    assert len({n.fingerprint for n in nodes}) == 1, "every node serves the same certificate"
    return nodes


def online_users(world, node):
    """The usernames with a connection on `node` (its admin socket's `online`)."""
    r = subprocess.run([world.server_exe, "admin", "--data-dir", node.data_dir, "online"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return {line.split()[0] for line in r.stdout.splitlines()[1:] if line.strip()}


def where(world, nodes, username):
    """The nodes (by name index, 0-based) holding a connection of `username`."""
    return [i for i, n in enumerate(nodes) if username in online_users(world, n)]
