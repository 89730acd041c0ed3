terraform {
  required_providers {
    hosting = {
      # Your registry's address, with the version constraint of "Installation" above.
      source = "registry.example.com/platform/hosting"
    }
  }
}

# The token comes from the environment variable HOSTING_API_TOKEN (or the one token_env_var names);
# it is never part of the configuration.
provider "hosting" {
  base_url = var.hosting_api_url
}

variable "hosting_api_url" {
  type        = string
  description = "The API's base URL, ending in /api/v1."
}
