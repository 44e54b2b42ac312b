#!/usr/bin/env bash
# `npm test`: every tier, each run whatever became of the ones before it, so that one run says all
# that is wrong (chained with &&, a lint finding hid the whole Jest run, and any Jest failure the
# Python client's tests); then which tiers failed, and exit 1 if any did. A tier whose build failed
# still runs on what there is: its failures are reported, the run fails on the build all the same.
set -uo pipefail
cd "$(dirname "$0")/.."

# Every Node process of the run (Jest's workers, the service and its tools as processes, pytest's
# services) keeps V8's compiled code on disk and the next one reads it: a key tool's start takes 0.39 s
# of processor time instead of 0.58, and the tests start many. Code that changed is
# compiled again (the cache is keyed by each file's content); nothing else differs.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$PWD/.node/compile-cache}"

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
# A tier's end: its time, and whether it passed.
ended() {
  local name=$1 status=$2 took=$3
  times+=("$name $took s")
  if [ "$status" -eq 0 ]; then
    passed+=("$name ($took s)")
  else
    failed+=("$name (exit $status, $took s)")
  fi
}
tier() {
  local name=$1
  shift
  echo "npm test: $name"
  local started=$SECONDS
  "$@"
  ended "$name" $? $((SECONDS - started))
}

# Tiers that mostly wait (pytest on a service process, the linters beside the build) run beside
# another: each in the background with its output kept in .test-logs/tier-NAME.log, printed whole
# when `collect` waits for it, so that the report reads tier by tier as before.
declare -A pids=()
mkdir -p .test-logs
log_of() { echo ".test-logs/tier-${1// /-}.log"; }
beside() {
  local name=$1
  shift
  echo "npm test: $name (beside the next tiers, its output once it ends)"
  (
    started=$SECONDS
    "$@" >"$(log_of "$name")" 2>&1
    status=$?
    echo "$status $((SECONDS - started))" >"$(log_of "$name").status"
  ) &
  pids[$name]=$!
}
collect() {
  local name=$1 status took
  wait "${pids[$name]}"
  echo "npm test: $name"
  cat "$(log_of "$name")"
  read -r status took <"$(log_of "$name").status" || { status=1 took=0; }
  ended "$name" "$status" "$took"
}

if [ "${1:-}" = node-line ]; then
  # `npm run test:node-line`: what differs between Node lines, for CI's second line (issue 57). The
  # build; the unit tests (the src/platform/ contract tests, Node's flags and versions among them);
  # the database tier (the native driver, mysql2's pool); the HTTP server's behaviours and the
  # service as a process; the CLIs; the Python client's tests, which drive the built service whole.
  tier build npm run --silent build
  beside 'pytest on SQLite' "${pytest[@]}" -m 'not timing' --junitxml=.test-logs/pytest-sqlite.xml
  tier jest "${jest[@]}" --selectProjects unit database e2e -- test/unit test/database \
    test/e2e/{lifecycle,stopping,startup,unsupported-node,hostile-clients,http-headers,robustness,errors}.e2e-spec.ts \
    test/e2e/{persistence,migrations,outage,several-instances,webhooks,requests-cli,key-tool-writes,api-keys}.e2e-spec.ts
  collect 'pytest on SQLite'
  tier 'pytest timing on SQLite' "${pytest[@]}" -m timing
else
  # The linters and tsc read the sources the build reads and write nothing: beside it. Then the
  # Python client's tests, each on a service process and a database of its own, beside Jest.
  beside lint npm run --silent lint
  beside typecheck npm run --silent typecheck
  tier build npm run --silent build
  beside 'pytest on SQLite' "${pytest[@]}" -m 'not timing' --junitxml=.test-logs/pytest-sqlite.xml
  # The tests that read no service (mypy and pyright on the package, its generated models) once, on SQLite's pass.
  beside 'pytest on MySQL' env PETSTORE_TEST_DATABASE=mysql "${pytest[@]}" -m 'not timing and not once' --junitxml=.test-logs/pytest-mysql.xml
  collect lint
  collect typecheck
  tier jest "${jest[@]}"
  collect 'pytest on SQLite'
  collect 'pytest on MySQL'
  # The few Python tests that bound elapsed time (marked `timing`), once the machine is quiet again.
  tier 'pytest timing on SQLite' "${pytest[@]}" -m timing
  tier 'pytest timing on MySQL' env PETSTORE_TEST_DATABASE=mysql "${pytest[@]}" -m timing
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
