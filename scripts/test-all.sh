#!/usr/bin/env bash
# `npm test`: every tier, each run whatever became of the ones before it, so that one run says all
# that is wrong (chained with &&, a lint finding hid the whole Jest run, and any Jest failure the
# Python client's tests); then which tiers failed, and exit 1 if any did. A tier whose build failed
# still runs on what there is: its failures are reported, the run fails on the build all the same.
set -uo pipefail
cd "$(dirname "$0")/.."

jest=(node --experimental-vm-modules --disable-warning=ExperimentalWarning node_modules/jest/bin/jest.js)
# Debian's Python, where scripts/python.sh installs httpx, pytest and mypy.
pytest=(/usr/bin/python3 -m pytest -q clients/python)

passed=()
failed=()
tier() {
  local name=$1
  shift
  echo "npm test: $name"
  local started=$SECONDS
  if "$@"; then
    passed+=("$name ($((SECONDS - started)) s)")
  else
    failed+=("$name (exit $?, $((SECONDS - started)) s)")
  fi
}

tier lint npm run --silent lint
tier typecheck npm run --silent typecheck
tier build npm run --silent build
tier jest "${jest[@]}"
tier 'pytest on SQLite' "${pytest[@]}"
tier 'pytest on MySQL' env PETSTORE_TEST_DATABASE=mysql "${pytest[@]}"

joined() {
  local list
  list=$(printf '%s, ' "$@")
  echo "${list%, }"
}
if [ ${#failed[@]} -gt 0 ]; then
  echo "npm test: FAILED: $(joined "${failed[@]}")" >&2
  [ ${#passed[@]} -eq 0 ] || echo "npm test: passed: $(joined "${passed[@]}")" >&2
  exit 1
fi
echo "npm test: every tier passed: $(joined "${passed[@]}")"
