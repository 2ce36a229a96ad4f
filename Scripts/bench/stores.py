#!/usr/bin/env python3
"""SQLite beside PostgreSQL from one `Scripts/bench.sh --database postgres` run: medians over the
alternated rounds of each store, the pgbench floor, and issue 25's targets as ratios. Figures are
printed, never asserted.

usage: stores.py OURS.txt   (markdown on stdout)
"""
import re
import statistics
import sys
from collections import defaultdict


def kv(line):
    return {k: v.strip('"') for k, v in re.findall(r'(\w+)=("[^"]*"|\S+)', line)}


def med(values):
    values = [v for v in values if v == v]
    return statistics.median(values) if values else float("nan")


def num(v, digits=1):
    return "n/a" if v != v else f"{v:,.{digits}f}"


def figures(rows):
    """p50/p99 (µs), throughput and CPU per unit (µs) of a workload's rows, as medians."""
    def field(name):
        return med([float(r[name]) for r in rows if r.get(name, "na") not in ("na", "")])
    unit = next((k[:-6] for k in rows[0] if k.endswith("_per_s")), "msgs")
    per = lambda key: med([float(r[key]) * 1e6 / float(r[unit]) for r in rows
                           if r.get(key, "na") not in ("na", "") and float(r.get(unit, 0)) > 0])
    return {"unit": unit, "p50": field("p50_us"), "p99": field("p99_us"), "rate": field(unit + "_per_s"),
            "cpu": per("server_cpu_s"), "db": per("db_cpu_s"), "runs": len(rows)}


def main(path):
    rows = defaultdict(list)
    floor = {}
    for line in open(path):
        if not line.startswith("RESULT workload="):
            continue
        d = kv(line)
        if d["workload"] == "FLOOR":
            floor.setdefault(int(d["clients"]), []).append(d)
        else:
            rows[(d["workload"], d.get("store", "sqlite"))].append(d)
    print("\n## SQLite and PostgreSQL, same run (medians over alternated rounds)\n")
    print("| workload | store | runs | p50 µs | p99 µs | throughput | server CPU µs/unit | PostgreSQL CPU µs/unit |")
    print("|---|---|---|---|---|---|---|---|")
    got = {}
    for w in sorted({w for w, _ in rows}):
        for store in ("sqlite", "postgres"):
            if (w, store) not in rows:
                continue
            f = got[(w, store)] = figures(rows[(w, store)])
            print(f"| {w} | {store} | {f['runs']} | {num(f['p50'])} | {num(f['p99'])} | {num(f['rate'], 0)} {f['unit']}/s"
                  f" | {num(f['cpu'])} | {num(f['db']) if store == 'postgres' else '—'} |")
    for c, rs in sorted(floor.items()):
        tps = med([float(r["tps"]) for r in rs if r.get("tps")])
        lat = med([float(r["latency_avg_ms"]) for r in rs if r.get("latency_avg_ms")])
        print(f"| pgbench floor | postgres | {len(rs)} | {num(lat * 1000)} (mean) | | {num(tps, 0)} tx/s | | ({c} client{'s' if c > 1 else ''}) |")

    print("\n### Issue 25's targets, as ratios from this run\n")
    w1p, w0p, w1s = got.get(("W1", "postgres")), got.get(("W0", "postgres")), got.get(("W1", "sqlite"))
    one = floor.get(1)
    if w1p and w0p and one:
        floor_us = med([float(r["latency_avg_ms"]) for r in one]) * 1000
        over = w1p["p50"] - w0p["p50"]
        print(f"- W1 p50 on PostgreSQL minus W0 p50: {num(over)} µs; the floor's transaction: {num(floor_us)} µs;"
              f" ratio {num(over / floor_us, 2)} (target ≤ 1.5)")
    if w1p and w1s:
        print(f"- W1 server CPU per message, PostgreSQL / SQLite: {num(w1p['cpu'])} / {num(w1s['cpu'])} µs ="
              f" {num(w1p['cpu'] / w1s['cpu'], 2)} (target ≤ 1.0); PostgreSQL's own: {num(w1p['db'])} µs")
    w2p, w2s = got.get(("W2", "postgres")), got.get(("W2", "sqlite"))
    if w2p and w2s:
        print(f"- W2 deliveries/s, PostgreSQL / SQLite: {num(w2p['rate'], 0)} / {num(w2s['rate'], 0)} ="
              f" {num(w2p['rate'] / w2s['rate'], 2)} (target ≥ 0.8)")
    x1, x2 = got.get(("X1", "postgres")), got.get(("X2", "postgres"))
    if x1 or x2:
        print("\n### Issue 26's targets (two nodes on one PostgreSQL), as ratios from this run\n")
    if x1 and w1p:
        print(f"- X1 (cross-node W1) p50 minus W1 p50 on one PostgreSQL node: {num(x1['p50'] - w1p['p50'])} µs"
              f" (target ≤ 1,000); p99 {num(x1['p99'])} against {num(w1p['p99'])} µs")
    if x2 and w2p:
        print(f"- X2 (W2 over two nodes) / W2 on one node, deliveries/s: {num(x2['rate'], 0)} / {num(w2p['rate'], 0)} ="
              f" {num(x2['rate'] / w2p['rate'], 2)} (target ≥ 1.0, over three nodes)")
    for name, rows_ in (("X1", rows.get(("X1", "postgres"))), ("X2", rows.get(("X2", "postgres")))):
        if not rows_:
            continue
        keys = [k for k in rows_[0] if k.endswith("_cpu_us_per_msg")]
        shares = ", ".join(f"{k[:-len('_cpu_us_per_msg')]} {num(med([float(r[k]) for r in rows_ if k in r]))}" for k in keys)
        print(f"- {name}: CPU µs per message by node (node1 commits X1's; idle nodes only read the log): {shares}")


if __name__ == "__main__":
    main(sys.argv[1])
