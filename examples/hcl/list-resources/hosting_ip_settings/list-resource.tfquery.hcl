# Every IPv4 address of the account's dedicated servers, by server id and address.
list "hosting_ip_settings" "all" {
  provider = hosting
}
