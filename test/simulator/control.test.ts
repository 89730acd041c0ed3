import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { useSimulator } from '../helpers/simulator';

const JSON_TYPE = { 'content-type': 'application/json' };

/** `PATCH /__simulator/servers/{id}`, the out-of-band change a person makes by hand (docs/guides/simulator.md: "The simulator by hand"). */
describe('the simulator\'s control endpoint validates what it is given', () => {
  const s = useSimulator();
  const patch = async (body: unknown) => {
    const res = await fetch(`${s.sim.controlUrl}/servers/${IDS.vpsRunning}`, { method: 'PATCH', headers: JSON_TYPE, body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as any };
  };

  test.each<[string, unknown, RegExp]>([
    ['a power value outside the spec', { power: 'sleeping' }, /^invalid change: power: /],
    ['a firewall member of the wrong type', { firewall: { enabled: 'nope' } }, /^invalid change: firewall\.enabled: /],
    ['an unknown member', { colour: 'red' }, /^invalid change: .*colour/],
    // The body other tools name differently: the refusal lists what it takes.
    ['ipSettings for ip', { ipSettings: { rdns: 'a.example.com' } }, /^invalid change: \(body\): unrecognized key "ipSettings"; the accepted keys are power, status, firewall, ip \(the account file's ipSettings lists every address; here "ip" is one address's change: \{"ip": \{"address": "…", "rdns": "…"\}\}\)$/],
    ['a misspelt ip member', { ip: { address: '203.0.113.10', rdnss: 'a.example.com' } }, /^invalid change: ip: unrecognized key "rdnss"; the accepted keys are address, rdns, description, protection, editable$/],
    ['an address that is not IPv4', { ip: { address: 'web', rdns: 'a.example.com' } }, /^invalid change: ip\.address: must be an IPv4 address/],
  ])('%s is a 400 naming the member, and changes nothing', async (_name, body, message) => {
    const before = await (await fetch(`${s.sim.controlUrl}/state`)).text();
    const res = await patch(body);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(message);
    expect(await (await fetch(`${s.sim.controlUrl}/state`)).text()).toBe(before);
  });

  test('a valid change is made and served by the API', async () => {
    expect((await patch({ power: 'stopped', firewall: { enabled: false } })).status).toBe(200);
    expect((await s.client().getServer(IDS.vpsRunning)).data.power).toBe('stopped');
    expect((await s.client().getFirewall(IDS.vpsRunning)).data.enabled).toBe(false);
    const ip = await fetch(`${s.sim.controlUrl}/servers/${IDS.dedicated}`, { method: 'PATCH', headers: JSON_TYPE, body: JSON.stringify({ ip: { address: IPS.primary, rdns: 'x.example.com' } }) });
    expect(ip.status).toBe(200);
  });
});

/** `POST /__simulator/faults`: as strict as the drift change. */
describe('the simulator\'s fault endpoint validates the rule', () => {
  const s = useSimulator();
  const post = async (body: unknown) => {
    const res = await fetch(`${s.sim.controlUrl}/faults`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as any };
  };

  test.each<[string, unknown, RegExp]>([
    ['a misspelt member', { endpont: 'GET /servers', effect: { type: 'error', status: 503 } }, /^invalid fault rule: .*endpont/],
    ['a misspelt effect member', { effect: { type: 'error', staus: 503 } }, /^invalid fault rule: effect/],
    ['an unknown effect', { effect: { type: 'explode' } }, /^invalid fault rule: effect/],
    ['an endpoint without a method', { endpoint: '/servers', effect: { type: 'stale' } }, /^invalid fault rule: endpoint: expected "METHOD \/template"/],
    ['a probability over 1', { probability: 2, effect: { type: 'stale' } }, /^invalid fault rule: probability/],
  ])('%s is a 400 naming it, and adds no rule', async (_name, body, message) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(message);
    expect((await s.client().listServers()).data.length).toBeGreaterThan(0);
  });

  test('a valid rule is added and takes effect', async () => {
    expect((await post({ endpoint: 'GET /servers', times: 1, effect: { type: 'error', status: 404, code: 'not_found' } })).status).toBe(201);
    await expect(s.client().listServers()).rejects.toMatchObject({ code: 'not_found' });
  });
});

/** `POST /__simulator/reset`: a fresh account per test run, without a restart. */
describe('the simulator\'s reset', () => {
  const s = useSimulator();
  test('puts back the seeded servers and settings, forgets writes and faults, keeps the tokens, and keeps serving', async () => {
    const client = s.client();
    await client.updateFirewall(IDS.vpsRunning, { enabled: true, rulesets: [1] }, 'reset-test-key-1');
    await fetch(`${s.sim.controlUrl}/faults`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ endpoint: 'GET /servers', effect: { type: 'error', status: 503, code: 'temporarily_unavailable' } }) });
    const minted = await (await fetch(`${s.sim.controlUrl}/tokens`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ scopes: ['servers:read'] }) })).json() as { secret: string };
    const res = await fetch(`${s.sim.controlUrl}/reset`, { method: 'POST', headers: JSON_TYPE, body: '{}' });
    expect(res.status).toBe(200);
    expect((await client.getFirewall(IDS.vpsRunning)).data).toEqual({ enabled: false, rulesets: [] });
    expect((await client.listServers()).data.length).toBeGreaterThan(0);
    expect(s.sim.executed()).toEqual([]);
    // A harness keeps the tokens it made.
    expect((await s.client({ token: minted.secret }).listServers()).data.length).toBeGreaterThan(0);
  });

  test('is a new account: a reboot under a key the old account answered is carried out, not replayed', async () => {
    const client = s.client();
    const first = await client.runAction(IDS.vpsRunning, 'reboot', 'reset-test-reboot-1');
    await client.waitForOperation(IDS.vpsRunning, first.data.id);
    expect((await fetch(`${s.sim.controlUrl}/reset`, { method: 'POST', headers: JSON_TYPE, body: '{}' })).status).toBe(200);
    const again = await client.runAction(IDS.vpsRunning, 'reboot', 'reset-test-reboot-1');
    expect(again.replayed).toBe(false);
    await client.waitForOperation(IDS.vpsRunning, again.data.id);
    expect(s.sim.executed({ serverId: IDS.vpsRunning, kind: 'action' }).map((w) => w.detail)).toEqual(['reboot']);
    // SimulatedAccount.reset() and RunningSimulator.reset() are the same reset.
    s.sim.reset();
    expect((await client.runAction(IDS.vpsRunning, 'reboot', 'reset-test-reboot-1')).replayed).toBe(false);
  });
});
