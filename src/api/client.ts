import * as z from 'zod/mini';
import { accountScope } from './account-scope';
import { normalizeBaseUrl } from './base-url';
import type { BudgetStore } from './budget-store';
import { HostingApiError, type HostingErrorCode } from './errors';
import { isUnavailable } from './errors';
import { nextPollIntervalMs, type OperationWaitOptions, DEFAULT_OPERATION_WAIT } from './operation-wait';
import { RateLimitPacer, type BudgetClass } from './rate-limit-pacer';
import { backoffDelayMs, isRetryable, parseRetryAfter, type HttpMethod } from './retry-policy';
import {
  LIMITS,
  actionAcceptedSchema,
  ddosRulesSchema,
  ddosStatusSchema,
  errorBodySchema,
  firewallSchema,
  ipEntrySchema,
  ipSettingsSchema,
  isFinalOperationStatus,
  metaSchema,
  metricsSchema,
  operationSchema,
  rulesetSchema,
  serverDetailSchema,
  serverSchema,
  tokenInfoSchema,
  trafficSchema,
  type DdosRules,
  type DdosStatus,
  type Firewall,
  type FirewallChange,
  type IpEntry,
  type IpSettings,
  type IpSettingsChange,
  type Meta,
  type Metrics,
  type Operation,
  type PowerAction,
  type Ruleset,
  type Server,
  type ServerDetail,
  type TokenInfo,
  type Traffic,
} from './schemas';
import { createTransport, TransportError, type Dispatcher, type HttpResponse, type Transport, type TransportTimeouts } from './transport';
import { limitWords } from './wait-summary';

export interface RetryOptions {
  /** Attempts per request, the first included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** One request, all its retries and pacing waits included, gives up after this long. */
  readonly deadlineMs: number;
}

/**
 * Whether a line of this client's log reports trouble that is being retried or waited out (a 429,
 * a 5xx, a lost connection, a timeout, a pacing wait): what a person following a run should see
 * even without debug output. Refusals are not among them; callers report those once.
 */
export function isTransientLogLine(line: string): boolean {
  return / -> (429|5\d\d) | -> (connection failed|timed out)|waiting/.test(line);
}

/**
 * Connections refused this many times fail at once, within a few seconds of backoff: nothing
 * listens at the configured address (a wrong port or host), and waiting out the whole deadline
 * would only hide it. A reset or a timeout is still retried to the end: the API may be busy.
 */
export const MAX_REFUSED_CONNECTIONS = 4;

/**
 * An API that has answered nothing but "unavailable" this many times, before any other answer,
 * fails at once (some 15 s of backoff): it is down or in maintenance, and waiting out the whole
 * deadline, silently under Terraform, would only hide it. Once it has answered, an unavailable
 * answer is retried to the end: the API is up and briefly busy.
 */
export const MAX_UNAVAILABLE_BEFORE_AN_ANSWER = 6;

const refusedFor = (error: HostingApiError, attempt: number) =>
  error.code === 'network_error' && /\((ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH)\)/.test(error.detail) && attempt >= MAX_REFUSED_CONNECTIONS;

export const DEFAULT_RETRY: RetryOptions = { maxAttempts: 8, baseDelayMs: 500, maxDelayMs: 20_000, deadlineMs: 180_000 };

