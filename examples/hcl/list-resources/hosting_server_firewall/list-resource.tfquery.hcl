# terraform query (Terraform 1.14+): the firewall of every VPS and VDS the account owns.
# `terraform query -generate-config-out=generated.tf` writes a resource and an import block for each.
list "hosting_server_firewall" "vps" {
  provider = hosting
  config {
    type   = "vps"
    status = "active"
  }
}
