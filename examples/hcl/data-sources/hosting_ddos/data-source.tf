data "hosting_ddos" "metal" {
  server_id = "ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b"
}

output "metal_incident_peaks" {
  value = [for i in data.hosting_ddos.metal.incidents : i.peak]
}
