terraform {
  required_providers {
    hosting = {
      source = "local.cdktf-server-hosting.invalid/cdktf-server-hosting/hosting"
    }
  }
}

provider "hosting" {
  base_url = var.hosting_api_url
}

variable "hosting_api_url" {
  type = string
}

# The change under test: web-1 goes down for maintenance; both firewalls stay as they are.
resource "hosting_power_state" "web_1" {
  server_id = "vps_web_1"
  state     = "stopped"
}

resource "hosting_server_firewall" "web" {
  for_each  = toset(["vps_web_1", "vps_web_2"])
  server_id = each.value
  enabled   = true
  rulesets  = [1, 2]
}
