import { idempotencyKey, type KeyInput } from './keys';
import { ReconcileError } from './reconcile-error';
import type { ApiResponse, HostingApiClient } from '../api/client';
import { HostingApiError, type HostingErrorCode } from '../api/errors';
import type { Scope } from '../api/schemas';

export interface ReconcileContext {
  readonly client: HostingApiClient;
  /** What tells this context's writes from every earlier intent of the resource (`KeyInput.intent`). */
  readonly intent: string;
  /** The NAME of the variable the token came from, for hints; never the token. */
  readonly tokenEnvVar: string;
  /** One line per decision, for a person reading Terraform's log. */
  readonly log: (line: string) => void;
  /**
   * An outcome the person running Terraform must see even when it succeeded (a reboot done, one
   * whose outcome is unknown and not repeated, settings retained): a warning in Terraform's output.
   */
  readonly warn: (summary: string) => void;
  /**
   * An outcome that is just what was asked for (an action's reboot done). Where the run reports
   * progress (an action), it goes there; elsewhere it is a warning, as Terraform shows nothing else.
   * @default warn
   */
  readonly done?: (summary: string) => void;
  /**
   * Told when the API accepts an action of this context afresh (not an earlier run's answer): the
   * provider's state then records what was sent, even if the apply fails after it.
   */
  readonly accepted?: () => void;
  readonly sleep: (ms: number) => Promise<void>;
  /** Monotonic milliseconds. */
  readonly now: () => number;
  /** The whole run gives up by this instant of `now()`; the client is bound by it too. */
  readonly deadlineAt: number;
  /**
   * The API's `observedAt` before this resource's last write: a read observed no later is older
   * than that write (the shared cache of section 1, rule 6) and is read again, as a stale one is.
   */
  readonly writtenAfter?: string;
  /**
   * What the person runs again after a passing failure, for hints.
   * @default 'the apply'
   */
  readonly rerun?: string;
  /**
   * Where the person fixes a value, in their words: the bridges' handler serves cdktf stacks only;
   * the provider serves HCL users too, who have a configuration.
   * @default 'the configuration'
   */
  readonly configuration?: string;
}

/** What a kind's plan found; `apply` makes the writes that close the gap, from what was read. */
export interface Plan {
  readonly inSync: boolean;
  /** `in sync`, or the changes, e.g. `enabled false -> true`. */
  readonly summary: string;
  /** Makes the changes; what it answers is the kind's own (a power plan's: the server as last read). */
  readonly apply: () => Promise<unknown>;
}

/** The key of one write of this context: its account and intent, then what the write is for. */
export function keyFor(ctx: ReconcileContext, base: Omit<KeyInput, 'account' | 'intent' | 'attempt'> & { attempt?: number }): string {
  return idempotencyKey({ ...base, account: ctx.client.accountScope, intent: ctx.intent, attempt: base.attempt ?? 1 });
}

/** One write of a kind, and how to tell whether it is in effect. */
export interface WriteStep<T> {
  /** Starts every line, e.g. `firewall vps_web_1`. */
  readonly label: string;
  /** What is written, for lines such as `rdns applied`; empty for the whole resource. */
  readonly what?: string;
  readonly write: (attempt: number) => Promise<ApiResponse<T>>;
  /** A fresh read of what the write changes. */
  readonly read: () => Promise<T>;
  /** What the value still lacks of this write's own change (e.g. `enabled false -> true`); empty once it is in effect. */
  readonly pending: (value: T) => readonly string[];
  /** Turns a refusal into a ReconcileError with a next step. */
  readonly explain: (err: unknown) => Promise<never>;
}

/** Writes of one step, first try included: enough for a replayed or unknown outcome, then a fresh write. */
export const MAX_WRITE_ATTEMPTS = 3;

/**
 * Answers of earlier runs a step walks past before a key it sends afresh. Each run that could not
 * finish an intent leaves its keys' answers stored, and attempts are numbered from 1 in every run,
 * so a later run meets them first: they are no tries of its own, or a few failed runs would leave
 * the intent unreachable. A bound against an API that replays keys never sent, not a budget.
 */
export const MAX_EARLIER_ANSWERS = 100;

/**
 * The stored answer of an earlier call with this key (a re-run after an interrupted apply, or a
 * key used by an earlier run): replayed on the first send, so nothing this call did produced it.
 * It says what happened then, never what happens now.
 */
export function isEarlierAnswer(answer: { readonly replayed: boolean; readonly attempt: number }): boolean {
  return answer.replayed && answer.attempt <= 1;
}

/**
 * A failure that says nothing about whether the write is in effect now: `outcome_unknown`; the
 * stored first answer of the key replayed after a 5xx or 429 (the write may have run after it was
 * recorded); or any refusal stored for an earlier call (a lock lifted since, say). The same key
 * would only replay it, so the server is read, and written under a new attempt only if it still
 * needs it.
 */
