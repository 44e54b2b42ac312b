#!/usr/bin/env bash
# Debian's Chromium, for the e2e tests that drive Swagger UI in a real browser (puppeteer-core):
# no browser download reaches our machines, Debian's packages do. Installs it when it is missing
# (as root, with apt-get); says what to do otherwise. CHROMIUM_PATH names another binary.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then
  echo "chromium: $chromium is there"
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "chromium: no $chromium; install Debian's chromium package (as root: apt-get install chromium), or set CHROMIUM_PATH" >&2
  exit 1
fi
echo "chromium: installing Debian's chromium"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
echo "chromium: $("$chromium" --version 2>/dev/null || echo installed)"
