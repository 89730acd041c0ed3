data "hosting_ip_settings" "primary" {
  server_id = "ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b"
  ip        = "203.0.113.10"
}

output "primary_rdns_editable" {
  value = data.hosting_ip_settings.primary.editable.rdns
}
