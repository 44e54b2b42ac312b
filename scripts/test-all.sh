#!/usr/bin/env bash
# `npm test`: every tier, each run whatever became of the ones before it, so that one run says all
# that is wrong (chained with &&, a lint finding hid the whole Jest run, and any Jest failure the
# Python client's tests); then which tiers failed, and exit 1 if any did. A tier whose build failed
# still runs on what there is: its failures are reported, the run fails on the build all the same.
set -uo pipefail
cd "$(dirname "$0")/.."

# Jest's reporter (jest.config.js) keeps each file's time.
jest=(node --experimental-vm-modules --disable-warning=ExperimentalWarning node_modules/jest/bin/jest.js)
# Debian's Python, where scripts/python.sh installs httpx, pytest and mypy; JUnit XML for the times.
pytest=(/usr/bin/python3 -m pytest -q -o junit_family=xunit1 clients/python)
rm -f .test-logs/jest-file-times.json .test-logs/pytest-*.xml

joined() {
  local list
  list=$(printf '%s, ' "$@")
  echo "${list%, }"
}
passed=()
failed=()
times=()
tier() {
  local name=$1
  shift
  echo "npm test: $name"
  local started=$SECONDS
  "$@"
  local status=$?
  times+=("$name $((SECONDS - started)) s")
  if [ $status -eq 0 ]; then
    passed+=("$name ($((SECONDS - started)) s)")
  else
    failed+=("$name (exit $status, $((SECONDS - started)) s)")
  fi
}

if [ "${1:-}" = node-line ]; then
  # `npm run test:node-line`: what differs between Node lines, for CI's second line (issue 57). The
  # build; the unit tests (the src/platform/ contract tests, Node's flags and versions among them);
  # the database tier (the native driver, mysql2's pool); the HTTP server's behaviours and the
  # service as a process; the CLIs; the Python client's tests, which drive the built service whole.
  tier build npm run --silent build
  tier jest "${jest[@]}" --selectProjects unit database e2e -- test/unit test/database \
    test/e2e/{lifecycle,stopping,startup,unsupported-node,hostile-clients,http-headers,robustness,errors}.e2e-spec.ts \
    test/e2e/{persistence,migrations,outage,several-instances,webhooks,requests-cli,key-tool-writes,api-keys}.e2e-spec.ts
  tier 'pytest on SQLite' "${pytest[@]}" --junitxml=.test-logs/pytest-sqlite.xml
else
  tier lint npm run --silent lint
  tier typecheck npm run --silent typecheck
  tier build npm run --silent build
  tier jest "${jest[@]}"
  tier 'pytest on SQLite' "${pytest[@]}" --junitxml=.test-logs/pytest-sqlite.xml
  tier 'pytest on MySQL' env PETSTORE_TEST_DATABASE=mysql "${pytest[@]}" --junitxml=.test-logs/pytest-mysql.xml
fi

# Where the time went: each tier's, then the slowest files of the test tiers.
echo "npm test: times: $(joined "${times[@]}")"
node scripts/slowest-files.js jest .test-logs/jest-file-times.json
node scripts/slowest-files.js 'pytest on SQLite' .test-logs/pytest-sqlite.xml
[ "${1:-}" = node-line ] || node scripts/slowest-files.js 'pytest on MySQL' .test-logs/pytest-mysql.xml

if [ ${#failed[@]} -gt 0 ]; then
  echo "npm test: FAILED: $(joined "${failed[@]}")" >&2
  [ ${#passed[@]} -eq 0 ] || echo "npm test: passed: $(joined "${passed[@]}")" >&2
  exit 1
fi
echo "npm test: every tier passed: $(joined "${passed[@]}")"
