data "hosting_server_metrics" "web1" {
  server_id = "vps_web_1"
}

output "web1_memory_used_percent" {
  value = data.hosting_server_metrics.web1.memory.usage_percent
}
