# One server by its exact name.
data "hosting_server" "metal" {
  name = "metal-1"
}

output "metal_addresses" {
  value = data.hosting_server.metal.ipv4
}