function isUnresolvedOutcome(err: unknown): err is HostingApiError {
  return err instanceof HostingApiError && (err.code === 'outcome_unknown' || (err.replayed && (err.status >= 500 || err.status === 429 || isEarlierAnswer(err))));
}

/**
 * Writes until the server shows the desired value, says so, and returns the value that showed it.
 * A fresh answer is the server's own word. A replayed answer is the first result of its key, which
 * may be outdated (the value was changed away and back since), and an unresolved outcome says
 * nothing: both are checked against a fresh read, and written again under the next attempt (a new
 * key) only if still needed. Writing the same value again is harmless for settings, so a read from
 * a shared cache costs at most one more write, never a wrong result.
 */
export async function confirmWrite<T>(ctx: ReconcileContext, step: WriteStep<T>): Promise<T> {
  const done = (how: string) => ctx.log(`${step.label}: ${step.what ? `${step.what} ` : ''}applied${how}`);
  let [tries, earlier] = [0, 0];
  // An earlier run's answer is walked past (MAX_EARLIER_ANSWERS), not counted as a try of this run.
  const count = (answer: { readonly replayed: boolean; readonly attempt: number }) => (isEarlierAnswer(answer) ? earlier++ : tries++);
  for (let attempt = 1; tries < MAX_WRITE_ATTEMPTS && earlier <= MAX_EARLIER_ANSWERS; attempt++) {
    let res: ApiResponse<T>;
    try {
      res = await step.write(attempt);
    } catch (err) {
      if (!isUnresolvedOutcome(err)) return step.explain(err);
      count(err);
      ctx.log(`${step.label}: the outcome of the write is unknown (${err.status} ${err.code}${err.replayed ? ', replayed' : ''}, request id ${err.requestId ?? 'n/a'}); reading the server before deciding`);
      const value = await step.read();
      const left = step.pending(value);
      if (left.length === 0) {
        done(' (confirmed by reading the server)');
        return value;
      }
      ctx.log(`${step.label}: the server shows ${left.join(', ')}; writing again`);
      continue;
    }
    const value = res.replayed ? await step.read() : res.data;
    const left = step.pending(value);
    if (left.length === 0) {
      done(`${res.replayed ? ' (replayed)' : ''} (request id ${res.requestId ?? 'n/a'})`);
      return value;
    }
    if (!res.replayed) throw notInEffect(step, left, res.requestId);
    count(res);
    ctx.log(`${step.label}: the API replayed an earlier answer, but the server shows ${left.join(', ')}; writing again`);
  }
  throw new ReconcileError(
    `${step.label}: ${step.what ? `${step.what} ` : ''}not confirmed after ${tries + earlier} writes with unknown or outdated outcomes`,
    'check the server in the control panel, then apply again: completed writes are detected and not repeated',
  );
}

/** A fresh answer to a write that shows the write's own change not made: the API's word, with the request id to quote. */
function notInEffect(step: Pick<WriteStep<unknown>, 'label'>, left: readonly string[], requestId: string | undefined): ReconcileError {
  const id = requestId ? ` (request id ${requestId})` : '';
  return new ReconcileError(
    `${step.label}: the API accepted the change${id} but its answer shows ${left.join(', ')} still to do`,
    requestId ? `apply again; if it persists, report request id ${requestId} to support` : 'apply again; if it persists, contact support with the time of this apply',
  );
}

/** Delays of the confirming re-reads: together longer than a shared read cache lives (section 1, rule 6). */
export const CONFIRM_DELAYS_MS = [250, 500, 1_000, 2_000, 4_000];

/**
 * Reads until `done`, or until the re-reads are spent, and returns the last value. For decisions
 * that cannot be undone (a power action, skipping a reboot), where a read from a shared cache a
 * few seconds old (served without `meta.stale`) would otherwise decide.
 */
export async function readUntil<T>(
  ctx: ReconcileContext,
  label: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  describe: (value: T) => string,
): Promise<T> {
  let value = await read();
  for (const delay of CONFIRM_DELAYS_MS) {
    if (done(value) || ctx.now() + delay >= ctx.deadlineAt) return value;
    ctx.log(`  ${label}: the server still shows ${describe(value)} (the read may come from a shared cache); reading again in ${delay} ms`);
    await ctx.sleep(delay);
    value = await read();
  }
  return value;
}

/** Whether the API observed `observedAt` no later than `instant` (both its own ISO timestamps). */
export const observedBy = (observedAt: string | undefined, instant: string | undefined): boolean =>
  observedAt !== undefined && instant !== undefined && Date.parse(observedAt) <= Date.parse(instant);

