# Terraform 1.14+: reboot the database server on demand,
#   terraform apply -invoke=action.hosting_server_reboot.db
# and after its firewall changes (the action_trigger below).
action "hosting_server_reboot" "db" {
  config {
    server_id = "vps_vds_3"
  }
}

resource "hosting_server_firewall" "db" {
  server_id = "vps_vds_3"
  enabled   = true
  rulesets  = [2, 4]

  lifecycle {
    action_trigger {
      events  = [after_update]
      actions = [action.hosting_server_reboot.db]
    }
  }
}
