"""A free TCP port on loopback, for a process a test starts (a server, a cluster, a balancer)."""
import socket


def free_port(host="127.0.0.1"):
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]
