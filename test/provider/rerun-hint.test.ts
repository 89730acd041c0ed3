import { createServer } from 'node:net';
import { HostingApiClient, HostingApiError } from '../../src/api';
import { atApply } from '../../src/provider/diagnostics';
import { serverFirewallResource } from '../../src/provider/resources/server-firewall';
import { createSession } from '../../src/provider/session';
import { explainApiError, type ReconcileContext } from '../../src/reconcile/context';
import { ReconcileError } from '../../src/reconcile/reconcile-error';
import { SEED_SERVER_IDS as IDS } from '../../src/simulator';

/*
 * A failure that passes (the API unreachable, briefly unavailable) says to run again what the
 * person was running: a refused connection during `terraform plan` says to run the plan again.
 */

/** A base URL nothing listens at: a port taken and released. */
async function closedBaseUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/api/v1`;
}

const hintOf = (err: unknown) => (err instanceof ReconcileError ? err.hint : String(err));
const firewall = {
  id: null, server_id: IDS.vpsRunning, enabled: true, rulesets: null, ruleset_names: null, applied_rulesets: null, on_destroy: null,
};

test('a refused connection while planning says to run the plan again; while applying, the apply', async () => {
  let clock = 0;
  const client = new HostingApiClient({ baseUrl: await closedBaseUrl(), token: 'hsim_unused', sleep: async (ms) => void (clock += ms), now: () => clock });
  try {
    // The connection was tested at configure; the API went away after it.
    const token = { accountId: 1, token: { name: 'ci', type: 'personal_token' as const, scopes: ['servers:read' as const, 'network:read' as const, 'network:write' as const] }, sourceIp: '127.0.0.1', apiVersion: 'v1' as const };
    const sessions = createSession({ client, token, tokenEnvVar: 'HOSTING_API_TOKEN', log: () => undefined, now: () => clock }, new AbortController().signal);
    const planning = await serverFirewallResource.plan(sessions.forCall('plan'), null, firewall, {}).then(() => undefined, hintOf);
    expect(planning).toBe('the API could not be reached; check HOSTING_API_URL and the network, then run the plan again.');
    const applying = await serverFirewallResource.apply(sessions.forCall('apply'), { prior: null, planned: { ...firewall, id: IDS.vpsRunning }, config: firewall, private: {} })
      .then((outcome) => hintOf(outcome.error), hintOf);
    expect(applying).toBe('the API could not be reached; check HOSTING_API_URL and the network, then run the apply again.');
  } finally {
    await client.close();
  }
});

test('a refused value is fixed in the configuration (the provider, read by HCL users too) or in the stack (the bridges\' handler)', async () => {
  const refusal = new HostingApiError({ status: 400, code: 'validation_failed', detail: 'rdns is too long', method: 'PUT', path: '/servers/ded_x/ips/203.0.113.10' });
  const hint = (configuration?: string) => explainApiError({ configuration } as unknown as ReconcileContext, 'ip settings', refusal, []).then(() => undefined, hintOf);
  expect(await hint()).toBe('fix the value named above in the configuration.');
  expect(await hint('the stack')).toBe('fix the value named above in the stack.');
});

test('a failed apply says to run the apply again, and what to do after a saved plan, which Terraform applies once (the provider is not told which it runs)', () => {
  const failed = { severity: 1 as const, summary: 'firewall vps_web_1: reading failed', detail: 'what to do: the API is briefly unavailable; run the apply again shortly.' };
  expect(atApply(failed).detail).toBe('what to do: the API is briefly unavailable; run the apply again shortly (after a saved plan: plan again, then apply the new plan).');
  const refused = { severity: 1 as const, summary: 'firewall vps_web_1: rule set 9 does not exist', detail: 'use their ids' };
  expect(atApply(refused)).toEqual(refused);
  const warning = { severity: 2 as const, summary: 'rebooted; run the apply again to check' };
  expect(atApply(warning)).toEqual(warning);
});
