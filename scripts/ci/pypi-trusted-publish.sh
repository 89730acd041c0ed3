#!/usr/bin/env bash
# Uploads the given wheels to PyPI by trusted publishing: the workflow's OIDC token (audience
# "pypi") is exchanged for a short-lived upload token, so no PyPI token is stored anywhere.
# The same exchange pypa/gh-action-pypi-publish makes, without a third-party action.
set -euo pipefail
oidc=$(curl -fsSL -H "Authorization: bearer $ACTIONS_ID_TOKEN_REQUEST_TOKEN" "$ACTIONS_ID_TOKEN_REQUEST_URL&audience=pypi" \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["value"])')
token=$(curl -fsSL -X POST https://pypi.org/_/oidc/mint-token -d "{\"token\": \"$oidc\"}" \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
echo "::add-mask::$token"
python3 -m pip install --quiet 'twine>=6'
TWINE_USERNAME=__token__ TWINE_PASSWORD="$token" python3 -m twine upload --non-interactive "$@"
