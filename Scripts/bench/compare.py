#!/usr/bin/env python3
"""Side-by-side figures: messageai-bench RESULT lines (ours) against chatbench RESULT lines
(peers, same run), as medians over runs, with ratios and the targets of issue 7.

usage: compare.py OURS.txt [PEERS_RESULTS.txt]   (markdown on stdout)
"""
import re
import statistics
import sys
from collections import defaultdict

PEERS = ["nats", "ngircd", "inspircd", "redis"]


def kv(line):
    return {k: v.strip('"') for k, v in re.findall(r'(\w+)=("[^"]*"|\S+)', line)}


def med(rows, key):
    vals = [float(r[key]) for r in rows if key in r and r[key] not in ("na", "")]
    return statistics.median(vals) if vals else float("nan")


def load_ours(path):
    out = defaultdict(list)
    for line in open(path):
        if line.startswith("RESULT workload="):
            d = kv(line)
            if d.get("store", "sqlite") != "sqlite":
                continue  # PostgreSQL's rows are stores.py's (bench.sh --database postgres)
            out[d["workload"]].append(d)
    return out


def load_floor(path):
    """The loopback round trip measured by chatbench's `floor` (median p50/p99 over runs)."""
    p50, p99 = [], []
    if path:
        for line in open(path):
            if line.startswith("FLOOR tcp_rtt_cross_core_64B_us"):
                d = kv(line)
                p50.append(float(d["p50"])); p99.append(float(d["p99"]))
    return (statistics.median(p50) if p50 else float("nan"), statistics.median(p99) if p99 else float("nan"))


def load_peers(path):
    out = defaultdict(list)  # (peer, workload, quickack) -> rows; main W2 only (window 10)
    if not path:
        return out
    for line in open(path):
        if line.startswith("RESULT label="):
            d = kv(line)
            if d.get("workload") == "w2" and d.get("window") != "10":
                continue
            out[(d["label"], d["workload"].upper(), d.get("quickack", "0"))].append(d)
    return out


def num(v, digits=1):
    return "n/a" if v != v else f"{v:,.{digits}f}"


def verdict(ok):
    return "n/a" if ok is None else ("**met**" if ok else "**missed**")


