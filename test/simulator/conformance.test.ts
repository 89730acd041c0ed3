import { API_ERROR_CODES } from '../../src/api';
import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, startSimulator } from '../../src/simulator';
import { useSimulator, type RawResponse } from '../helpers/simulator';

const s = useSimulator();
const KEY = 'conformance-key-1';
const DED = IDS.dedicated;

/** Every error code of section 7 that a test produced; checked for completeness at the end. */
const producedCodes = new Set<string>();
function expectError(res: RawResponse, status: number, code: string) {
  expect({ status: res.status, code: res.json?.error?.code }).toEqual({ status, code });
  expect(Object.keys(res.json)).toEqual(['error']);
  expect(res.json.error.requestId).toBe(res.headers.get('x-request-id'));
  producedCodes.add(code);
}

describe('section 1: envelope and request ids', () => {
  test('rule 3: a success holds exactly data (and meta), an error exactly error', async () => {
    const ok = await s.raw('GET', `/servers/${IDS.vpsRunning}/firewall`);
    expect(Object.keys(ok.json).sort()).toEqual(['data', 'meta']);
    expect(ok.json.meta).toEqual({ observedAt: expect.any(String), stale: false });
    const bad = await s.raw('GET', '/servers/nope');
    expect(Object.keys(bad.json)).toEqual(['error']);
  });

  test.each([
    ['a success', 'GET', '/servers'],
    ['an error', 'GET', '/servers/vps_none_99'],
    ['an unknown path', 'GET', '/no/such/thing'],
    ['an unknown method', 'DELETE', `/servers/${IDS.vpsRunning}`],
    ['a path outside /api/v1', 'GET', '/../health'],
  ])('rule 4: X-Request-Id on %s', async (_n, method, path) => {
    const res = await s.raw(method, path);
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
  });

  test('an unknown path is 404 not_found', async () => {
    expectError(await s.raw('GET', '/no/such/thing'), 404, 'not_found');
  });
});