export interface HostingApiClientOptions {
  /** Ends in `/api/v1`; a trailing slash is tolerated. Plain http only to loopback, unless allowInsecureHttp. */
  readonly baseUrl: string;
  readonly allowInsecureHttp?: boolean;
  /** The bearer token. Sent in the Authorization header only; never logged or put in an error. */
  readonly token: string;
  /** Defaults to an undici Agent with the timeouts below; tests pass a MockAgent. */
  readonly dispatcher?: Dispatcher;
  readonly timeouts?: Partial<TransportTimeouts>;
  /** TCP keep-alive probes on the API's connections; undefined is undici's default (on). See tcpKeepAliveSetting. */
  readonly tcpKeepAlive?: boolean;
  readonly retry?: Partial<RetryOptions>;
  /** One line per attempt, without headers or bodies. */
  readonly log?: (line: string) => void;
  readonly userAgent?: string;
  /**
   * The caller's overall deadline, an instant of `now()`: every request, retry, pacing wait and
   * operation poll gives up by then (e.g. one deadline for a whole resource run).
   */
  readonly deadlineAt?: number;
  /** Injected so tests run backoff and pacing without waiting. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** A monotonic clock in milliseconds for deadlines, so wall-clock jumps neither stretch nor cut them. */
  readonly now?: () => number;
  /**
   * Wall-clock milliseconds, for rate-limit windows (a shared budget store is read by processes
   * whose monotonic clocks start at different points) and HTTP-date `Retry-After`.
   * Never a monotonic clock: `now`'s origin is this process's start, which another process sharing
   * the store does not know (the pacing of parallel applies then waits whole extra windows).
   * @default Date.now
   */
  readonly wallClock?: () => number;
  /**
   * Where rate-limit budgets are kept; a `FileBudgetStore` shares them between processes.
   * @default - this client's own memory
   */
  readonly budgetStore?: BudgetStore;
  readonly random?: () => number;
  /**
   * The caller's stop (Terraform's Ctrl-C): once aborted, no request starts and the one in flight
   * is cut off, failing with code `aborted`. Waits are the injected `sleep`'s to end.
   */
  readonly signal?: AbortSignal;
}

export interface ApiResponse<T> {
  readonly data: T;
  /** Present when the server says where the data came from; `stale: true` means a cached last good value. */
  readonly meta?: Meta;
  readonly requestId?: string;
  /** True when a write was answered from the idempotency store, not executed again. */
  readonly replayed: boolean;
  /**
   * Which attempt of this call got the answer, 1 for the first send. A replayed answer on the first
   * send is the stored answer of an earlier call with the same key, not of this one.
   */
  readonly attempt: number;
}

interface CallSpec<T> {
  readonly method: HttpMethod;
  readonly path: string;
  readonly query?: Record<string, string>;
  readonly body?: unknown;
  readonly idempotencyKey?: string;
  readonly schema: z.ZodMiniType<T>;
  readonly successStatus?: number;
  readonly budget?: BudgetClass;
  /** Give up by this instant of `now()`, if earlier than the request's own and the client's deadline. */
  readonly deadlineAt?: number;
}

type Fail = (code: HostingErrorCode, status: number, detail: string, extra?: Partial<HostingApiError>) => HostingApiError;

/** A request checked and built, as each attempt sends it. */
interface PreparedRequest {
  readonly method: HttpMethod;
  readonly pathWithQuery: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly budget: BudgetClass;
  readonly successStatus: number;
  /** An error of this request, the token scrubbed from its detail. */
  readonly fail: Fail;
}

const envelopeSchema = z.object({ data: z.unknown(), meta: z.optional(metaSchema) });

/**
 * A typed client for every endpoint of the Hosting API (section 4). Responses are validated before
 * any caller sees them; failures are `HostingApiError`s; retries follow `isRetryable`; every
 * answer's rate-limit headers pace the next request.
 */
/** What every view of one client (`withDeadline`) shares: its connections, its pacing, whether the API answered yet. */
interface SharedByViews {
  readonly transport: Transport;
  readonly pacer: RateLimitPacer;
  /** Whether the API gave an answer other than "unavailable" yet. */
  readonly answered: { value: boolean };
  /** RateLimit-Limit as the API's answers reported it last, per budget. */
  readonly limits: Partial<Record<BudgetClass, number>>;
  /** The smallest RateLimit-Limit reported, per budget. */
  readonly tightest: Partial<Record<BudgetClass, number>>;
  /** RateLimit-Remaining at the last answer, per budget. */
  readonly remaining: Partial<Record<BudgetClass, number>>;
  /** The latest `meta.observedAt` of the answers so far (the API's own clock). */
  readonly newest: { observedAt?: string };
}

