data "hosting_server_firewall" "db" {
  server_id = "vps_vds_3"
}

output "db_firewall_rulesets" {
  value = data.hosting_server_firewall.db.rulesets
}
