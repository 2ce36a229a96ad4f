#!/usr/bin/env bash
# Runs the product with its embedded defaults: installs missing Debian packages, builds (release),
# starts messageai-server (SQLite in ~/.local/share/messageai-server, port 7878) unless one is
# already listening there, then the messageai client in this terminal. The server stops when the
# client exits (if this script started it). Extra arguments go to the client.
# TLS: the server serves its self-signed certificate; when this script started the server it
# hands the client that certificate's fingerprint (--tls-fingerprint, from --print-fingerprint),
# so no question is asked. A server that was already running is trusted the usual way: the
# client shows its fingerprint and asks once (remembered in ~/.config/messageai/known_servers).
# The build is one `swift build` of every product, its output in .build/run-build.log, shown
# only when it fails: building each product separately re-planned and relinked every time (two
# minutes on a built tree) and printed the compiler's warnings into the user's terminal.
# RUN_BUILD=debug uses a debug build instead of release (the tests use the one they built).
set -euo pipefail
cd "$(dirname "$0")/.."
./Scripts/install-deps.sh
config=${RUN_BUILD:-release}
mkdir -p .build
build_log=.build/run-build.log
if [ ! -x ".build/$config/messageai" ]; then
  echo "building messageai ($config; the first build takes several minutes, log: $build_log)" >&2
fi
if ! swift build -c "$config" >"$build_log" 2>&1; then
  cat "$build_log" >&2
  echo "run.sh: the build failed (log: $build_log)" >&2
  exit 1
fi
bin=$(swift build -c "$config" --show-bin-path)
port=${MESSAGEAI_PORT:-7878}
server_pid=""
trust=()
if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  log=${TMPDIR:-/tmp}/messageai-server.$$.log
  "$bin/messageai-server" --port "$port" 2>"$log" &
  server_pid=$!
  trap 'kill -TERM $server_pid 2>/dev/null; wait $server_pid 2>/dev/null || true' EXIT
  for _ in $(seq 1 100); do
    grep -q "listening on" "$log" 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
  done
  echo "server started (pid $server_pid, log $log)" >&2
  case " $* " in
    *" --plaintext "*|*" --tls-fingerprint "*|*" --ca-file "*) ;;
    *) trust=(--tls-fingerprint "$("$bin/messageai-server" --print-fingerprint)") ;;
  esac
fi
"$bin/messageai" --server "127.0.0.1:$port" "${trust[@]}" "$@"