describe('section 5: authentication', () => {
  test.each([
    ['missing', null],
    ['invalid', 'not-a-token'],
    ['expired', 'expired'],
    ['revoked', 'revoked'],
  ])('rule 6: a %s token is 401 unauthorized', async (_n, token) => {
    const secret = token === null ? null : s.sim.tokens[token] ?? token;
    expectError(await s.raw('GET', '/connect', { token: secret }), 401, 'unauthorized');
  });

  test('rule 3: a token revoked while in use is refused on its next request', async () => {
    expect((await s.raw('GET', '/connect')).status).toBe(200);
    s.sim.state.revokeToken('full');
    expectError(await s.raw('GET', '/connect'), 401, 'unauthorized');
  });

  test('rule 3: a token is refused once its 30-day lifetime is over', async () => {
    s.clock.advance(30 * 24 * 3600 * 1000 + 1);
    expectError(await s.raw('GET', '/connect'), 401, 'unauthorized');
  });

  test('rule 8: /connect needs no scope and reports token info with the source address', async () => {
    const res = await s.raw('GET', '/connect', { token: s.sim.tokens['read-only'] });
    expect(res.json.data).toEqual({
      accountId: 4711,
      token: { name: 'read-only', type: 'personal_token', scopes: ['servers:read', 'network:read'] },
      sourceIp: '127.0.0.1',
      apiVersion: 'v1',
    });
  });

  test('section 1, rules 6 and 7: /connect is a token\'s own, never served from the shared cache or stale', async () => {
    s.sim.addFault({ effect: { type: 'cache', maxAgeSeconds: 60 } });
    await s.raw('GET', '/connect');
    const res = await s.raw('GET', '/connect', { token: s.sim.tokens['read-only'] });
    expect(res.json.data.token.name).toBe('read-only');
    s.sim.clearFaults();
    s.sim.addFault({ effect: { type: 'stale' } });
    expect((await s.raw('GET', '/connect')).json.meta).toMatchObject({ stale: false });
  });

  test('rule 4: an allowlisted source address is served; another is 403 ip_not_allowed', async () => {
    expect((await s.raw('GET', '/servers', { token: s.sim.tokens.reseller })).status).toBe(200);
    const refused = await s.raw('GET', '/servers', { token: s.sim.tokens['reseller-elsewhere'] });
    expectError(refused, 403, 'ip_not_allowed');
    // Section 8: every response reports the tightest budget; the token is known, so it has one. The
    // refusal spends nothing.
    expect(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((h) => refused.headers.get(h))).toEqual(['120', '120', '60']);
  });

  test('rule 2: only a hash of each token is kept', () => {
    const dump = JSON.stringify([...(s.sim.state as any).tokensByHash.entries()]);
    for (const secret of Object.values(s.sim.tokens)) expect(dump).not.toContain(secret);
  });

  test.each([
    ['read-only', 'PUT', `/servers/${IDS.vpsRunning}/firewall`, { enabled: true }],
    ['read-only', 'POST', `/servers/${IDS.vpsRunning}/actions`, { action: 'reboot' }],
    ['power-without-control', 'POST', `/servers/${IDS.vpsRunning}/actions`, { action: 'shutdown' }],
    ['power-without-control', 'POST', `/servers/${IDS.vpsRunning}/actions`, { action: 'power_off' }],
    ['power-without-control', 'POST', `/servers/${IDS.vpsRunning}/actions`, { action: 'reset' }],
    ['power-without-control', 'PATCH', `/servers/${DED}/ips/${IPS.primary}`, { rdns: 'a.example.com' }],
  ])('rule 7 and 4.5: %s may not %s %s', async (token, method, path, body) => {
    expectError(await s.raw(method, path, { token: s.sim.tokens[token], body, key: KEY }), 403, 'insufficient_scope');
    expect(s.sim.executed()).toEqual([]);
  });

  test('4.5: reboot needs servers:power only', async () => {
    const res = await s.raw('POST', `/servers/${IDS.vpsRunning}/actions`, { token: s.sim.tokens['power-without-control'], body: { action: 'reboot' }, key: KEY });
    expect(res.status).toBe(202);
  });

  test('2.3: actions lists what this token may run now', async () => {
    const full = await s.raw('GET', `/servers/${IDS.vpsRunning}`);
    expect(full.json.data.actions).toEqual(['shutdown', 'power_off', 'reboot', 'reset']);
    const limited = await s.raw('GET', `/servers/${IDS.vpsRunning}`, { token: s.sim.tokens['power-without-control'] });
    expect(limited.json.data.actions).toEqual(['reboot']);
    const stopped = await s.raw('GET', `/servers/${IDS.vpsStopped}`);
    expect(stopped.json.data.actions).toEqual(['start']);
    const shared = await s.raw('GET', `/servers/${IDS.vpsShared}`);
    expect(shared.json.data.actions).toEqual([]);
    const suspended = await s.raw('GET', `/servers/${IDS.vpsSuspended}`);
    expect(suspended.json.data.actions).toEqual([]);
  });
});

