/** The stable codes of section 7 of the spec. */
export const API_ERROR_CODES = [
  'validation_failed',
  'idempotency_key_required',
  'unauthorized',
  'insufficient_scope',
  'ip_not_allowed',
  'primary_owner_required',
  'not_found',
  'action_unsupported',
  'idempotency_request_in_progress',
  'idempotency_key_reused',
  'service_locked',
  'rate_limited',
  'action_failed',
  'outcome_unknown',
  'temporarily_unavailable',
  'action_timeout',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** Codes the client assigns itself when no API error body tells it anything. */
export const CLIENT_ERROR_CODES = [
  /** Connection refused, reset, or closed before a complete answer. */
  'network_error',
  /** No answer within the connect, header or body timeout. */
  'timeout',
  /** The answer was not the documented JSON shape. */
  'invalid_response',
  /** The request was refused by the client before sending (bad key, oversized body). */
  'invalid_request',
  /** The client's overall deadline ran out before a final answer. */
  'deadline_exceeded',
  /** A status without a documented error body, e.g. a proxy's 500. */
  'unexpected_status',
  /** The caller stopped (Terraform's Ctrl-C): no request starts after it, and one in flight is cut off. */
  'aborted',
] as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

export type HostingErrorCode = ApiErrorCode | ClientErrorCode;

export interface ErrorField {
  readonly path: string;
  readonly message: string;
}

export interface HostingApiErrorDetails {
  /** HTTP status, or 0 when no answer arrived. */
  readonly status: number;
  readonly code: HostingErrorCode;
  /** What the server (or the client) said, for people. */
  readonly detail: string;
  readonly method: string;
  /** Path below the base URL, e.g. `/servers/vps_a_1/actions`. */
  readonly path: string;
  readonly requestId?: string;
  readonly fields?: readonly ErrorField[];
  readonly retryAfterSeconds?: number;
  /** For writes: the key the request was sent with, so a caller can tell which attempt failed. */
  readonly idempotencyKey?: string;
  /**
   * The answer was the stored first result of this key (`Idempotent-Replayed: true`): final for
   * the key. The write it reports on may or may not have taken effect; read before writing again.
   */
  readonly replayed?: boolean;
  /** Which attempt of the client's call got this answer (1 for the first send); 0 when none was sent. */
  readonly attempt?: number;
  /** The API answered nothing but "unavailable" before any other answer: it is down, for every request. */
  readonly apiDown?: boolean;
}

/**
 * Every failure of the client surfaces as this one type, so callers branch on `code` alone.
 * Its message stands on its own in a log: status, code, method, path, request id, then the detail.
 * It never carries request headers, so no token can reach it.
 */
export class HostingApiError extends Error {
  public readonly status: number;
  public readonly code: HostingErrorCode;
  public readonly detail: string;
  public readonly method: string;
  public readonly path: string;
  public readonly requestId?: string;
  public readonly fields: readonly ErrorField[];
  public readonly retryAfterSeconds?: number;
  public readonly idempotencyKey?: string;
  public readonly replayed: boolean;
  public readonly attempt: number;
  public readonly apiDown: boolean;

  constructor(details: HostingApiErrorDetails) {
    super(formatMessage(details));
    this.name = 'HostingApiError';
    this.status = details.status;
    this.code = details.code;
    this.detail = details.detail;
    this.method = details.method;
    this.path = details.path;
    this.requestId = details.requestId;
    this.fields = details.fields ?? [];
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.idempotencyKey = details.idempotencyKey;
    this.replayed = details.replayed ?? false;
    this.attempt = details.attempt ?? 0;
    this.apiDown = details.apiDown ?? false;
  }

  public toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      status: this.status,
      code: this.code,
      message: this.message,
      method: this.method,
      path: this.path,
      requestId: this.requestId,
      fields: this.fields,
      retryAfterSeconds: this.retryAfterSeconds,
      replayed: this.replayed,
    };
  }
}

function formatMessage(d: HostingApiErrorDetails): string {
  const status = d.status === 0 ? 'no response' : String(d.status);
  const requestId = d.requestId ? ` (request id ${d.requestId})` : '';
  const fields = d.fields?.length ? ` [${d.fields.map((f) => `${f.path}: ${f.message}`).join('; ')}]` : '';
  const replayed = d.replayed ? ' (replayed: the stored first answer of this Idempotency-Key)' : '';
  return `${status} ${d.code} on ${d.method} ${d.path}${requestId}${replayed}: ${d.detail}${fields}`;
}

export function isHostingApiError(value: unknown, ...codes: HostingErrorCode[]): value is HostingApiError {
  return value instanceof HostingApiError && (codes.length === 0 || codes.includes(value.code));
}

/** An answer that the API is unavailable, its own or a gateway's in front of it. */
export const isUnavailable = (err: HostingApiError): boolean =>
  err.code === 'temporarily_unavailable' || (err.code === 'unexpected_status' && [502, 503, 504].includes(err.status));
