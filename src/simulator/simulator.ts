import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { driftChangeSchema, faultRuleSchema, newTokenSchema, parseControlBody } from './control-bodies';
import { dashboardServers, DashboardStream } from './dashboard';
import { DASHBOARD_CSS, DASHBOARD_HTML, DASHBOARD_ICON, DASHBOARD_SCRIPT } from './dashboard-page';
import { fail, matchEndpoint, type EndpointContext, type ErrorReply, type Reply } from './endpoints';
import { FaultInjector, type FaultEffect, type FaultRule } from './faults';
import { IdempotencyStore, type StoredResponse } from './idempotency-store';
import { DEFAULT_RATE_LIMITS, RateLimiter, type Budget, type RateLimits, type RateLimitVerdict } from './rate-limiter';
import { DEMO_ACCOUNT_ID, defaultSeed, type SimulatorSeed } from './seed';
import { DEFAULT_OPERATION_DELAYS, SimulatorState, type DriftChange, type ExecutedWrite, type OperationDelays, type TokenRecord } from './state';
import { LIMITS } from '../api/schemas';

export interface SimulatorOptions {
  /** Default 127.0.0.1: the simulator is a local test double, never a network service. */
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly seed?: SimulatorSeed;
  /** Milliseconds since the epoch; drives token expiry, rate windows, operations and provisioning. */
  readonly now?: () => number;
  readonly limits?: Partial<RateLimits>;
  readonly operationDelays?: Partial<OperationDelays>;
  /** Seeds the generator behind probabilistic faults. */
  readonly faultSeed?: number;
}

export interface RequestLogEntry {
  readonly requestId: string;
  readonly method: string;
  /** Below `/api/v1`, with the query. */
  readonly path: string;
  /** The matched endpoint template, e.g. `PUT /servers/{serverId}/firewall`. */
  readonly endpoint?: string;
  readonly serverId?: string;
  readonly tokenName?: string;
  readonly status: number;
  readonly code?: string;
  readonly replayed: boolean;
  /** The Idempotency-Key the request carried, if any. */
  readonly idempotencyKey?: string;
  /** True when the connection was closed without an answer (the `drop_response` fault). */
  readonly dropped: boolean;
  /** The Retry-After the answer carried (a 429, or a fault's 503), in seconds. */
  readonly retryAfterSeconds?: number;
  /** The writes and actions this request carried out (`kind: detail`), when it carried any out. */
  readonly carriedOut?: readonly string[];
  readonly faults: readonly string[];
  readonly at: number;
}

export interface RunningSimulator {
  /** Ends in `/api/v1`. */
  readonly baseUrl: string;
  /** The control surface for tests and the demo, outside the API. */
  readonly controlUrl: string;
  /** The live page of the account, its requests, rate budgets and faults: `<controlUrl>/`. */
  readonly dashboardUrl: string;
  /** Seeded token secrets by token name. */
  readonly tokens: Readonly<Record<string, string>>;
  readonly state: SimulatorState;
  readonly requests: readonly RequestLogEntry[];
  addFault(rule: FaultRule): number;
  clearFaults(): void;
  /** Changes a server as the control panel would ("drift"); not counted as an executed write. */
  drift(serverId: string, change: DriftChange): void;
  /** Writes and actions really carried out (replays excluded). */
  executed(filter?: { serverId?: string; kind?: ExecutedWrite['kind'] }): ExecutedWrite[];
  setOperationDelays(delays: Partial<OperationDelays>): void;
  close(): Promise<void>;
}

const CONTROL_PREFIX = '/__simulator';
const API_PREFIX = '/api/v1';

