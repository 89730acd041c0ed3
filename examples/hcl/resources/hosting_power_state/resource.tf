# A VPS kept running, rebooted once whenever the release changes.
variable "release" {
  type    = string
  default = "2026.11.1"
}

resource "hosting_power_state" "web2" {
  server_id       = "vps_web_2"
  state           = "running"
  stop_method     = "shutdown"
  reboot_triggers = { release = var.release }
}
