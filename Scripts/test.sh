#!/usr/bin/env bash
# Runs every test: installs missing Debian packages, builds, runs the unit and integration tests
# (swift test: protocol vectors and fuzzing, server over real sockets, client in a real pty),
# then the numbered acceptance scenarios in Scripts/acceptance against real processes.
set -uo pipefail
cd "$(dirname "$0")/.."
./Scripts/install-deps.sh || exit 1
swift build --build-tests || exit 1
log=$(mktemp -t messageai-swift-test.XXXXXX)
# The full log is long (one line per test case); show failures, figures and the summary.
swift test --skip-build 2>&1 | tee "$log" | grep -E 'error:|failed|fuzz:|figure|search latency|Executed|Test run' 
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo "swift test failed (exit $status); full log: $log" >&2
  exit "$status"
fi
if [ -x Scripts/acceptance/run-all.sh ]; then
  Scripts/acceptance/run-all.sh || exit 1
fi
