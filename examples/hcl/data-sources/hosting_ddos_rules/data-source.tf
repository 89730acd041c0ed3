data "hosting_ddos_rules" "metal" {
  server_id = "ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b"
  ip        = "203.0.113.10"
}

output "metal_filtered_ports" {
  value = [for r in data.hosting_ddos_rules.metal.rules : r.port if r.state == "filter"]
}
