import type { HostingErrorCode } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT';

/** What one attempt ended with, as far as the retry decision needs to know. */
export interface AttemptOutcome {
  readonly method: HttpMethod;
  /** 0 when no answer arrived (network error, timeout, lost response). */
  readonly status: number;
  readonly code: HostingErrorCode;
  /** The answer came from the idempotency store (`Idempotent-Replayed: true`). */
  readonly replayed?: boolean;
}

/**
 * Whether a failed attempt may be sent again, unchanged.
 *
 * Reads are safe to repeat. Writes are repeated only because the client always resends them with
 * the same Idempotency-Key: the server then replays the first result instead of acting twice
 * (section 4, rule 3). Answers that tell the caller something it must act on (a refusal, a failed
 * or unconfirmed action) are never retried: `outcome_unknown` means "read the server first", which
 * is the caller's decision, not the transport's. Nor is a replayed answer: it is final for its key.
 */
export function isRetryable(outcome: AttemptOutcome): boolean {
  const { method, status, code } = outcome;
  if (outcome.replayed) {
    // The stored first result of this key: the same key can only ever get it again.
    return false;
  }
  if (status === 0) {
    return code === 'network_error' || code === 'timeout';
  }
  if (status === 429) {
    return true;
  }
  if (status === 503 && code === 'temporarily_unavailable') {
    return true;
  }
  if (method === 'GET') {
    // A gateway's answer without a documented error body says nothing about the request; a read
    // may simply be asked again.
    return status >= 500 && code === 'unexpected_status';
  }
  return status === 409 && code === 'idempotency_request_in_progress';
}

export interface BackoffOptions {
  /** First delay, before jitter. */
  readonly baseDelayMs: number;
  /** No single delay is longer than this, except when the server asks for more. */
  readonly maxDelayMs: number;
}

/**
 * Delay before attempt `attempt + 1` (attempt counts from 1): exponential with "equal jitter",
 * so parallel handlers sharing one token spread out, and never shorter than the server's
 * `Retry-After`.
 */
export function backoffDelayMs(
  attempt: number,
  options: BackoffOptions,
  random: () => number,
  retryAfterSeconds?: number,
): number {
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  const jittered = exponential / 2 + random() * (exponential / 2);
  const serverFloor = retryAfterSeconds !== undefined ? retryAfterSeconds * 1000 : 0;
  return Math.max(Math.round(jittered), serverFloor);
}

/** `Retry-After` is either delta-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') {
    return undefined;
  }
  const seconds = Number(value);
  if (Number.isFinite(seconds)) {
    return Math.max(0, seconds);
  }
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}