export class HostingApiClient {
  public readonly baseUrl: string;
  /** The account this client writes to, as every Idempotency-Key and run note names it (account-scope.ts). */
  public readonly accountScope: string;
  readonly #token: string;
  readonly #transport: Transport;
  readonly #retry: RetryOptions;
  readonly #pacer: RateLimitPacer;
  readonly #answered: { value: boolean };
  /** The RateLimit-Limit figure last reported per budget (an action's answer reports the action budget). */
  readonly #limits: Partial<Record<BudgetClass, number>>;
  readonly #tightest: Partial<Record<BudgetClass, number>>;
  readonly #remaining: Partial<Record<BudgetClass, number>>;
  readonly #newest: { observedAt?: string };
  readonly #log: (line: string) => void;
  readonly #userAgent: string;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #deadlineAt: number;
  readonly #wallClock: () => number;
  readonly #signal?: AbortSignal;
  readonly #options: HostingApiClientOptions;
  /** Views made by `withDeadline` share the connection pool but never close it. */
  readonly #ownsTransport: boolean;
  /** What this client (this view alone) waited for, in milliseconds per cause, e.g. `the rate-limit budget`. */
  readonly #waits = new Map<string, number>();

  constructor(options: HostingApiClientOptions, shared?: SharedByViews) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl, { allowInsecureHttp: options.allowInsecureHttp });
    if (!options.token) {
      throw new Error('the Hosting API token is empty');
    }
    this.#options = options;
    this.#token = options.token;
    this.accountScope = accountScope(this.baseUrl, options.token);
    this.#signal = options.signal;
    this.#ownsTransport = shared === undefined;
    const { dispatcher, timeouts, tcpKeepAlive } = options;
    this.#transport = shared?.transport ?? createTransport({ dispatcher, timeouts, tcpKeepAlive });
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#log = options.log ?? (() => undefined);
    this.#userAgent = options.userAgent ?? 'cdktf-server-hosting';
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#now = options.now ?? (() => performance.now());
    this.#wallClock = options.wallClock ?? Date.now;
    this.#deadlineAt = options.deadlineAt ?? Number.POSITIVE_INFINITY;
    this.#random = options.random ?? Math.random;
    this.#pacer = shared?.pacer ?? new RateLimitPacer(this.#random, undefined, options.budgetStore);
    this.#answered = shared?.answered ?? { value: false };
    this.#newest = shared?.newest ?? {};
    this.#limits = shared?.limits ?? {};
    this.#tightest = shared?.tightest ?? {};
    this.#remaining = shared?.remaining ?? {};
  }

  /**
   * The same client (connections, rate-limit pacing, stop signal) bound by an earlier deadline, an
   * instant of `now()`: e.g. one resource's run inside a provider process that serves many.
   */
  public withDeadline(deadlineAt: number): HostingApiClient {
    const options = { ...this.#options, deadlineAt: Math.min(deadlineAt, this.#deadlineAt) };
    return new HostingApiClient(options, {
      transport: this.#transport,
      pacer: this.#pacer,
      answered: this.#answered,
      limits: this.#limits,
      tightest: this.#tightest,
      remaining: this.#remaining,
      newest: this.#newest,
    });
  }

  /**
   * The latest `meta.observedAt` any answer to this client (any view) carried: every observation
   * the API makes after it comes later, so a write sent now is newer than it.
   */
  public newestObservedAt(): string | undefined {
    return this.#newest.observedAt;
  }

  #noteObserved(observedAt: string | undefined): void {
    const latest = this.#newest.observedAt;
    if (observedAt !== undefined && (latest === undefined || Date.parse(observedAt) > Date.parse(latest))) this.#newest.observedAt = observedAt;
  }

  /** RateLimit-Limit as the API's answers to this client (any view) reported it last for `budget`; undefined before such an answer. */
  public reportedLimit(budget: BudgetClass): number | undefined {
    return this.#limits[budget];
  }

  /**
   * The tightest budget the API's answers reported for `budget` (section 8: every answer reports the
   * tightest applicable one, the token's or the account's): the smallest window's limit, and the
   * requests left in it at the last answer.
   */
  public reportedBudget(budget: BudgetClass): { readonly limit?: number; readonly remaining?: number } {
    return { limit: this.#tightest[budget], remaining: this.#remaining[budget] };
  }

  #noteBudget(budget: BudgetClass, headers: Readonly<Record<string, string | undefined>>): void {
    const limit = Number(headers['ratelimit-limit']);
    if (Number.isInteger(limit) && limit > 0) {
      this.#limits[budget] = limit;
      this.#tightest[budget] = Math.min(limit, this.#tightest[budget] ?? limit);
    }
    const remaining = Number(headers['ratelimit-remaining']);
    if (headers['ratelimit-remaining'] !== undefined && Number.isInteger(remaining) && remaining >= 0) this.#remaining[budget] = remaining;
  }

  /** What this client waited for so far: milliseconds per cause, longest first. */
  public get waited(): ReadonlyArray<{ readonly cause: string; readonly ms: number }> {
    return [...this.#waits].map(([cause, ms]) => ({ cause, ms })).sort((x, y) => y.ms - x.ms);
  }

  /** The limit a wait of a `budget` request is for, in words, from the figures the API reported. */
  #limitWords(budget: BudgetClass): string {
    const spent = this.#pacer.spentClass(budget, this.#wallClock());
    return limitWords(spent, this.#limits[spent]);
  }

  async #wait(cause: string, ms: number): Promise<void> {
    const started = this.#now();
    try {
      await this.#sleep(ms);
    } finally {
      this.#waits.set(cause, (this.#waits.get(cause) ?? 0) + Math.max(0, this.#now() - started));
    }
  }

  public toString(): string {
    return `HostingApiClient(${this.baseUrl})`;
  }

  public toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl };
  }

  public close(): Promise<void> {
    return this.#ownsTransport ? this.#transport.close() : Promise.resolve();
  }

  /** 4.1: who this token is, its scopes, and the address the server sees. */
  public connect(): Promise<ApiResponse<TokenInfo>> {
    return this.call({ method: 'GET', path: '/connect', schema: tokenInfoSchema });
  }

  /** 4.2: every server of the account, shared ones included. */
  public listServers(): Promise<ApiResponse<Server[]>> {
    return this.call({ method: 'GET', path: '/servers', schema: z.array(serverSchema) });
  }

  /** 4.3: one server, with the actions this token may run now and the operation in progress. */
  public getServer(serverId: string): Promise<ApiResponse<ServerDetail>> {
    return this.call({ method: 'GET', path: serverPath(serverId), schema: serverDetailSchema });
  }

  /** 4.4 */
  public getMetrics(serverId: string): Promise<ApiResponse<Metrics>> {
    return this.call({ method: 'GET', path: `${serverPath(serverId)}/metrics`, schema: metricsSchema });
  }

  /** 4.5: starts a power action; the returned operation is not final yet (see `waitForOperation`). */
  public async runAction(serverId: string, action: PowerAction, idempotencyKey: string): Promise<ApiResponse<Operation>> {
    const res = await this.call({
      method: 'POST',
      path: `${serverPath(serverId)}/actions`,
      body: { action },
      idempotencyKey,
      schema: actionAcceptedSchema,
      successStatus: 202,
      budget: 'action',
    });
    return { ...res, data: res.data.operation };
  }

  /** 4.6 */
  public getOperation(serverId: string, operationId: string, options: { readonly deadlineAt?: number } = {}): Promise<ApiResponse<Operation>> {
    return this.call({
      method: 'GET',
      path: `${serverPath(serverId)}/operations/${encodeURIComponent(operationId)}`,
      schema: operationSchema,
      deadlineAt: options.deadlineAt,
    });
  }

  /** 4.7 */
  public listIps(serverId: string): Promise<ApiResponse<IpEntry[]>> {
    return this.call({ method: 'GET', path: `${serverPath(serverId)}/ips`, schema: z.array(ipEntrySchema) });
  }

  /** 4.8 */
  public getIpSettings(serverId: string, ip: string): Promise<ApiResponse<IpSettings>> {
    return this.call({ method: 'GET', path: ipPath(serverId, ip), schema: ipSettingsSchema });
  }

  /** 4.9: exactly one member per request, as the API requires. */
  public updateIpSettings(
    serverId: string,
    ip: string,
    change: IpSettingsChange,
    idempotencyKey: string,
  ): Promise<ApiResponse<IpSettings>> {
    return this.call({ method: 'PATCH', path: ipPath(serverId, ip), body: change, idempotencyKey, schema: ipSettingsSchema });
  }

  /** 4.10: `rates` for dedicated servers, `monthly` for VPS. */
  public getTraffic(serverId: string): Promise<ApiResponse<Traffic>> {
    return this.call({ method: 'GET', path: `${serverPath(serverId)}/traffic`, schema: trafficSchema });
  }

  /** 4.11: the primary address unless `ip` is given. */
  public getDdosStatus(serverId: string, ip?: string): Promise<ApiResponse<DdosStatus>> {
    return this.call({
      method: 'GET',
      path: `${serverPath(serverId)}/ddos`,
      query: ip === undefined ? undefined : { ip },
      schema: ddosStatusSchema,
    });
  }

  /** 4.12 */
  public getDdosRules(serverId: string, ip: string): Promise<ApiResponse<DdosRules>> {
    return this.call({ method: 'GET', path: `${ipPath(serverId, ip)}/ddos/rules`, schema: ddosRulesSchema });
  }

  /** 4.13 */
  public listRulesets(): Promise<ApiResponse<Ruleset[]>> {
    return this.call({ method: 'GET', path: '/firewall/rulesets', schema: z.array(rulesetSchema) });
  }

  /** 4.14 */
  public getFirewall(serverId: string): Promise<ApiResponse<Firewall>> {
    return this.call({ method: 'GET', path: `${serverPath(serverId)}/firewall`, schema: firewallSchema });
  }

  /** 4.15: members left out are not changed. */
  public updateFirewall(serverId: string, change: FirewallChange, idempotencyKey: string): Promise<ApiResponse<Firewall>> {
    return this.call({ method: 'PUT', path: `${serverPath(serverId)}/firewall`, body: change, idempotencyKey, schema: firewallSchema });
  }

  /**
   * Polls an operation with growing intervals until its status is final (section 3.2) and returns
   * it, whatever that status is: the caller decides what `failed` or `outcome_unknown` mean for it.
   * Throws `deadline_exceeded`, naming the last status seen, when the operation outlives the wait.
   * Each poll, its retries included, is bounded by the same deadline: the wait never overruns it.
   */
  public async waitForOperation(serverId: string, operationId: string, options: Partial<OperationWaitOptions> = {}): Promise<Operation> {
    const opts = { ...DEFAULT_OPERATION_WAIT, ...options };
    const deadline = Math.min(this.#now() + opts.timeoutMs, this.#deadlineAt);
    const stillRunning = (last: Pick<Operation, 'status' | 'action'> | undefined) =>
      new HostingApiError({
        status: 0,
        code: 'deadline_exceeded',
        method: 'GET',
        path: `${serverPath(serverId)}/operations/${operationId}`,
        detail: `operation ${operationId}${last ? ` (${last.action}) is still ${last.status}` : ' could not be read'} after ${Math.round(opts.timeoutMs / 1000)}s; it may still complete: read the server before acting again`,
      });
    let last: Operation | undefined;
    let interval = opts.initialIntervalMs;
    for (;;) {
      let operation: Operation;
      try {
        operation = (await this.getOperation(serverId, operationId, { deadlineAt: deadline })).data;
      } catch (err) {
        // A poll cut short by the deadline says nothing new about the operation.
        if (err instanceof HostingApiError && this.#now() >= deadline && (err.code === 'deadline_exceeded' || isRetryable({ method: 'GET', status: err.status, code: err.code }))) throw stillRunning(last);
        throw err;
      }
      opts.onPoll?.(operation);
      if (isFinalOperationStatus(operation.status)) {
        return operation;
      }
      last = operation;
      const remaining = deadline - this.#now();
      if (remaining <= 0) {
        throw stillRunning(last);
      }
      await this.#sleep(Math.min(interval, remaining));
      interval = nextPollIntervalMs(interval, opts);
    }
  }

  /**
   * Every request, in layers a test can hold alone: the request checked and built (`#prepare`),
   * then per attempt the stop and the deadline, the pacing wait (`#pace`), one send with its log
   * line and its answer mapped to a result or a `HostingApiError` (`#attempt`), and the retry
   * decision with its delay (`#retryDelay`).
   */
  private async call<T>(spec: CallSpec<T>): Promise<ApiResponse<T>> {
    const request = this.#prepare(spec);
    const deadline = Math.min(this.#now() + this.#retry.deadlineMs, spec.deadlineAt ?? Number.POSITIVE_INFINITY, this.#deadlineAt);
    const firstSent = this.#now();
    for (let attempt = 1; ; attempt++) {
      if (this.#signal?.aborted) {
        throw request.fail('aborted', 0, `stopped before ${attempt === 1 ? 'the request was sent' : `attempt ${attempt}`}`, { attempt: attempt - 1 });
      }
      if (this.#now() >= deadline) {
        throw request.fail('deadline_exceeded', 0, attempt === 1 ? 'the deadline passed before the request could be sent' : `the deadline passed after ${attempt - 1} attempts`);
      }
      await this.#pace(request, deadline, attempt);
      const outcome = await this.#attempt(request, spec.schema, deadline, attempt);
      if (!(outcome instanceof HostingApiError)) return outcome;
      const delay = this.#retryDelay(request, outcome, attempt, deadline, firstSent);
      const cause = outcome.status ? `${outcome.status} ${outcome.code}` : outcome.code;
      const asked = outcome.retryAfterSeconds === undefined ? '' : `, Retry-After ${outcome.retryAfterSeconds} s`;
      this.#log(`${request.method} ${request.pathWithQuery}: waiting ${delay} ms before attempt ${attempt + 1} (${cause}${asked})`);
      await this.#wait(outcome.code === 'rate_limited' ? `the API's ${cause} answers (waited out as Retry-After asked)` : `retries after ${cause}`, delay);
    }
  }

  /** The request as it is sent, checked first: a write's Idempotency-Key and the body's size. */
  #prepare<T>(spec: CallSpec<T>): PreparedRequest {
    const method = spec.method;
    const pathWithQuery = spec.query ? `${spec.path}?${new URLSearchParams(spec.query).toString()}` : spec.path;
    const fail: Fail = (code, status, detail, extra = {}) =>
      new HostingApiError({ status, code, method, path: spec.path, detail: this.scrub(detail), idempotencyKey: spec.idempotencyKey, ...extra });
    const headers: Record<string, string> = {
      'authorization': `Bearer ${this.#token}`,
      'accept': 'application/json',
      'user-agent': this.#userAgent,
    };
    let body: string | undefined;
    if (method !== 'GET') {
      const key = spec.idempotencyKey;
      if (!key || key.length < LIMITS.idempotencyKeyMinLength || key.length > LIMITS.idempotencyKeyMaxLength) {
        throw fail('invalid_request', 0, `an Idempotency-Key of ${LIMITS.idempotencyKeyMinLength} to ${LIMITS.idempotencyKeyMaxLength} characters is required (got ${key ? key.length : 0})`);
      }
      headers['idempotency-key'] = key;
      body = JSON.stringify(spec.body ?? {});
      if (Buffer.byteLength(body) > LIMITS.maxBodyBytes) {
        throw fail('invalid_request', 0, `the request body is ${Buffer.byteLength(body)} bytes; the API accepts at most ${LIMITS.maxBodyBytes}`);
      }
      headers['content-type'] = 'application/json';
    }
    return { method, pathWithQuery, headers, body, budget: spec.budget ?? 'request', successStatus: spec.successStatus ?? 200, fail };
  }

  /** Waits while the request's budget is spent; fails when it resets only after the deadline. */
  async #pace(request: PreparedRequest, deadline: number, attempt: number): Promise<void> {
    const { budget } = request;
    for (let pacing = this.#pacer.acquire(budget, this.#wallClock()); pacing > 0; pacing = this.#pacer.acquire(budget, this.#wallClock())) {
      if (this.#now() + pacing > deadline) {
        throw request.fail('deadline_exceeded', 0, `the rate-limit budget resets in ${Math.ceil(pacing / 1000)}s, after the request deadline`);
      }
      if (this.#pacer.lastWaitIsProbe) {
        // A fraction of a second for the answer that tells a new window's budget: no limit is spent.
        await this.#sleep(pacing);
      } else {
        const limit = this.#limitWords(budget);
        this.#log(`${request.method} ${request.pathWithQuery}: ${limit} is spent; waiting ${(pacing / 1000).toFixed(1)} s for it to reset`);
        await this.#wait(limit, pacing);
      }
      if (this.#signal?.aborted) throw request.fail('aborted', 0, 'stopped while waiting for the rate-limit budget', { attempt: attempt - 1 });
    }
  }

  /** One send, its log line, and its answer: the validated result, or the error it maps to (a stop is thrown). */
  async #attempt<T>(
    request: PreparedRequest, schema: z.ZodMiniType<T>, deadline: number, attempt: number,
  ): Promise<ApiResponse<T> | HostingApiError> {
    const { method, pathWithQuery, budget, fail } = request;
    const started = this.#now();
    try {
      const url = this.baseUrl + pathWithQuery;
      const { headers, body } = request;
      const res = await this.#transport.send({ method, url, headers, body, timeoutMs: deadline - this.#now(), signal: this.#signal });
      this.#pacer.observe(budget, { remaining: res.headers['ratelimit-remaining'], reset: res.headers['ratelimit-reset'] }, this.#wallClock());
      this.#noteBudget(budget, res.headers);
      const requestId = res.headers['x-request-id'];
      this.#log(`${method} ${pathWithQuery} -> ${res.status}${requestId ? ` (request id ${requestId})` : ''} in ${this.#now() - started} ms, attempt ${attempt}`);
      if (res.status === request.successStatus) {
        this.#answered.value = true;
        const success = this.parseSuccess(res, schema, requestId, fail);
        this.#noteObserved(success.meta?.observedAt);
        return { ...success, attempt };
      }
      const error = this.parseFailure(res, requestId, attempt, fail);
      if (!isUnavailable(error)) this.#answered.value = true;
      return error;
    } catch (err) {
      if (!(err instanceof TransportError)) throw err;
      this.#pacer.release(budget);
      this.#log(`${method} ${pathWithQuery} -> ${err.message}, attempt ${attempt}`);
      if (err.kind === 'aborted') {
        throw fail('aborted', 0, `stopped while the request was in flight${method === 'GET' ? '' : '; the write may have been applied'}`, { attempt });
      }
      return fail(err.kind, 0, err.kind === 'timeout'
        ? `no answer in time (${err.causeCode}); ${method === 'GET' ? '' : 'the write may have been applied; '}retried with the same Idempotency-Key where allowed`
        : `${err.message}${method === 'GET' ? '' : '; the write may have been applied'}`);
    }
  }

  /**
   * How long to wait before attempt `attempt + 1` after `error`; throws it (or what it means) where
   * no retry may follow: not retryable, attempts or deadline spent, nothing answering at the address,
   * or an API that has answered nothing but "unavailable".
   */
  #retryDelay(request: PreparedRequest, error: HostingApiError, attempt: number, deadline: number, firstSent: number): number {
    const retryable = isRetryable({ method: request.method, status: error.status, code: error.code, replayed: error.replayed });
    if (!retryable || attempt >= this.#retry.maxAttempts) {
      throw error;
    }
    const during = `${attempt} times in ${((this.#now() - firstSent) / 1000).toFixed(1)} s`;
    if (refusedFor(error, attempt)) {
      throw request.fail('network_error', 0, `${error.detail}, ${during}: nothing answers at that address`, { attempt });
    }
    if (!this.#answered.value && isUnavailable(error) && attempt >= MAX_UNAVAILABLE_BEFORE_AN_ANSWER) {
      const said = `${error.status} ${error.code}${error.requestId ? `, request id ${error.requestId}` : ''}`;
      throw request.fail(error.code, error.status, `${error.detail} (${said}), ${during}, and no other answer yet: the API is down or in maintenance`, { attempt, requestId: error.requestId, apiDown: true });
    }
    const delay = backoffDelayMs(attempt, this.#retry, this.#random, error.retryAfterSeconds);
    if (this.#now() + delay > deadline) throw error;
    return delay;
  }

  private parseSuccess<T>(
    res: HttpResponse,
    schema: z.ZodMiniType<T>,
    requestId: string | undefined,
    fail: Fail,
  ): Omit<ApiResponse<T>, 'attempt'> {
    const json = parseJson(res.body);
    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success || envelope.data.data === undefined || (json as Record<string, unknown>).error !== undefined) {
      throw fail('invalid_response', res.status, 'the body is not a JSON object with exactly one of `data` or `error`', { requestId });
    }
    const parsed = schema.safeParse(envelope.data.data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = ['data', ...issue.path.map(String)].join('.');
      throw fail('invalid_response', res.status, `the response does not match the documented shape at ${where}: ${issue.message}`, { requestId });
    }
    return {
      data: parsed.data,
      meta: envelope.data.meta,
      requestId,
      replayed: res.headers['idempotent-replayed'] === 'true',
    };
  }

  private parseFailure(
    res: HttpResponse,
    requestId: string | undefined,
    attempt: number,
    fail: Fail,
  ): HostingApiError {
    const retryAfterSeconds = parseRetryAfter(res.headers['retry-after'], this.#wallClock());
    const replayed = res.headers['idempotent-replayed'] === 'true';
    const parsed = errorBodySchema.safeParse(parseJson(res.body));
    if (!parsed.success) {
      return fail('unexpected_status', res.status, `status ${res.status} without a documented error body`, { requestId, retryAfterSeconds, replayed, attempt });
    }
    const { code, message, fields } = parsed.data.error;
    return fail(code as HostingErrorCode, res.status, message, {
      requestId: parsed.data.error.requestId || requestId,
      retryAfterSeconds,
      replayed,
      attempt,
      fields: fields?.map((f) => ({ path: f.path, message: this.scrub(f.message) })),
    });
  }

  /** Defence in depth: nothing the server echoes can carry the token into a message. */
  private scrub(text: string): string {
    return text.split(this.#token).join('[redacted]');
  }
}

function serverPath(serverId: string): string {
  return `/servers/${encodeURIComponent(serverId)}`;
}

function ipPath(serverId: string, ip: string): string {
  return `${serverPath(serverId)}/ips/${encodeURIComponent(ip)}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
