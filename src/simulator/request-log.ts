/** One request the simulator answered, as `GET /__simulator/requests` and the live page show it. */
export interface RequestLogEntry {
  readonly requestId: string;
  readonly method: string;
  /** Below `/api/v1`, with the query; cut at MAX_LOGGED_PATH characters. */
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

/** How many requests a simulator keeps by default: about 2 MB of entries. */
export const DEFAULT_REQUEST_LOG_SIZE = 10_000;

/** Longer paths (a query string of kilobytes, say) are kept cut, saying how much was cut. */
export const MAX_LOGGED_PATH = 512;

/** The path as the log keeps it: whole up to MAX_LOGGED_PATH characters, cut beyond. */
export function loggedPath(path: string): string {
  if (path.length <= MAX_LOGGED_PATH) return path;
  return `${path.slice(0, MAX_LOGGED_PATH)}… (${path.length - MAX_LOGGED_PATH} more characters)`;
}

/**
 * The newest `size` requests, in the order they were answered: a simulator left running for days
 * keeps a fixed amount, and says how many it has let go.
 */
export class RequestLog {
  private readonly ring: RequestLogEntry[] = [];
  private logged = 0;

  constructor(public readonly size = DEFAULT_REQUEST_LOG_SIZE) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`the request log keeps at least 1 request; got ${size}`);
  }

  /** Every request answered since the start, kept or not. */
  public get total(): number {
    return this.logged;
  }

  /** The requests let go to keep the newest `size`. */
  public get dropped(): number {
    return this.logged - this.ring.length;
  }

  public add(entry: RequestLogEntry): void {
    this.ring[this.logged % this.size] = entry;
    this.logged += 1;
  }

  /** The kept requests from the `from`-th answered on (0: the first ever), oldest first. */
  public since(from = 0): RequestLogEntry[] {
    const start = Math.max(from, this.dropped);
    const entries: RequestLogEntry[] = [];
    for (let n = start; n < this.logged; n++) entries.push(this.ring[n % this.size]);
    return entries;
  }
}
