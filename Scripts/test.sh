#!/usr/bin/env bash
# Runs every test: installs missing Debian packages, then the unit and integration tests
# (swift test: protocol vectors and fuzzing, server over real sockets, client), then the
# numbered acceptance scenarios in Scripts/acceptance against real processes.
set -euo pipefail
cd "$(dirname "$0")/.."
./Scripts/install-deps.sh
swift build --build-tests
swift test --skip-build --parallel --num-workers 2 2>&1 | tee /tmp/messageai-swift-test.log | grep -vE '^(Test Case|\[)' || true
# --parallel prints no XCTest summary of its own; the exit status of swift test decides.
status=${PIPESTATUS[0]}
grep -E 'Executed|passed|failed|error:' /tmp/messageai-swift-test.log | tail -5
[ "$status" -eq 0 ] || { echo "swift test failed" >&2; exit "$status"; }
if [ -x Scripts/acceptance/run-all.sh ]; then
  Scripts/acceptance/run-all.sh
fi
