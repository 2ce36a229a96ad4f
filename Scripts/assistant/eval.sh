#!/usr/bin/env bash
# Builds messageai-assist, runs the local engine on the labelled sets in Scripts/assistant/data
# (dev, dev2, dev3, dev4, dev5, dev6, heldout, fresh, then the blind sets blind, blind2, blind5 and blind6) and prints the scorer's figures per task against
# ASSISTANT.md's targets.
# Prints figures only: fails when a command fails, never because a score misses its target.
#   Scripts/assistant/eval.sh [--engine local] [--bin PATH] [--out DIR] [SET...]
# --bin scores a binary kept aside (an engine before a change) instead of building this tree's;
# --out keeps the predictions in DIR as SET.pred.jsonl (for miss_by_rule.py --pred-dir DIR).
# The blind set is read only as these totals and miss_by_rule.py's counts, never line by line.
set -euo pipefail
cd "$(dirname "$0")/../.."
engine=local
bin=""
out=""
sets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --engine) engine="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) sets+=("$1"); shift ;;
  esac
done
[ ${#sets[@]} -gt 0 ] || sets=(dev dev2 dev3 dev4 dev5 dev6 heldout fresh blind blind2 blind5 blind6)
if [ -z "$bin" ]; then
  swift build --product messageai-assist >/dev/null
  bin="$(swift build --show-bin-path)/messageai-assist"
fi
[ -n "$out" ] || out=$(mktemp -d -t messageai-assist-eval.XXXXXX)
mkdir -p "$out"
data=Scripts/assistant/data
for set in "${sets[@]}"; do
  if [ ! -f "$data/$set.jsonl" ] || [ ! -f "$data/$set.gold.jsonl" ]; then
    echo "assistant eval: no $data/$set.jsonl with its gold file, skipped"
    continue
  fi
  "$bin" eval "$data/$set.jsonl" --engine "$engine" > "$out/$set.pred.jsonl"
  echo "=== assistant eval: $set ($engine engine; predictions in $out/$set.pred.jsonl)"
  python3 Scripts/assistant/score.py --inputs "$data/$set.jsonl" --gold "$data/$set.gold.jsonl" --pred "$out/$set.pred.jsonl"
done
