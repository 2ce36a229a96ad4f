"""A degraded link with `tc netem`: the server runs in a network namespace joined to the host
by a veth pair, and netem shapes both directions. Raises LinkRefused when the kernel or tc
does not allow it (no root, no netns, no sch_netem), so the scenario can skip with the reason."""
import os
import subprocess


class LinkRefused(Exception):
    pass


class DegradedLink:
    def __init__(self, netem="delay 150ms 30ms loss 10% rate 256kbit"):
        tag = f"{os.getpid() % 100000}"
        self.ns = f"mai-acc-{tag}"
        self.host_if, self.ns_if = f"maih{tag}", f"main{tag}"
        octet = os.getpid() % 200 + 20
        self.host_ip, self.ns_ip = f"10.231.{octet}.1", f"10.231.{octet}.2"
        self.netem = netem.split()
        self.created = False

    def _run(self, *args):
        out = subprocess.run(list(args), capture_output=True, text=True, timeout=20)
        if out.returncode != 0:
            raise LinkRefused(f"`{' '.join(args)}` failed: {out.stderr.strip() or out.returncode}")

    def up(self):
        if os.geteuid() != 0:
            raise LinkRefused("network namespaces and tc need root")
        try:
            self._run("ip", "netns", "add", self.ns)
            self.created = True
            self._run("ip", "link", "add", self.host_if, "type", "veth", "peer", "name", self.ns_if)
            self._run("ip", "link", "set", self.ns_if, "netns", self.ns)
            self._run("ip", "addr", "add", f"{self.host_ip}/30", "dev", self.host_if)
            self._run("ip", "link", "set", self.host_if, "up")
            ns = ("ip", "netns", "exec", self.ns)
            self._run(*ns, "ip", "addr", "add", f"{self.ns_ip}/30", "dev", self.ns_if)
            self._run(*ns, "ip", "link", "set", self.ns_if, "up")
            self._run(*ns, "ip", "link", "set", "lo", "up")
            self._run("tc", "qdisc", "add", "dev", self.host_if, "root", "netem", *self.netem)
            self._run(*ns, "tc", "qdisc", "add", "dev", self.ns_if, "root", "netem", *self.netem)
        except (LinkRefused, FileNotFoundError, subprocess.TimeoutExpired) as refused:
            self.down()
            raise LinkRefused(str(refused))
        return self

    def down(self):
        if not self.created:
            return
        subprocess.run(["ip", "link", "del", self.host_if], capture_output=True, timeout=20)
        subprocess.run(["ip", "netns", "del", self.ns], capture_output=True, timeout=20)
        self.created = False
