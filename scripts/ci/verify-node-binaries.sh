#!/usr/bin/env bash
# Before a release builds the standalone executables: each platform's Node binary, as npm serves it
# (the package the build pins by integrity), must be byte for byte the binary of Node's own release
# tarball, whose hash is in SHASUMS256.txt signed by a Node releaser (the keys nodejs/node lists,
# as the official Docker images pin them). This script fetches (it needs the internet, so it runs
# in the release workflow); compare-node-binaries.sh compares, offline, and fails on any mismatch.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
release=$(sed -n "s/^export const NODE_RELEASE = '\(.*\)';/\1/p" src/cli/standalone-executable.ts)
work=$(mktemp -d)
export GNUPGHOME="$work/gnupg"
mkdir -m 700 "$GNUPGHOME"
for key in \
  C0D6248439F1D5604AAFFB4021D900FFDB233756 DD792F5973C6DE52C432CBDAC77ABFA00DDBF2B7 \
  CC68F5A3106FF448322E48ED27F5E38D5B0A215F 8FCCA13FEF1D0C2E91008E09770F7A9A5AE15600 \
  890C08DB8579162FEE0DF9DB8BEAB4DFCF555EF4 C82FA3AE1CBEDC6BE46B9360C43CEC45C17AB93C \
  108F52B48DB57BB0CC439B2997B01419BD92F80A A363A499291CBBC940DD62E41F10027AF002F8B0; do
  gpg --batch --quiet --keyserver hkps://keys.openpgp.org --recv-keys "$key" \
    || gpg --batch --quiet --keyserver keyserver.ubuntu.com --recv-keys "$key"
done
cd "$work"
curl -fsSLO --retry 3 "https://nodejs.org/dist/v$release/SHASUMS256.txt.asc"
# --decrypt fails unless the signature is good: SHASUMS256.txt exists only if it is.
gpg --batch --decrypt --output SHASUMS256.txt SHASUMS256.txt.asc
while read -r _platform official npm_package; do
  case $official in
    # Windows binaries are published as files of their own (SHASUMS256.txt lists win-x64/node.exe).
    win-*) mkdir -p "$official" && curl -fsSL --retry 3 -o "$official/node.exe" "https://nodejs.org/dist/v$release/$official/node.exe" ;;
    *) curl -fsSLO --retry 3 "https://nodejs.org/dist/v$release/node-v$release-$official.tar.gz" ;;
  esac
  npm pack "$npm_package@$release" --silent > /dev/null
done < "$here/node-binaries.list"
"$here/compare-node-binaries.sh" "$work" "$release"
