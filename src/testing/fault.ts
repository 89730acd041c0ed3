/** What a fault does to the requests it matches. */
export enum FaultEffect {
  /** Answers with an error status (`status`, optional `code`, `retryAfterSeconds`, `takesEffect`). */
  ERROR = 'error',
  /** Delays the answer by `latencyMs`. */
  LATENCY = 'latency',
  /** Closes the connection without an answer (the write may have happened). */
  DROP_RESPONSE = 'drop_response',
  /** The action's operation ends with `operationStatus` (and `takesEffect`, `operationMessage`). */
  OPERATION = 'operation',
  /** The read serves its last good value, marked stale. */
  STALE = 'stale',
  /** The read serves a cached value up to `maxAgeSeconds` old. */
  CACHE = 'cache',
}

/**
 * A fault rule of the simulated account (docs/guides/simulator.md, "The simulator by hand"): which requests it
 * matches, how often, and its effect. Members that do not belong to the effect are refused.
 */
export interface Fault {
  readonly effect: FaultEffect;
  /**
   * `METHOD /template`, either part may be `*`; e.g. `POST /servers/{serverId}/actions`.
   * @default '* *'
   */
  readonly endpoint?: string;
  /** @default - any server */
  readonly serverId?: string;
  /** @default - until cleared */
  readonly times?: number;
  /** Lets this many matching requests through first. @default 0 */
  readonly skip?: number;
  /** @default 1 */
  readonly probability?: number;
  /** ERROR: the HTTP status, 400 to 599. */
  readonly status?: number;
  /** ERROR: the error code. */
  readonly code?: string;
  /** ERROR: the Retry-After header. */
  readonly retryAfterSeconds?: number;
  /** ERROR and OPERATION: whether the change happens anyway. */
  readonly takesEffect?: boolean;
  /** LATENCY: milliseconds. */
  readonly latencyMs?: number;
  /** OPERATION: `succeeded`, `failed`, `timed_out` or `outcome_unknown`. */
  readonly operationStatus?: string;
  /** OPERATION: the operation's message. */
  readonly operationMessage?: string;
  /** CACHE: how old the served value may be. */
  readonly maxAgeSeconds?: number;
}
