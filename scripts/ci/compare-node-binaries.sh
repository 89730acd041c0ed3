#!/usr/bin/env bash
# Offline half of verify-node-binaries.sh: in DIR, Node's release tarballs (and Windows' node.exe files), their SHASUMS256.txt
# (whose signature the caller has checked) and npm's tarballs of the same release. Each platform's
# file must be listed in SHASUMS256.txt with its hash, and the node binary npm serves must be
# byte for byte the one in it. Every platform is checked and reported; any failure fails.
# Usage: compare-node-binaries.sh DIR RELEASE
set -euo pipefail
list=$(cd "$(dirname "$0")" && pwd)/node-binaries.list
dir=$1
release=$2
cd "$dir"
failed=()
while read -r platform official npm_package; do
  # What SHASUMS256.txt lists: a tarball holding bin/node, or on Windows node.exe itself.
  case $official in
    win-*) official_file="$official/node.exe" binary=node.exe ;;
    *) official_file="node-v$release-$official.tar.gz" binary=node ;;
  esac
  if ! grep -q " $official_file\$" SHASUMS256.txt || ! grep " $official_file\$" SHASUMS256.txt | sha256sum --check --status -; then
    echo "$platform: $official_file is missing from SHASUMS256.txt or its hash differs" >&2
    failed+=("$platform")
    continue
  fi
  mkdir -p "official-$platform" "npm-$platform"
  official_binary=$official_file
  if [ "$binary" = node ]; then
    official_binary="official-$platform/node-v$release-$official/bin/node"
    tar -xzf "$official_file" -C "official-$platform" "node-v$release-$official/bin/node" || official_binary=
  fi
  if [ -z "$official_binary" ] || ! tar -xzf "$npm_package-$release.tgz" -C "npm-$platform" "package/bin/$binary"; then
    echo "$platform: a node binary could not be read from $official_file or $npm_package-$release.tgz" >&2
    failed+=("$platform")
    continue
  fi
  if ! cmp --silent "$official_binary" "npm-$platform/package/bin/$binary"; then
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
