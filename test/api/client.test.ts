import { HostingApiClient, HostingApiError } from '../../src/api';
import * as fx from '../helpers/fixtures';
import { apiError, mockClient, MOCK_BASE_URL, SENTINEL_TOKEN } from '../helpers/mock-api';

const KEY = 'key-0123456789';

type Call = (c: HostingApiClient) => Promise<{ data: unknown }>;
interface EndpointCase {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly fixture: unknown;
  readonly call: Call;
  readonly status?: number;
  readonly expected?: unknown;
  /** A member whose corruption must be reported, as a JSON path below `data`. */
  readonly corrupt: [path: string, mutate: (fixture: any) => unknown];
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));
const { VPS_ID, DED_ID, DED_IP } = fx;

/** Members a newer server may add must be tolerated (and dropped), not rejected. */
function withFutureMember(fixture: unknown): unknown {
  if (Array.isArray(fixture)) return fixture.map(withFutureMember);
  return fixture && typeof fixture === 'object' ? { ...fixture, futureMember: 'tolerated' } : fixture;
}

const ENDPOINTS: EndpointCase[] = [
  {
    name: '4.1 connect',
    method: 'GET',
    path: '/connect',
    fixture: fx.tokenInfo,
    call: (c) => c.connect(),
    corrupt: ['data.apiVersion', (f) => ({ ...f, apiVersion: 'v2' })],
  },
  {
    name: '4.2 list servers',
    method: 'GET',
    path: '/servers',
    fixture: [fx.server],
    call: (c) => c.listServers(),
    corrupt: ['data.0.power', (f) => [{ ...f[0], power: 'on' }]],
  },
  {
    name: '4.3 get server',
    method: 'GET',
    path: `/servers/${VPS_ID}`,
    fixture: fx.serverDetail,
    call: (c) => c.getServer(VPS_ID),
    corrupt: ['data.actions', (f) => { const { actions, ...rest } = f; void actions; return rest; }],
  },
  {
    name: '4.4 metrics',
    method: 'GET',
    path: `/servers/${VPS_ID}/metrics`,
    fixture: fx.metrics,
    call: (c) => c.getMetrics(VPS_ID),
    corrupt: ['data.storage.0.mount', (f) => ({ ...f, storage: [{ ...f.storage[0], mount: 7 }] })],
  },
  {
    name: '4.5 run action',
    method: 'POST',
    path: `/servers/${VPS_ID}/actions`,
    status: 202,
    fixture: { operation: fx.operation },
    expected: fx.operation,
    call: (c) => c.runAction(VPS_ID, 'shutdown', KEY),
    corrupt: ['data.operation.status', (f) => ({ operation: { ...f.operation, status: 'done' } })],
  },
  {
    name: '4.6 operation',
    method: 'GET',
    path: `/servers/${VPS_ID}/operations/op_1`,
    fixture: fx.operation,
    call: (c) => c.getOperation(VPS_ID, 'op_1'),
    corrupt: ['data.id', (f) => ({ ...f, id: null })],
  },
  {
    name: '4.7 list ips',
    method: 'GET',
    path: `/servers/${DED_ID}/ips`,
    fixture: fx.ipEntries,
    call: (c) => c.listIps(DED_ID),
    corrupt: ['data.0.version', (f) => [{ ...f[0], version: 'ipv5' }]],
  },
  {
    name: '4.8 ip settings',
    method: 'GET',
    path: `/servers/${DED_ID}/ips/${DED_IP}`,
    fixture: fx.ipSettings,
    call: (c) => c.getIpSettings(DED_ID, DED_IP),
    corrupt: ['data.editable.rdns', (f) => ({ ...f, editable: { ...f.editable, rdns: 'yes' } })],
  },
  {
    name: '4.9 patch ip',
    method: 'PATCH',
    path: `/servers/${DED_ID}/ips/${DED_IP}`,
    fixture: fx.ipSettings,
    call: (c) => c.updateIpSettings(DED_ID, DED_IP, { rdns: 'web1.example.com' }, KEY),
    corrupt: ['data.protection.layer7', (f) => ({ ...f, protection: { layer4: 'dynamic', layer7: 'sometimes' } })],
  },
  {
    name: '4.10 traffic rates',
    method: 'GET',
    path: `/servers/${DED_ID}/traffic`,
    fixture: fx.trafficRates,
    call: (c) => c.getTraffic(DED_ID),
    corrupt: ['data.kind', (f) => ({ ...f, kind: 'daily' })],
  },
  {
    name: '4.10 traffic monthly',
    method: 'GET',
    path: `/servers/${VPS_ID}/traffic`,
    fixture: fx.trafficMonthly,
    call: (c) => c.getTraffic(VPS_ID),
    corrupt: ['data.months.0.limitGb', (f) => ({ ...f, months: [{ ...f.months[0], limitGb: '1' }] })],
  },
  {
    name: '4.11 ddos',
    method: 'GET',
    path: `/servers/${DED_ID}/ddos?ip=${DED_IP}`,
    fixture: fx.ddosStatus,
    call: (c) => c.getDdosStatus(DED_ID, DED_IP),
    corrupt: ['data.totalIncidents', (f) => ({ ...f, totalIncidents: 1.5 })],
  },
  {
    name: '4.12 ddos rules',
    method: 'GET',
    path: `/servers/${DED_ID}/ips/${DED_IP}/ddos/rules`,
    fixture: fx.ddosRules,
    call: (c) => c.getDdosRules(DED_ID, DED_IP),
    corrupt: ['data.available', (f) => ({ ...f, available: undefined })],
  },
  {
    name: '4.13 rulesets',
    method: 'GET',
    path: '/firewall/rulesets',
    fixture: fx.rulesets,
    call: (c) => c.listRulesets(),
    corrupt: ['data.1.id', (f) => [f[0], { id: '2', name: 'ssh' }]],
  },
  {
    name: '4.14 firewall',
    method: 'GET',
    path: `/servers/${VPS_ID}/firewall`,
    fixture: fx.firewall,
    call: (c) => c.getFirewall(VPS_ID),
    corrupt: ['data.rulesets.0', (f) => ({ ...f, rulesets: [1.5] })],
  },
  {
    name: '4.15 put firewall',
    method: 'PUT',
    path: `/servers/${VPS_ID}/firewall`,
    fixture: fx.firewall,
    call: (c) => c.updateFirewall(VPS_ID, { enabled: true }, KEY),
    corrupt: ['data.enabled', (f) => ({ ...f, enabled: 1 })],
  },
];

