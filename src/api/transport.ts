import type { Dispatcher } from 'undici';

/*
 * The one module that talks HTTP. Everything above it sees plain requests and responses, so tests
 * swap the dispatcher (undici's MockAgent) and nothing else. It uses only `Agent` and
 * `Dispatcher#request`, so the handler bundle can load just those parts of undici
 * (scripts/undici-slim.js).
 */

export type { Dispatcher };

export interface HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** Cuts the header and body timeouts short, so one attempt cannot outlive the caller's deadline. */
  readonly timeoutMs?: number;
  /** Aborts the request in flight (the caller was stopped). */
  readonly signal?: AbortSignal;
}

export interface HttpResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * No complete answer arrived. `timeout` covers connect, header and body timeouts; `network_error`
 * covers refused, reset and closed connections, including a response lost after the server acted.
 */
export class TransportError extends Error {
  constructor(
    public readonly kind: 'network_error' | 'timeout' | 'aborted',
    /** The cause's code, e.g. ECONNRESET; never includes request data. */
    public readonly causeCode: string,
    /** `host:port` of the API, so a refused connection says where it tried; never a path or query. */
    public readonly hostPort = '',
  ) {
    const where = hostPort ? ` to ${hostPort}` : '';
    super(kind === 'timeout' ? `timed out${where} (${causeCode})` : kind === 'aborted' ? 'stopped by the caller' : `connection${where} failed (${causeCode})`);
    this.name = 'TransportError';
  }
}

export interface TransportTimeouts {
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
}

export const DEFAULT_TIMEOUTS: TransportTimeouts = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
};

export interface Transport {
  send(req: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/**
 * The `HOSTING_API_TCP_KEEPALIVE` setting: `off` or `on`; unset is undefined (undici's default, on).
 * Off is for sockets that refuse the keep-alive option, as Wine's do: there every connection fails
 * with `UNKNOWN` until it is off. Anything else is refused, naming the values, never silently read.
 */
export function tcpKeepAliveSetting(value: string | undefined, variable: string): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'on' || value === 'off') return value === 'on';
  // Shown only when it is a short word: a token pasted into the wrong variable must not reach the log.
  const shown = /^\w{1,8}$/.test(value) ? ` is ${JSON.stringify(value)}` : ' is neither "off" nor "on" (its value is not shown)';
  throw new Error(`${variable}${shown}: use "off" (no TCP keep-alive probes) or "on" (the default)`);
}

export function createTransport(options: { dispatcher?: Dispatcher; timeouts?: Partial<TransportTimeouts>; tcpKeepAlive?: boolean } = {}): Transport {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const owned = options.dispatcher === undefined;
  const dispatcher = options.dispatcher ?? newAgent(timeouts, options.tcpKeepAlive);

  return {
    async send(req) {
      const url = new URL(req.url);
      const hostPort = `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
      try {
        const res = await dispatcher.request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: req.method as Dispatcher.HttpMethod,
          headers: req.headers,
          body: req.body,
          headersTimeout: capped(timeouts.headersTimeoutMs, req.timeoutMs),
          bodyTimeout: capped(timeouts.bodyTimeoutMs, req.timeoutMs),
          signal: req.signal,
        });
        const body = await res.body.text();
        return { status: res.statusCode, headers: flattenHeaders(res.headers), body };
      } catch (err) {
        if (req.signal?.aborted) throw new TransportError('aborted', 'ABORTED', hostPort);
        const code = errorCode(err);
        throw new TransportError(TIMEOUT_CODES.has(code) ? 'timeout' : 'network_error', code, hostPort);
      }
    },
    async close() {
      if (owned) {
        await dispatcher.close();
      }
    },
  };
}

/**
 * undici is loaded with the first transport, not with this module: a provider process that answers
 * only Terraform's schema and validation requests never sends one, and undici's top-level code was
 * some 8 ms before each process's first answer.
 */
function newAgent(timeouts: TransportTimeouts, tcpKeepAlive: boolean | undefined): Dispatcher {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at first use, see above
  const { Agent } = require('undici') as typeof import('undici');
  return new Agent({
    connect: { timeout: timeouts.connectTimeoutMs, ...(tcpKeepAlive === undefined ? {} : { keepAlive: tcpKeepAlive }) },
    headersTimeout: timeouts.headersTimeoutMs,
    bodyTimeout: timeouts.bodyTimeoutMs,
    keepAliveTimeout: 4_000,
    connections: 4,
  });
}

function capped(timeoutMs: number, limitMs: number | undefined): number {
  return limitMs === undefined ? timeoutMs : Math.max(1, Math.min(timeoutMs, Math.ceil(limitMs)));
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) {
      flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return flat;
}

function errorCode(err: unknown): string {
  if (err && typeof err === 'object') {
    const withCode = err as { code?: unknown; cause?: { code?: unknown } };
    if (typeof withCode.code === 'string') {
      return withCode.code;
    }
    if (typeof withCode.cause?.code === 'string') {
      return withCode.cause.code;
    }
  }
  return 'UNKNOWN';
}