/** Starts the Hosting API simulator and resolves once it listens. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const now = options.now ?? Date.now;
  const seed = options.seed ?? defaultSeed();
  const limits = { ...DEFAULT_RATE_LIMITS, ...options.limits };
  const state = new SimulatorState(seed, now, { ...DEFAULT_OPERATION_DELAYS, ...options.operationDelays });
  const faults = new FaultInjector(options.faultSeed);
  const limiter = new RateLimiter(limits.windowMs);
  const idempotency = new IdempotencyStore();
  const lastGood = new Map<string, { data: unknown; observedAt: string; observedAtMs: number }>();
  const requests: RequestLogEntry[] = [];
  let mintedTokens = 0;
  const dashboard = new DashboardStream({
    view: () => {
      state.settle();
      const servers = dashboardServers(state.allServers(), state.rulesets);
      return { servers, faults: faults.list(), budgets: limiter.budgets(), windowMs: limits.windowMs, now: now() };
    },
    requests,
  });

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // A bug in the simulator must not look like an API answer a client would trust.
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`simulator error: ${(err as Error).message}`);
      }
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = `req_${randomBytes(8).toString('hex')}`;
    res.setHeader('x-request-id', requestId);
    state.settle();
    const url = new URL(req.url ?? '/', 'http://simulator');
    const method = (req.method ?? 'GET').toUpperCase();
    if (url.pathname.startsWith(CONTROL_PREFIX)) {
      const path = url.pathname.slice(CONTROL_PREFIX.length);
      if (method === 'GET' && servePage(path, res)) return;
      control(method, path, await readBody(req), res);
      if (method !== 'GET') dashboard.changed();
      return;
    }
    const apiPath = url.pathname.startsWith(`${API_PREFIX}/`) ? url.pathname.slice(API_PREFIX.length) : undefined;
    const at = now();
    const seen: { tokenName?: string; endpoint?: string; serverId?: string; faults: string[]; carriedOut?: string[] } = { faults: [] };
    const record = (status: number, code: string | undefined, flags: { replayed?: boolean; dropped?: boolean } = {}) => {
      const retryAfter = res.getHeader('retry-after');
      requests.push({
        requestId,
        method,
        path: `${apiPath ?? url.pathname}${url.search}`,
        ...seen,
        status,
        code,
        replayed: !!flags.replayed,
        dropped: !!flags.dropped,
        at,
        idempotencyKey: headerValue(req.headers['idempotency-key']),
        ...(retryAfter !== undefined && { retryAfterSeconds: Number(retryAfter) }),
      });
      dashboard.changed();
    };
    const send = (reply: Reply, extra: { headers?: Record<string, string>; meta?: object } = {}) => {
      const body = 'error' in reply ? errorBody(reply.error, requestId) : JSON.stringify({ data: reply.data, ...(extra.meta && { meta: extra.meta }) });
      const status = 'error' in reply ? reply.error.status : reply.status;
      writeResponse(res, { status, body }, extra.headers);
      record(status, 'error' in reply ? reply.error.code : undefined);
    };

    const body = await readBody(req);
    if (body.length > LIMITS.maxBodyBytes) {
      send(fail(400, 'validation_failed', `the request body is ${body.length} bytes; at most ${LIMITS.maxBodyBytes} are accepted`, [{ path: 'body', message: 'too large' }]));
      return;
    }

    // Section 5: who is asking comes before anything else is revealed.
    const token = authenticate(req.headers.authorization);
    if (!token) {
      send(fail(401, 'unauthorized', 'the token is missing, invalid, expired or revoked'), { headers: { 'www-authenticate': 'Bearer' } });
      return;
    }
    seen.tokenName = token.name;
    const budgets: Budget[] = [
      { key: `token:${token.id}`, limit: limits.requestsPerToken, label: `token ${token.name}` },
      { key: `account:${token.accountId}`, limit: limits.requestsPerAccount, label: `account ${token.accountId}` },
    ];
    const sourceIp = normalizeIp(req.socket.remoteAddress ?? '');
    if (token.allowlist && !token.allowlist.includes(sourceIp)) {
      // Section 8: every response reports the tightest budget; the token is known, so it has one.
      send(fail(403, 'ip_not_allowed', `requests from ${sourceIp} are not allowed for this token`), { headers: rateLimitHeaders(limiter.peek(budgets, now())) });
      return;
    }

    const match = apiPath === undefined ? undefined : safeMatch(method, apiPath);
    const isWrite = method !== 'GET';
    const bodyJson = isWrite ? parseJsonBody(body) : undefined;
    // A replay is answered from the store and runs no action, so it spends only the request budget.
    const key = req.headers['idempotency-key'];
    const isReplay = typeof key === 'string' && idempotency.wouldReplay(token.id, key, fingerprint(method, url, body), now());
    if (match?.endpoint.isAction && !isReplay) {
      budgets.push({ key: `actions:${token.id}`, limit: limits.actionsPerToken, label: `actions of token ${token.name}` });
    }
    const verdict = limiter.check(budgets, now());
    const rateHeaders = rateLimitHeaders(verdict);
    if (!verdict.allowed) {
      send(fail(429, 'rate_limited', `rate limit exceeded; retry after ${verdict.retryAfterSeconds}s`), {
        headers: { ...rateHeaders, 'retry-after': String(verdict.retryAfterSeconds) },
      });
      return;
    }
    if (!match) {
      send(fail(404, 'not_found', `no endpoint ${method} ${url.pathname}`), { headers: rateHeaders });
      return;
    }
    const { endpoint, params } = match;
    seen.endpoint = `${endpoint.method} ${endpoint.template}`;
    seen.serverId = params.serverId;
    const missing = endpoint.scopes.filter((s) => !token.scopes.has(s));
    if (missing.length > 0) {
      send(fail(403, 'insufficient_scope', `this request needs the scope ${missing.join(', ')}`), { headers: rateHeaders });
      return;
    }

    const effects = faults.take(endpoint.method, endpoint.template, params.serverId);
    seen.faults.push(...effects.map(describeEffect));
    // Latency is spent while the request is being processed: for a write, after its key is taken,
    // so a concurrent request with the same key sees it in progress.
    const latency = async () => {
      for (const effect of effects) {
        if (effect.type === 'latency') await new Promise((resolve) => setTimeout(resolve, effect.ms));
      }
      state.settle();
    };
    const injectedError = effects.find((e): e is Extract<FaultEffect, { type: 'error' }> => e.type === 'error');
    if (injectedError && !(isWrite && injectedError.takesEffect)) {
      sendInjectedError(injectedError, rateHeaders);
      return;
    }

    const ctx: EndpointContext = {
      state,
      token,
      params,
      query: url.searchParams,
      body: bodyJson,
      sourceIp,
      operationOutcome: effects.flatMap((e) => (e.type === 'operation' ? [e.outcome] : []))[0],
    };

    if (!isWrite) {
      await latency();
      const reply = endpoint.handle(ctx);
      const cacheKey = `${token.accountId} ${url.pathname}${url.search}`;
      if ('error' in reply) {
        send(reply, { headers: rateHeaders });
        return;
      }
      const observedAt = new Date(now()).toISOString();
      const cache = effects.find((e): e is Extract<FaultEffect, { type: 'cache' }> => e.type === 'cache');
      const cachedEntry = lastGood.get(cacheKey);
      if (cache && cachedEntry && now() - cachedEntry.observedAtMs <= cache.maxAgeSeconds * 1000) {
        // Section 1, rule 6: a shared cache a few seconds old, served as live (no stale flag).
        send({ status: 200, data: cachedEntry.data }, { headers: rateHeaders, meta: { observedAt: cachedEntry.observedAt, stale: false } });
        return;
      }
      if (effects.some((e) => e.type === 'stale')) {
        // Section 1, rule 7: the last good value, never a refusal (those were answered above).
        const cached = lastGood.get(cacheKey);
        if (cached) send({ status: 200, data: cached.data }, { headers: rateHeaders, meta: { observedAt: cached.observedAt, stale: true } });
        else send(fail(503, 'temporarily_unavailable', 'live data is unavailable and no earlier value is cached'), { headers: { ...rateHeaders, 'retry-after': '1' } });
        return;
      }
      lastGood.set(cacheKey, { data: reply.data, observedAt, observedAtMs: now() });
      send(reply, { headers: rateHeaders, meta: { observedAt, stale: false } });
      return;
    }

    // Section 4, rules 2-4.
    if (typeof key !== 'string') {
      send(fail(400, 'idempotency_key_required', 'this request changes something and needs an Idempotency-Key header'), { headers: rateHeaders });
      return;
    }
    if (key.length < LIMITS.idempotencyKeyMinLength || key.length > LIMITS.idempotencyKeyMaxLength) {
      send(fail(400, 'validation_failed', 'invalid Idempotency-Key', [{ path: 'Idempotency-Key', message: `must be ${LIMITS.idempotencyKeyMinLength} to ${LIMITS.idempotencyKeyMaxLength} characters` }]), { headers: rateHeaders });
      return;
    }
    const lookup = idempotency.begin(token.id, key, fingerprint(method, url, body), now());
    if (lookup.kind === 'replay') {
      writeResponse(res, lookup.response, { ...rateHeaders, 'idempotent-replayed': 'true' });
      record(lookup.response.status, parseCode(lookup.response.body), { replayed: true });
      return;
    }
    if (lookup.kind === 'reused') {
      send(fail(422, 'idempotency_key_reused', 'this Idempotency-Key was used before for a different request'), { headers: rateHeaders });
      return;
    }
    if (lookup.kind === 'in_progress') {
      send(fail(409, 'idempotency_request_in_progress', 'a request with this Idempotency-Key is still being processed'), { headers: { ...rateHeaders, 'retry-after': '1' } });
      return;
    }

    let stored: StoredResponse;
    try {
      await latency();
      const reply = bodyJson === INVALID_JSON ? fail(400, 'validation_failed', 'the body is not valid JSON', [{ path: 'body', message: 'invalid JSON' }]) : handleWrite(ctx);
      stored = injectedError ? injectedResponse(injectedError, requestId) : toStored(reply, requestId);
    } catch (err) {
      idempotency.abandon(token.id, key);
      throw err;
    }
    idempotency.complete(token.id, key, stored);

    if (effects.some((e) => e.type === 'drop_response')) {
      record(stored.status, parseCode(stored.body), { dropped: true });
      res.socket?.destroy();
      return;
    }
    writeResponse(res, stored, injectedError?.retryAfterSeconds !== undefined ? { ...rateHeaders, 'retry-after': String(injectedError.retryAfterSeconds) } : rateHeaders);
    record(stored.status, parseCode(stored.body));

    /** The endpoint's answer; synchronous, so what it appends to the executed writes is this request's alone. */
    function handleWrite(context: EndpointContext): Reply {
      const before = state.executed.length;
      const reply = endpoint.handle(context);
      const writes = state.executed.slice(before);
      if (writes.length) seen.carriedOut = writes.map((w) => `${w.kind}: ${w.detail}`);
      return reply;
    }

    function sendInjectedError(effect: Extract<FaultEffect, { type: 'error' }>, headers: Record<string, string>) {
      const response = injectedResponse(effect, requestId);
      const retryAfter = effect.retryAfterSeconds ?? (effect.status === 429 || effect.status === 503 ? 1 : undefined);
      writeResponse(res, response, { ...headers, ...(retryAfter !== undefined && { 'retry-after': String(retryAfter) }) });
      record(response.status, parseCode(response.body));
    }
  }

  function authenticate(header: string | undefined): TokenRecord | undefined {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    const token = match ? state.tokenBySecret(match[1]) : undefined;
    return token && !token.revoked && token.expiresAt > now() ? token : undefined;
  }

  /** The live page's files and its event stream; false for any other control path. */
  function servePage(path: string, res: ServerResponse): boolean {
    if (path === '') {
      // The page's files are named relative to it, so it lives at the folder's address.
      res.writeHead(308, { location: `${CONTROL_PREFIX}/` }).end();
      return true;
    }
    if (path === '/events') {
      dashboard.watch(res);
      return true;
    }
    const file = DASHBOARD_FILES[path];
    if (!file) return false;
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'content-security-policy': PAGE_POLICY });
    res.end(file.body);
    return true;
  }

  function control(method: string, path: string, body: string, res: ServerResponse): void {
    const json = (status: number, data: unknown) => writeResponse(res, { status, body: JSON.stringify(data) });
    const input = parseJsonBody(body) as Record<string, unknown> | undefined;
    try {
      if (method === 'GET' && path === '/state') {
        return json(200, snapshot(state));
      }
      if (method === 'GET' && path === '/requests') return json(200, requests);
      if (method === 'GET' && path === '/executed') return json(200, state.executed);
      if (method === 'POST' && path === '/faults') {
        const parsed = parseControlBody(faultRuleSchema, input);
        if ('problems' in parsed) return json(400, { error: `invalid fault rule: ${parsed.problems.join('; ')}` });
        return json(201, { id: faults.add(parsed.value) });
      }
      if (method === 'POST' && path === '/tokens') {
        const parsed = parseControlBody(newTokenSchema, input);
        if ('problems' in parsed) return json(400, { error: `invalid token: ${parsed.problems.join('; ')}` });
        const name = parsed.value.name ?? `token-${++mintedTokens}`;
        const secret = `hsim_${name.replace(/-/g, '_')}_${randomBytes(8).toString('hex')}`;
        state.addToken({ name, secret, scopes: parsed.value.scopes, accountId: seed.tokens[0]?.accountId ?? DEMO_ACCOUNT_ID, type: 'personal_token' });
        return json(201, { name, secret, scopes: parsed.value.scopes });
      }
      if (method === 'DELETE' && path === '/faults') {
        faults.clear();
        return json(200, { cleared: true });
      }
      const drift = /^\/servers\/([^/]+)$/.exec(path);
      if (method === 'PATCH' && drift) {
        const parsed = parseControlBody(driftChangeSchema, input);
        if ('problems' in parsed) return json(400, { error: `invalid change: ${parsed.problems.join('; ')}` });
        state.drift(decodeURIComponent(drift[1]), parsed.value);
        return json(200, snapshot(state).servers.find((s) => s.server.id === decodeURIComponent(drift[1])));
      }
      return json(404, { error: `no control endpoint ${method} ${CONTROL_PREFIX}${path}` });
    } catch (err) {
      return json(400, { error: (err as Error).message });
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;

  return {
    baseUrl: `${origin}${API_PREFIX}`,
    controlUrl: `${origin}${CONTROL_PREFIX}`,
    tokens: Object.fromEntries(seed.tokens.map((t) => [t.name, t.secret])),
    state,
    requests,
    dashboardUrl: `${origin}${CONTROL_PREFIX}/`,
    addFault: (rule) => {
      const id = faults.add(rule);
      dashboard.changed();
      return id;
    },
    clearFaults: () => {
      faults.clear();
      dashboard.changed();
    },
    drift: (serverId, change) => {
      state.drift(serverId, change);
      dashboard.changed();
    },
    executed: (filter = {}) =>
      state.executed.filter((w) => (!filter.serverId || w.serverId === filter.serverId) && (!filter.kind || w.kind === filter.kind)),
    setOperationDelays: (delays) => {
      state.operationDelays = { ...state.operationDelays, ...delays };
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The page may load its own script, style and events, and nothing else: no inline script, no other origin. */
const PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const DASHBOARD_FILES: Record<string, { readonly type: string; readonly body: string }> = {
  '/': { type: 'text/html; charset=utf-8', body: DASHBOARD_HTML },
  '/dashboard.js': { type: 'text/javascript; charset=utf-8', body: DASHBOARD_SCRIPT },
  '/dashboard.css': { type: 'text/css; charset=utf-8', body: DASHBOARD_CSS },
  '/favicon.svg': { type: 'image/svg+xml', body: DASHBOARD_ICON },
};

const INVALID_JSON = Symbol('invalid JSON');

function parseJsonBody(body: string): unknown {
  if (body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return INVALID_JSON;
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep one byte past the limit so the size check can refuse without buffering a huge body.
      if (size <= LIMITS.maxBodyBytes + 1) chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function safeMatch(method: string, path: string) {
  try {
    return matchEndpoint(method, path);
  } catch {
    return undefined;
  }
}

/** What makes two requests "the same request" for an idempotency key. */
function fingerprint(method: string, url: URL, body: string): string {
  const parsed = parseJsonBody(body);
  const canonical = parsed === INVALID_JSON || parsed === undefined ? body : JSON.stringify(sortKeys(parsed));
  return `${method} ${url.pathname}${url.search} ${canonical}`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
  }
  return value;
}

function errorBody(error: ErrorReply, requestId: string): string {
  return JSON.stringify({ error: { code: error.code, message: error.message, requestId, ...(error.fields && { fields: error.fields }) } });
}

function toStored(reply: Reply, requestId: string): StoredResponse {
  return 'error' in reply
    ? { status: reply.error.status, body: errorBody(reply.error, requestId) }
    : { status: reply.status, body: JSON.stringify({ data: reply.data }) };
}

const INJECTED_CODES: Record<number, string> = {
  429: 'rate_limited',
  502: 'action_failed',
  503: 'temporarily_unavailable',
  504: 'action_timeout',
};

/** A 500 models a broken proxy in front of the API: plain text, no envelope. Everything else is a spec error. */
function injectedResponse(effect: Extract<FaultEffect, { type: 'error' }>, requestId: string): StoredResponse {
  const code = effect.code ?? INJECTED_CODES[effect.status];
  if (!code) return { status: effect.status, body: 'Internal Server Error' };
  return { status: effect.status, body: errorBody({ status: effect.status, code: code as ErrorReply['code'], message: `injected fault: ${code}` }, requestId) };
}

function writeResponse(res: ServerResponse, response: StoredResponse, headers: Record<string, string> = {}): void {
  const isJson = response.body.startsWith('{') || response.body.startsWith('[');
  // Set one by one, not through writeHead, so the request log can read Retry-After back.
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.writeHead(response.status, { 'content-type': isJson ? 'application/json' : 'text/plain' });
  res.end(response.body);
}

function rateLimitHeaders(verdict: RateLimitVerdict): Record<string, string> {
  return {
    'ratelimit-limit': String(verdict.limit),
    'ratelimit-remaining': String(verdict.remaining),
    'ratelimit-reset': String(verdict.resetSeconds),
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function normalizeIp(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

function parseCode(body: string): string | undefined {
  const parsed = parseJsonBody(body) as { error?: { code?: string } } | undefined;
  return typeof parsed === 'object' && parsed ? parsed.error?.code : undefined;
}

function describeEffect(effect: FaultEffect): string {
  switch (effect.type) {
    case 'error':
      return `error ${effect.status}${effect.code ? ` ${effect.code}` : ''}${effect.takesEffect ? ' after applying' : ''}`;
    case 'latency':
      return `latency ${effect.ms}ms`;
    case 'cache':
      return `cache ${effect.maxAgeSeconds}s`;
    case 'operation':
      return `operation ${effect.outcome.status}${effect.outcome.takesEffect ? ' with effect' : ' without effect'}`;
    default:
      return effect.type;
  }
}

function snapshot(state: SimulatorState) {
  return {
    servers: state.allServers().map((r) => ({
      server: r.server,
      firewall: r.firewall,
      ipSettings: [...r.ipSettings.values()],
      bootCount: r.bootCount,
      currentOperationId: r.currentOperationId,
    })),
    executed: state.executed,
  };
}
