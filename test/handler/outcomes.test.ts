import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { firewallDoc, ipDoc, powerDoc, rebootDoc, useHandler } from '../helpers/handler';

/*
 * Answers that do not say whether a write took effect, and reads that lag behind: every kind
 * resolves them by reading the server, writes again only if still needed, and never acts twice.
 */
const h = useHandler();
const VPS = IDS.vpsRunning;
const DED = IDS.dedicated;
const LATER = { HOSTING_FIRST_PLANNED_AT: '2026-11-20T10:00:00Z', HOSTING_PLANNED_AT: '2026-11-21T08:00:00Z' };
const trace = (run: { requests: { method: string; status: number; replayed: boolean }[] }) => run.requests.map((r) => `${r.method} ${r.status}${r.replayed ? ' replayed' : ''}`);

describe('a failure replayed under the same key is final for that key', () => {
  test('firewall: a 503 stored after the write took effect is resolved by one read, not retried for 40 s', async () => {
    h.sim.addFault({ endpoint: 'PUT /servers/{serverId}/firewall', times: 1, effect: { type: 'error', status: 503, code: 'temporarily_unavailable', takesEffect: true } });
    const started = h.clock.ms;
    const run = await h.run('apply', firewallDoc(VPS, { enabled: true }));
    expect(run.code).toBe(0);
    expect(trace(run)).toEqual(['GET 200', 'PUT 503', 'PUT 503 replayed', 'GET 200']);
    expect(run.stdout.at(-1)).toBe(`firewall ${VPS}: applied (confirmed by reading the server)`);
    expect(h.sim.executed()).toHaveLength(1);
    expect(h.clock.ms - started).toBeLessThan(5_000);
  });

  test('ip settings: the same, and the next field is written under its own key', async () => {
    h.sim.addFault({ endpoint: 'PATCH /servers/{serverId}/ips/{ip}', times: 1, effect: { type: 'error', status: 503, code: 'temporarily_unavailable', takesEffect: true } });
    const run = await h.run('apply', ipDoc(DED, IPS.secondary, { rdns: 'web2.example.com', description: 'web' }));
    expect(run.code).toBe(0);
    expect(trace(run)).toEqual(['GET 200', 'PATCH 503', 'PATCH 503 replayed', 'GET 200', 'PATCH 200']);
    expect(run.requests[1].idempotencyKey).toBe(run.requests[2].idempotencyKey);
    expect(h.sim.executed().map((w) => w.detail)).toEqual(['{"rdns":"web2.example.com"}', '{"description":"web"}']);
  });

  test('a power action whose replayed answer is a 503 is resolved by reading the server: one action', async () => {
    h.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'error', status: 503, code: 'temporarily_unavailable', takesEffect: true } });
    const run = await h.run('apply', powerDoc(VPS, 'stopped'));
    expect(run.code).toBe(0);
    expect(run.stdout.join('\n')).toContain('outcome unknown (the API replayed 503 temporarily_unavailable for this key');
    expect(h.sim.executed({ kind: 'action' }).map((a) => a.detail)).toEqual(['shutdown']);
  });
});

describe('503 outcome_unknown on PATCH and PUT: read, confirm, write again only if needed', () => {
  test.each([true, false])('firewall, the write took effect: %s', async (takesEffect) => {
    h.sim.addFault({ endpoint: 'PUT /servers/{serverId}/firewall', times: 1, effect: { type: 'error', status: 503, code: 'outcome_unknown', takesEffect } });
    const run = await h.run('apply', firewallDoc(VPS, { enabled: true }));
    expect(run.code).toBe(0);
    expect(trace(run)).toEqual(takesEffect ? ['GET 200', 'PUT 503', 'GET 200'] : ['GET 200', 'PUT 503', 'GET 200', 'PUT 200']);
    expect(h.sim.executed()).toHaveLength(1);
    expect(h.sim.state.server(VPS).firewall?.enabled).toBe(true);
  });

  test('ip settings: an unknown outcome on every try fails after three writes, saying what to do', async () => {
    h.sim.addFault({ endpoint: 'PATCH /servers/{serverId}/ips/{ip}', effect: { type: 'error', status: 503, code: 'outcome_unknown' } });
    const run = await h.run('apply', ipDoc(DED, IPS.secondary, { description: 'web' }));
    expect(run.code).toBe(1);
    expect(run.stderr.find((l) => l.startsWith('error:'))).toBe(`error: ip settings ${DED} ${IPS.secondary}: description not confirmed after 3 writes with unknown or outdated outcomes`);
    expect(run.writes).toHaveLength(3);
  });
});

