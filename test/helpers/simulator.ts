import { SENTINEL_TOKEN } from './mock-api';
import { HostingApiClient, type HostingApiClientOptions } from '../../src/api';
import { defaultSeed, startSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/simulator';

export interface RawResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly json: any;
}

export interface RawRequest {
  readonly token?: string | null;
  readonly body?: unknown;
  readonly key?: string;
  readonly headers?: Record<string, string>;
}

/** A manual clock shared by the simulator and the client, so time passes only when a test says so. */
export class ManualClock {
  constructor(public ms = Date.parse('2026-11-20T10:00:00Z')) {}
  public readonly now = () => this.ms;
  public advance(ms: number): void {
    this.ms += ms;
  }
}

/**
 * Starts a simulator per test with a manual clock, and gives raw HTTP (for conformance checks) and
 * a real client whose sleeps advance the clock instead of waiting.
 */
export function useSimulator(options: Omit<SimulatorOptions, 'now'> = {}) {
  const ctx = {} as {
    sim: RunningSimulator;
    clock: ManualClock;
    raw: (method: string, path: string, req?: RawRequest) => Promise<RawResponse>;
    client: (overrides?: Partial<HostingApiClientOptions> & { tokenName?: string }) => HostingApiClient;
  };
  const clients: HostingApiClient[] = [];
  beforeEach(async () => {
    ctx.clock = new ManualClock();
    ctx.sim = await startSimulator({ ...options, now: ctx.clock.now });
    ctx.raw = async (method, path, req = {}) => {
      const headers: Record<string, string> = { ...req.headers };
      const token = req.token === undefined ? ctx.sim.tokens.full : req.token;
      if (token !== null) headers.authorization = `Bearer ${token}`;
      if (req.key) headers['idempotency-key'] = req.key;
      let body: string | undefined;
      if (req.body !== undefined) {
        body = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
        headers['content-type'] = 'application/json';
      }
      const res = await fetch(ctx.sim.baseUrl + path, { method, headers, body });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: res.status, headers: res.headers, json };
    };
    ctx.client = ({ tokenName = 'full', ...overrides } = {}) => {
      const client = new HostingApiClient({
        baseUrl: ctx.sim.baseUrl,
        token: ctx.sim.tokens[tokenName],
        sleep: async (ms) => ctx.clock.advance(ms),
        // One manual clock for deadlines and the rate windows, the simulator's own.
        now: ctx.clock.now,
        wallClock: ctx.clock.now,
        ...overrides,
      });
      clients.push(client);
      return client;
    };
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await ctx.sim.close();
  });
  return ctx;
}

/**
 * A suite runs many applies against one simulator: under the API's own limits (120 requests and 10
 * actions a minute per token) its later runs would wait for the window, which only the suites that
 * test pacing (and set their own limits) want.
 */
const ROOMY_LIMITS = { requestsPerToken: 1_000, requestsPerAccount: 2_000, actionsPerToken: 100 };

/**
 * A real-time simulator whose full-scope token is the sentinel, so scans for it prove nothing
 * leaked; for suites that run Terraform.
 */
export async function simulatorWithSentinel(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const seed = options.seed ?? defaultSeed();
  const sentinel = { ...seed.tokens[0], name: 'sentinel', secret: SENTINEL_TOKEN };
  const limits = { ...ROOMY_LIMITS, ...options.limits };
  const tokens = [...seed.tokens, sentinel];
  return startSimulator({ operationDelays: { queuedMs: 20, runningMs: 60 }, ...options, limits, seed: { ...seed, tokens } });
}
