import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  backoffDelayMs, type Budgets, FileBudgetStore, HostingApiClient, HostingApiError, isRetryable, isTransientLogLine, parseRetryAfter, RateLimitPacer,
  ANSWER_RECHECK_MS, limitWords, MAX_UNAVAILABLE_BEFORE_AN_ANSWER, PROBE_MS, sharedBudgetFile, STALE_BUDGET_MS, STALE_LOCK_MS, waitSummary,
  type HttpMethod,
} from '../../src/api';
import * as fx from '../helpers/fixtures';
import { apiError, mockClient, SENTINEL_TOKEN } from '../helpers/mock-api';

const KEY = 'key-0123456789';
const FW = `/servers/${fx.VPS_ID}/firewall`;
const ACTIONS = `/servers/${fx.VPS_ID}/actions`;

describe('isRetryable (pure)', () => {
  test.each<[HttpMethod, number, string, boolean]>([
    ['GET', 0, 'network_error', true],
    ['GET', 0, 'timeout', true],
    ['GET', 429, 'rate_limited', true],
    ['GET', 503, 'temporarily_unavailable', true],
    ['GET', 500, 'unexpected_status', true],
    ['GET', 400, 'validation_failed', false],
    ['GET', 401, 'unauthorized', false],
    ['GET', 403, 'insufficient_scope', false],
    ['GET', 404, 'not_found', false],
    ['POST', 0, 'network_error', true],
    ['POST', 0, 'timeout', true],
    ['POST', 429, 'rate_limited', true],
    ['POST', 503, 'temporarily_unavailable', true],
    ['POST', 409, 'idempotency_request_in_progress', true],
    ['PUT', 409, 'idempotency_request_in_progress', true],
    ['PATCH', 0, 'network_error', true],
    ['POST', 400, 'validation_failed', false],
    ['POST', 401, 'unauthorized', false],
    ['POST', 403, 'primary_owner_required', false],
    ['POST', 404, 'not_found', false],
    ['POST', 409, 'action_unsupported', false],
    ['POST', 422, 'idempotency_key_reused', false],
    ['POST', 423, 'service_locked', false],
    ['POST', 500, 'unexpected_status', false],
    ['POST', 502, 'action_failed', false],
    ['POST', 503, 'outcome_unknown', false],
    ['POST', 504, 'action_timeout', false],
  ])('%s %i %s -> %s', (method, status, code, expected) => {
    expect(isRetryable({ method, status, code: code as HostingApiError['code'] })).toBe(expected);
  });
});

