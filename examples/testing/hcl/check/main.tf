# Reads both servers after the apply, for the assertions of tests/maintenance.tftest.hcl.
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

data "hosting_server" "web_1" {
  id = "vps_web_1"
}

data "hosting_server" "web_2" {
  id = "vps_web_2"
}
