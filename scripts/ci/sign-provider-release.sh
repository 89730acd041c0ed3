#!/usr/bin/env bash
# Signs the provider release in DIR (dist/provider): a detached binary OpenPGP signature of its
# SHA256SUMS, as the Terraform Registry and `terraform init` verify it. The only step of a release
# that sees the key: it runs in a job of its own, after the build and tests, in the protected
# release environment, and reads nothing but DIR, HOSTING_RELEASE_SIGNING_KEY (ASCII-armoured) and
# HOSTING_RELEASE_SIGNING_PASSPHRASE (if the key has one). The key lives in a keyring made for this
# run, deleted when it ends. SHA256SUMS is checked against the archives before anything is signed,
# and nothing is signed unless SECURITY.md and package.json (read from the working directory, the
# released checkout) name this key and a real repository.
# Writes release-key.md beside DIR: the key's fingerprint and public key, for the release notes.
# Usage: sign-provider-release.sh DIR
set -euo pipefail
dir=$1
if [ -z "${HOSTING_RELEASE_SIGNING_KEY:-}" ]; then
  echo "sign-provider-release: HOSTING_RELEASE_SIGNING_KEY is not set; a release is signed (RELEASING.md says how)" >&2
  exit 1
fi
shopt -s nullglob
sums=("$dir"/terraform-provider-hosting_*_SHA256SUMS)
if [ "${#sums[@]}" -ne 1 ]; then
  echo "sign-provider-release: expected one terraform-provider-hosting_<version>_SHA256SUMS in $dir, found ${#sums[@]}" >&2
  exit 1
fi
# Sign only what was built: every archive beside SHA256SUMS is listed there, and every line holds
# (fail closed, before the key is read).
listed=$(awk '{ print $2 }' "${sums[0]}")
for archive in "$dir"/terraform-provider-hosting_*.zip; do
  if ! grep -qxF "$(basename "$archive")" <<<"$listed"; then
    echo "sign-provider-release: $(basename "$archive") is not in $(basename "${sums[0]}"); nothing was signed" >&2
    exit 1
  fi
done
if ! (cd "$dir" && sha256sum --check --strict --quiet "$(basename "${sums[0]}")" >&2); then
  echo "sign-provider-release: the archives in $dir do not match $(basename "${sums[0]}"); nothing was signed" >&2
  exit 1
fi
export GNUPGHOME
GNUPGHOME=$(mktemp -d)
trap 'gpgconf --kill all >/dev/null 2>&1 || true; rm -rf "$GNUPGHOME"' EXIT
printf '%s\n' "$HOSTING_RELEASE_SIGNING_KEY" | gpg --batch --quiet --import 2>/dev/null \
  || { echo "sign-provider-release: HOSTING_RELEASE_SIGNING_KEY does not hold an ASCII-armoured OpenPGP private key" >&2; exit 1; }
key=$(gpg --batch --with-colons --list-secret-keys | awk -F: '$1 == "sec" { print $5; exit }')
fingerprint=$(gpg --batch --with-colons --list-secret-keys | awk -F: '$1 == "fpr" { print $10; exit }')
# SECURITY.md at the released commit (the checkout this runs in) names the key users compare
# `terraform init`'s key ID with: a release signed by any other key would make it false.
if ! grep -qxF "Release key fingerprint: \`$fingerprint\`" SECURITY.md 2>/dev/null; then
  echo "sign-provider-release: SECURITY.md does not name this key (a line \"Release key fingerprint: \`$fingerprint\`\"); publish it there first, as RELEASING.md says; nothing was signed" >&2
  exit 1
fi
# The packages name their home from package.json (npm's repository, the wheel's home page): a
# placeholder address would send users nowhere.
repository=$(sed -n 's/^ *"url": *"\([^"]*\)".*/\1/p' package.json 2>/dev/null | head -n 1)
case "$repository" in
  '' | *example.com* | *example.org* | *example.net* | *.invalid* | *localhost*)
    echo "sign-provider-release: package.json names no real repository (\"${repository}\"); set repositoryUrl in .projenrc.ts, as RELEASING.md says; nothing was signed" >&2
    exit 1
    ;;
esac
sig="${sums[0]}.sig"
rm -f "$sig"
printf '%s' "${HOSTING_RELEASE_SIGNING_PASSPHRASE:-}" \
  | gpg --batch --quiet --yes --pinentry-mode loopback --passphrase-fd 0 --detach-sign --output "$sig" "${sums[0]}" 2>/dev/null \
  || { echo "sign-provider-release: signing failed: is HOSTING_RELEASE_SIGNING_PASSPHRASE the key's passphrase?" >&2; exit 1; }
gpg --batch --quiet --verify "$sig" "${sums[0]}" 2>/dev/null
# The release notes' section on the key (the release job appends it): what users compare
# `terraform init`'s key ID with, and the public key itself. Beside DIR, so SHA256SUMS is unchanged.
notes="$(dirname "$dir")/release-key.md"
{
  echo '## Release key'
  echo
  echo "Release key fingerprint: \`$fingerprint\`"
  echo
  echo "\`terraform init\` prints its key ID, the fingerprint's last 16 digits: \`$key\`. SECURITY.md says how to verify a"
  echo 'release by hand with the public key:'
  echo
  echo '```text'
  gpg --batch --armor --export "$fingerprint"
  echo '```'
} >"$notes"
echo "signed $(basename "${sums[0]}") with key ID $key (fingerprint $fingerprint); the release notes' key section is in $notes"