describe('section 4: ownership, validation and types', () => {
  test('rule 7: another account\'s server is 404, the same as a server that does not exist', async () => {
    const other = await s.raw('GET', `/servers/${IDS.otherAccount}`);
    const none = await s.raw('GET', '/servers/vps_none_99');
    expectError(other, 404, 'not_found');
    expect(other.json.error.message.replace(IDS.otherAccount, 'X')).toBe(none.json.error.message.replace('vps_none_99', 'X'));
    const list = await s.raw('GET', '/servers');
    expect(list.json.data.map((x: any) => x.id)).not.toContain(IDS.otherAccount);
    expect(list.json.data.map((x: any) => x.id)).toContain(IDS.vpsShared);
  });

  test('rule 7: an unknown operation and an unassigned address are 404', async () => {
    expectError(await s.raw('GET', `/servers/${IDS.vpsRunning}/operations/op_999999`), 404, 'not_found');
    expectError(await s.raw('GET', `/servers/${DED}/ips/192.0.2.1`), 404, 'not_found');
  });

  test('rule 6: changing a shared server is 403 primary_owner_required; reading it is fine', async () => {
    expect((await s.raw('GET', `/servers/${IDS.vpsShared}/firewall`)).status).toBe(200);
    expectError(await s.raw('PUT', `/servers/${IDS.vpsShared}/firewall`, { body: { enabled: false }, key: KEY }), 403, 'primary_owner_required');
    expectError(await s.raw('POST', `/servers/${IDS.vpsShared}/actions`, { body: { action: 'reboot' }, key: 'other-key-2' }), 403, 'primary_owner_required');
  });

  test.each<[string, string, string, unknown, string[]]>([
    ['server id pattern (2.1)', 'GET', '/servers/web-1', undefined, ['serverId']],
    ['IPv4 path parameter', 'GET', `/servers/${DED}/ips/300.1.1.1`, undefined, ['ip']],
    ['action enum', 'POST', `/servers/${IDS.vpsRunning}/actions`, { action: 'explode' }, ['action']],
    ['extra member in the action body', 'POST', `/servers/${IDS.vpsRunning}/actions`, { action: 'reboot', force: true }, ['body']],
    ['PATCH with two members', 'PATCH', `/servers/${DED}/ips/${IPS.primary}`, { rdns: 'a.example.com', description: 'x' }, ['body']],
    ['PATCH with no member', 'PATCH', `/servers/${DED}/ips/${IPS.primary}`, {}, ['body']],
    ['protection enums', 'PATCH', `/servers/${DED}/ips/${IPS.primary}`, { protection: { layer4: 'always', layer7: 'off' } }, ['protection.layer4']],
    ['rdns that is not a host name', 'PATCH', `/servers/${DED}/ips/${IPS.primary}`, { rdns: 'not a host' }, ['rdns']],
    ['firewall body types', 'PUT', `/servers/${IDS.vpsRunning}/firewall`, { enabled: 'yes', rulesets: ['1'] }, ['enabled', 'rulesets.0']],
    ['unknown rule set ids', 'PUT', `/servers/${IDS.vpsRunning}/firewall`, { rulesets: [1, 77, 78] }, ['rulesets.1', 'rulesets.2']],
    ['a body that is not JSON', 'PUT', `/servers/${IDS.vpsRunning}/firewall`, '{oops', ['body']],
    ['a body over 10 KB (rule 5)', 'PUT', `/servers/${IDS.vpsRunning}/firewall`, { rulesets: Array(6000).fill(1) }, ['body']],
  ])('400 validation_failed: %s, one field per problem', async (_n, method, path, body, fields) => {
    const res = await s.raw(method, path, { body, key: method === 'GET' ? undefined : KEY });
    expectError(res, 400, 'validation_failed');
    expect(res.json.error.fields.map((f: any) => f.path)).toEqual(fields);
    expect(s.sim.executed()).toEqual([]);
  });

  test.each([
    ['the firewall of a dedicated server', 'GET', `/servers/${DED}/firewall`],
    ['IP settings of a VPS', 'GET', `/servers/${IDS.vpsRunning}/ips/198.51.100.11`],
    ['DDoS rules of a VPS', 'GET', `/servers/${IDS.vpsRunning}/ips/198.51.100.11/ddos/rules`],
  ])('409 action_unsupported: %s', async (_n, method, path) => {
    expectError(await s.raw(method, path), 409, 'action_unsupported');
  });

  test('2.8: traffic is rates for dedicated and monthly for VPS', async () => {
    expect((await s.raw('GET', `/servers/${DED}/traffic`)).json.data.kind).toBe('rates');
    expect((await s.raw('GET', `/servers/${IDS.vpsRunning}/traffic`)).json.data.kind).toBe('monthly');
  });

  test('a field whose editable flag is false is refused with 409 and nothing changes', async () => {
    const res = await s.raw('PATCH', `/servers/${DED}/ips/${IPS.locked}`, { body: { rdns: 'mine.example.com' }, key: KEY });
    expectError(res, 409, 'action_unsupported');
    expect(res.json.error.message).toContain('rdns');
    expect(s.sim.executed()).toEqual([]);
  });

  test('423 service_locked: actions and IP changes on a suspended service', async () => {
    expectError(await s.raw('POST', `/servers/${IDS.vpsSuspended}/actions`, { body: { action: 'start' }, key: KEY }), 423, 'service_locked');
  });

  test('409 action_unsupported: an action on a server that is not active, or not possible in its power state', async () => {
    expectError(await s.raw('POST', `/servers/${IDS.vpsProvisioning}/actions`, { body: { action: 'start' }, key: 'key-provisioning' }), 409, 'action_unsupported');
    expectError(await s.raw('POST', `/servers/${IDS.vpsRunning}/actions`, { body: { action: 'start' }, key: 'key-running-start' }), 409, 'action_unsupported');
  });
});

