#!/usr/bin/env bash
# Builds MathAloud and its tests and runs the whole test suite (Swift Testing and XCTest).
# The exit status is the test result. Run from anywhere: scripts/test.sh [extra `swift test` args]
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh

# The alphabet table is generated from Unicode data (scripts/generate-alphabets.py); it must be current.
if command -v python3 >/dev/null; then
  echo "test.sh: python3 scripts/generate-alphabets.py --check"
  python3 scripts/generate-alphabets.py --check
fi

echo "test.sh: swift build --build-tests"
swift build --build-tests

# The API reference is generated from the doc comments (scripts/api-docs.sh); it must be current
# (about 12 s after the build above: the symbol graphs of the built modules).
echo "test.sh: scripts/api-docs.sh --check"
./scripts/api-docs.sh --check

# Plain `swift test` (no --parallel): Swift Testing already runs its tests in parallel in-process,
# and it reports both Swift Testing and XCTest results in one run with a correct exit status.
echo "test.sh: swift test --skip-build"
status=0
swift test --skip-build "$@" || status=$?
if [[ $status -ne 0 ]]; then
  echo "test.sh: tests FAILED (exit $status)" >&2
else
  echo "test.sh: tests passed"
fi
exit "$status"
