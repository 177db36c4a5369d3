#!/usr/bin/env bash
# The Debian packages the test suite drives from outside Python: Chromium for the scorer page's browser tests
# (through Playwright, from pip), shellcheck for the installer and openssl for the README's HTTPS certificate. `make test` runs this first; `make run` never.
# Installs what is missing with apt-get, as root or through password-less sudo; otherwise prints the command
# to run and stops.
set -euo pipefail

missing=()
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
command -v shellcheck >/dev/null || missing+=(shellcheck)
command -v openssl >/dev/null || missing+=(openssl)
((${#missing[@]})) || exit 0

if [[ $EUID -eq 0 ]]; then
    as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    echo "the tests need the Debian packages: ${missing[*]}" >&2
    echo "install them once with:  sudo apt-get install -y ${missing[*]}   then run make test again" >&2
    exit 1
fi
echo "installing for the tests: ${missing[*]}" >&2
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q "${missing[@]}"