/** Stale data never decides a write: read again a few times, then give up clearly. */
export const STALE_RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000];

export async function readFresh<T>(ctx: ReconcileContext, what: string, read: () => Promise<ApiResponse<T>>): Promise<ApiResponse<T>> {
  const outdated = (res: ApiResponse<T>) => res.meta?.stale === true || observedBy(res.meta?.observedAt, ctx.writtenAfter);
  let res = await read();
  for (const delay of STALE_RETRY_DELAYS_MS) {
    if (!outdated(res)) return res;
    ctx.log(`${what}: the API served cached data (observed at ${res.meta?.observedAt ?? 'unknown'}${res.meta?.stale ? '' : ', before this resource\'s last write'}); reading again in ${delay} ms`);
    // Never past the deadline (a plan's few seconds in the apply walk): the client then refuses the read as too late.
    await ctx.sleep(Math.min(delay, Math.max(0, ctx.deadlineAt - ctx.now())));
    res = await read();
  }
  if (outdated(res)) {
    const data = res.meta?.stale ? 'stale data' : 'data from before this resource\'s last write';
    throw new ReconcileError(
      `${what}: the API only returned ${data} (last observed at ${res.meta?.observedAt ?? 'unknown'}); nothing was changed`,
      `live data is briefly unavailable; run ${ctx.rerun ?? 'the apply'} again in a minute`,
    );
  }
  return res;
}

/**
 * Turns an API refusal into a ReconcileError with a next step (naming what to run again: the apply,
 * or the context's `rerun`); asks /connect which scopes are missing.
 */
export async function explainApiError(ctx: ReconcileContext, what: string, err: unknown, needed: readonly Scope[]): Promise<never> {
  if (!(err instanceof HostingApiError)) throw err;
  const hint = err.code === 'unauthorized'
    ? `check that the token in the environment variable ${ctx.tokenEnvVar} is valid, not expired and not revoked.`
    : (HINTS[err.code] ?? 'check the API error above; nothing else was changed by this step')
      // A request id is asked for only when this error carries one.
      .replace('report the request id', err.requestId ? `report request id ${err.requestId}` : 'report the time of this run')
      .replace(/\bthe apply\b/g, ctx.rerun ?? 'the apply')
      .replace(/\bthe configuration\b/g, ctx.configuration ?? 'the configuration');
  if (err.code === 'insufficient_scope' || err.code === 'unauthorized' || err.code === 'ip_not_allowed') {
    throw new ReconcileError(`${what} failed: ${err.detail}`, `${await describeToken(ctx, needed)} ${hint}`, err);
  }
  throw new ReconcileError(`${what} failed: ${err.detail}`, hint, err);
}

const HINTS: Partial<Record<HostingErrorCode, string>> = {
  insufficient_scope: 'create a token with the missing scopes in the control panel\'s API section.',
  ip_not_allowed: 'add the address Terraform runs from to the token\'s allowlist.',
  primary_owner_required: 'the server is shared with this account and is read-only for it; manage it from the owning account.',
  not_found: 'check the server id (and address) against GET /servers of this account.',
  action_unsupported: 'this server type or state does not support the change; see the message above.',
  service_locked: 'the service is suspended or locked; resolve it in the control panel first.',
  validation_failed: 'fix the value named above in the configuration.',
  rate_limited: 'the token\'s rate limit was exhausted for longer than the request deadline; lower Terraform\'s -parallelism or run again.',
  temporarily_unavailable: 'the API is briefly unavailable; run the apply again shortly.',
  deadline_exceeded: 'the API did not answer in time; run the apply again: completed writes are detected and not repeated.',
  network_error: 'the API could not be reached; check HOSTING_API_URL and the network, then run the apply again.',
  timeout: 'the API did not answer in time; run the apply again: completed writes are detected and not repeated.',
  invalid_response: 'the API answered in an unexpected shape; report the request id to support.',
  aborted: 'the run was stopped; run the apply again: the next run reads the servers first, so completed writes are not repeated.',
};

/** Which scopes the token lacks for this step, from GET /connect (made only after a refusal). */
async function describeToken(ctx: ReconcileContext, needed: readonly Scope[]): Promise<string> {
  try {
    const { data } = await ctx.client.connect();
    const missing = needed.filter((s) => !data.token.scopes.includes(s));
    const has = data.token.scopes.length ? data.token.scopes.join(', ') : 'none';
    return missing.length
      ? `token ${JSON.stringify(data.token.name)} has the scopes ${has} and lacks ${missing.join(', ')};`
      : `token ${JSON.stringify(data.token.name)} has the scopes ${has};`;
  } catch (err) {
    return err instanceof HostingApiError ? `the token itself was refused (${err.code});` : 'the token could not be checked;';
  }
}
