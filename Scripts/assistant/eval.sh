#!/usr/bin/env bash
# Builds messageai-assist, runs the local engine on the labelled sets in Scripts/assistant/data
# (dev, heldout, then fresh) and prints the scorer's figures per task against ASSISTANT.md's
# targets.
# Prints figures only: fails when a command fails, never because a score misses its target.
#   Scripts/assistant/eval.sh [--engine local] [SET...]
set -euo pipefail
cd "$(dirname "$0")/../.."
engine=local
sets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --engine) engine="$2"; shift 2 ;;
    *) sets+=("$1"); shift ;;
  esac
done
[ ${#sets[@]} -gt 0 ] || sets=(dev heldout fresh)
swift build --product messageai-assist >/dev/null
bin="$(swift build --show-bin-path)/messageai-assist"
out=$(mktemp -d -t messageai-assist-eval.XXXXXX)
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
