import type { ServerResponse } from 'node:http';
import { SEED_SERVER_IDS as IDS, type RequestLogEntry, type ServerRecord } from '../../src/simulator';
import { DASHBOARD_REQUEST_ROWS, DashboardStream, dashboardServers, MAX_WATCHERS, WATCHER_BUFFER_BYTES } from '../../src/simulator/dashboard';
import { RateLimiter } from '../../src/simulator/rate-limiter';
import { RequestLog } from '../../src/simulator/request-log';
import { logEntry } from '../helpers/request-log-entry';
import { useSimulator } from '../helpers/simulator';

/*
 * The live page's data and files without a browser (test/dashboard drives chromium): the budget
 * history, the server rows, the files and their policy, Retry-After in the log, the event stream.
 */

test('the rate limiter keeps each budget\'s windows, counted and refused, the last 30', () => {
  const limiter = new RateLimiter(1_000);
  const budget = { key: 'token:t1', limit: 2, label: 'token ci' };
  for (let i = 0; i < 3; i++) limiter.check([budget], 0);
  limiter.check([budget], 1_000);
  expect(limiter.budgets()).toEqual([{ key: 'token:t1', label: 'token ci', limit: 2, windows: [{ start: 0, count: 2, refused: 1 }, { start: 1_000, count: 1, refused: 0 }] }]);
  for (let w = 2; w < 40; w++) limiter.check([budget], w * 1_000);
  const { windows } = limiter.budgets()[0];
  expect(windows).toHaveLength(30);
  expect(windows[29].start).toBe(39_000);
});

test('a server row names its rule sets and sums up each address\'s protection', () => {
  const record = {
    accountId: 1,
    server: { id: 'vps_a', name: 'a', type: 'vps', status: 'active', power: 'running', accessRole: 'primary' },
    firewall: { enabled: true, rulesets: [1, 9] },
    ipSettings: new Map([['203.0.113.1', { address: '203.0.113.1', rdns: null, description: '<b>x</b>', protection: { layer4: 'dynamic', layer7: 'off' }, editable: {} }]]),
    bootCount: 0,
  } as unknown as ServerRecord;
  expect(dashboardServers([record], [{ id: 1, name: 'web' }])).toEqual([{
    id: 'vps_a',
    name: 'a',
    type: 'vps',
    status: 'active',
    power: 'running',
    accessRole: 'primary',
    firewall: { enabled: true, rulesets: [{ id: 1, name: 'web' }, { id: 9, name: undefined }] },
    addresses: [{ address: '203.0.113.1', rdns: null, description: '<b>x</b>', protection: 'layer 4 dynamic, layer 7 off' }],
  }]);
});

test('the event stream sends the newest DASHBOARD_REQUEST_ROWS requests at most, with how many there are in all', async () => {
  const requests = new RequestLog();
  for (let i = 0; i < DASHBOARD_REQUEST_ROWS + 100; i++) requests.add(logEntry(`req_${i}`));
  const view = { servers: [], faults: [], budgets: [], windowMs: 1_000, now: 0 };
  const stream = new DashboardStream({ view: () => view, requests });
  const events: Array<{ requests: RequestLogEntry[]; requestCount: number; requestRows: number }> = [];
  const res = Object.assign(fakeResponse(), { write: (text: string) => events.push(JSON.parse(text.split('data: ')[1])) > 0 });
  const updated = () => new Promise<void>((resolve) => {
    stream.changed();
    setTimeout(resolve, 100);
  });
  stream.watch(res as unknown as ServerResponse);
  expect(events[0].requests.map((r) => r.requestId)).toEqual(requests.since(100).map((r) => r.requestId));
  expect([events[0].requestCount, events[0].requestRows]).toEqual([DASHBOARD_REQUEST_ROWS + 100, DASHBOARD_REQUEST_ROWS]);
  requests.add(logEntry('req_next'));
  await updated();
  expect(events[1].requests.map((r) => r.requestId)).toEqual(['req_next']);
  for (let i = 0; i < DASHBOARD_REQUEST_ROWS + 1; i++) requests.add(logEntry(`req_burst_${i}`));
  await updated();
  expect(events[2].requests).toHaveLength(DASHBOARD_REQUEST_ROWS);
  expect(events[2].requests[0].requestId).toBe('req_burst_1');
  // The page goes: nothing of the stream is left behind (its age timer would outlive this file).
  res.destroy();
  expect(stream.watching).toBe(0);
});

test('a page that stops reading gets nothing until it drains, then one fresh view; one past the buffer cap is closed', async () => {
  const requests = new RequestLog();
  const view = { servers: [], faults: [], budgets: [], windowMs: 1_000, now: 0 };
  const stream = new DashboardStream({ view: () => view, requests });
  const writes: string[] = [];
  const res = Object.assign(fakeResponse(), { write: (text: string) => (writes.push(text), false) });
  const { handlers } = res;
  const updated = () => new Promise<void>((resolve) => {
    stream.changed();
    setTimeout(resolve, 100);
  });
  stream.watch(res as unknown as ServerResponse);
  expect(writes).toHaveLength(1);
  for (let i = 0; i < 3; i++) {
    requests.add(logEntry(`req_${i}`));
    await updated();
  }
  expect(writes).toHaveLength(1);
  handlers.get('drain')!();
  expect(writes).toHaveLength(2);
  expect(JSON.parse(writes[1].split('data: ')[1]).requests.map((r: RequestLogEntry) => r.requestId)).toEqual(['req_0', 'req_1', 'req_2']);
  res.writableLength = WATCHER_BUFFER_BYTES + 1;
  handlers.get('drain')!();
  expect(res.destroyed).toBe(true);
  expect(stream.watching).toBe(0);
});