describe('every endpoint of section 4', () => {
  test.each(ENDPOINTS)('$name: happy path is parsed and typed', async (ep) => {
    const m = mockClient();
    m.reply(ep.method, ep.path, ep.status ?? 200, { data: withFutureMember(ep.fixture) });
    const res = await ep.call(m.client);
    expect(res.data).toEqual(ep.expected ?? ep.fixture);
    expect(m.requests).toHaveLength(1);
    expect(m.requests[0].headers.authorization).toBe(`Bearer ${SENTINEL_TOKEN}`);
    if (ep.method !== 'GET') {
      expect(m.requests[0].headers['idempotency-key']).toBe(KEY);
      expect(m.requests[0].headers['content-type']).toBe('application/json');
    }
  });

  test.each(ENDPOINTS)('$name: a body that breaks the schema names endpoint, JSON path and request id', async (ep) => {
    const m = mockClient();
    const [jsonPath, mutate] = ep.corrupt;
    m.reply(ep.method, ep.path, ep.status ?? 200, { data: mutate(clone(ep.fixture)) }, { 'x-request-id': 'req_bad_shape' });
    const err = await ep.call(m.client).catch((e) => e);
    expect(err).toBeInstanceOf(HostingApiError);
    expect(err.code).toBe('invalid_response');
    expect(err.requestId).toBe('req_bad_shape');
    expect(err.message).toContain(`${ep.method} ${ep.path.split('?')[0]}`);
    expect(err.message).toContain(`at ${jsonPath}:`);
  });
});

