import { SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { firewallDoc, useHandler } from '../helpers/handler';

const h = useHandler();
const VPS = IDS.vpsRunning; // seeded: enabled false, rulesets []

test('in sync: one request (the read), no write', async () => {
  const run = await h.run('apply', firewallDoc(VPS, { enabled: false, rulesets: [] }));
  expect(run.code).toBe(0);
  expect(run.stdout).toEqual([`firewall ${VPS}: in sync`]);
  expect(run.requests.map((r) => r.endpoint)).toEqual(['GET /servers/{serverId}/firewall']);
});

test('enabled only: one read, one PUT with only that member, confirmed', async () => {
  const run = await h.run('apply', firewallDoc(VPS, { enabled: true }));
  expect(run.code).toBe(0);
  expect(run.stdout[0]).toBe(`firewall ${VPS}: enabled false -> true`);
  expect(run.stdout[1]).toMatch(new RegExp(`^firewall ${VPS}: applied \\(request id req_[0-9a-f]+\\)$`));
  expect(run.requests.map((r) => r.endpoint)).toEqual(['GET /servers/{serverId}/firewall', 'PUT /servers/{serverId}/firewall']);
  expect(h.sim.executed()).toEqual([expect.objectContaining({ kind: 'firewall', detail: '{"enabled":true}' })]);
});

test('rule sets by id: the API checks them; two requests for a changed firewall', async () => {
  const run = await h.run('apply', firewallDoc(VPS, { rulesets: [2, 1] }));
  expect(run.stdout[0]).toBe(`firewall ${VPS}: rulesets [] -> [1, 2]`);
  expect(run.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /servers/${VPS}/firewall`, `PUT /servers/${VPS}/firewall`]);
  expect(h.sim.executed().map((w) => w.detail)).toEqual(['{"rulesets":[1,2]}']);
});

test('rule sets by name', async () => {
  const run = await h.run('apply', firewallDoc(VPS, { enabled: true, rulesets: ['web', 'ssh'] }));
  expect(run.code).toBe(0);
  expect(h.sim.state.server(VPS).firewall).toEqual({ enabled: true, rulesets: [1, 2] });
  expect((await h.run('apply', firewallDoc(VPS, { enabled: true, rulesets: ['ssh', 'web'] }))).writes).toEqual([]);
});

test('an unknown rule set is refused with nothing changed, listing the rule sets that exist', async () => {
  // With names, the list is read first: nothing is sent.
  const run = await h.run('apply', firewallDoc(VPS, { enabled: true, rulesets: [1, 99, 'nope'] }));
  expect(run.code).toBe(1);
  expect(run.stderr).toEqual([
    `error: firewall ${VPS}: rule set id 99 does not exist; rule set name "nope" does not exist; nothing was changed`,
    '  what to do: use one of the rule sets that exist: 1 "web", 2 "ssh", 3 "mail", 4 "monitoring"',
  ]);
  expect(run.writes).toEqual([]);
  // With ids only, the API's refusal is explained from the list, read only then.
  const ids = await h.run('apply', firewallDoc(VPS, { rulesets: [99] }));
  expect(ids.stderr[0]).toBe(`error: firewall ${VPS}: rule set id 99 does not exist; nothing was changed`);
  expect(ids.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`GET /servers/${VPS}/firewall 200`, `PUT /servers/${VPS}/firewall 400`, 'GET /firewall/rulesets 200']);
  expect(h.sim.executed()).toEqual([]);
});

test('a named rule set replaced between the apply\'s list and its write: refused in the names the user wrote', async () => {
  h.sim.addFault({ endpoint: 'PUT /servers/{serverId}/firewall', times: 1, effect: { type: 'latency', ms: 500 } });
  const before = h.sim.requests.length;
  const running = h.run('apply', firewallDoc(VPS, { rulesets: ['mail'] }));
  while (!h.sim.requests.slice(before).some((r) => r.endpoint === 'GET /firewall/rulesets')) await new Promise((resolve) => setTimeout(resolve, 5));
  const rulesets = h.sim.state.rulesets;
  rulesets.splice(rulesets.findIndex((r) => r.name === 'mail'), 1, { id: 9, name: 'mail' });
  const run = await running;
  expect(run.code).toBe(1);
  expect(run.stderr.slice(0, 2)).toEqual([
    `error: firewall ${VPS}: rule set name "mail" meant id 3 when read, and now means 9; the rule sets changed during the apply, and nothing was changed`,
    '  what to do: plan and apply again: names resolve from the rule sets as they are then',
  ]);
  expect(h.sim.executed()).toEqual([]);
});

test('a shared (secondary) server: clear message, no write', async () => {
  const run = await h.run('apply', firewallDoc(IDS.vpsShared, { enabled: false }));
  expect(run.code).toBe(1);
  expect(run.stderr[0]).toBe(`error: firewall ${IDS.vpsShared}: writing failed: server ${IDS.vpsShared} is shared with this account; only its owner can change it`);
  expect(run.stderr[1]).toMatch(/^ {2}API: 403 primary_owner_required \(request id req_[0-9a-f]+\): /);
  expect(run.stderr[2]).toBe('  what to do: the server is shared with this account and is read-only for it; manage it from the owning account.');
  expect(h.sim.executed()).toEqual([]);
});

test('a token without network:write: the refusal names the missing scope from /connect', async () => {
  const run = await h.run('apply', firewallDoc(VPS, { enabled: true }), { tokenName: 'read-only' });
  expect(run.code).toBe(1);
  expect(run.stderr.join('\n')).toContain('token "read-only" has the scopes servers:read, network:read and lacks network:write;');
  expect(run.requests.map((r) => r.endpoint)).toEqual(['GET /servers/{serverId}/firewall', 'PUT /servers/{serverId}/firewall', 'GET /connect']);
});

test('A -> B -> A: every apply of a new desired state really writes (no stale replay)', async () => {
  const a = await h.run('apply', firewallDoc(VPS, { enabled: true }), { instanceId: 'i-1' });
  const b = await h.run('apply', firewallDoc(VPS, { enabled: false }), { instanceId: 'i-2' });
  const again = await h.run('apply', firewallDoc(VPS, { enabled: true }), { instanceId: 'i-3' });
  expect([a, b, again].map((r) => r.writes.map((w) => w.replayed))).toEqual([[false], [false], [false]]);
  expect(h.sim.executed()).toHaveLength(3);
  expect(h.sim.state.server(VPS).firewall?.enabled).toBe(true);
});

test('A -> B -> A within one resource instance: an outdated replay is detected and written again', async () => {
  await h.run('apply', firewallDoc(VPS, { enabled: true }));
  h.sim.drift(VPS, { firewall: { enabled: false } });
  const run = await h.run('apply', firewallDoc(VPS, { enabled: true }));
  expect(run.code).toBe(0);
  expect(run.stdout[1]).toBe(`firewall ${VPS}: the API replayed an earlier answer, but the server shows enabled false -> true; writing again`);
  expect(run.requests.map((r) => `${r.method}${r.replayed ? ' (replayed)' : ''}`)).toEqual(['GET', 'PUT (replayed)', 'GET', 'PUT']);
  expect(h.sim.state.server(VPS).firewall?.enabled).toBe(true);
});

test('a value put back by hand after each of several applies: every later apply walks past the earlier answers and writes', async () => {
  for (let run = 1; run <= 4; run++) {
    const applied = await h.run('apply', firewallDoc(VPS, { enabled: true }));
    expect({ run, code: applied.code, replayed: applied.writes.filter((w) => w.replayed).length }).toEqual({ run, code: 0, replayed: run - 1 });
    h.sim.drift(VPS, { firewall: { enabled: false } });
  }
  expect(h.sim.executed()).toHaveLength(4);
});

test('a lost response is retried with the same key, replayed, executed once', async () => {
  h.sim.addFault({ endpoint: 'PUT /servers/{serverId}/firewall', times: 1, effect: { type: 'drop_response' } });
  const run = await h.run('apply', firewallDoc(VPS, { enabled: true }));
  expect(run.code).toBe(0);
  expect(run.requests.map((r) => `${r.method}${r.dropped ? ' (dropped)' : ''}${r.replayed ? ' (replayed)' : ''}`)).toEqual(['GET', 'PUT (dropped)', 'PUT (replayed)', 'GET']);
  expect(run.stdout[1]).toMatch(/applied \(replayed\)/);
  expect(h.sim.executed()).toHaveLength(1);
});

test('429 and 503 storms are survived, honouring Retry-After', async () => {
  h.sim.addFault({ endpoint: 'GET /servers/{serverId}/firewall', times: 3, effect: { type: 'error', status: 503, retryAfterSeconds: 4 } });
  h.sim.addFault({ endpoint: 'PUT /servers/{serverId}/firewall', times: 3, effect: { type: 'error', status: 429, retryAfterSeconds: 7 } });
  const started = h.clock.ms;
  const run = await h.run('apply', firewallDoc(VPS, { enabled: true }));
  expect(run.code).toBe(0);
  expect(run.requests.map((r) => r.status)).toEqual([503, 503, 503, 200, 429, 429, 429, 200]);
  expect(h.clock.ms - started).toBeGreaterThanOrEqual(3 * 4_000 + 3 * 7_000);
  expect(h.sim.executed()).toHaveLength(1);
});

test('stale reads are never used to decide: read again, then decide on fresh data', async () => {
  await h.run('plan', firewallDoc(VPS, { enabled: false }));
  h.sim.drift(VPS, { firewall: { enabled: true } });
  h.sim.addFault({ endpoint: 'GET /servers/{serverId}/firewall', times: 2, effect: { type: 'stale' } });
  const run = await h.run('apply', firewallDoc(VPS, { enabled: false }));
  expect(run.stdout[0]).toMatch(/served cached data/);
  expect(run.requests.map((r) => r.endpoint)).toEqual([...Array(3).fill('GET /servers/{serverId}/firewall'), 'PUT /servers/{serverId}/firewall']);
  expect(h.sim.state.server(VPS).firewall?.enabled).toBe(false);
});

test('only stale data: fail clearly, no write', async () => {
  await h.run('plan', firewallDoc(VPS, { enabled: false }));
  h.sim.addFault({ endpoint: 'GET /servers/{serverId}/firewall', effect: { type: 'stale' } });
  const run = await h.run('apply', firewallDoc(VPS, { enabled: true }));
  expect(run.code).toBe(1);
  expect(run.stderr[0]).toMatch(/^error: firewall vps_web_1: the API only returned stale data \(last observed at .+\); nothing was changed$/);
  expect(run.writes).toEqual([]);
});

test('plan: exit 0 in sync, 2 with changes, and never writes', async () => {
  expect((await h.run('plan', firewallDoc(VPS, { enabled: false }))).code).toBe(0);
  const drift = await h.run('plan', firewallDoc(VPS, { enabled: true, rulesets: [1] }));
  expect(drift.code).toBe(2);
  expect(drift.stdout).toEqual([`firewall ${VPS}: enabled false -> true, rulesets [] -> [1]`]);
  expect(drift.writes).toEqual([]);
});
