"""How a client trusts each server address the harness started (TLS by default).

A server started without --plaintext serves a self-signed certificate; the harness gets its
fingerprint the way an admin would (`messageai-server --print-fingerprint`) and gives clients
`--tls-fingerprint`, so piped clients never stop at the trust question. Proxies inherit the
arguments of the server behind them."""

_ARGS = {}

TRUST_FLAGS = ("--plaintext", "--tls-fingerprint", "--ca-file")


def register(address, args):
    _ARGS[address] = list(args)


def client_args(address, extra_args=()):
    """The trust flags for `address`, unless the caller already chose some."""
    if any(a in TRUST_FLAGS for a in extra_args):
        return []
    return list(_ARGS.get(address, []))