describe('envelope and meta', () => {
  test('meta.stale and observedAt are returned beside data', async () => {
    const m = mockClient();
    m.reply('GET', `/servers/${VPS_ID}/firewall`, 200, { data: fx.firewall, meta: { stale: true, observedAt: '2026-11-20T09:59:58Z' } });
    const res = await m.client.getFirewall(VPS_ID);
    expect(res.meta).toEqual({ stale: true, observedAt: '2026-11-20T09:59:58Z' });
  });

  test.each([
    ['not JSON', 'oops'],
    ['both data and error', { data: fx.firewall, error: { code: 'x', message: 'y', requestId: 'z' } }],
    ['neither member', { result: fx.firewall }],
  ])('%s is invalid_response', async (_name, body) => {
    const m = mockClient();
    m.reply('GET', `/servers/${VPS_ID}/firewall`, 200, body);
    await expect(m.client.getFirewall(VPS_ID)).rejects.toMatchObject({ code: 'invalid_response' });
  });

  test('a replayed write is reported as replayed', async () => {
    const m = mockClient();
    m.reply('PUT', `/servers/${VPS_ID}/firewall`, 200, { data: fx.firewall }, { 'idempotent-replayed': 'true' });
    await expect(m.client.updateFirewall(VPS_ID, { enabled: true }, KEY)).resolves.toMatchObject({ replayed: true });
  });

  test('an API error keeps code, status, request id and fields, and reads well alone', async () => {
    const m = mockClient();
    m.reply('POST', `/servers/${VPS_ID}/actions`, 403, apiError('insufficient_scope', 'the token lacks servers:control'));
    const err: HostingApiError = await m.client.runAction(VPS_ID, 'shutdown', KEY).catch((e) => e);
    expect(err.message).toBe(`403 insufficient_scope on POST /servers/${VPS_ID}/actions (request id req_err_1): the token lacks servers:control`);
    expect(err).toMatchObject({ status: 403, code: 'insufficient_scope', requestId: 'req_err_1' });

    m.reply('PATCH', `/servers/${DED_ID}/ips/${DED_IP}`, 400, apiError('validation_failed', 'invalid', { fields: [{ path: 'rdns', message: 'not a host name' }] }));
    const v: HostingApiError = await m.client.updateIpSettings(DED_ID, DED_IP, { rdns: '-' }, KEY).catch((e) => e);
    expect(v.fields).toEqual([{ path: 'rdns', message: 'not a host name' }]);
    expect(v.message).toContain('[rdns: not a host name]');
  });
});

describe('requests refused before sending', () => {
  test.each([
    ['missing', ''],
    ['too short', 'k'.repeat(7)],
    ['too long', 'k'.repeat(129)],
  ])('an Idempotency-Key that is %s', async (_n, key) => {
    const m = mockClient();
    await expect(m.client.updateFirewall(VPS_ID, { enabled: true }, key)).rejects.toMatchObject({ code: 'invalid_request' });
    expect(m.requests).toHaveLength(0);
  });

  test('keys of exactly 8 and 128 characters are sent', async () => {
    const m = mockClient();
    for (const key of ['k'.repeat(8), 'k'.repeat(128)]) {
      m.reply('PUT', `/servers/${VPS_ID}/firewall`, 200, { data: fx.firewall });
      await m.client.updateFirewall(VPS_ID, { enabled: true }, key);
    }
    expect(m.requests.map((r) => r.headers['idempotency-key'].length)).toEqual([8, 128]);
  });

  test('a body over 10 KB', async () => {
    const m = mockClient();
    const rulesets = Array.from({ length: 3000 }, (_, i) => i + 1000);
    await expect(m.client.updateFirewall(VPS_ID, { rulesets }, KEY)).rejects.toMatchObject({ code: 'invalid_request' });
    expect(m.requests).toHaveLength(0);
  });
});

describe('base URL (section 1, rule 1)', () => {
  test.each([
    ['https://api.example.com/api/v1', 'https://api.example.com/api/v1'],
    ['https://api.example.com/api/v1/', 'https://api.example.com/api/v1'],
    ['http://127.0.0.1:8080/prefix/api/v1//', 'http://127.0.0.1:8080/prefix/api/v1'],
  ])('%s is normalised to %s', (input, expected) => {
    expect(new HostingApiClient({ baseUrl: input, token: 't' }).baseUrl).toBe(expected);
  });

  test.each([
    ['https://api.example.com', /must end in \/api\/v1/],
    ['api.example.com/api/v1', /not an absolute URL/],
    ['ftp://api.example.com/api/v1', /scheme/],
    ['https://user:pw@api.example.com/api/v1', /must not contain credentials/],
    ['https://api.example.com/api/v1?x=1', /query/],
  ])('%s is refused', (input, message) => {
    expect(() => new HostingApiClient({ baseUrl: input, token: 't' })).toThrow(message);
  });
});

test('the client never shows its token in toString or JSON', () => {
  const { client } = mockClient();
  expect(String(client)).toBe(`HostingApiClient(${MOCK_BASE_URL})`);
  expect(JSON.stringify(client)).not.toContain(SENTINEL_TOKEN);
});
