data "hosting_server_ips" "metal" {
  server_id = "ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b"
}

output "primary_address" {
  value = [for a in data.hosting_server_ips.metal.addresses : a.address if a.primary]
}
