# Reverse DNS, description and DDoS protection of one address of a dedicated server; the values seen
# before are put back when the resource is removed.
resource "hosting_ip_settings" "www" {
  server_id   = "ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b"
  ip          = "203.0.113.11"
  rdns        = "www.example.com"
  description = "public web"
  protection = {
    layer4 = "permanent"
    layer7 = "only"
  }
  on_destroy = "restore"
}
