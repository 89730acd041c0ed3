/** One request the simulator answered, as `GET /__simulator/requests` and the live page show it. */
export interface RequestLogEntry {
  readonly requestId: string;
  readonly method: string;
  /** Below `/api/v1`, with the query; like every text field, cut at MAX_LOGGED_FIELD characters. */
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

/** How many requests a simulator keeps by default. */
export const DEFAULT_REQUEST_LOG_SIZE = 10_000;

/**
 * How many bytes of entries (as `GET /__simulator/requests` serves them) the log keeps at most: a
 * flood of large requests lets older entries go sooner instead of growing the simulator.
 */
export const MAX_REQUEST_LOG_BYTES = 4 * 1024 * 1024;

/** Each text field of an entry (the path with its query, the Idempotency-Key, …) is kept up to this many characters. */
export const MAX_LOGGED_FIELD = 256;

/** A text as the log keeps it: whole up to MAX_LOGGED_FIELD characters, cut beyond, saying how much was cut. */
export function loggedText(text: string): string {
  if (text.length <= MAX_LOGGED_FIELD) return text;
  return `${text.slice(0, MAX_LOGGED_FIELD)}… (${text.length - MAX_LOGGED_FIELD} more characters)`;
}

const loggedOptional = (text: string | undefined) => (text === undefined ? undefined : loggedText(text));

/** The entry with every text field cut to MAX_LOGGED_FIELD: what a request sends cannot grow the log. */
function boundedEntry(entry: RequestLogEntry): RequestLogEntry {
  return {
    ...entry,
    requestId: loggedText(entry.requestId),
    method: loggedText(entry.method),
    path: loggedText(entry.path),
    endpoint: loggedOptional(entry.endpoint),
    serverId: loggedOptional(entry.serverId),
    tokenName: loggedOptional(entry.tokenName),
    code: loggedOptional(entry.code),
    idempotencyKey: loggedOptional(entry.idempotencyKey),
    carriedOut: entry.carriedOut?.map(loggedText),
    faults: entry.faults.map(loggedText),
  };
}

/**
 * The newest requests, in the order they were answered, at most `size` of them and `maxBytes` of
 * entries: a simulator left running for days, or flooded, keeps a bounded amount, and says how
 * many it has let go.
 */
export class RequestLog {
  private readonly kept: Array<{ readonly entry: RequestLogEntry; readonly bytes: number }> = [];
  /** Index in `kept` of the oldest entry still kept (let-go entries are compacted away in batches). */
  private head = 0;
  private bytes = 0;
  private logged = 0;

  constructor(public readonly size = DEFAULT_REQUEST_LOG_SIZE, public readonly maxBytes = MAX_REQUEST_LOG_BYTES) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`the request log keeps at least 1 request; got ${size}`);
  }

  /** Every request answered since the start, kept or not. */
  public get total(): number {
    return this.logged;
  }

  /** The requests let go to keep the newest within `size` and `maxBytes`. */
  public get dropped(): number {
    return this.logged - this.count;
  }

  /** How many requests the log keeps now. */
  public get count(): number {
    return this.kept.length - this.head;
  }

  public add(entry: RequestLogEntry): void {
    const bounded = boundedEntry(entry);
    const bytes = Buffer.byteLength(JSON.stringify(bounded));
    this.kept.push({ entry: bounded, bytes });
    this.bytes += bytes;
    this.logged += 1;
    while (this.count > this.size || (this.bytes > this.maxBytes && this.count > 1)) this.bytes -= this.kept[this.head++].bytes;
    if (this.head > 1024 && this.head * 2 > this.kept.length) {
      this.kept.splice(0, this.head);
      this.head = 0;
    }
  }

  /** The kept requests from the `from`-th answered on (0: the first ever), oldest first. */
  public since(from = 0): RequestLogEntry[] {
    const skip = Math.max(from, this.dropped) - this.dropped;
    return this.kept.slice(this.head + skip).map((kept) => kept.entry);
  }
}
