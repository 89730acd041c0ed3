import { request } from 'node:http';
import { SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { MAX_WATCHERS } from '../../src/simulator/dashboard';
import { IdempotencyStore } from '../../src/simulator/idempotency-store';
import { LastGoodReads } from '../../src/simulator/last-good-reads';
import { loggedText, MAX_LOGGED_FIELD, MAX_REQUEST_LOG_BYTES, RequestLog } from '../../src/simulator/request-log';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator';
import { logEntry } from '../helpers/request-log-entry';
import { useSimulator } from '../helpers/simulator';

/*
 * The simulator where it meets the outside: a web page in the developer's browser, a name rebound
 * to 127.0.0.1, an address other machines reach, and clients that never stop sending or reading.
 */

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A raw request with exactly these headers (fetch would set its own Host and Sec-Fetch-Mode). */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, setHost: !('host' in headers) }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const FAULT = JSON.stringify({ effect: { type: 'error', status: 503 } });

describe('a web page the developer visits cannot drive the control surface', () => {
  const s = useSimulator();

  test('a plain form (text/plain) from another site adding a fault is a 403 that says why, and the API is untouched', async () => {
    const answer = await send(`${s.sim.controlUrl}/faults`, 'POST', { 'content-type': 'text/plain', 'origin': 'http://evil.example' }, FAULT);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error).toBe('control requests are accepted from the simulator\'s own pages only; this one came from "http://evil.example"');
    expect((await s.raw('GET', '/servers')).status).toBe(200);
  });

  test.each<[string, Record<string, string>]>([
    ['a no-cors fetch with JSON from another site', { 'content-type': 'application/json', 'origin': 'http://evil.example' }],
    ['a text/plain body with no Origin', { 'content-type': 'text/plain' }],
    ['a request the browser marks cross-site', { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }],
  ])('%s cannot mint a token, drift a server or clear faults', async (_name, headers) => {
    s.sim.addFault({ endpoint: 'GET /servers/{serverId}/traffic', effect: { type: 'stale' } });
    const mint = await send(`${s.sim.controlUrl}/tokens`, 'POST', headers, '{"scopes":["servers:power"]}');
    expect([mint.status, mint.body]).toEqual([403, expect.not.stringContaining('secret')]);
    expect((await send(`${s.sim.controlUrl}/servers/${IDS.vpsRunning}`, 'PATCH', headers, '{"power":"stopped"}')).status).toBe(403);
    expect((await send(`${s.sim.controlUrl}/faults`, 'DELETE', headers)).status).toBe(403);
    expect(s.sim.state.allServers().find((r) => r.server.id === IDS.vpsRunning)?.server.power).toBe('running');
    expect(s.sim.addFault({ effect: { type: 'stale' } })).toBe(2);
  });

  test('JSON from the simulator\'s own origin (the live page) is accepted', async () => {
    const origin = new URL(s.sim.controlUrl).origin;
    const headers = { 'content-type': 'application/json', origin, 'sec-fetch-site': 'same-origin' };
    expect((await send(`${s.sim.controlUrl}/faults`, 'POST', headers, FAULT)).status).toBe(201);
    expect((await send(`${s.sim.controlUrl}/faults`, 'DELETE', headers)).status).toBe(200);
  });
});

