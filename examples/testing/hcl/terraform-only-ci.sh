#!/usr/bin/env bash
# A CI job with terraform and the provider's standalone executable on PATH, and no Node: the
# simulated account, the provider installed from the executable itself, terraform test, then drift,
# a fault and a narrower token through the simulator's control surface.
# Run beside main.tf: ./terraform-only-ci.sh ../account.json
set -euo pipefail
account_file=$1
work=$(mktemp -d)

# The simulated account, detached for the whole job on a free port (--port 0): `start` returns once
# its API answers, its first line naming the API's URL; `stop` ends it with the job, however it ends,
# and --owner $$ when the runner kills this shell with SIGKILL, which no trap sees.
terraform-provider-hosting simulator start --account "$account_file" --port "${SIMULATOR_PORT:-0}" --owner $$ > "$work/simulator.txt"
api=$(sed -n 's/^Hosting API simulator listening on //p' "$work/simulator.txt")
port=${api##*:}; port=${port%%/*}
trap 'terraform-provider-hosting simulator stop --port "$port"' EXIT
# Ctrl-C or a runner's stop ends the job too: `terraform test` interrupted by SIGINT prints "Success!"
# and exits 0 (Terraform's own behaviour), and bash goes on after a child that exited 0 unless it traps.
trap 'exit 130' INT
trap 'exit 143' TERM
control=${api%/api/v1}/__simulator
json='content-type: application/json'  # the control surface takes changes as JSON only

# The provider: the executable writes itself into a filesystem mirror, and prints the CLI configuration.
terraform-provider-hosting provider mirror "$work/mirror" > "$work/mirror.txt"
sed -n '/^provider_installation {/,/^}/p' "$work/mirror.txt" > "$work/terraform.rc"
export TF_CLI_CONFIG_FILE=$work/terraform.rc TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
export TF_VAR_hosting_api_url=$api HOSTING_API_TOKEN=hsim_ci_valid_only_in_the_simulator

terraform init -input=false
terraform test

# Drift: web-2's firewall switched off out of band, as the control panel would; the plan shows it.
terraform apply -auto-approve -input=false
curl -fsS -o /dev/null -X PATCH -H "$json" "$control/servers/vps_web_2" -d '{"firewall":{"enabled":false}}'
status=0
terraform plan -input=false -detailed-exitcode || status=$?
test "$status" -eq 2

# A fault: the repair's first firewall write answers 503 once; the provider retries, the apply succeeds.
curl -fsS -o /dev/null -X POST -H "$json" "$control/faults" -d '{"endpoint":"PUT /servers/{serverId}/firewall","times":1,"effect":{"type":"error","status":503}}'
terraform apply -auto-approve -input=false
curl -fsS "$control/requests" | grep -q '"status":503'  # the fault did fire
curl -fsS -o /dev/null -X DELETE -H "$json" "$control/faults"

# A narrower token: with servers:read alone, the plan fails and names the scope it lacks.
secret=$(curl -fsS -X POST -H "$json" "$control/tokens" -d '{"scopes":["servers:read"]}' | sed 's/.*"secret":"\([^"]*\)".*/\1/')
if HOSTING_API_TOKEN=$secret terraform plan -input=false > "$work/narrow.txt" 2>&1; then
  echo "the plan should have failed with a servers:read token" >&2
  exit 1
fi
grep 'needs the scope network:read' "$work/narrow.txt"