/** A stand-in for a stream's response: records writes, holds its event handlers, never drains by itself; `destroy` closes it. */
function fakeResponse() {
  const handlers = new Map<string, () => void>();
  const res = {
    handlers,
    writableLength: 0,
    destroyed: false,
    status: 0,
    body: '',
    headers: {} as Record<string, string>,
    writeHead: (status: number, headers: Record<string, string>) => Object.assign(res, { status, headers }),
    end: (body: string) => (res.body = body),
    on: (event: string, handler: () => void) => (handlers.set(event, handler), res),
    once: (event: string, handler: () => void) => (handlers.set(event, handler), res),
    write: () => false,
    destroy: () => {
      res.destroyed = true;
      handlers.get('close')?.();
    },
  };
  return res;
}

describe('streams that never read give their place up (issue 41, point 4)', () => {
  const view = { servers: [], faults: [], budgets: [], windowMs: 1_000, now: 0 };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  test('a stream that leaves an update unread past the stall time is closed; the 33rd page then gets in', async () => {
    const stream = new DashboardStream({ view: () => view, requests: new RequestLog() }, { maxAgeMs: 60_000, stallMs: 100 });
    const idle = Array.from({ length: MAX_WATCHERS }, () => fakeResponse());
    for (const res of idle) stream.watch(res as unknown as ServerResponse);
    const late = fakeResponse();
    stream.watch(late as unknown as ServerResponse);
    expect(late.status).toBe(503);
    expect(JSON.parse(late.body).error).toBe(`${MAX_WATCHERS} live pages are open, the most one simulator serves: close one, or retry in 60 s, when the oldest stream ends (streams last 60 s, and its page reconnects)`);
    expect(late.headers['retry-after']).toBe('60');
    await sleep(300);
    expect(idle.every((res) => res.destroyed)).toBe(true);
    expect(stream.watching).toBe(0);
    const next = fakeResponse();
    stream.watch(next as unknown as ServerResponse);
    expect(next.status).toBe(200);
    next.destroy();
    expect(stream.watching).toBe(0);
  });

  test('every stream ends at its maximum age, read or not (its page reconnects for a fresh view)', async () => {
    const stream = new DashboardStream({ view: () => view, requests: new RequestLog() }, { maxAgeMs: 100, stallMs: 60_000 });
    const res = Object.assign(fakeResponse(), { write: () => true });
    stream.watch(res as unknown as ServerResponse);
    expect(res.destroyed).toBe(false);
    await sleep(300);
    expect(res.destroyed).toBe(true);
    expect(stream.watching).toBe(0);
  });
});

describe('served by the simulator', () => {
  const t = useSimulator({ limits: { requestsPerToken: 1 } });

  test('at /__simulator/, with its own files under a policy that allows nothing else', async () => {
    const bare = await fetch(t.sim.controlUrl, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([308, '/__simulator/']);
    expect(t.sim.dashboardUrl).toBe(`${t.sim.controlUrl}/`);
    for (const [file, type] of [['', 'text/html'], ['live-page.js', 'text/javascript'], ['live-page.css', 'text/css'], ['favicon.svg', 'image/svg+xml']]) {
      const answer = await fetch(`${t.sim.dashboardUrl}${file}`);
      expect([file, answer.status, answer.headers.get('content-type')?.split(';')[0]]).toEqual([file, 200, type]);
      expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    }
    expect(t.sim.requests).toEqual([]);
  });

  test('a 429 is logged with its Retry-After; the event stream carries it, by token name, never a secret', async () => {
    await t.raw('GET', '/servers');
    const refused = await t.raw('GET', `/servers/${IDS.vpsRunning}`);
    expect(refused.status).toBe(429);
    expect(t.sim.requests.map((r) => [r.status, r.retryAfterSeconds])).toEqual([[200, undefined], [429, Number(refused.headers.get('retry-after'))]]);

    const controller = new AbortController();
    const stream = await fetch(`${t.sim.controlUrl}/events`, { signal: controller.signal });
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const { value } = await stream.body!.getReader().read();
    controller.abort();
    const event = new TextDecoder().decode(value);
    expect(event).toMatch(/^event: update\ndata: \{.*\}\n\n$/);
    const update = JSON.parse(event.slice(event.indexOf('data: ') + 6));
    expect(update.requests.map((r: { tokenName: string; status: number }) => `${r.tokenName} ${r.status}`)).toEqual(['full 200', 'full 429']);
    expect(update.budgets.find((b: { label: string }) => b.label === 'token full').windows[0]).toEqual({ start: expect.any(Number), count: 1, refused: 1 });
    for (const secret of Object.values(t.sim.tokens)) expect(event).not.toContain(secret);
  });
});

describe('the request log', () => {
  const t = useSimulator();

  test('names the write each request carried out; a replay carried out none', async () => {
    const write = { body: { enabled: true, rulesets: [1] }, key: 'dashboard-test-firewall-1' };
    expect((await t.raw('PUT', `/servers/${IDS.vpsRunning}/firewall`, write)).status).toBe(200);
    expect((await t.raw('PUT', `/servers/${IDS.vpsRunning}/firewall`, write)).status).toBe(200);
    await t.raw('GET', `/servers/${IDS.vpsRunning}/firewall`);
    expect(t.sim.requests.map((r) => [r.method, r.replayed, r.carriedOut])).toEqual([
      ['PUT', false, ['firewall: {"enabled":true,"rulesets":[1]}']],
      ['PUT', true, undefined],
      ['GET', false, undefined],
    ]);
  });
});
