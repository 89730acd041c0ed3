import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { API_PREFIX, createApiHandler } from './api-handler';
import { ControlSurface } from './control-surface';
import { dashboardServers, DashboardStream } from './dashboard';
import { FaultInjector, type FaultRule } from './faults';
import { readBody, writeJson } from './http';
import { IdempotencyStore } from './idempotency-store';
import { LastGoodReads } from './last-good-reads';
import { LivePage } from './live-page';
import { DEFAULT_RATE_LIMITS, RateLimiter, type RateLimits } from './rate-limiter';
import { carriesAccessKey, controlWriteRefusal, hostRefusal, isLoopbackHost, isWildcardHost, servedHostNames } from './request-guard';
import { DEFAULT_REQUEST_LOG_SIZE, MAX_REQUEST_LOG_BYTES, RequestLog, type RequestLogEntry } from './request-log';
import { DEMO_ACCOUNT_ID, defaultSeed, withoutDemoSecrets, withoutTimedTransitions, type SimulatorSeed } from './seed';
import { DEFAULT_OPERATION_DELAYS, SimulatorState, type DriftChange, type ExecutedWrite, type OperationDelays } from './state';

export interface SimulatorOptions {
  /**
   * Default 127.0.0.1: the simulator is a local test double. Any other address is reachable from
   * other machines: the control surface and the live page then need `accessKey`, and the demo
   * tokens' fixed secrets are replaced by random ones.
   */
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Host names requests may name besides the loopback names and `host` (e.g. a CI service's name). */
  readonly allowedHosts?: readonly string[];
  readonly seed?: SimulatorSeed;
  /** Milliseconds since the epoch; drives token expiry, rate windows, operations and provisioning. */
  readonly now?: () => number;
  readonly limits?: Partial<RateLimits>;
  readonly operationDelays?: Partial<OperationDelays>;
  /** Seeds the generator behind probabilistic faults. */
  readonly faultSeed?: number;
  /** How many requests the log keeps, the newest; default 10,000. */
  readonly requestLogSize?: number;
  /** How many bytes of entries the request log keeps at most (default MAX_REQUEST_LOG_BYTES, 4 MB). */
  readonly requestLogBytes?: number;
  /**
   * False: no server changes by itself (the demo's `vps_new_4` stays provisioning instead of turning
   * active after 1.5 s); only requests change the account. Default true.
   */
  readonly timedTransitions?: boolean;
  /**
   * A secret this simulator proves it holds (`POST /__simulator/identity`) without ever showing it:
   * how `simulator stop` tells the simulator it started from a process that has its pid or port
   * since. None: the endpoint answers 404.
   */
  readonly identitySecret?: string;
  /** The access key of a simulator other machines reach (`host`); default drawn at random. `simulator start` hands one over to prove its simulator's identity through it. */
  readonly accessKey?: string;
}

export interface RunningSimulator {
  /** Ends in `/api/v1`. */
  readonly baseUrl: string;
  /** The control surface for tests and the demo, outside the API. */
  readonly controlUrl: string;
  /** The live page of the account, its requests, rate budgets and faults: `<controlUrl>/`. */
  readonly dashboardUrl: string;
  /**
   * Set when the simulator listens on an address other machines reach: the control surface takes it
   * as `Authorization: Bearer <key>`, the live page from `dashboardUrl?access=<key>`.
   */
  readonly accessKey?: string;
  /** Seeded token secrets by token name. */
  readonly tokens: Readonly<Record<string, string>>;
  readonly state: SimulatorState;
  /** The requests the log keeps (the newest, within `requestLogSize` and `requestLogBytes`), oldest first. */
  readonly requests: readonly RequestLogEntry[];
  /** How many requests the log has let go to keep its size. */
  readonly requestsDropped: number;
  addFault(rule: FaultRule): number;
  clearFaults(): void;
  /** Changes a server as the control panel would ("drift"); not counted as an executed write. */
  drift(serverId: string, change: DriftChange): void;
  /** Writes and actions really carried out (replays excluded). */
  executed(filter?: { serverId?: string; kind?: ExecutedWrite['kind'] }): ExecutedWrite[];
  setOperationDelays(delays: Partial<OperationDelays>): void;
  /** Back to the seeded account, with no faults (`POST /__simulator/reset`). */
  reset(): void;
  close(): Promise<void>;
}

const CONTROL_PREFIX = '/__simulator';

/** Starts the Hosting API simulator and resolves once it listens. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const listenHost = options.host ?? '127.0.0.1';
  const exposed = !isLoopbackHost(listenHost);
  const accessKey = exposed ? (options.accessKey ?? randomBytes(24).toString('base64url')) : undefined;
  const now = options.now ?? Date.now;
  const seed = seedFor(options, exposed);
  const limits = { ...DEFAULT_RATE_LIMITS, ...options.limits };
  const state = new SimulatorState(seed, now, { ...DEFAULT_OPERATION_DELAYS, ...options.operationDelays });
  const faults = new FaultInjector(options.faultSeed);
  const limiter = new RateLimiter(limits.windowMs);
  const requests = new RequestLog(options.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE, options.requestLogBytes ?? MAX_REQUEST_LOG_BYTES);
  const dashboard = new DashboardStream({
    view: () => {
      state.settle();
      const servers = dashboardServers(state.allServers(), state.rulesets);
      return { servers, faults: faults.list(), budgets: limiter.budgets(), windowMs: limits.windowMs, now: now() };
    },
    requests,
  });
  const livePage = new LivePage(CONTROL_PREFIX, dashboard, accessKey);
  const idempotency = new IdempotencyStore();
  const lastGood = new LastGoodReads();
  /**
   * A fresh account (a test run's own): the seed's servers and operations, no faults, and nothing the
   * API remembers of the old one (no Idempotency-Key, no cached read). Tokens, their rate budgets and
   * the request log stay: a harness holds its tokens, and counts requests across resets.
   */
  const resetAccount = () => {
    state.reset();
    faults.clear();
    idempotency.clear();
    lastGood.clear();
    dashboard.changed();
  };
  const accountId = seed.tokens[0]?.accountId ?? DEMO_ACCOUNT_ID;
  const control = new ControlSurface({ state, faults, requests, resetAccount, accountId, identitySecret: options.identitySecret });
  const api = createApiHandler({ state, faults, limiter, limits, now, requests, idempotency, lastGood, logged: () => dashboard.changed() });
  const served = servedHostNames(listenHost, [...(options.allowedHosts ?? []), ...(isWildcardHost(listenHost) ? machineNames() : [])]);

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      // A bug in the simulator must not look like an API answer a client would trust.
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`simulator error: ${(err as Error).message}`);
      }
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = `req_${randomBytes(8).toString('hex')}`;
    res.setHeader('x-request-id', requestId);
    // Before anything is read or changed: a page that rebinds its own name to this address names itself.
    const wrongHost = hostRefusal(req.headers.host, served);
    if (wrongHost) return writeJson(res, 421, { error: wrongHost });
    state.settle();
    const url = new URL(req.url ?? '/', 'http://simulator');
    const method = (req.method ?? 'GET').toUpperCase();
    if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) return routeControl(req, res, url, method);
    return api(req, res, url, method, requestId);
  }

  async function routeControl(req: IncomingMessage, res: ServerResponse, url: URL, method: string): Promise<void> {
    const path = url.pathname.slice(CONTROL_PREFIX.length);
    const isPage = method === 'GET' && livePage.serves(path);
    if (accessKey) {
      // Opened from the printed address, the page takes the key into its cookie and answers a redirect.
      if (isPage && livePage.acceptAccessKey(url, res)) return;
      if (!carriesAccessKey(req.headers, accessKey)) {
        return writeJson(res, 401, { error: `this simulator listens on ${listenHost}, which other machines reach: its control surface and live page need the access key it printed at start (Authorization: Bearer KEY, or open the live page address it printed)` });
      }
    }
    if (isPage) return livePage.serve(path, res);
    if (method !== 'GET') {
      const refusal = controlWriteRefusal(req.headers, `http://${req.headers.host ?? ''}`);
      if (refusal) return writeJson(res, 403, { error: refusal });
    }
    control.answer(method, path, await readBody(req), res);
    if (method !== 'GET') dashboard.changed();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, listenHost, () => resolve());
  });
  const address = server.address() as AddressInfo;
  // Listening on every interface, the URLs name this machine's loopback, the one address sure to reach it.
  const host = isWildcardHost(address.address) ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;

  return {
    baseUrl: `${origin}${API_PREFIX}`,
    controlUrl: `${origin}${CONTROL_PREFIX}`,
    dashboardUrl: `${origin}${CONTROL_PREFIX}/`,
    ...(accessKey && { accessKey }),
    tokens: Object.fromEntries(seed.tokens.map((t) => [t.name, t.secret])),
    state,
    get requests() {
      return requests.since();
    },
    get requestsDropped() {
      return requests.dropped;
    },
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
    reset: resetAccount,
    setOperationDelays: (delays) => {
      state.operationDelays = { ...state.operationDelays, ...delays };
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The account to start with: the demo's unless given, without fixed secrets when exposed, still when asked. */
function seedFor(options: SimulatorOptions, exposed: boolean): SimulatorSeed {
  const seed = options.seed ?? defaultSeed();
  const timed = options.timedTransitions === false ? withoutTimedTransitions(seed) : seed;
  return exposed ? withoutDemoSecrets(timed) : timed;
}

/** What this machine is called on its networks: its name and every interface's address. */
function machineNames(): string[] {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
  return [hostname(), ...addresses];
}
