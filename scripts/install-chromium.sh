#!/usr/bin/env bash
# Debian's chromium for the browser tests (test/dashboard), installed only when missing. Needs root
# or password-less sudo; otherwise it says so, and the suite skips visibly (or fails under CI=true).
set -euo pipefail
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$chromium" ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif sudo -n true 2> /dev/null; then
  as_root=(sudo -n)
else
  echo "browser:install: $chromium is missing, and installing it needs root or sudo: apt-get install chromium" >&2
  exit 0
fi
echo "browser:install: installing Debian's chromium (about a minute, once)"
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null
"$chromium" --version
