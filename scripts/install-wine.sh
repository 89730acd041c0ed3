#!/usr/bin/env bash
# Debian's Wine (wine64) for the Windows tests (test/windows), installed only when missing. Needs root
# or password-less sudo; otherwise it says so, and the suite skips visibly (or fails under CI=true).
set -euo pipefail
wine=${WINE:-/usr/lib/wine/wine64}
if [ -x "$wine" ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif sudo -n true 2> /dev/null; then
  as_root=(sudo -n)
else
  echo "wine:install: $wine is missing, and installing it needs root or sudo: apt-get install wine64" >&2
  exit 0
fi
echo "wine:install: installing Debian's wine64 (about two minutes, once)"
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wine64 > /dev/null
"$wine" --version
