import type { IncomingMessage, ServerResponse } from 'node:http';
import { fail, matchEndpoint, type EndpointContext, type ErrorReply, type Reply } from './endpoints';
import type { FaultEffect, FaultInjector } from './faults';
import { headerValue, INVALID_JSON, parseJsonBody, readBody, writeResponse } from './http';
import type { IdempotencyStore, StoredResponse } from './idempotency-store';
import type { LastGoodReads } from './last-good-reads';
import type { Budget, RateLimiter, RateLimits, RateLimitVerdict } from './rate-limiter';
import type { RequestLog } from './request-log';
import type { SimulatorState, TokenRecord } from './state';
import { LIMITS } from '../api/schemas';

/** What the API's answers are made from. */
export interface ApiParts {
  readonly state: SimulatorState;
  readonly faults: FaultInjector;
  readonly limiter: RateLimiter;
  readonly limits: RateLimits;
  readonly idempotency: IdempotencyStore;
  readonly lastGood: LastGoodReads;
  readonly requests: RequestLog;
  /** Called after each request is logged. */
  readonly logged: () => void;
  readonly now: () => number;
}

type InjectedError = Extract<FaultEffect, { type: 'error' }>;

/** The API below `/api/v1` (the spec, sections 1-8), with the faults in force; every request logged. */
export function createApiHandler(parts: ApiParts) {
  const { state, faults, limiter, limits, idempotency, lastGood, requests, now } = parts;

  function authenticate(header: string | undefined): TokenRecord | undefined {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    const token = match ? state.tokenBySecret(match[1]) : undefined;
    return token && !token.revoked && token.expiresAt > now() ? token : undefined;
  }

  return async function answer(req: IncomingMessage, res: ServerResponse, url: URL, method: string, requestId: string): Promise<void> {
    const apiPath = url.pathname.startsWith(`${API_PREFIX}/`) ? url.pathname.slice(API_PREFIX.length) : undefined;
    const at = now();
    const seen: { tokenName?: string; endpoint?: string; serverId?: string; faults: string[]; carriedOut?: string[] } = { faults: [] };
    const record = (status: number, code: string | undefined, flags: { replayed?: boolean; dropped?: boolean } = {}) => {
      const retryAfter = res.getHeader('retry-after');
      requests.add({
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
      parts.logged();
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
    const injectedError = effects.find((e): e is InjectedError => e.type === 'error');
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
      // Section 1, rule 6 caches network and infrastructure data: a token's own (GET /connect) is always live.
      answerRead(ctx, endpoint.template === '/connect' ? [] : effects, rateHeaders, `${token.accountId} ${url.pathname}${url.search}`);
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

    /** A read's answer: live, or the last good one when a `cache` or `stale` fault says so. */
    function answerRead(context: EndpointContext, readEffects: FaultEffect[], headers: Record<string, string>, cacheKey: string) {
      const reply = endpoint.handle(context);
      if ('error' in reply) {
        send(reply, { headers });
        return;
      }
      const cache = readEffects.find((e): e is Extract<FaultEffect, { type: 'cache' }> => e.type === 'cache');
      const cached = lastGood.get(cacheKey);
      if (cache && cached && now() - cached.observedAtMs <= cache.maxAgeSeconds * 1000) {
        // Section 1, rule 6: a shared cache a few seconds old, served as live (no stale flag).
        send({ status: 200, data: cached.data }, { headers, meta: { observedAt: cached.observedAt, stale: false } });
        return;
      }
      if (readEffects.some((e) => e.type === 'stale')) {
        // Section 1, rule 7: the last good value, never a refusal (those were answered above).
        if (cached) send({ status: 200, data: cached.data }, { headers, meta: { observedAt: cached.observedAt, stale: true } });
        else send(fail(503, 'temporarily_unavailable', 'live data is unavailable and no earlier value is cached'), { headers: { ...headers, 'retry-after': '1' } });
        return;
      }
      const observedAt = new Date(now()).toISOString();
      lastGood.set(cacheKey, { data: reply.data, observedAt, observedAtMs: now() });
      send(reply, { headers, meta: { observedAt, stale: false } });
    }

    /** The endpoint's answer; synchronous, so what it appends to the executed writes is this request's alone. */
    function handleWrite(context: EndpointContext): Reply {
      const before = state.executed.length;
      const reply = endpoint.handle(context);
      const writes = state.executed.slice(before);
      if (writes.length) seen.carriedOut = writes.map((w) => `${w.kind}: ${w.detail}`);
      return reply;
    }

    function sendInjectedError(effect: InjectedError, headers: Record<string, string>) {
      const response = injectedResponse(effect, requestId);
      const retryAfter = effect.retryAfterSeconds ?? (effect.status === 429 || effect.status === 503 ? 1 : undefined);
      writeResponse(res, response, { ...headers, ...(retryAfter !== undefined && { 'retry-after': String(retryAfter) }) });
      record(response.status, parseCode(response.body));
    }
  };
}

export const API_PREFIX = '/api/v1';

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
function injectedResponse(effect: InjectedError, requestId: string): StoredResponse {
  const code = effect.code ?? INJECTED_CODES[effect.status];
  if (!code) return { status: effect.status, body: 'Internal Server Error' };
  return { status: effect.status, body: errorBody({ status: effect.status, code: code as ErrorReply['code'], message: `injected fault: ${code}` }, requestId) };
}

function rateLimitHeaders(verdict: RateLimitVerdict): Record<string, string> {
  return {
    'ratelimit-limit': String(verdict.limit),
    'ratelimit-remaining': String(verdict.remaining),
    'ratelimit-reset': String(verdict.resetSeconds),
  };
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
