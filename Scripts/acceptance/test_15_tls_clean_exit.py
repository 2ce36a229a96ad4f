"""Scenario 15: a client over TLS exits cleanly however its last command ends. OpenSSL's atexit
clean-up once freed its state under the network thread, and a piped `/logout` or EOF crashed the
client with SIGSEGV about one run in five: a script saw exit status 139 for work that succeeded."""


from harness.client import PASSWORD


def test_piped_clients_over_tls_exit_zero(world):
    server = world.server()
    alice = world.user("alice", server.address)
    assert alice.close() == 0
    statuses = []
    for i in range(12):
        c = world.client("alice", server.address)
        c.cmd("/whoami")
        if i % 2:
            c.cmd("/logout")
            c.cmd(f"/login alice {PASSWORD}")
        statuses.append(c.close())
    assert statuses == [0] * len(statuses), statuses