describe('a name rebound to 127.0.0.1 (DNS rebinding) gets nothing', () => {
  const s = useSimulator();
  const host = { host: 'attacker.example:8787' };

  test.each([
    ['GET', '/__simulator/state', undefined],
    ['GET', '/__simulator/', undefined],
    ['POST', '/__simulator/tokens', '{"scopes":["servers:read","servers:power"]}'],
    ['PATCH', `/__simulator/servers/${IDS.vpsRunning}`, '{"power":"stopped"}'],
    ['GET', '/api/v1/servers', undefined],
    ['POST', `/api/v1/servers/${IDS.vpsRunning}/actions`, '{"action":"power_off"}'],
  ])('%s %s is a 421 saying the host is not served, naming none of the machine\'s', async (method, path, body) => {
    const origin = new URL(s.sim.baseUrl).origin;
    const answer = await send(`${origin}${path}`, method, {
      ...host, 'content-type': 'application/json', 'authorization': `Bearer ${s.sim.tokens.full}`, 'idempotency-key': 'rebinding-attack-0001',
    }, body);
    expect(answer.status).toBe(421);
    expect(JSON.parse(answer.body).error).toMatch(/^this simulator does not answer requests for the host "attacker\.example:8787"\. Use localhost/);
    expect(answer.body).not.toContain('127.0.0.1');
    expect(answer.body).not.toContain(s.sim.tokens.full);
    expect(s.sim.executed()).toEqual([]);
    expect(s.sim.state.allServers().find((r) => r.server.id === IDS.vpsRunning)?.server.power).toBe('running');
  });

  test('localhost and 127.0.0.1 both work, on the API and the control surface', async () => {
    const { port } = new URL(s.sim.baseUrl);
    for (const name of ['localhost', '127.0.0.1']) {
      expect((await send(`${s.sim.baseUrl}/servers`, 'GET', { host: `${name}:${port}`, authorization: `Bearer ${s.sim.tokens.full}` })).status).toBe(200);
      expect((await send(`${s.sim.controlUrl}/state`, 'GET', { host: `${name}:${port}` })).status).toBe(200);
    }
  });
});

describe('listening where other machines reach it (--host 0.0.0.0)', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ host: '0.0.0.0' });
  });
  afterAll(() => sim.close());
  const local = (path: string) => `http://127.0.0.1:${new URL(sim.baseUrl).port}${path}`;

  test('the control surface and the live page need the access key generated at start', async () => {
    expect(sim.accessKey).toMatch(/^[\w-]{32}$/);
    for (const path of ['/__simulator/state', '/__simulator/requests', '/__simulator/', '/__simulator/events', '/__simulator/live-page.js']) {
      const refused = await send(local(path), 'GET', {});
      expect([path, refused.status]).toEqual([path, 401]);
      expect(JSON.parse(refused.body).error).toContain('its control surface and live page need the access key it printed at start');
    }
    expect((await send(local('/__simulator/state'), 'GET', { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await send(local('/__simulator/state'), 'GET', { authorization: `Bearer ${sim.accessKey}` })).status).toBe(200);
    const write = { 'authorization': `Bearer ${sim.accessKey}`, 'content-type': 'application/json' };
    expect((await send(local('/__simulator/faults'), 'POST', write, FAULT)).status).toBe(201);
    expect((await send(local('/__simulator/faults'), 'DELETE', write)).status).toBe(200);
  });

  test('the live page opened from the printed address keeps the key in a cookie and drops it from the address', async () => {
    expect((await send(local('/__simulator/?access=wrong'), 'GET', {})).status).toBe(401);
    const opened = await send(local(`/__simulator/?access=${sim.accessKey}`), 'GET', {});
    expect([opened.status, opened.headers.location]).toEqual([303, '/__simulator/']);
    const cookie = String(opened.headers['set-cookie']);
    expect(cookie).toBe(`hosting_simulator_access=${sim.accessKey}; Path=/__simulator; HttpOnly; SameSite=Strict`);
    const page = await send(local('/__simulator/'), 'GET', { cookie: cookie.split(';')[0] });
    expect([page.status, page.body]).toEqual([200, expect.stringContaining('<title>Hosting API simulator</title>')]);
  });

  test('the demo tokens\' fixed secrets are refused; the generated ones work', async () => {
    expect(sim.tokens.full).toMatch(/^hsim_full_[0-9a-f]{32}$/);
    expect((await send(local('/api/v1/servers'), 'GET', { authorization: 'Bearer hsim_full_0123456789abcdef' })).status).toBe(401);
    expect((await send(local('/api/v1/servers'), 'GET', { authorization: `Bearer ${sim.tokens.full}` })).status).toBe(200);
  });

  test('on loopback no key is asked for, and the demo secrets stay as the docs print them', async () => {
    const loopback = await startSimulator();
    try {
      expect(loopback.accessKey).toBeUndefined();
      expect(loopback.tokens.full).toBe('hsim_full_0123456789abcdef');
      expect((await fetch(`${loopback.controlUrl}/state`)).status).toBe(200);
    } finally {
      await loopback.close();
    }
  });
});

