from typing import Optional

from cdktf import TerraformStack
from constructs import Construct

from cdktf_server_hosting import HostingApi, PowerState, PowerStateValue, ServerFirewall


class WebStack(TerraformStack):
    """The stack under test: web-1 goes down for maintenance; both firewalls stay as they are."""

    def __init__(self, scope: Construct, id: str, base_url: Optional[str] = None) -> None:
        super().__init__(scope, id)
        api = HostingApi(self, "hosting", base_url=base_url)
        for server_id in ["vps_web_1", "vps_web_2"]:
            ServerFirewall(self, f"firewall-{server_id}", api=api, server_id=server_id, enabled=True, rulesets=[1, 2])
        PowerState(self, "web-1-power", api=api, server_id="vps_web_1", state=PowerStateValue.STOPPED)