describe('reads from a shared cache a few seconds old, without the stale flag (section 1, rule 6)', () => {
  const cache = (endpoint: string) => h.sim.addFault({ endpoint, effect: { type: 'cache', maxAgeSeconds: 3 } });

  test('firewall: an outdated confirming read costs one more write of the same value, never a failure', async () => {
    cache('GET /servers/{serverId}/firewall');
    h.sim.addFault({ endpoint: 'PUT /servers/{serverId}/firewall', times: 1, effect: { type: 'drop_response' } });
    const run = await h.run('apply', firewallDoc(VPS, { enabled: true }));
    expect(run.code).toBe(0);
    expect(h.sim.state.server(VPS).firewall?.enabled).toBe(true);
  });

  test('ip settings: the same', async () => {
    cache('GET /servers/{serverId}/ips/{ip}');
    h.sim.addFault({ endpoint: 'PATCH /servers/{serverId}/ips/{ip}', times: 1, effect: { type: 'drop_response' } });
    const run = await h.run('apply', ipDoc(DED, IPS.secondary, { rdns: 'web2.example.com' }));
    expect(run.code).toBe(0);
    expect(h.sim.state.server(DED).ipSettings.get(IPS.secondary)?.rdns).toBe('web2.example.com');
  });

  test('power: the confirming read after a succeeded operation is repeated until it is current', async () => {
    cache('GET /servers/{serverId}');
    const run = await h.run('apply', powerDoc(IDS.vpsStopped, 'running'));
    expect(run.code).toBe(0);
    expect(run.stdout.join('\n')).toMatch(/the server still shows power stopped \(the read may come from a shared cache\)/);
    expect(run.stdout.at(-1)).toBe(`power ${IDS.vpsStopped}: running (confirmed)`);
    expect(h.sim.executed({ kind: 'action' }).map((a) => a.detail)).toEqual(['start']);
  });

  test('reboot right after a start: a cached "stopped" does not skip the reboot', async () => {
    cache('GET /servers/{serverId}');
    expect((await h.run('apply', powerDoc(IDS.vpsStopped, 'running'))).code).toBe(0);
    const run = await h.run('apply', rebootDoc(IDS.vpsStopped), { env: LATER });
    expect(run.code).toBe(0);
    expect(run.stdout.at(-1)).toBe(`warning: reboot ${IDS.vpsStopped}: rebooted (reboot), because its reboot triggers changed`);
    expect(h.sim.executed({ kind: 'action' }).map((a) => a.detail)).toEqual(['start', 'reboot']);
  });
});

describe('operations that race or are forgotten', () => {
  test('an offered action refused as unsupported (another operation got there first): wait, decide again, act once', async () => {
    h.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'error', status: 409, code: 'action_unsupported' } });
    const run = await h.run('apply', powerDoc(VPS, 'stopped'));
    expect(run.code).toBe(0);
    expect(run.stdout.join('\n')).toContain('shutdown refused (');
    expect(run.stdout.at(-1)).toBe(`power ${VPS}: stopped (confirmed)`);
    expect(h.sim.executed({ kind: 'action' }).map((a) => a.detail)).toEqual(['shutdown']);
  });

  test('a power stop racing a reboot of another resource on the same server: both converge, one action each', async () => {
    const stop = h.run('apply', powerDoc(VPS, 'stopped'), { instanceId: 'power' });
    const reboot = h.run('apply', rebootDoc(VPS), { instanceId: 'reboot', env: LATER });
    const [a, b] = await Promise.all([stop, reboot]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(h.sim.state.server(VPS).server.power).toBe('stopped');
    const executed = h.sim.executed({ kind: 'action' }).map((w) => w.detail);
    expect(executed.filter((d) => d === 'shutdown')).toHaveLength(1);
    expect(executed.filter((d) => d === 'reboot').length).toBeLessThanOrEqual(1);
  });

  test('an operation the API no longer knows (404 after a restart): the server decides, no second action', async () => {
    h.sim.addFault({ endpoint: 'GET /servers/{serverId}/operations/{operationId}', times: 1, effect: { type: 'error', status: 404, code: 'not_found' } });
    const run = await h.run('apply', powerDoc(VPS, 'stopped'));
    expect(run.code).toBe(0);
    expect(run.stdout.join('\n')).toMatch(/shutdown outcome unknown \(operation op_\d+ is no longer known to the API/);
    expect(h.sim.executed({ kind: 'action' }).map((a) => a.detail)).toEqual(['shutdown']);
  });
});