describe('section 4, rules 2-4: idempotency', () => {
  const path = `/servers/${IDS.vpsRunning}/firewall`;

  test('a write without a key is 400 idempotency_key_required', async () => {
    expectError(await s.raw('PUT', path, { body: { enabled: true } }), 400, 'idempotency_key_required');
  });

  test.each([['7 characters', 'k'.repeat(7)], ['129 characters', 'k'.repeat(129)]])('a key of %s is refused', async (_n, key) => {
    expectError(await s.raw('PUT', path, { body: { enabled: true }, key }), 400, 'validation_failed');
  });

  test('a repeated request replays the first result, marked, without running again', async () => {
    const first = await s.raw('PUT', path, { body: { enabled: true, rulesets: [1] }, key: KEY });
    s.sim.drift(IDS.vpsRunning, { firewall: { enabled: false } });
    const second = await s.raw('PUT', path, { body: { rulesets: [1], enabled: true }, key: KEY });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.json).toEqual(first.json);
    expect(s.sim.executed({ kind: 'firewall' })).toHaveLength(1);
    expect((await s.raw('GET', path)).json.data.enabled).toBe(false);
  });

  test('a failed first request is replayed as the same failure', async () => {
    const first = await s.raw('PUT', path, { body: { rulesets: [99] }, key: KEY });
    const second = await s.raw('PUT', path, { body: { rulesets: [99] }, key: KEY });
    expect(second.status).toBe(400);
    expect(second.json).toEqual(first.json);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  test('the same key with a different request is 422 idempotency_key_reused', async () => {
    await s.raw('PUT', path, { body: { enabled: true }, key: KEY });
    expectError(await s.raw('PUT', path, { body: { enabled: false }, key: KEY }), 422, 'idempotency_key_reused');
    expect(s.sim.executed()).toHaveLength(1);
  });

  test('keys are scoped per token', async () => {
    await s.raw('PUT', path, { body: { enabled: true }, key: KEY });
    const other = await s.raw('PUT', path, { body: { enabled: true }, key: KEY, token: s.sim.tokens.reseller });
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(s.sim.executed()).toHaveLength(2);
  });

  test('a key whose first request is still running is 409 idempotency_request_in_progress', async () => {
    s.sim.addFault({ endpoint: 'PUT /servers/{serverId}/firewall', times: 1, effect: { type: 'latency', ms: 300 } });
    const slow = s.raw('PUT', path, { body: { enabled: true }, key: KEY });
    await new Promise((r) => setTimeout(r, 100));
    expectError(await s.raw('PUT', path, { body: { enabled: true }, key: KEY }), 409, 'idempotency_request_in_progress');
    expect((await slow).status).toBe(200);
    expect((await s.raw('PUT', path, { body: { enabled: true }, key: KEY })).headers.get('idempotent-replayed')).toBe('true');
    expect(s.sim.executed()).toHaveLength(1);
  });
});

describe('section 3.2 and 4.5: power actions and operations', () => {
  const actions = `/servers/${IDS.vpsRunning}/actions`;

  test('202 with a non-final operation; queued -> running -> succeeded; power changes only then', async () => {
    const accepted = await s.raw('POST', actions, { body: { action: 'shutdown' }, key: KEY });
    expect(accepted.status).toBe(202);
    const op = accepted.json.data.operation;
    expect(op).toMatchObject({ serverId: IDS.vpsRunning, action: 'shutdown', status: 'queued', completedAt: null });
    const opPath = `/servers/${IDS.vpsRunning}/operations/${op.id}`;

    const during = await s.raw('GET', `/servers/${IDS.vpsRunning}`);
    expect(during.json.data).toMatchObject({ power: 'running', actions: [], currentOperation: { id: op.id } });
    s.clock.advance(200);
    expect((await s.raw('GET', opPath)).json.data.status).toBe('running');
    expect((await s.raw('GET', `/servers/${IDS.vpsRunning}`)).json.data.power).toBe('running');
    s.clock.advance(1_000);
    expect((await s.raw('GET', opPath)).json.data).toMatchObject({ status: 'succeeded', completedAt: expect.any(String) });
    expect((await s.raw('GET', `/servers/${IDS.vpsRunning}`)).json.data).toMatchObject({ power: 'stopped', currentOperation: null, actions: ['start'] });
  });

  test('a second action while one is in progress is 409 action_unsupported', async () => {
    await s.raw('POST', actions, { body: { action: 'reboot' }, key: KEY });
    expectError(await s.raw('POST', actions, { body: { action: 'reboot' }, key: 'second-key-1' }), 409, 'action_unsupported');
  });

  test('a provisioning server becomes active after its delay and then accepts actions', async () => {
    const path = `/servers/${IDS.vpsProvisioning}`;
    expect((await s.raw('GET', path)).json.data).toMatchObject({ status: 'provisioning', actions: [] });
    s.clock.advance(2_000);
    expect((await s.raw('GET', path)).json.data).toMatchObject({ status: 'active', actions: ['start'] });
  });
});

describe('section 8: rate limits', () => {
  const small = useSimulator({ limits: { requestsPerToken: 5, actionsPerToken: 2, requestsPerAccount: 8, windowMs: 10_000 } });

  test('every response reports the tightest budget', async () => {
    const res = await small.raw('GET', '/servers');
    expect(res.headers.get('ratelimit-limit')).toBe('5');
    expect(res.headers.get('ratelimit-remaining')).toBe('4');
    expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    const action = await small.raw('POST', `/servers/${IDS.vpsRunning}/actions`, { body: { action: 'reboot' }, key: KEY });
    expect(action.headers.get('ratelimit-limit')).toBe('2');
    expect(action.headers.get('ratelimit-remaining')).toBe('1');
  });

  test('requests per token: the sixth is 429 with Retry-After, refused requests spend nothing, the window resets', async () => {
    for (let i = 0; i < 5; i++) expect((await small.raw('GET', '/servers')).status).toBe(200);
    const refused = await small.raw('GET', '/servers');
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBe(10);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    small.clock.advance(10_000);
    expect((await small.raw('GET', '/servers')).status).toBe(200);
  });

  test('actions per token have their own, tighter budget', async () => {
    small.sim.setOperationDelays({ queuedMs: 0, runningMs: 0 });
    const act = (action: string, i: number) => small.raw('POST', `/servers/${IDS.vpsRunning}/actions`, { body: { action }, key: `action-key-${i}` });
    expect((await act('reboot', 1)).status).toBe(202);
    expect((await act('reboot', 2)).status).toBe(202);
    expectError(await act('reboot', 3), 429, 'rate_limited');
    expect((await small.raw('GET', '/servers')).status).toBe(200);
  });

  test('replays do not spend the action budget', async () => {
    small.sim.setOperationDelays({ queuedMs: 0, runningMs: 0 });
    const body = { action: 'reboot' };
    const path = `/servers/${IDS.vpsRunning}/actions`;
    for (let i = 0; i < 3; i++) expect((await small.raw('POST', path, { body, key: KEY })).status).toBe(202);
    expect(small.sim.executed({ kind: 'action' })).toHaveLength(1);
  });

  test('requests per account count across tokens', async () => {
    const tokens = [small.sim.tokens.full, small.sim.tokens.reseller, small.sim.tokens['read-only']];
    for (let i = 0; i < 8; i++) expect((await small.raw('GET', '/servers', { token: tokens[i % 3] })).status).toBe(200);
    expectError(await small.raw('GET', '/servers', { token: small.sim.tokens['power-without-control'] }), 429, 'rate_limited');
  });
});

describe('faults', () => {
  const fw = `/servers/${IDS.vpsRunning}/firewall`;

  test.each([
    [503, 'temporarily_unavailable'],
    [429, 'rate_limited'],
  ])('%i for the next N requests, then normal answers', async (status, code) => {
    s.sim.addFault({ endpoint: 'GET /servers/{serverId}/firewall', times: 2, effect: { type: 'error', status } });
    expectError(await s.raw('GET', fw), status, code);
    expectError(await s.raw('GET', fw), status, code);
    expect((await s.raw('GET', fw)).status).toBe(200);
    expect((await s.raw('GET', fw)).headers.get('retry-after')).toBeNull();
  });

  test('500 is a proxy-style answer without an envelope, but with a request id', async () => {
    s.sim.addFault({ endpoint: 'GET *', times: 1, effect: { type: 'error', status: 500 } });
    const res = await s.raw('GET', fw);
    expect(res.status).toBe(500);
    expect(res.json).toBe('Internal Server Error');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  test.each([
    [502, 'action_failed'],
    [503, 'outcome_unknown'],
    [504, 'action_timeout'],
  ])('%i %s on an action, with or without the action having taken effect', async (status, code) => {
    const path = `/servers/${IDS.vpsRunning}/actions`;
    s.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'error', status, code } });
    expectError(await s.raw('POST', path, { body: { action: 'reboot' }, key: 'no-effect-key' }), status, code);
    expect(s.sim.executed()).toEqual([]);
    s.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'error', status, code, takesEffect: true } });
    expectError(await s.raw('POST', path, { body: { action: 'reboot' }, key: 'with-effect-key' }), status, code);
    expect(s.sim.executed()).toHaveLength(1);
  });

  test('probability faults are reproducible from the seed', async () => {
    const sequence = async () => {
      const sim = await startSimulator({ faultSeed: 7 });
      sim.addFault({ endpoint: 'GET /firewall/rulesets', probability: 0.5, effect: { type: 'error', status: 503 } });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) {
        statuses.push((await fetch(`${sim.baseUrl}/firewall/rulesets`, { headers: { authorization: `Bearer ${sim.tokens.full}` } })).status);
      }
      await sim.close();
      return statuses;
    };
    const first = await sequence();
    expect(await sequence()).toEqual(first);
    expect(first.filter((x) => x === 503).length).toBeGreaterThan(3);
    expect(first.filter((x) => x === 200).length).toBeGreaterThan(3);
  });

  test('latency delays the answer', async () => {
    s.sim.addFault({ endpoint: 'GET /servers', times: 1, effect: { type: 'latency', ms: 250 } });
    const started = Date.now();
    expect((await s.raw('GET', '/servers')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
  });

  test('a lost response: the write is applied, the connection dropped, and a retry is replayed', async () => {
    s.sim.addFault({ endpoint: 'PUT /servers/{serverId}/firewall', times: 1, effect: { type: 'drop_response' } });
    await expect(s.raw('PUT', fw, { body: { enabled: true }, key: KEY })).rejects.toThrow();
    expect((await s.raw('GET', fw)).json.data.enabled).toBe(true);
    const retry = await s.raw('PUT', fw, { body: { enabled: true }, key: KEY });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(s.sim.executed()).toHaveLength(1);
    expect(s.sim.requests.find((r) => r.dropped)).toMatchObject({ status: 200, endpoint: 'PUT /servers/{serverId}/firewall' });
  });

  test.each<[string, boolean, string]>([
    ['failed', false, 'running'],
    ['timed_out', false, 'running'],
    ['outcome_unknown', false, 'running'],
    ['outcome_unknown', true, 'stopped'],
    ['failed', true, 'stopped'],
  ])('an operation that ends %s (effect: %s) leaves power %s', async (status, takesEffect, power) => {
    s.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'operation', outcome: { status: status as any, takesEffect } } });
    const res = await s.raw('POST', `/servers/${IDS.vpsRunning}/actions`, { body: { action: 'shutdown' }, key: KEY });
    s.clock.advance(5_000);
    const op = await s.raw('GET', `/servers/${IDS.vpsRunning}/operations/${res.json.data.operation.id}`);
    expect(op.json.data).toMatchObject({ status, message: expect.any(String) });
    expect((await s.raw('GET', `/servers/${IDS.vpsRunning}`)).json.data.power).toBe(power);
  });

  test('stale reads serve the last good value with meta.stale; never a refusal; 503 without one', async () => {
    const fresh = await s.raw('GET', fw);
    s.sim.drift(IDS.vpsRunning, { firewall: { enabled: true } });
    s.clock.advance(3_000);
    s.sim.addFault({ endpoint: 'GET *', effect: { type: 'stale' } });
    const stale = await s.raw('GET', fw);
    expect(stale.json).toEqual({ data: fresh.json.data, meta: { stale: true, observedAt: fresh.json.meta.observedAt } });
    expectError(await s.raw('GET', `/servers/${IDS.otherAccount}/firewall`), 404, 'not_found');
    expectError(await s.raw('GET', `/servers/${IDS.vpsStopped}/firewall`), 503, 'temporarily_unavailable');
  });

  test('the request log records status, endpoint, token name and faults', async () => {
    s.sim.addFault({ endpoint: 'GET /servers', times: 1, effect: { type: 'error', status: 503 } });
    await s.raw('GET', '/servers');
    expect(s.sim.requests.at(-1)).toMatchObject({ method: 'GET', path: '/servers', endpoint: 'GET /servers', tokenName: 'full', status: 503, code: 'temporarily_unavailable', faults: ['error 503'] });
  });
});

describe('control surface over HTTP', () => {
  test('state, drift, faults and the request log are reachable outside /api/v1', async () => {
    const control = (method: string, path: string, body?: unknown) =>
      fetch(s.sim.controlUrl + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
        .then(async (r) => ({ status: r.status, json: await r.json() }));
    expect((await control('PATCH', `/servers/${IDS.vpsRunning}`, { power: 'stopped' })).json.server.power).toBe('stopped');
    expect((await control('POST', '/faults', { endpoint: 'GET /servers', times: 1, effect: { type: 'error', status: 503 } })).status).toBe(201);
    expect((await s.raw('GET', '/servers')).status).toBe(503);
    expect((await control('GET', '/requests')).json.at(-1).status).toBe(503);
    expect((await control('GET', '/state')).json.servers.find((x: any) => x.server.id === IDS.vpsRunning).server.power).toBe('stopped');
    expect((await control('DELETE', '/faults')).status).toBe(200);
    expect((await control('GET', '/nope')).status).toBe(404);
  });
});

afterAll(() => {
  // Every stable code of section 7 was produced by a real request above.
  expect([...API_ERROR_CODES].filter((c) => !producedCodes.has(c))).toEqual([]);
});
