"""Several server nodes on one PostgreSQL database (issue 26), and the clients' histories for
the checker (harness/history.py), shared by scenarios 72 and 73."""
from .history import ClientHistory
from .waiting import wait_until


def start_nodes(world, database, count):
    """`count` servers on `database`, all serving node1's certificate (as README asks of
    several nodes: trust must survive a failover). Returns (nodes, the --server list, the
    client's trust flags)."""
    first = world.server(name="node1", database=database)
    flags = ("--tls-cert", f"{first.data_dir}/tls-cert.pem", "--tls-key", f"{first.data_dir}/tls-key.pem")
    nodes = [first] + [world.server(*flags, name=f"node{i}", database=database) for i in range(2, count + 1)]
    assert len({n.fingerprint for n in nodes}) == 1, "every node serves the same certificate"
    return nodes, ",".join(n.address for n in nodes), ("--tls-fingerprint", first.fingerprint)


def node_of(client, since=0):
    """The address the client's last "online" event names (the node it is connected to)."""
    online = [e for e in client.events.snapshot(since) if e.get("type") == "connection" and e.get("state") == "online"]
    return online[-1].get("server") if online else None


def conversation_id(client, name):
    return next(r["conversation_id"] for r in client.conversations() if r.get("name") == name)


def resync(client, name):
    """A member on another node is told of a conversation made elsewhere through the event log
    (a membership event), live: no reconnect. Then it opens it."""
    wait_until(lambda: any(r.get("name") == name for r in client.conversations()), 30, f"{client.name} to see {name}", interval=0.3)
    client.cmd(f"/open {name}")


def team(alice, bob, carol):
    """alice's group `team` with bob and carol, open on every member's client (told of it live
    through the log wherever they sit); returns its conversation id."""
    alice.cmd("/group create team bob carol")
    for c in (bob, carol):
        resync(c, "team")
    alice.cmd("/open team")
    return conversation_id(alice, "team")


def team_and_dm(world, alice, bob, carol, dave):
    """The load's two conversations: `team` (above) and dave's DM with bob (contacts first: a
    stranger's DM is a request). Returns (team, dm) conversation ids."""
    world.contacts(dave, bob)
    dave.cmd("/dm bob")
    return team(alice, bob, carol), conversation_id(dave, "bob")


def typed_texts(senders, per_sender):
    """What each sender types in the load: numbered, with accents and a symbol."""
    return {c.name: [f"{c.name} {i:02d} ünïcode ⚡" for i in range(per_sender)] for c in senders}


def say_rounds(senders, typed, start, stop):
    """Each sender types its lines start..stop-1, the senders in turns (interleaved sends)."""
    for i in range(start, stop):
        for c in senders:
            c.say(typed[c.name][i])


def first_half(senders, typed, marks, per_sender):
    """The first half of the load, then a wait for the first sender's first acknowledgements
    (so the fault comes in the middle of the load, not before it)."""
    say_rounds(senders, typed, 0, per_sender // 2)
    first = senders[0]
    first.events.wait_count(lambda e: e.get("type") == "state" and e.get("state") == "sent", 3, 30, marks[first.name],
                            what=f"{first.name}: first acknowledgements")


def final_histories(clients, marks, views):
    """First each client must hold every message of its conversations as it runs, by live
    pushes across nodes or gap fills (no reconnect); then it reconnects once (its SYNC reads
    the database, as a device coming back would: what was acknowledged is durable) and reads
    its final view of each conversation. views: {name: [(conversation_id, name to /open,
    messages expected)]}. The events of the first run are kept for the checker."""
    histories = []
    for c in clients:
        for cid, name, count in views[c.name]:
            c.cmd(f"/open {name}")
            c.cmd(f"/wait-messages {count} 30", timeout=40)
        before = c.events.snapshot(marks[c.name])
        c.close(timeout=40)
        c.start()
        c.wait_online(timeout=30)
        final = {}
        for cid, name, count in views[c.name]:
            c.cmd(f"/open {name}")
            c.cmd(f"/wait-messages {count} 30", timeout=40)
            final[cid] = c.full_history()
        histories.append(ClientHistory(c.name, c.name, before + c.events.snapshot(), final))
    return histories
