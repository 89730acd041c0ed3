import { MockAgent } from 'undici';
import { HostingApiClient, type HostingApiClientOptions } from '../../src/api';

export const MOCK_ORIGIN = 'https://hosting.test';
export const MOCK_BASE_URL = `${MOCK_ORIGIN}/api/v1`;
/** A token value that must never show up in any output; tests grep for it. */
export const SENTINEL_TOKEN = 'tok_SENTINEL_c0ffee_do_not_print';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/**
 * A client wired to undici's MockAgent with zero-delay, recorded sleeps, so retry and pacing tests
 * assert on the waits the client asked for instead of waiting them.
 */
export function mockClient(options: Partial<HostingApiClientOptions> = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(MOCK_ORIGIN);
  const sleeps: number[] = [];
  const logs: string[] = [];
  let clock = 1_000_000;
  const client = new HostingApiClient({
    baseUrl: MOCK_BASE_URL,
    token: SENTINEL_TOKEN,
    dispatcher: agent,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    now: () => clock,
    wallClock: () => clock,
    random: () => 0.5,
    log: (line) => logs.push(line),
    ...options,
  });
  const requests: RecordedRequest[] = [];

  /** Queues one answer for the next matching request and records what was sent. */
  function reply(method: string, path: string, status: number, body: unknown, headers: Record<string, string> = {}) {
    pool
      .intercept({ method, path: `/api/v1${path}` })
      .reply((req) => {
        requests.push({ method, path, headers: normalizeHeaders(req.headers), body: req.body as string | undefined });
        return { statusCode: status, data: typeof body === 'string' ? body : JSON.stringify(body), responseOptions: { headers: { 'x-request-id': 'req_mock_1', ...headers } } };
      });
  }

  /** Queues a connection failure (a lost response when the server already acted). */
  function fail(method: string, path: string, code = 'ECONNRESET') {
    pool.intercept({ method, path: `/api/v1${path}` }).replyWithError(Object.assign(new Error('socket hang up'), { code }));
  }

  return { client, agent, reply, fail, requests, sleeps, logs, advance: (ms: number) => (clock += ms) };
}

function normalizeHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
  } else if (headers && typeof headers === 'object') {
    for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = String(v);
  }
  return out;
}

export function apiError(code: string, message = code.replace(/_/g, ' '), extra: Record<string, unknown> = {}) {
  return { error: { code, message, requestId: 'req_err_1', ...extra } };
}
