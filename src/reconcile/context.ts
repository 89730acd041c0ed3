import { idempotencyKey, type KeyInput } from './keys';
import { ReconcileError } from './reconcile-error';
import type { ApiResponse, HostingApiClient } from '../api/client';
import { HostingApiError, type HostingErrorCode } from '../api/errors';
import type { Scope } from '../api/schemas';

export interface ReconcileContext {
  readonly client: HostingApiClient;
  readonly instanceId: string;
  /** One line per decision, for a person reading Terraform's log. */
  readonly log: (line: string) => void;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
}

/** What a kind's plan found; `apply` makes the writes that close the gap, from what was read. */
export interface Plan {
  readonly inSync: boolean;
  /** `in sync`, or the changes, e.g. `enabled false -> true`. */
  readonly summary: string;
  readonly apply: () => Promise<void>;
}

export function keyFor(ctx: ReconcileContext, base: Omit<KeyInput, 'instanceId' | 'attempt'> & { attempt?: number }): string {
  return idempotencyKey({ ...base, instanceId: ctx.instanceId, attempt: base.attempt ?? 1 });
}

/**
 * Every write is confirmed. A fresh answer must show the desired values. A replayed answer is the
 * first result of that key, which may be outdated (the value was changed away and back since), so
 * it is checked against a fresh read, and written once more with a new attempt number if needed.
 */
export async function confirmWrite<T>(
  ctx: ReconcileContext,
  label: string,
  write: (attempt: number) => Promise<ApiResponse<T>>,
  remaining: (value: T) => readonly string[],
  reread: () => Promise<T>,
): Promise<ApiResponse<T>> {
  for (let attempt = 1; ; attempt++) {
    const res = await write(attempt);
    const left = remaining(res.replayed ? await reread() : res.data);
    if (left.length === 0) return res;
    if (res.replayed && attempt === 1) {
      ctx.log(`${label}: the API replayed an earlier answer, but the server shows ${left.join(', ')}; writing again`);
      continue;
    }
    throw new ReconcileError(`${label}: the API accepted the change but reports ${left.join(', ')} still to do`, 'apply again; if it persists, report the request id to support');
  }
}

/** Stale data never decides a write: read again a few times, then give up clearly. */
export const STALE_RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000];

export async function readFresh<T>(ctx: ReconcileContext, what: string, read: () => Promise<ApiResponse<T>>): Promise<ApiResponse<T>> {
  let res = await read();
  for (const delay of STALE_RETRY_DELAYS_MS) {
    if (res.meta?.stale !== true) return res;
    ctx.log(`${what}: the API served cached data (observed at ${res.meta.observedAt ?? 'unknown'}); reading again in ${delay} ms`);
    await ctx.sleep(delay);
    res = await read();
  }
  if (res.meta?.stale === true) {
    throw new ReconcileError(
      `${what}: the API only returned stale data (last observed at ${res.meta.observedAt ?? 'unknown'}); nothing was changed`,
      'live data is briefly unavailable; run the apply again in a minute',
    );
  }
  return res;
}

/** Turns an API refusal into a ReconcileError with a next step; asks /connect which scopes are missing. */
export async function explainApiError(ctx: ReconcileContext, what: string, err: unknown, needed: readonly Scope[]): Promise<never> {
  if (!(err instanceof HostingApiError)) throw err;
  const hint = HINTS[err.code] ?? 'check the API error above; nothing else was changed by this step';
  if (err.code === 'insufficient_scope' || err.code === 'unauthorized' || err.code === 'ip_not_allowed') {
    throw new ReconcileError(`${what} failed: ${err.detail}`, `${await describeToken(ctx, needed)} ${hint}`, err);
  }
  throw new ReconcileError(`${what} failed: ${err.detail}`, hint, err);
}

const HINTS: Partial<Record<HostingErrorCode, string>> = {
  unauthorized: 'check that the token in the environment variable is valid, not expired and not revoked.',
  insufficient_scope: 'create a token with the missing scopes in the control panel\'s API section.',
  ip_not_allowed: 'add the address Terraform runs from to the token\'s allowlist.',
  primary_owner_required: 'the server is shared with this account and is read-only for it; manage it from the owning account.',
  not_found: 'check the server id (and address) against GET /servers of this account.',
  action_unsupported: 'this server type or state does not support the change; see the message above.',
  service_locked: 'the service is suspended or locked; resolve it in the control panel first.',
  validation_failed: 'fix the value named above in the stack.',
  rate_limited: 'the token\'s rate limit was exhausted for longer than the request deadline; lower Terraform\'s -parallelism or run again.',
  temporarily_unavailable: 'the API is briefly unavailable; run the apply again shortly.',
  deadline_exceeded: 'the API did not answer in time; run the apply again: completed writes are detected and not repeated.',
  network_error: 'the API could not be reached; check HOSTING_API_URL and the network, then run the apply again.',
  timeout: 'the API did not answer in time; run the apply again: completed writes are detected and not repeated.',
  invalid_response: 'the API answered in an unexpected shape; report the request id to support.',
};

/** Which scopes the token lacks for this step, from GET /connect (made only after a refusal). */
async function describeToken(ctx: ReconcileContext, needed: readonly Scope[]): Promise<string> {
  try {
    const { data } = await ctx.client.connect();
    const missing = needed.filter((s) => !data.token.scopes.includes(s));
    const has = data.token.scopes.length ? data.token.scopes.join(', ') : 'none';
    return missing.length
      ? `Token "${data.token.name}" has the scopes ${has} and lacks ${missing.join(', ')};`
      : `Token "${data.token.name}" has the scopes ${has};`;
  } catch (err) {
    return err instanceof HostingApiError ? `The token itself was refused (${err.code});` : 'The token could not be checked;';
  }
}