describe('what the simulator keeps is bounded', () => {
  test('a latency fault longer than 10 minutes is a 400 naming the cap', async () => {
    const sim = await startSimulator();
    try {
      const answer = await send(`${sim.controlUrl}/faults`, 'POST', { 'content-type': 'application/json' }, JSON.stringify({ effect: { type: 'latency', ms: 2_000_000_000 } }));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).error).toBe('invalid fault rule: effect.ms: at most 600000 (10 minutes)');
    } finally {
      await sim.close();
    }
  });

  test('the request log is a ring of the newest N, with paths cut, and says how many it let go', async () => {
    const sim = await startSimulator({ requestLogSize: 5 });
    try {
      for (let i = 0; i < 8; i++) await fetch(`${sim.baseUrl}/servers?n=${i}&pad=${'x'.repeat(2_000)}`);
      expect(sim.requests.map((r) => r.path.slice(0, 12))).toEqual(['/servers?n=3', '/servers?n=4', '/servers?n=5', '/servers?n=6', '/servers?n=7']);
      expect(sim.requests[0].path).toBe(loggedText(`/servers?n=3&pad=${'x'.repeat(2_000)}`));
      expect(sim.requests[0].path).toMatch(new RegExp(`^.{${MAX_LOGGED_FIELD}}… \\(1761 more characters\\)$`));
      expect(sim.requestsDropped).toBe(3);
      const answer = await fetch(`${sim.controlUrl}/requests`);
      expect([answer.headers.get('simulator-requests-total'), answer.headers.get('simulator-requests-dropped')]).toEqual(['8', '3']);
      expect(await answer.json()).toHaveLength(5);
    } finally {
      await sim.close();
    }
  });

  test('the ring keeps order across its seam', () => {
    const log = new RequestLog(3);
    for (let i = 0; i < 7; i++) log.add(logEntry(`r${i}`));
    expect(log.since().map((e) => e.requestId)).toEqual(['r4', 'r5', 'r6']);
    expect(log.since(5).map((e) => e.requestId)).toEqual(['r5', 'r6']);
    expect(log.since(1).map((e) => e.requestId)).toEqual(['r4', 'r5', 'r6']);
    expect([log.total, log.dropped]).toEqual([7, 4]);
    expect(loggedText('/servers')).toBe('/servers');
    expect(() => new RequestLog(0)).toThrow('the request log keeps at least 1 request; got 0');
  });

  test('every text field is cut at 256 characters, saying how much was cut, and the log keeps at most its bytes', () => {
    const key = 'k'.repeat(15_000);
    const log = new RequestLog(10_000, 64 * 1024);
    for (let i = 0; i < 1_000; i++) log.add({ ...logEntry(`r${i}`), idempotencyKey: key, path: `/servers?${'q'.repeat(4_000)}`, serverId: 'vps_'.repeat(100) });
    const [first] = log.since();
    expect(first.idempotencyKey).toBe(`${'k'.repeat(MAX_LOGGED_FIELD)}… (${15_000 - MAX_LOGGED_FIELD} more characters)`);
    expect(first.serverId).toHaveLength(MAX_LOGGED_FIELD + ' … (144 more characters)'.length - 1);
    expect(Buffer.byteLength(JSON.stringify(log.since()))).toBeLessThanOrEqual(64 * 1024);
    expect(log.count).toBeGreaterThan(50);
    expect([log.total, log.dropped + log.count]).toEqual([1_000, 1_000]);
    expect(log.since().at(-1)?.requestId).toBe('r999');
    expect(log.since(990).map((e) => e.requestId)).toEqual(Array.from({ length: 10 }, (_, i) => `r${990 + i}`));
  });

  test('40,000 requests with 4 KB queries and keys: the log adds under 100 MB of memory and serves at most its 4 MB', () => {
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    const log = new RequestLog();
    for (let i = 0; i < 40_000; i++) {
      log.add({ ...logEntry(`req_${i}`), path: `/servers?filter=${'x'.repeat(4_096)}&n=${i}`, idempotencyKey: `${'k'.repeat(4_096)}${i}` });
    }
    const added = process.memoryUsage().heapUsed - before;
    expect(added).toBeLessThan(100 * 1024 * 1024);
    // The entries' bytes, and the array's brackets and commas.
    expect(Buffer.byteLength(JSON.stringify(log.since()))).toBeLessThanOrEqual(MAX_REQUEST_LOG_BYTES + log.count + 1);
    expect(MAX_REQUEST_LOG_BYTES).toBe(4 * 1024 * 1024);
    // The newest that fit: fewer than the 10,000 the count allows, since each is large.
    expect([log.count > 4_000, log.count < 10_000, log.since().at(-1)?.requestId]).toEqual([true, true, 'req_39999']);
  });

  test('expired idempotency keys are let go on a sweep, and the keys kept are capped', () => {
    const store = new IdempotencyStore(3);
    store.begin('t', 'key-1', 'f', 0);
    store.complete('t', 'key-1', { status: 200, body: '{}' });
    store.begin('t', 'key-2', 'f', 1_000);
    expect(store.size).toBe(2);
    store.begin('t', 'key-3', 'f', 25 * 60 * 60 * 1000);
    expect(store.size).toBe(1);
    for (let i = 4; i < 10; i++) store.begin('t', `key-${i}`, 'f', 25 * 60 * 60 * 1000);
    expect(store.size).toBe(3);
    expect(store.wouldReplay('t', 'key-9', 'f', 25 * 60 * 60 * 1000)).toBe(false);
    expect(store.begin('t', 'key-9', 'f', 25 * 60 * 60 * 1000)).toEqual({ kind: 'in_progress' });
  });

  test('the last good answers are the most recently used few', () => {
    const reads = new LastGoodReads(2);
    const read = (n: number) => ({ data: n, observedAt: '', observedAtMs: n });
    reads.set('a', read(1));
    reads.set('b', read(2));
    reads.get('a');
    reads.set('c', read(3));
    expect([reads.get('a')?.data, reads.get('b'), reads.get('c')?.data, reads.count]).toEqual([1, undefined, 3, 2]);
  });
});

