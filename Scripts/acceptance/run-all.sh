#!/usr/bin/env bash
# Runs the numbered acceptance scenarios and chaos tests against real processes.
#   Scripts/acceptance/run-all.sh [pytest args...]     e.g. -k test_10 -x
# Two passes: every scenario on the embedded SQLite store, then the scenarios marked `storage`
# again with every server on PostgreSQL (a throw-away cluster, stopped by PID at the end).
# Environment: SKIP_BUILD=1 reuses the existing build; ACCEPTANCE_TIMEOUT caps the first pass
# (seconds, default 1200) and ACCEPTANCE_PG_TIMEOUT the second (default 600); SOAK_SECONDS
# lengthens the soak (default 20); ACCEPTANCE_DATABASES=sqlite skips the PostgreSQL pass.
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
limit=${ACCEPTANCE_TIMEOUT:-$((1200 + ${soak%.*}))}
status=0
timeout --signal=TERM --kill-after=20 "$limit" \
  python3 -m pytest -q -p no:cacheprovider Scripts/acceptance "$@" || status=$?
if [ "$status" -eq 124 ]; then
  echo "acceptance suite exceeded ${limit}s" >&2
fi
[ "$status" -eq 0 ] || exit "$status"

case "${ACCEPTANCE_DATABASES:-sqlite,postgres}" in *postgres*) ;; *) exit 0 ;; esac
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 && [ -z "${MESSAGEAI_PG_BIN:-}" ]; then
  # CI installs it (install-deps.sh --tests); a developer without it is told, not failed.
  [ -z "${CI:-}" ] || { echo "PostgreSQL is not installed: the storage scenarios cannot run on it" >&2; exit 1; }
  echo "acceptance: PostgreSQL not installed, storage scenarios not run on it (Scripts/install-deps.sh --tests)" >&2
  exit 0
fi
echo "acceptance: the storage scenarios again, on PostgreSQL"
pg_limit=${ACCEPTANCE_PG_TIMEOUT:-$((600 + ${soak%.*}))}
timeout --signal=TERM --kill-after=20 "$pg_limit" env MESSAGEAI_ACCEPTANCE_DATABASE=postgres \
  python3 -m pytest -q -p no:cacheprovider -m storage Scripts/acceptance "$@" || status=$?
if [ "$status" -eq 124 ]; then
  echo "acceptance suite on PostgreSQL exceeded ${pg_limit}s" >&2
fi
exit "$status"
