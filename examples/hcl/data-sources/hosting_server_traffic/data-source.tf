# A VPS reports transfer per billing month; a dedicated server, port rates.
data "hosting_server_traffic" "web1" {
  server_id = "vps_web_1"
}

output "web1_transfer_bytes_by_month" {
  value = { for m in data.hosting_server_traffic.web1.months : m.start => m.total_bytes }
}