describe('live pages that stop reading', () => {
  test('a watcher that does not read gets no more writes until it drains, and the number of watchers is capped', async () => {
    const sim = await startSimulator();
    const stalled: Array<{ destroy: () => void }> = [];
    try {
      // Sockets that connect and never read: the kernel buffers fill, then the simulator's writes stop.
      const { port } = new URL(sim.baseUrl);
      for (let i = 0; i < MAX_WATCHERS; i++) {
        await new Promise<void>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port, path: '/__simulator/events' }, (res) => {
            res.pause();
            stalled.push(req);
            resolve();
          });
          req.on('error', reject).end();
        });
      }
      const extra = await send(`${sim.controlUrl}/events`, 'GET', {});
      expect(extra.status).toBe(503);
      expect(JSON.parse(extra.body).error).toMatch(new RegExp(`^${MAX_WATCHERS} live pages are open, the most one simulator serves: close one, or retry in \\d+ s`));
      const before = process.memoryUsage().rss;
      for (let i = 0; i < 1_500; i++) await fetch(`${sim.baseUrl}/servers?${'p'.repeat(1_500)}${i}`);
      await new Promise((r) => setTimeout(r, 200));
      // Unbounded, 32 watchers of 1,500 updates of up to 500 requests each would buffer gigabytes.
      expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
    } finally {
      for (const req of stalled) req.destroy();
      await sim.close();
    }
  }, 60_000);
});

test('with timedTransitions off, nothing changes by itself: the demo\'s provisioning VPS stays provisioning', async () => {
  let now = Date.parse('2026-11-20T10:00:00Z');
  const still = await startSimulator({ timedTransitions: false, now: () => now });
  const timed = await startSimulator({ now: () => now });
  try {
    now += 60_000;
    const status = (sim: RunningSimulator) => {
      sim.state.settle();
      return sim.state.allServers().find((r) => r.server.id === IDS.vpsProvisioning)?.server.status;
    };
    expect([status(still), status(timed)]).toEqual(['provisioning', 'active']);
  } finally {
    await Promise.all([still.close(), timed.close()]);
  }
});

