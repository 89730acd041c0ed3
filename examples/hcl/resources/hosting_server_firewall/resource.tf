# The firewall of a VPS found by name: on, with the rule sets named "web" and "ssh".
data "hosting_server" "web" {
  name = "web-1"
}

resource "hosting_server_firewall" "web" {
  server_id     = data.hosting_server.web.id
  enabled       = true
  ruleset_names = ["web", "ssh"]
}

output "applied_rulesets" {
  value = hosting_server_firewall.web.applied_rulesets
}
