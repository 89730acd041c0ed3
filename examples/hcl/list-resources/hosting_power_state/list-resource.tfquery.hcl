# The power of every active server the account owns (shared servers are never listed).
list "hosting_power_state" "active" {
  provider = hosting
  config {
    status = "active"
  }
}
