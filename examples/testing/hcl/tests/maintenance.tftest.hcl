# terraform test, against `npx cdktf-server-hosting simulator --account account.json`:
#   TF_VAR_hosting_api_url=<the URL it prints> HOSTING_API_TOKEN=hsim_ci_valid_only_in_the_simulator terraform test
# It asserts what the account looks like afterwards; the jest and pytest tests also assert each write.

run "stops_web_1" {
  assert {
    condition     = hosting_power_state.web_1.state == "stopped"
    error_message = "web-1 should be stopped"
  }
}

run "web_2_keeps_running" {
  module {
    source = "./check"
  }

  assert {
    condition     = data.hosting_server.web_1.power == "stopped" && data.hosting_server.web_2.power == "running"
    error_message = "only web-1 should be stopped"
  }
}
