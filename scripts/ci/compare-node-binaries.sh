#!/usr/bin/env bash
# Offline half of verify-node-binaries.sh: in DIR, Node's release tarballs, their SHASUMS256.txt
# (whose signature the caller has checked) and npm's tarballs of the same release. Each platform's
# tarball must be listed in SHASUMS256.txt with its hash, and the node binary npm serves must be
# byte for byte the one inside it. Every platform is checked and reported; any failure fails.
# Usage: compare-node-binaries.sh DIR RELEASE
set -euo pipefail
list=$(cd "$(dirname "$0")" && pwd)/node-binaries.list
dir=$1
release=$2
cd "$dir"
failed=()
while read -r platform official npm_package; do
  tarball="node-v$release-$official.tar.gz"
  if ! grep -q " $tarball\$" SHASUMS256.txt || ! grep " $tarball\$" SHASUMS256.txt | sha256sum --check --status -; then
    echo "$platform: $tarball is missing from SHASUMS256.txt or its hash differs" >&2
    failed+=("$platform")
    continue
  fi
  mkdir -p "official-$platform" "npm-$platform"
  if ! tar -xzf "$tarball" -C "official-$platform" "node-v$release-$official/bin/node" \
    || ! tar -xzf "$npm_package-$release.tgz" -C "npm-$platform" package/bin/node; then
    echo "$platform: a node binary could not be read from $tarball or $npm_package-$release.tgz" >&2
    failed+=("$platform")
    continue
  fi
  if ! cmp --silent "official-$platform/node-v$release-$official/bin/node" "npm-$platform/package/bin/node"; then
    echo "$platform: $npm_package@$release is NOT Node's signed release binary" >&2
    failed+=("$platform")
    continue
  fi
  echo "$platform: $npm_package@$release is Node's signed release binary"
done < "$list"
if [ "${#failed[@]}" -ne 0 ]; then
  echo "refusing to build on these Node binaries: ${failed[*]}" >&2
  exit 1
fi
