import { TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { HostingApi, PowerState, PowerStateValue, ServerFirewall } from 'cdktf-server-hosting';

/** The stack under test: web-1 goes down for maintenance; both firewalls stay as they are. */
export class WebStack extends TerraformStack {
  constructor(scope: Construct, id: string, baseUrl?: string) {
    super(scope, id);
    const api = new HostingApi(this, 'hosting', { baseUrl });
    for (const serverId of ['vps_web_1', 'vps_web_2']) {
      new ServerFirewall(this, `firewall-${serverId}`, { api, serverId, enabled: true, rulesets: [1, 2] });
    }
    new PowerState(this, 'web-1-power', { api, serverId: 'vps_web_1', state: PowerStateValue.STOPPED });
  }
}
