# The dedicated servers of the account.
data "hosting_servers" "dedicated" {
  type = "dedicated"
}

output "dedicated_ids" {
  value = data.hosting_servers.dedicated.ids
}
