#!/usr/bin/env python3
"""The example stack of examples/typescript/main.ts, in Python (through jsii).

Run it where it sits, from a fresh clone (docs/guides/from-a-clone.md, "Python"):

    npx projen compile && npx projen package:python      # builds dist/python/*.whl
    python3 -m venv .venv && .venv/bin/pip install dist/python/*.whl
    cd examples/python && ../../.venv/bin/python main.py
    cd cdktf.out/stacks/web && terraform init && terraform apply

The API URL and token come from HOSTING_API_URL and HOSTING_API_TOKEN where Terraform runs; a change
of RELEASE reboots web-2 once.
"""
import os

from cdktf import App, TerraformOutput, TerraformStack
from constructs import Construct

from cdktf_server_hosting import (
    DataHostingServers,
    HostingApi,
    IpProtection,
    IpSettings,
    Layer4Protection,
    Layer7Protection,
    PowerState,
    PowerStateValue,
    ServerFirewall,
    StopMethod,
)


class WebStack(TerraformStack):
    def __init__(self, scope: Construct, id: str) -> None:
        super().__init__(scope, id)
        api = HostingApi(self, "hosting")

        firewall = ServerFirewall(
            self,
            "web-firewall",
            api=api,
            server_id="vps_web_1",
            enabled=True,
            ruleset_names=["web", "ssh"],
        )
        # The firewall exists already: adopt it (an import block) instead of creating it.
        firewall.import_existing()

        IpSettings(
            self,
            "metal-public-ip",
            api=api,
            server_id="ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b",
            ip="203.0.113.11",
            rdns="www.example.com",
            description="public web",
            protection=IpProtection(layer4=Layer4Protection.PERMANENT, layer7=Layer7Protection.ONLY),
        )

        PowerState(
            self,
            "web-2-power",
            api=api,
            server_id="vps_web_2",
            state=PowerStateValue.RUNNING,
            stop_method=StopMethod.SHUTDOWN,
            reboot_triggers={"release": os.environ.get("RELEASE", "2026.11.1")},
            depends_on=[firewall],
        )

        # The read side: the account's servers, read at plan time.
        servers = DataHostingServers(self, "all-servers", api=api)
        TerraformOutput(self, "server_ids", value=servers.ids)


app = App()
WebStack(app, "web")
app.synth()
