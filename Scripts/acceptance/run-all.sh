#!/usr/bin/env bash
# Runs the numbered acceptance scenarios and chaos tests against real processes.
#   Scripts/acceptance/run-all.sh [pytest args...]     e.g. -k test_10 -x
# Environment: SKIP_BUILD=1 reuses the existing build; ACCEPTANCE_TIMEOUT caps the whole run
# (seconds, default 900); SOAK_SECONDS lengthens the soak (default 20).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  # Incremental: a no-op when Scripts/test.sh already built everything.
  swift build --product messageai-server
  swift build --product messageai
fi
MESSAGEAI_BIN_DIR="$(swift build --show-bin-path)"
export MESSAGEAI_BIN_DIR

python3 -c 'import pytest' 2>/dev/null || python3 -m pip install --quiet pytest
python3 -c 'import pexpect' 2>/dev/null || python3 -m pip install --quiet pexpect
python3 -c 'import pyte' 2>/dev/null || python3 -m pip install --quiet pyte

soak=${SOAK_SECONDS:-20}
limit=${ACCEPTANCE_TIMEOUT:-$((900 + ${soak%.*}))}
status=0
timeout --signal=TERM --kill-after=20 "$limit" \
  python3 -m pytest -q -p no:cacheprovider Scripts/acceptance "$@" || status=$?
if [ "$status" -eq 124 ]; then
  echo "acceptance suite exceeded ${limit}s" >&2
fi
exit "$status"
