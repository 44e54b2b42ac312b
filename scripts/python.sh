#!/usr/bin/env bash
# Debian's Python packages for the Python client's tests (clients/python): httpx, pytest and mypy for
# /usr/bin/python3, venv (a test pip-installs the client into a virtual environment), and build and
# twine (scripts/check-packages.sh builds its wheel and sdist and checks them). No Python package
# index reaches our machines; Debian's packages do. Installs what is missing (as root, with
# apt-get); says what to do otherwise. Quiet and quick when all is there.
set -euo pipefail
python=/usr/bin/python3
missing=()
"$python" -c 'import httpx' 2>/dev/null || missing+=(python3-httpx)
"$python" -c 'import pytest' 2>/dev/null || missing+=(python3-pytest)
"$python" -m mypy --version >/dev/null 2>&1 || missing+=(mypy)
dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q 'ok installed' || missing+=(python3-venv)
"$python" -c 'import setuptools' 2>/dev/null || missing+=(python3-setuptools)
"$python" -c 'import build' 2>/dev/null || missing+=(python3-build)
"$python" -m twine --version >/dev/null 2>&1 || missing+=(twine)
if [ ${#missing[@]} -eq 0 ]; then
  echo "python: $("$python" --version), httpx $("$python" -c 'import httpx; print(httpx.__version__)'), pytest, mypy, venv, build and twine are there"
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "python: missing ${missing[*]}; install Debian's packages (as root: apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "python: installing Debian's ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "python: $("$python" --version), httpx $("$python" -c 'import httpx; print(httpx.__version__)'), pytest, mypy, venv, build and twine installed"
