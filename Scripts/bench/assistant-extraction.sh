#!/usr/bin/env bash
# The assistant's extraction on the server's message path: W1 and W2 with extraction off and
# on, alternating in the same run (off, on, off, on), with the same release server binary.
#
#   Scripts/bench/assistant-extraction.sh            # release build, 2 rounds, short counts
# Env: ROUNDS (2), W1 (3000 messages), W2_MEMBERS (50), W2_MESSAGES (10000), TLIMIT (60 s).
# Prints the RESULT lines of every run and a table of on/off ratios (compare.py-style medians).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-2}
W1=${W1:-3000}
W2_MEMBERS=${W2_MEMBERS:-50}
W2_MESSAGES=${W2_MESSAGES:-10000}
TLIMIT=${TLIMIT:-60}
swift build -c release --product messageai-server >&2
swift build -c release --product messageai-bench >&2
BIN=$(swift build -c release --show-bin-path)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for r in $(seq 1 "$ROUNDS"); do
  for mode in off on; do
    echo "== round $r, --assistant-extract $mode" >&2
    # --server-arg replaces the bench's defaults, so they are repeated here.
    "$BIN/messageai-bench" --workloads w1,w2 --server-cpu "" -T "$TLIMIT" \
      --w1-messages "$W1" --w2-members "$W2_MEMBERS" --w2-messages "$W2_MESSAGES" \
      --server-arg=--rate-limit --server-arg=100000000 --server-arg=--idle-timeout --server-arg=3600 \
      --server-arg=--register-limit --server-arg=0 --server-arg=--assistant-extract --server-arg="$mode" \
      | tee "$OUT/$mode-$r.txt" | grep '^RESULT' | sed "s/^/$mode /"
  done
done
python3 - "$OUT" <<'PY'
import pathlib, re, statistics, sys
out = pathlib.Path(sys.argv[1])
vals = {}
for f in out.glob("*.txt"):
    mode = f.name.split("-")[0]
    for line in f.read_text().splitlines():
        if not line.startswith("RESULT"):
            continue
        fields = dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)
        w = fields.get("workload", "?")
        for k, v in fields.items():
            try:
                x = float(v)
            except ValueError:
                continue
            vals.setdefault((w, k), {}).setdefault(mode, []).append(x)
KEEP = ["p50_us", "p99_us", "p999_us", "msgs_per_s", "deliveries_per_s", "server_cpu_s", "server_rss_kb"]
print(f"{'workload':8} {'figure':28} {'off (median)':>14} {'on (median)':>14} {'on/off':>8}")
for (w, k), m in sorted(vals.items()):
    if "off" in m and "on" in m and k in KEEP:
        a, b = statistics.median(m["off"]), statistics.median(m["on"])
        print(f"{w:8} {k:28} {a:14.1f} {b:14.1f} {(b / a if a else float('nan')):8.3f}")
PY
