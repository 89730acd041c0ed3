# Terraform 1.14+: start the database server on demand,
#   terraform apply -invoke=action.hosting_server_power.db_on
# For a server that should stay running or stopped, use the hosting_power_state resource instead.
action "hosting_server_power" "db_on" {
  config {
    server_id = "vps_vds_3"
    state     = "running"
  }
}
