import { randomBytes } from 'node:crypto';
import type { ObjectValue, Value } from './plugin/values';
import { applyForecast, type ApplyForecast } from './rate-forecast';
import type { ChangedSincePlan } from './schema';
import { sharedReads, type SharedReads } from './shared-reads';
import type { HostingApiClient } from '../api/client';
import type { TokenInfo } from '../api/schemas';
import { waitSummary } from '../api/wait-summary';
import { printableUrl } from '../contract/patterns';
import type { ReconcileContext } from '../reconcile/context';
import { SETTINGS_RUN_SECONDS } from '../reconcile/plan-resource';
import type { TokenScopes } from '../reconcile/preflight';
import { ReconcileError } from '../reconcile/reconcile-error';

/**
 * What one RPC of the provider works with: contexts for its resource operation, the reads that the
 * resources of the process share, and the warnings it collected for Terraform's output. Everything
 * here comes from what Terraform sent this process and what the API answered it.
 */
export interface ProviderSession extends SharedReads, ApplyForecast {
  /**
   * What this RPC warned of, its contexts included, in order; last, when its requests waited more
   * than a few seconds on the API's limits or retries, how long and why.
   */
  readonly warnings: readonly Warning[];
  /** Values one RPC of the process leaves for a later one (a removal's to the plan of its replacement). */
  readonly handovers: Handovers;
  /** Whether this plan runs with a token that may only read (HOSTING_API_READ_ONLY_PLAN): a scope the apply needs is warned of, not refused. */
  readonly readOnlyPlan: boolean;
  /**
   * A context for one resource operation with its own deadline, for every request too. Its writes
   * are keyed by this call's intent: drawn anew for every RPC, so every apply is an intent no
   * earlier one shares (keys.ts).
   */
  context(budgetSeconds: number, writtenAfter?: string): ReconcileContext;
  /** The latest `observedAt` the API's answers to this process carried: a write sent now is newer (ReconcileContext.writtenAfter). */
  newestObservedAt(): string | undefined;
  /** Whether an apply refuses to write over a value changed since the plan: the resource's `changed_since_plan`, else the provider's. */
  refusesChangedSincePlan(config: ObjectValue): boolean;
  /**
   * How long a plan's read that only says or checks ahead what its apply does again (a takeover, an
   * offered action) may take, waits for the rate budget included: once this process applies (the
   * apply walk), briefly, so a wait happens in ApplyResourceChange, where Terraform shows its
   * progress lines; in a plan, as long as any read.
   */
  planReadSeconds(): number;
  /** Whether a create's takeover was reviewed: the resource's `expect_takeover`, else the provider's. */
  expectsTakeover(config: ObjectValue): boolean;
  /** Which account this session talks to, for errors about what exists: `account 4711 (token "ci") at https://…/api/v1`. */
  accountName(): string;
  /** Whether `key` is refused for the first time in this process (one error per provider configuration); later calls say false. */
  firstRefusalOf(key: string): boolean;
  /** A warning for Terraform's output (and the log); `detail` names the resource where `summary` is shared by its kind, so Terraform folds repeats. */
  warn(summary: string, detail?: string): void;
}

/**
 * Set to `on` in a pipeline's plan job, whose token may only read (the GitOps guide): a scope the
 * apply will need is a warning of the plan that names it, not an error. The apply, with a token
 * lacking it, fails as before.
 */
export const READ_ONLY_PLAN_ENV = 'HOSTING_API_READ_ONLY_PLAN';

/** A plan's advisory read in the apply walk: a few seconds, so no wait Terraform cannot show. */
export const APPLY_WALK_PLAN_READ_SECONDS = 5;

/** The summary of every operation's waits, one for all so Terraform folds them; the detail says how long and why. */
export const WAITED_SUMMARY = 'Waited for the API\'s rate limits';

/** A warning as Terraform shows it. */
export interface Warning {
  readonly summary: string;
  readonly detail?: string;
}

export interface Handovers {
  put(key: string, values: Readonly<Record<string, Value>>): void;
  /** The values left under `key`, once. */
  take(key: string): Readonly<Record<string, Value>> | undefined;
}

function createHandovers(): Handovers {
  const left = new Map<string, Readonly<Record<string, Value>>>();
  return {
    put: (key, values) => left.set(key, values),
    take: (key) => {
      const values = left.get(key);
      left.delete(key);
      return values;
    },
  };
}

/** One intent's id: 96 random bits, URL-safe. */
const newIntentId = (): string => randomBytes(12).toString('base64url');

/** What Terraform is doing when an RPC comes: a failure's hint says to run that again. */
export type RunPhase = 'plan' | 'apply' | 'query';

const RERUN: Record<RunPhase, string> = { plan: 'the plan', apply: 'the apply', query: 'the query' };

/** The process-wide part: one client (one pacer), Terraform's stop, the shared reads. */
export interface SessionFactory {
  /** A session for one RPC of `phase`, with its own warnings. */
  forCall(phase: RunPhase): ProviderSession;
}