def main(ours_path, peers_path=None):
    ours, peers = load_ours(ours_path), load_peers(peers_path)
    present = [p for p in PEERS if any(k[0] == p for k in peers)]

    def peer(p, w, key, q="0"):
        return med(peers.get((p, w, q), []), key)

    runs = max((len(v) for v in ours.values()), default=0)
    print(f"Medians of {runs} run(s) of messageai-bench" + (f" and of chatbench against {', '.join(present)}" if present else "") + ".\n")
    head = "| figure | messageai | " + " | ".join(present) + " | messageai / best peer | target | |"
    sep = "|---" * (4 + len(present)) + "|---|"

    rtt50, rtt99 = load_floor(peers_path)
    w0 = ours.get("W0", [])
    if w0 or rtt50 == rtt50:
        print("### Floors: one round trip\n")
        print("| figure | p50 µs | p99 µs | server CPU µs each |"); print("|---|---|---|---|")
        if rtt50 == rtt50:
            print(f"| loopback TCP round trip, 64 B (chatbench `floor`, no server) | {num(rtt50)} | {num(rtt99)} | |")
        if w0:
            print(f"| W0 messageai PING → PONG (no store) | {num(med(w0, 'p50_us'))} | {num(med(w0, 'p99_us'))} | "
                  f"{num(statistics.median(float(r['server_cpu_s']) * 1e6 / float(r['pings']) for r in w0) if all(r.get('server_cpu_s', 'na') != 'na' for r in w0) else float('nan'))} |")
        print()

    print("### W1 1:1 latency, W2 group fan-out, W3 idle connections\n")
    print(head); print(sep)

    def row(name, w, key, pkey, best, target, ok, digits=1, scale=1.0):
        o = med(ours.get(w, []), key) * scale
        vals = [peer(p, w, pkey) * scale for p in present]
        finite = [v for v in vals if v == v]
        b = (min(finite) if best == "min" else max(finite)) if finite else float("nan")
        ratio = o / b if b == b and b else float("nan")
        print(f"| {name} | {num(o, digits)} | " + " | ".join(num(v, digits) for v in vals)
              + f" | {num(ratio, 2)} | {target} | {verdict(ok(o, b))} |")

    row("W1 p50 µs", "W1", "p50_us", "p50_us", "min", "≤ best peer", lambda o, b: None if o != o or b != b else o <= b)
    row("W1 p99 µs", "W1", "p99_us", "p99_us", "min", "< 100 µs", lambda o, b: None if o != o else o < 100)
    row("W1 p999 µs", "W1", "p999_us", "p999_us", "min", "", lambda o, b: None)
    row("W1 msgs/s", "W1", "msgs_per_s", "msgs_per_s", "max", "", lambda o, b: None, 0)
    nats_w2 = peer("nats", "W2", "deliveries_per_s")
    def per_unit(rows, count_key):
        vals = [float(r["server_cpu_s"]) * 1e6 / float(r[count_key]) for r in rows
                if r.get("server_cpu_s", "na") != "na" and float(r.get(count_key, 0) or 0) > 0]
        return statistics.median(vals) if vals else float("nan")

    def cpu_row(name, w, ours_key, peer_key, digits):
        o = per_unit(ours.get(w, []), ours_key)
        vals = [per_unit(peers.get((p, w, "0"), []), peer_key) for p in present]
        finite = [v for v in vals if v == v]
        ratio = o / min(finite) if finite and min(finite) > 0 and o == o else float("nan")
        print(f"| {name} | {num(o, digits)} | " + " | ".join(num(v, digits) for v in vals) + f" | {num(ratio, 2)} | | |")

    cpu_row("W1 server CPU µs per message", "W1", "msgs", "msgs", 1)
    row("W2 deliveries/s", "W2", "deliveries_per_s", "deliveries_per_s", "max", "≥ nats",
        lambda o, b: None if o != o or nats_w2 != nats_w2 else o >= nats_w2, 0)
    row("W2 p50 µs", "W2", "p50_us", "p50_us", "min", "", lambda o, b: None, 0)
    row("W2 p99 µs", "W2", "p99_us", "p99_us", "min", "< 6,000 µs", lambda o, b: None if o != o else o < 6000, 0)
    row("W2 p999 µs", "W2", "p999_us", "p999_us", "min", "", lambda o, b: None, 0)
    cpu_row("W2 server CPU µs per delivery", "W2", "deliveries", "deliveries", 2)
    row("W3 RSS per conn B", "W3", "rss_per_conn_B", "rss_per_conn_B", "min", "≤ 2,048 B", lambda o, b: None if o != o else o <= 2048, 0)
    row("W3 logins/s", "W3", "logins_per_s", "reg_per_s", "max", "", lambda o, b: None, 0)

    if present:
        print("\nW2 with TCP_QUICKACK in the generator (`-Q`, peers only; shows the Nagle × delayed-ACK stall of the IRC servers):\n")
        print("| peer | deliveries/s | p99 µs |"); print("|---|---|---|")
        for p in present:
            print(f"| {p} | {num(peer(p, 'W2', 'deliveries_per_s', '1'), 0)} | {num(peer(p, 'W2', 'p99_us', '1'), 0)} |")

    print("\n### W4 offline sync and W5 search (no peer stores messages)\n")
    print("| figure | messageai | target | |"); print("|---|---|---|---|")
    w4, w5 = ours.get("W4", []), ours.get("W5", [])
    t = med(w4, "p50_us") / 1000
    print(f"| W4 time to SYNC_DONE, zlib, p50 ms | {num(t, 1)} | < 100 ms | {verdict(None if t != t else t < 100)} |")
    print(f"| W4 time to SYNC_DONE, no zlib, p50 ms | {num(med(w4, 'plain_p50_us') / 1000, 1)} | | |")
    r = med(w4, "compression_ratio")
    print(f"| W4 bytes without / with zlib | {num(med(w4, 'bytes_plain'), 0)} / {num(med(w4, 'bytes_zlib'), 0)} = {num(r, 2)}× | ≥ 3× | {verdict(None if r != r else r >= 3)} |")
    p50, p99 = med(w5, "p50_us") / 1000, med(w5, "p99_us") / 1000
    print(f"| W5 SEARCH p50 ms | {num(p50, 2)} | | |")
    print(f"| W5 SEARCH p99 ms | {num(p99, 2)} | < 20 ms | {verdict(None if p99 != p99 else p99 < 20)} |")

    w6 = sorted(w for w in ours if w.startswith("W6-"))
    w7 = sorted(w for w in ours if w.startswith("W7-"))
    if w6 or w7:
        print("\n### W6 flood and W7 slow pre-login connections (issue 15)\n")
        print("| figure | messageai | target | |"); print("|---|---|---|---|")
        for w in sorted(w6, key=lambda w: int(w[3:])):
            rows, n = ours[w], w[3:]
            h99, m99 = med(rows, "p99_us") / 1000, med(rows, "msg_rtt_p99_us") / 1000
            ok = (lambda v: None if v != v else v < 100) if n == "8" else (lambda v: None)
            print(f"| W6 {n} flooders: newcomer HELLO → WELCOME p99 ms | {num(h99, 2)} | {'< 100 ms' if n == '8' else ''} | {verdict(ok(h99))} |")
            print(f"| W6 {n} flooders: message round trip p99 ms | {num(m99, 2)} | {'< 100 ms' if n == '8' else ''} | {verdict(ok(m99))} |")
        for w in w7:
            rows = ours[w]
            b = med(rows, "rss_per_conn_B")
            print(f"| {w} RSS per slow connection B | {num(b, 0)} | < 65,536 B | {verdict(None if b != b else b < 65536)} |")
            print(f"| {w} closed after, max s | {num(med(rows, 'max_us') / 1e6, 2)} | within the deadline | |")

    print("\n### Server and generator CPU (medians)\n")
    print("| workload | server CPU s | generator CPU s | wall s | server RSS MiB at end | complete |"); print("|---|---|---|---|---|---|")
    for w in sorted(ours):
        rows = ours[w]
        done = sum(1 for x in rows if x.get("complete") == "1")
        print(f"| {w} | {num(med(rows, 'server_cpu_s'), 2)} | {num(med(rows, 'gen_cpu_s'), 2)} | {num(med(rows, 'secs'), 2)} | "
              f"{num(med(rows, 'server_rss_kb') / 1024, 1)} | {done}/{len(rows)} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
