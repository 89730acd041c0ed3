#!/usr/bin/env bash
# A Debian package that a package-step suite needs (chromium for test/dashboard, wine64 for
# test/windows), installed only when its binary is missing: the one the environment variable VARIABLE
# names (as the suite reads it), else DEFAULT. Needs root or password-less sudo; otherwise it says
# so, and the suite skips visibly (or fails under CI=true).
# Usage: scripts/install-debian-package.sh TASK PACKAGE VARIABLE DEFAULT
set -euo pipefail
task=$1
package=$2
binary=${!3:-$4}
if [ -x "$binary" ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif sudo -n true 2> /dev/null; then
  as_root=(sudo -n)
else
  echo "$task: $binary is missing, and installing it needs root or sudo: apt-get install $package" >&2
  exit 0
fi
echo "$task: installing Debian's $package (a minute or two, once)"
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" > /dev/null
"$binary" --version