export interface SessionOptions {
  readonly client: HostingApiClient;
  /** The API's answer to GET /connect in ConfigureProvider: the token's account, name and scopes. */
  readonly token: TokenInfo;
  readonly tokenEnvVar: string;
  readonly log: (line: string) => void;
  readonly now: () => number;
  /** How an operation waits (for readiness, a confirming read): by default a sleep that Terraform's stop ends; a test's clock's, so waits follow its `now`. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The provider's `changed_since_plan`: what an apply does with a value changed by hand since the plan; default overwrite. */
  readonly changedSincePlan?: ChangedSincePlan;
  /** The provider's `expect_takeover`: every create's takeover reviewed; default false. */
  readonly expectTakeover?: boolean;
  /** HOSTING_API_READ_ONLY_PLAN (configure.ts): a scope the apply needs is a warning of the plan; default off. */
  readonly readOnlyPlan?: boolean;
}

const stoppedError = () =>
  new ReconcileError(
    'stopped: Terraform asked the provider to stop (Ctrl-C, or a stop signal to terraform) while it was waiting; no further request was started',
    'run the apply again: the provider reads the servers first, so completed actions are not repeated',
  );

/** A sleep that ends, rejecting, as soon as `signal` aborts. */
export function stoppableSleep(signal: AbortSignal): (ms: number) => Promise<void> {
  return (ms) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(stoppedError());
      const onAbort = () => {
        clearTimeout(timer);
        reject(stoppedError());
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });
}

/**
 * The account the token belongs to (GET /connect, in ConfigureProvider) and the API's address,
 * so a stack pointed at the wrong account is plain from the error: `account 4711 (token "ci") at …`.
 */
export function accountNamed(token: TokenScopes | undefined, baseUrl: string): string {
  const account = token?.accountId === undefined ? 'the account of this token' : `account ${token.accountId} (token ${JSON.stringify(token.name)})`;
  return `${account} at ${printableUrl(baseUrl)}`;
}

/**
 * `stopped` is Terraform's StopProvider (Ctrl-C): every wait then ends at once with a clear error,
 * and the client (made with the same signal) starts no request and cuts off the one in flight.
 */
export function createSession(options: SessionOptions, stopped: AbortSignal): SessionFactory {
  const sleep = options.sleep ?? stoppableSleep(stopped);
  const warnerFor = (warnings: Warning[]) => (summary: string, detail?: string) => {
    options.log(`warning: ${summary}${detail === undefined ? '' : `: ${detail}`}`);
    warnings.push(detail === undefined ? { summary } : { summary, detail });
  };
  // Terraform starts the provider anew for each walk: a `terraform plan` process never applies, so
  // the shared reads (made once, for whichever RPC comes first) speak of the phase seen last.
  let phase: RunPhase = 'plan';
  type ContextOf = (budgetSeconds: number, writtenAfter?: string) => ReconcileContext;
  const contextFor = (warnings: Warning[], rerun: string, intent: string, clients: HostingApiClient[] = []): ContextOf => (seconds, writtenAfter) => {
    const deadlineAt = options.now() + seconds * 1000;
    const client = options.client.withDeadline(deadlineAt);
    clients.push(client);
    return {
      rerun,
      client,
      intent,
      tokenEnvVar: options.tokenEnvVar,
      log: options.log,
      warn: warnerFor(warnings),
      sleep,
      now: options.now,
      deadlineAt,
      writtenAfter,
    };
  };
  // Shared reads warn nobody in particular: their warnings go to the log only.
  const readContext = (budgetSeconds = SETTINGS_RUN_SECONDS) => contextFor([], RERUN[phase], 'read')(budgetSeconds);
  const reads = sharedReads(readContext, options.token);
  const handovers = createHandovers();
  const foretold = applyForecast(options.client);
  // Terraform plans each change again in the apply's walk: once this process applies, what the
  // apply spends is being spent, and waits are said as they were, not foretold.
  let applying = false;
  const forecast: ApplyForecast = { forecast: (cost) => (applying ? [] : foretold.forecast(cost)) };
  const planReadSeconds = () => (applying ? APPLY_WALK_PLAN_READ_SECONDS : SETTINGS_RUN_SECONDS);
  const refused = new Set<string>();
  const policy = {
    firstRefusalOf: (key: string) => !refused.has(key) && Boolean(refused.add(key)),
    readOnlyPlan: options.readOnlyPlan ?? false,
    refusesChangedSincePlan: (config: ObjectValue) => (config.changed_since_plan ?? options.changedSincePlan ?? 'overwrite') === 'fail',
    expectsTakeover: (config: ObjectValue) => (config.expect_takeover ?? options.expectTakeover ?? false) === true,
    accountName: () => accountNamed(reads.token(), options.client.baseUrl),
  };
  return {
    forCall(callPhase) {
      phase = callPhase;
      applying ||= callPhase === 'apply';
      const warnings: Warning[] = [];
      const clients: HostingApiClient[] = [];
      return {
        ...reads,
        ...forecast,
        ...policy,
        planReadSeconds,
        newestObservedAt: () => options.client.newestObservedAt(),
        context: contextFor(warnings, RERUN[callPhase], newIntentId(), clients),
        warn: warnerFor(warnings),
        get warnings() {
          const waited = waitSummary(clients);
          return waited ? [...warnings, { summary: WAITED_SUMMARY, detail: waited }] : warnings;
        },
        handovers,
      };
    },
  };
}