describe('backoff and Retry-After (pure)', () => {
  const opts = { baseDelayMs: 500, maxDelayMs: 8_000 };
  test('grows exponentially, is capped, and jitters within the upper half', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelayMs(a, opts, () => 1))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect(backoffDelayMs(3, opts, () => 0)).toBe(1000);
  });
  test('never shorter than the server asks', () => {
    expect(backoffDelayMs(1, opts, () => 0, 30)).toBe(30_000);
  });
  test('Retry-After as seconds or HTTP date', () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Fri, 20 Nov 2026 10:00:05 GMT', now)).toBe(5);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('RateLimitPacer (pure)', () => {
  test('waits for the reset once the budget is spent, then forgets it', () => {
    const pacer = new RateLimitPacer(() => 0);
    pacer.observe('request', { remaining: '1', reset: '10' }, 0);
    expect(pacer.acquire('request', 0)).toBe(0);
    expect(pacer.acquire('request', 1_000)).toBe(9_000);
    expect(pacer.acquire('request', 10_000)).toBe(0);
  });
  test('an action waits for both budgets; a read only for the general one', () => {
    const pacer = new RateLimitPacer(() => 0);
    pacer.observe('action', { remaining: '0', reset: '30' }, 0);
    expect(pacer.acquire('request', 0)).toBe(0);
    expect(pacer.acquire('action', 0)).toBe(30_000);
  });
  test('the first request of a window nothing is known of goes alone; its answer lets the others go, and counts the requests still in flight', () => {
    const pacer = new RateLimitPacer(() => 0);
    expect(pacer.acquire('request', 0)).toBe(0);
    // The others wait for its answer, a fraction of a second: no limit is spent.
    expect(pacer.acquire('request', 0)).toBe(ANSWER_RECHECK_MS);
    expect(pacer.lastWaitIsProbe).toBe(true);
    pacer.observe('request', { remaining: '39', reset: '60' }, 5);
    for (let i = 0; i < 10; i++) expect(pacer.acquire('request', 5)).toBe(0);
    // The first of their answers says 5 are left; the nine others in flight will spend them and more.
    pacer.observe('request', { remaining: '5', reset: '60' }, 6);
    expect(pacer.acquire('request', 6)).toBe(59_999);
    expect(pacer.lastWaitIsProbe).toBe(false);
    // A probe that got no answer (a lost connection) is followed by another at once, as is one whose answer is late;
    // a request that got none is no longer in flight.
    const fresh = new RateLimitPacer(() => 0);
    expect(fresh.acquire('request', 0)).toBe(0);
    fresh.release('request');
    expect(fresh.acquire('request', 0)).toBe(0);
    expect(fresh.acquire('request', PROBE_MS)).toBe(0);
    // The first answer says 2 are left: one of them is the late probe's, still in flight. The last
    // few of a window go one at a time, each after the answer before it.
    fresh.observe('request', { remaining: '2', reset: '60' }, PROBE_MS);
    expect(fresh.acquire('request', PROBE_MS)).toBe(ANSWER_RECHECK_MS);
    expect(fresh.lastWaitIsProbe).toBe(true);
    fresh.observe('request', { remaining: '1', reset: '60' }, PROBE_MS + 5);
    expect(fresh.acquire('request', PROBE_MS + 5)).toBe(0);
    expect(fresh.acquire('request', PROBE_MS + 5)).toBe(60_000 - 5);
  });

  test('after a reset, one request finds out the new window: the rest do not burst into a window others may have spent', () => {
    const pacer = new RateLimitPacer(() => 0);
    pacer.observe('request', { remaining: '0', reset: '10' }, 0);
    expect(pacer.acquire('request', 0)).toBe(10_000);
    expect(pacer.acquire('request', 10_000)).toBe(0);
    expect(pacer.acquire('request', 10_000)).toBe(ANSWER_RECHECK_MS);
    // The window another process opened has 3 left: its last few go one at a time, each answer telling what is left.
    pacer.observe('request', { remaining: '3', reset: '55' }, 10_020);
    expect([pacer.acquire('request', 10_020), pacer.acquire('request', 10_020)]).toEqual([0, ANSWER_RECHECK_MS]);
    pacer.observe('request', { remaining: '2', reset: '55' }, 10_030);
    expect(pacer.acquire('request', 10_030)).toBe(0);
    pacer.observe('request', { remaining: '1', reset: '55' }, 10_040);
    expect(pacer.acquire('request', 10_040)).toBe(0);
    expect(pacer.acquire('request', 10_040)).toBe(55_000 - 20);
  });

  test('a reset the pacer foresaw wrongly (a restarted API, another runner\'s window): no burst of 429s, one request finds out', () => {
    // The server's fixed window of 40 opened at 0 and has 5 left until 60 s; the pacer believes it resets at 2 s.
    let spent = 35;
    const answer = (t: number) => (spent < 40 ? (spent++, { status: 200, remaining: String(40 - spent), reset: String(Math.ceil((60_000 - t) / 1000)) }) : { status: 429, remaining: '0', reset: '58' });
    const pacer = new RateLimitPacer(() => 0);
    pacer.observe('request', { remaining: '0', reset: '2' }, 0);
    // Ten requests from 2 s: each round, what the pacer lets through reaches the server at once, then its answers come.
    let pending = 10;
    const statuses: number[] = [];
    for (let t = 2_000; pending > 0 && t < 3_000; t += 10) {
      const sent = Array.from({ length: pending }, () => pacer.acquire('request', t)).filter((wait) => wait === 0).length;
      pending -= sent;
      for (const a of Array.from({ length: sent }, () => answer(t))) {
        pacer.observe('request', a, t + 5);
        statuses.push(a.status);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });

  test('an API that reports no figures is never probed: its requests go as they come', () => {
    const pacer = new RateLimitPacer(() => 0);
    expect(pacer.acquire('request', 0)).toBe(0);
    pacer.observe('request', {}, 5);
    for (let i = 0; i < 10; i++) expect(pacer.acquire('request', 5 + PROBE_MS)).toBe(0);
  });

  test('headers without figures change nothing', () => {
    const pacer = new RateLimitPacer(() => 0);
    pacer.observe('request', {}, 0);
    pacer.observe('request', { remaining: 'x', reset: '1' }, 0);
    expect(pacer.acquire('request', 0)).toBe(0);
  });
});

describe('retries through the client', () => {
  const retryCases: Array<[string, HttpMethod, number, string]> = [
    ['GET 429', 'GET', 429, 'rate_limited'],
    ['GET 503 temporarily_unavailable', 'GET', 503, 'temporarily_unavailable'],
    ['PUT 429', 'PUT', 429, 'rate_limited'],
    ['PUT 503 temporarily_unavailable', 'PUT', 503, 'temporarily_unavailable'],
    ['PUT 409 idempotency_request_in_progress', 'PUT', 409, 'idempotency_request_in_progress'],
  ];
  test.each(retryCases)('%s is retried with the same key', async (_n, method, status, code) => {
    const m = mockClient();
    m.reply(method, FW, status, apiError(code), { 'retry-after': '2' });
    m.reply(method, FW, 200, { data: fx.firewall });
    const res = method === 'GET' ? await m.client.getFirewall(fx.VPS_ID) : await m.client.updateFirewall(fx.VPS_ID, { enabled: true }, KEY);
    expect(res.data).toEqual(fx.firewall);
    expect(m.requests).toHaveLength(2);
    expect(m.sleeps[0]).toBeGreaterThanOrEqual(2_000);
    if (method !== 'GET') {
      expect(m.requests.map((r) => r.headers['idempotency-key'])).toEqual([KEY, KEY]);
    }
  });

  test('every wait is logged when it starts, with its length and cause, and what a client waited is summed by cause', async () => {
    const m = mockClient();
    m.reply('GET', FW, 429, apiError('rate_limited'), { 'retry-after': '35' });
    m.reply('GET', FW, 200, { data: fx.firewall }, { 'ratelimit-limit': '120', 'ratelimit-remaining': '0', 'ratelimit-reset': '3' });
    m.reply('GET', FW, 200, { data: fx.firewall });
    await m.client.getFirewall(fx.VPS_ID);
    await m.client.getFirewall(fx.VPS_ID);
    expect(m.logs.filter((l) => l.includes('waiting'))).toEqual([
      `GET ${FW}: waiting 35000 ms before attempt 2 (429 rate_limited, Retry-After 35 s)`,
      expect.stringMatching(new RegExp(`^GET ${FW}: the token's limit of 120 requests a minute is spent; waiting \\d\\.\\d s for it to reset$`)),
    ]);
    expect(m.logs.filter((l) => l.includes('waiting')).every(isTransientLogLine)).toBe(true);
    expect(m.client.waited.map((w) => w.cause)).toEqual(['the API\'s 429 rate_limited answers (waited out as Retry-After asked)', 'the token\'s limit of 120 requests a minute']);
    expect(waitSummary([m.client])).toMatch(
      /^waited 3\d s for the API's limits: 35 s for the API's 429 rate_limited answers \(waited out as Retry-After asked\), \d\.\d s for the token's limit of 120 requests a minute; every run that uses the token shares them/,
    );
    expect(waitSummary([mockClient().client])).toBeUndefined();
  });

  test('a refused connection fails within a few seconds, saying where and how often it tried', async () => {
    const client = new HostingApiClient({ baseUrl: 'http://127.0.0.1:9/api/v1', token: SENTINEL_TOKEN });
    const started = Date.now();
    const err = await client.listServers().catch((e: HostingApiError) => e);
    await client.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(err).toMatchObject({ code: 'network_error', attempt: 4 });
    expect((err as HostingApiError).message).toMatch(/connection to 127\.0\.0\.1:9 failed \(ECONNREFUSED\), 4 times in \d\.\d s: nothing answers at that address/);
  });

  const noRetryCases: Array<[number, string]> = [
    [400, 'validation_failed'], [401, 'unauthorized'], [403, 'insufficient_scope'], [403, 'ip_not_allowed'],
    [403, 'primary_owner_required'], [404, 'not_found'], [409, 'action_unsupported'], [422, 'idempotency_key_reused'],
    [423, 'service_locked'], [502, 'action_failed'], [503, 'outcome_unknown'], [504, 'action_timeout'],
  ];
  test.each(noRetryCases)('POST %i %s surfaces at once', async (status, code) => {
    const m = mockClient();
    m.reply('POST', ACTIONS, status, apiError(code));
    await expect(m.client.runAction(fx.VPS_ID, 'shutdown', KEY)).rejects.toMatchObject({ status, code });
    expect(m.requests).toHaveLength(1);
    expect(m.sleeps).toEqual([]);
  });

  test('a write whose response is lost is sent again with the same key and the replay is reported', async () => {
    const m = mockClient();
    const bodies: string[] = [];
    m.fail('POST', ACTIONS);
    m.reply('POST', ACTIONS, 202, { data: { operation: fx.operation } }, { 'idempotent-replayed': 'true' });
    const res = await m.client.runAction(fx.VPS_ID, 'shutdown', KEY);
    bodies.push(...m.requests.map((r) => r.body ?? ''));
    expect(res).toMatchObject({ replayed: true, data: { id: 'op_1' } });
    expect(m.requests[0].headers['idempotency-key']).toBe(KEY);
    expect(bodies).toEqual(['{"action":"shutdown"}']);
    expect(m.logs.some((l) => /connection to [^ ]+:\d+ failed \(ECONNRESET\)/.test(l))).toBe(true);
  });

  test('a read that times out is retried', async () => {
    const m = mockClient();
    m.fail('GET', FW, 'UND_ERR_HEADERS_TIMEOUT');
    m.reply('GET', FW, 200, { data: fx.firewall });
    await expect(m.client.getFirewall(fx.VPS_ID)).resolves.toMatchObject({ data: fx.firewall });
  });

  test('an API that answers only "unavailable" before any other answer fails in some 15 s', async () => {
    const m = mockClient();
    for (let i = 0; i < MAX_UNAVAILABLE_BEFORE_AN_ANSWER; i++) m.reply('GET', FW, 503, apiError('temporarily_unavailable'));
    const err = await m.client.getFirewall(fx.VPS_ID).catch((e: HostingApiError) => e);
    expect(err).toMatchObject({ code: 'temporarily_unavailable', status: 503, attempt: MAX_UNAVAILABLE_BEFORE_AN_ANSWER, apiDown: true });
    expect((err as HostingApiError).detail).toMatch(/ \(503 temporarily_unavailable, request id \w+\), 6 times in \d+\.\d s, and no other answer yet: the API is down or in maintenance$/);
    expect(m.requests).toHaveLength(MAX_UNAVAILABLE_BEFORE_AN_ANSWER);
  });

  test.each([502, 503, 504])('a gateway in front of the API that answers only %i (its own page, no API error) is the API down, as its own "unavailable" is', async (status) => {
    const m = mockClient();
    for (let i = 0; i < MAX_UNAVAILABLE_BEFORE_AN_ANSWER; i++) m.reply('GET', FW, status, '<html>gateway</html>', { 'content-type': 'text/html' });
    const err = await m.client.getFirewall(fx.VPS_ID).catch((e: HostingApiError) => e);
    expect(err).toMatchObject({ code: 'unexpected_status', status, apiDown: true });
    expect(m.requests).toHaveLength(MAX_UNAVAILABLE_BEFORE_AN_ANSWER);
  });

  test('a gateway\'s 500 before any answer is no API down: it is retried to the last attempt', async () => {
    const attempts = MAX_UNAVAILABLE_BEFORE_AN_ANSWER + 2;
    const m = mockClient({ retry: { maxAttempts: attempts } });
    for (let i = 0; i < attempts; i++) m.reply('GET', FW, 500, '<html>error</html>', { 'content-type': 'text/html' });
    expect(await m.client.getFirewall(fx.VPS_ID).catch((e: HostingApiError) => e)).toMatchObject({ code: 'unexpected_status', status: 500, attempt: attempts, apiDown: false });
    expect(m.requests).toHaveLength(attempts);
  });

  test('once the API has answered, "unavailable" is retried to the last attempt: it is up and briefly busy', async () => {
    const m = mockClient();
    m.reply('GET', FW, 200, { data: fx.firewall });
    await m.client.getFirewall(fx.VPS_ID);
    for (let i = 0; i < 7; i++) m.reply('GET', FW, 503, apiError('temporarily_unavailable'));
    m.reply('GET', FW, 200, { data: fx.firewall });
    await expect(m.client.getFirewall(fx.VPS_ID)).resolves.toMatchObject({ data: fx.firewall, attempt: 8 });
  });

  test('attempts are bounded and the last error surfaces', async () => {
    const m = mockClient({ retry: { maxAttempts: 3 } });
    for (let i = 0; i < 3; i++) m.reply('GET', FW, 503, apiError('temporarily_unavailable'));
    await expect(m.client.getFirewall(fx.VPS_ID)).rejects.toMatchObject({ code: 'temporarily_unavailable' });
    expect(m.requests).toHaveLength(3);
  });

  test('the overall deadline bounds retries even when attempts remain', async () => {
    const m = mockClient({ retry: { deadlineMs: 5_000 } });
    m.reply('GET', FW, 429, apiError('rate_limited'), { 'retry-after': '60' });
    await expect(m.client.getFirewall(fx.VPS_ID)).rejects.toMatchObject({ code: 'rate_limited', retryAfterSeconds: 60 });
    expect(m.requests).toHaveLength(1);
  });

  test('pacing: with RateLimit-Remaining 0 the next request waits for the reset instead of a 429', async () => {
    const m = mockClient();
    m.reply('GET', FW, 200, { data: fx.firewall }, { 'ratelimit-limit': '120', 'ratelimit-remaining': '0', 'ratelimit-reset': '7' });
    m.reply('GET', FW, 200, { data: fx.firewall });
    await m.client.getFirewall(fx.VPS_ID);
    expect(m.sleeps).toEqual([]);
    await m.client.getFirewall(fx.VPS_ID);
    expect(m.sleeps).toHaveLength(1);
    expect(m.sleeps[0]).toBeGreaterThanOrEqual(7_000);
    expect(m.requests).toHaveLength(2);
  });
});

describe('waitForOperation', () => {
  const OP = `/servers/${fx.VPS_ID}/operations/op_1`;
  test('polls with growing intervals until a final status and returns it', async () => {
    const m = mockClient();
    for (const status of ['queued', 'running', 'running', 'succeeded']) {
      m.reply('GET', OP, 200, { data: { ...fx.operation, status } });
    }
    const op = await m.client.waitForOperation(fx.VPS_ID, 'op_1', { initialIntervalMs: 1_000, growth: 2, maxIntervalMs: 3_000 });
    expect(op.status).toBe('succeeded');
    expect(m.sleeps).toEqual([1_000, 2_000, 3_000]);
  });

  test.each(['failed', 'timed_out', 'outcome_unknown'])('returns %s as final without claiming success', async (status) => {
    const m = mockClient();
    m.reply('GET', OP, 200, { data: { ...fx.operation, status, message: 'it broke' } });
    await expect(m.client.waitForOperation(fx.VPS_ID, 'op_1')).resolves.toMatchObject({ status, message: 'it broke' });
  });

  test('gives up at the deadline naming the last status', async () => {
    const m = mockClient();
    for (let i = 0; i < 4; i++) m.reply('GET', OP, 200, { data: { ...fx.operation, status: 'running' } });
    const err = await m.client.waitForOperation(fx.VPS_ID, 'op_1', { timeoutMs: 2_500, initialIntervalMs: 1_000, growth: 1 }).catch((e) => e);
    expect(err).toMatchObject({ code: 'deadline_exceeded' });
    expect(err.message).toContain('op_1 (shutdown) is still running');
  });
});

describe('deadlines and replayed answers', () => {
  const OP = `/servers/${fx.VPS_ID}/operations/op_1`;
  const FW_PATH = `/servers/${fx.VPS_ID}/firewall`;
  const clockOf = (m: ReturnType<typeof mockClient>) => 1_000_000 + m.sleeps.reduce((a, b) => a + b, 0);

  test('a replayed error answer is final for its key: one attempt, marked replayed, never retried', async () => {
    const m = mockClient();
    m.reply('PUT', FW_PATH, 503, apiError('temporarily_unavailable'), { 'idempotent-replayed': 'true', 'retry-after': '1' });
    const err = await m.client.updateFirewall(fx.VPS_ID, { enabled: true }, 'key-0123456789').catch((e) => e);
    expect(err).toMatchObject({ code: 'temporarily_unavailable', status: 503, replayed: true });
    expect(err.message).toContain('(replayed: the stored first answer of this Idempotency-Key)');
    expect(m.requests).toHaveLength(1);
    expect(m.sleeps).toEqual([]);
  });

  test('an operation wait never overruns its deadline by the retry budget of a poll', async () => {
    const m = mockClient();
    m.reply('GET', OP, 200, { data: { ...fx.operation, status: 'running' } });
    for (let i = 0; i < 8; i++) m.reply('GET', OP, 503, apiError('temporarily_unavailable'), { 'retry-after': '2' });
    const err = await m.client.waitForOperation(fx.VPS_ID, 'op_1', { timeoutMs: 5_000, initialIntervalMs: 1_000, growth: 1 }).catch((e) => e);
    expect(err).toMatchObject({ code: 'deadline_exceeded' });
    expect(err.message).toContain('op_1 (shutdown) is still running');
    expect(clockOf(m) - 1_000_000).toBeLessThanOrEqual(5_000);
  });

  test('the client-wide deadline bounds retries and pacing of every request', async () => {
    const m = mockClient({ deadlineAt: 1_000_000 + 3_000 });
    for (let i = 0; i < 8; i++) m.reply('GET', FW_PATH, 503, apiError('temporarily_unavailable'), { 'retry-after': '2' });
    const err = await m.client.getFirewall(fx.VPS_ID).catch((e) => e);
    expect(err).toMatchObject({ code: 'temporarily_unavailable' });
    expect(clockOf(m) - 1_000_000).toBeLessThanOrEqual(3_000);
    m.advance(5_000);
    await expect(m.client.getFirewall(fx.VPS_ID)).rejects.toMatchObject({ code: 'deadline_exceeded' });
  });
});

describe('pacing shared between processes (FileBudgetStore)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pacing-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a budget one client saw spent makes another client with the same file wait, not collect a 429', () => {
    const file = sharedBudgetFile('https://api.example.com/api/v1', 'token-a', dir);
    const first = new RateLimitPacer(() => 0, 250, new FileBudgetStore(file));
    const second = new RateLimitPacer(() => 0, 250, new FileBudgetStore(file));
    first.observe('request', { remaining: '2', reset: '6' }, 0);
    expect(second.acquire('request', 100)).toBe(0);
    expect(first.acquire('request', 200)).toBe(0);
    expect(second.acquire('request', 300)).toBe(5_700);
    expect(first.acquire('request', 6_000)).toBe(0);
  });

  test('within a window the lower figure and the earliest reset win (others may have reserved; the header is rounded up); a new window replaces it; an old answer changes nothing', () => {
    const pacer = new RateLimitPacer(() => 0, 0, new FileBudgetStore(sharedBudgetFile('https://api.example.com/api/v1', 't', dir)));
    pacer.observe('request', { remaining: '5', reset: '10' }, 0);
    pacer.observe('request', { remaining: '7', reset: '9' }, 500);
    pacer.observe('request', { remaining: '1', reset: '10' }, 1_000);
    expect(pacer.acquire('request', 1_000)).toBe(0);
    // Resets at 10 s, 9.5 s and 11 s were seen: the window ends by 9.5 s.
    expect(pacer.acquire('request', 1_000)).toBe(8_500);
    pacer.observe('request', { remaining: '30', reset: '60' }, 11_000);
    expect(pacer.acquire('request', 11_000)).toBe(0);
    pacer.observe('request', { remaining: '0', reset: '1' }, 11_000);
    expect(pacer.acquire('request', 11_000)).toBe(0);
  });

  test('files long unused are swept when a process first shares: budgets of other tokens, their locks and unfinished writes; a recent file and any other name stay', () => {
    const longAgo = new Date(Date.now() - STALE_BUDGET_MS - 60_000);
    const stale = sharedBudgetFile('https://api.example.com/api/v1', 'rotated-away', dir);
    const recent = sharedBudgetFile('https://api.example.com/api/v1', 'in-use', dir);
    const files = { stale, lock: `${stale}.lock`, write: `${stale}.4242.tmp`, recent, foreign: join(dir, 'notes.json') };
    for (const [what, file] of Object.entries(files)) {
      writeFileSync(file, '{}');
      if (what !== 'recent') utimesSync(file, longAgo, longAgo);
    }
    const pacer = new RateLimitPacer(() => 0, 0, new FileBudgetStore(sharedBudgetFile('https://api.example.com/api/v1', 't', dir)));
    pacer.observe('request', { remaining: '1', reset: '60' }, 0);
    expect(readdirSync(dir).sort()).toEqual([basename(recent), 'notes.json', basename(sharedBudgetFile('https://api.example.com/api/v1', 't', dir))].sort());
  });

  test('the default folder is this user\'s alone: another user\'s folder of the plain name does not turn sharing off', () => {
    const file = sharedBudgetFile('https://api.example.com/api/v1', 'token-a');
    expect(dirname(file)).toBe(join(tmpdir(), `cdktf-server-hosting-pacing-${process.getuid!()}`));
  });

  test('a folder not this user\'s alone paces alone, and says so once', () => {
    const open = join(dir, 'open');
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    const lines: string[] = [];
    const pacer = new RateLimitPacer(() => 0, 0, new FileBudgetStore(sharedBudgetFile('https://api.example.com/api/v1', 't', open), (l) => lines.push(l)));
    pacer.observe('request', { remaining: '5', reset: '10' }, 0);
    pacer.acquire('request', 0);
    expect(lines).toEqual([expect.stringMatching(/^rate-limit pacing is not shared with other processes \(.*open is not this user's alone\): this process paces alone$/)]);
  });

  test('an update waits for a lock its holder still holds, and breaks one a killed process left', () => {
    const file = sharedBudgetFile('https://api.example.com/api/v1', 't', dir);
    const lines: string[] = [];
    const seen = new RateLimitPacer(() => 0, 0, new FileBudgetStore(file, (l) => lines.push(l)));
    seen.observe('request', { remaining: '1', reset: '60' }, 0);
    // Held by a peer for longer than the old 200 ms give-up: a worker releases it after 400 ms.
    writeFileSync(`${file}.lock`, '');
    const worker = new Worker(`setTimeout(() => require('node:fs').unlinkSync(${JSON.stringify(`${file}.lock`)}), 400)`, { eval: true });
    const other = new RateLimitPacer(() => 0, 0, new FileBudgetStore(file, (l) => lines.push(l)));
    const started = Date.now();
    expect(other.acquire('request', 0)).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    // The shared figure was used: the one request left is taken, the next waits for the window.
    expect(seen.acquire('request', 0)).toBe(60_000);
    void worker.terminate();
    // A lock left by a killed process (older than STALE_LOCK_MS) is broken.
    writeFileSync(`${file}.lock`, '');
    const old = new Date(Date.now() - STALE_LOCK_MS - 1_000);
    utimesSync(`${file}.lock`, old, old);
    expect(other.acquire('request', 61_000)).toBe(0);
    expect(lines).toEqual([]);
  });

  // Issue 60 §1: every later run blocked 4 s, then paced alone.
  test('a lock dated ahead of the clock (the clock stepped back) is broken at once, and pacing stays shared', () => {
    const file = sharedBudgetFile('https://api.example.com/api/v1', 't', dir);
    const lines: string[] = [];
    const pacer = new RateLimitPacer(() => 0, 0, new FileBudgetStore(file, (l) => lines.push(l)));
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${file}.lock`, '');
    const ahead = new Date(Date.now() + 3_600_000);
    utimesSync(`${file}.lock`, ahead, ahead);
    const started = Date.now();
    pacer.observe('request', { remaining: '1', reset: '60' }, 0);
    expect(pacer.acquire('request', 0)).toBe(0);
    expect(Date.now() - started).toBeLessThan(500);
    // Shared: another process sees the request this one took.
    const other = new RateLimitPacer(() => 0, 0, new FileBudgetStore(file, (l) => lines.push(l)));
    expect(other.acquire('request', 0)).toBe(60_000);
    expect(lines).toEqual([]);
  });

  test('the file name reveals neither the token nor the URL, and differs per token', () => {
    const a = sharedBudgetFile('https://api.example.com/api/v1', SENTINEL_TOKEN, dir);
    const b = sharedBudgetFile('https://api.example.com/api/v1', 'other', dir);
    expect(a).not.toContain(SENTINEL_TOKEN);
    expect(a).not.toContain('example');
    expect(a).not.toBe(b);
  });

  test('clients whose monotonic clocks start at different points share windows by the wall clock', async () => {
    const store = () => new FileBudgetStore(sharedBudgetFile('https://hosting.test/api/v1', 'shared', dir));
    let wall = 1_700_000_000_000;
    const first = mockClient({ budgetStore: store(), now: () => 5_000, wallClock: () => wall });
    first.reply('GET', `/servers/${fx.VPS_ID}/firewall`, 200, { data: fx.firewall }, { 'ratelimit-remaining': '0', 'ratelimit-reset': '3' });
    await first.client.getFirewall(fx.VPS_ID);
    // Another process, started later: its monotonic clock is near zero, the wall clock 1 s on.
    wall += 1_000;
    const sleeps: number[] = [];
    const second = mockClient({ budgetStore: store(), now: () => 20, wallClock: () => wall, sleep: async (ms) => void sleeps.push((wall += ms)) });
    second.reply('GET', `/servers/${fx.VPS_ID}/firewall`, 200, { data: fx.firewall });
    await second.client.getFirewall(fx.VPS_ID);
    expect(sleeps).toHaveLength(1);
    const waited = sleeps[0] - 1_700_000_001_000;
    expect(waited).toBeGreaterThanOrEqual(2_000);
    expect(waited).toBeLessThanOrEqual(2_000 + 250);
  });

  test('while its own recent figure shows the budget far from spent, a process paces alone and leaves the file alone; near the end, or once its figure is a second old, every request goes through the file', () => {
    const store = new FileBudgetStore(sharedBudgetFile('https://api.example.com/api/v1', 't', dir));
    let updates = 0;
    const counted = { update: <T>(change: (budgets: Budgets) => T): T => (updates++, store.update(change)) };
    const pacer = new RateLimitPacer(() => 0, 0, counted);
    expect(pacer.acquire('request', 0)).toBe(0);
    expect(updates).toBe(1); // nothing known yet: the file decides, and this request probes
    pacer.observe('request', { remaining: '200', reset: '60' }, 10);
    expect(updates).toBe(2); // the probe's answer goes to the file, so the others stop waiting for it
    for (let i = 0; i < 30; i++) expect(pacer.acquire('request', 20)).toBe(0);
    pacer.observe('request', { remaining: '190', reset: '60' }, 30);
    expect(updates).toBe(2);
    expect(pacer.acquire('request', 1_100)).toBe(0); // the figure heard at 30 ms is over a second old
    expect(updates).toBe(3);
    pacer.observe('request', { remaining: '50', reset: '90' }, 1_200); // a window of its own: its fall says nothing of others
    expect(updates).toBe(4);
    expect(pacer.acquire('request', 1_200)).toBe(0);
    expect(updates).toBe(5);
  });

  test('a folder others may write to is not shared: a figure planted there holds nobody back', () => {
    const folder = join(dir, 'open');
    mkdirSync(folder, { mode: 0o777 });
    chmodSync(folder, 0o777);
    const file = join(folder, 'x.json');
    writeFileSync(file, JSON.stringify({ request: { remaining: -1_000, resetAtMs: 50_000 } }));
    expect(new RateLimitPacer(() => 0, 0, new FileBudgetStore(file)).acquire('request', 1_000)).toBe(0);
  });

  test('a reset further ahead than any answer gives (section 8 counts per minute), or a figure that is not a number, is no knowledge', () => {
    const file = sharedBudgetFile('https://api.example.com/api/v1', 't', dir);
    const pacer = new RateLimitPacer(() => 0, 0, new FileBudgetStore(file));
    pacer.observe('request', { remaining: '1', reset: '1' }, 0);
    writeFileSync(file, JSON.stringify({ request: { remaining: 0, resetAtMs: 10 * 60_000 } }));
    expect(pacer.acquire('request', 1_000)).toBe(0);
    writeFileSync(file, JSON.stringify({ request: { remaining: '0', resetAtMs: 5_000 }, action: null }));
    expect(pacer.acquire('request', 1_000)).toBe(0);
    writeFileSync(file, JSON.stringify({ request: { remaining: 0, resetAtMs: 5_000 } }));
    expect(pacer.acquire('request', 1_000)).toBe(4_000);
  });

  test('an unusable folder degrades to this process\'s own knowledge, never to a failure', () => {
    writeFileSync(join(dir, 'a-file'), '');
    const pacer = new RateLimitPacer(() => 0, 0, new FileBudgetStore(join(dir, 'a-file', 'folder', 'x.json')));
    pacer.observe('request', { remaining: '0', reset: '5' }, 0);
    expect(pacer.acquire('request', 0)).toBe(5_000);
  });
});

test('a wait names the API limit it is for, in plain words, from the figure the API reported (spec section 8 names whose)', () => {
  expect([limitWords('request', 120), limitWords('request', undefined), limitWords('request', 300), limitWords('action', 10), limitWords('request', 40), limitWords('action', 3)]).toEqual([
    'the token\'s limit of 120 requests a minute',
    'the token\'s limit of 120 requests a minute',
    'the account\'s limit of 300 requests a minute, shared by all its tokens',
    'the token\'s limit of 10 power actions a minute',
    'the API\'s limit of 40 requests per window',
    'the token\'s limit of 3 power actions per window',
  ]);
});
