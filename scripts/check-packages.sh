#!/usr/bin/env bash
# The SDKs' packages as a registry would get them, checked by their ecosystems' own tools (seconds;
# .ci/run runs it after the tests): the TypeScript SDK's `npm pack` by publint and by Are the Types
# Wrong (import and require, node10, node16 and bundler resolution); the Python client's sdist and
# the wheel built from it, by Debian's python3-build, by `twine check`. Needs `npm ci` and
# scripts/python.sh (build, twine).
set -euo pipefail
cd "$(dirname "$0")/.."
python=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The tarball `npm pack` makes: what `npm publish` would upload, built by the package's prepack.
(cd clients/typescript && npm pack --silent --pack-destination "$work" >/dev/null)
tarball=$(echo "$work"/petstore-client-*.tgz)
npx publint run --strict "$tarball"
npx attw --profile strict --no-color --no-emoji "$tarball"

# A copy, as a fresh checkout has it: setuptools writes build/ and *.egg-info beside the sources.
mkdir "$work/python"
tar -C clients/python --exclude=build --exclude='*.egg-info' --exclude=__pycache__ --exclude=.mypy_cache -cf - . | tar -C "$work/python" -xf -
# No index reaches our machines: build with the setuptools and wheel installed, not isolated ones.
"$python" -m build --no-isolation --outdir "$work/dist" "$work/python" >"$work/build.log" 2>&1 || {
  cat "$work/build.log" >&2
  exit 1
}
"$python" -m twine check --strict "$work"/dist/*
echo "check-packages: @petstore/client passes publint and attw; petstore's sdist and wheel pass twine check"
