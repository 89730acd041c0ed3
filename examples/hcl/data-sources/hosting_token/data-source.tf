# Who the token is, and what it may do.
data "hosting_token" "current" {}

output "token_scopes" {
  value = data.hosting_token.current.scopes
}
