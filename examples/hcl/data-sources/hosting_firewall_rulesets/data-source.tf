data "hosting_firewall_rulesets" "all" {}

output "ruleset_ids_by_name" {
  value = { for r in data.hosting_firewall_rulesets.all.rulesets : r.name => r.id }
}
