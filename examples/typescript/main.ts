// A small, realistic stack: the firewall of a web VPS, the public address of a dedicated server
// (rDNS, description, DDoS protection), a VPS kept running that reboots on each release, and the
// account's server ids from a data source.
// The API URL and token come from HOSTING_API_URL and HOSTING_API_TOKEN where Terraform runs.
import { App, TerraformOutput, TerraformStack } from 'cdktf';
import type { Construct } from 'constructs';
import {
  DataHostingServers,
  HostingApi,
  IpSettings,
  Layer4Protection,
  Layer7Protection,
  PowerState,
  PowerStateValue,
  ServerFirewall,
  StopMethod,
} from 'cdktf-server-hosting';

class WebStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const api = new HostingApi(this, 'hosting');

    const firewall = new ServerFirewall(this, 'web-firewall', {
      api,
      serverId: 'vps_web_1',
      enabled: true,
      rulesetNames: ['web', 'ssh'],
    });

    new IpSettings(this, 'metal-public-ip', {
      api,
      serverId: 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b',
      ip: '203.0.113.11',
      rdns: 'www.example.com',
      description: 'public web',
      protection: { layer4: Layer4Protection.PERMANENT, layer7: Layer7Protection.ONLY },
    });

    new PowerState(this, 'web-2-power', {
      api,
      serverId: 'vps_web_2',
      state: PowerStateValue.RUNNING,
      stopMethod: StopMethod.SHUTDOWN,
      rebootTriggers: { release: process.env.RELEASE ?? '2026.11.1' },
      dependsOn: [firewall],
    });

    // The read side: the account's servers, read at plan time.
    const servers = new DataHostingServers(this, 'all-servers', { api });
    new TerraformOutput(this, 'server_ids', { value: servers.ids });
  }
}

const app = new App();
new WebStack(app, 'web');
app.synth();
