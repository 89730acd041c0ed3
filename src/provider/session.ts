import { randomBytes } from 'node:crypto';
import type { ObjectValue, Value } from './plugin/values';
import { applyForecast, type ApplyForecast } from './rate-forecast';
import { runLedger, type RunLedger } from './run/ledger';
import { leftInPlace } from './run/left-in-place';
import { createRunRefusals } from './run/refusals';
import { saidOnce, type SaidOnce } from './run/said-once';
import { sharedReads, type SharedReads } from './run/shared-reads';
import type { WalkProof } from './run/walk';
import { NO_NOTES, type RunNotes } from './run-notes';
import type { ChangedSincePlan } from './schema';
import type { HostingApiClient } from '../api/client';
import { waitSummary } from '../api/wait-summary';
import { printableUrl } from '../contract/patterns';
import type { ReconcileContext } from '../reconcile/context';
import { SETTINGS_RUN_SECONDS } from '../reconcile/plan-resource';
import type { TokenScopes } from '../reconcile/preflight';
import { ReconcileError } from '../reconcile/reconcile-error';

/**
 * What one RPC of the provider works with: contexts for its resource operation, reads that many
 * resources of the process need once, and the warnings it collected for Terraform's output.
 */
export interface ProviderSession extends SharedReads, RunLedger, SaidOnce, ApplyForecast {
  /**
   * What this RPC warned of, its contexts included, in order; last, when its requests waited more
   * than a few seconds on the API's limits or retries, how long and why.
   */
  readonly warnings: readonly string[];
  /** Values one RPC of the process leaves for a later one (a refresh's to the plan of a replacement). */
  readonly handovers: Handovers;
  /** Whether this plan runs with a token that may only read (HOSTING_API_READ_ONLY_PLAN): a scope the apply needs is warned of, not refused. */
  readonly readOnlyPlan: boolean;
  /**
   * A context for one resource operation with its own deadline, for every request too. Its writes
   * are keyed by this call's intent: drawn anew for every RPC, so every apply is an intent no
   * earlier one shares (keys.ts).
   */
  context(budgetSeconds: number): ReconcileContext;
  /** Whether an apply refuses to write over a value changed since the plan: the resource's `changed_since_plan`, else the provider's. */
  refusesChangedSincePlan(config: ObjectValue): boolean;
  /** Whether a create's takeover was reviewed: the resource's `expect_takeover`, else the provider's. */
  expectsTakeover(config: ObjectValue): boolean;
  /** Which account this session talks to, for errors about what exists: `account 4711 (token "ci") at https://…/api/v1`. */
  accountName(): Promise<string>;
  /** The plan removes a resource and leaves this in place: noted for the apply's one summary (run/left-in-place.ts). */
  plannedToLeave(line: string): void;
  /** A resource removed from Terraform and left as it is: warned of once it was left, with the rest of the plan's (run/left-in-place.ts). */
  retained(line: string): void;
  /** A removal failed: what was left so far is warned of now. */
  removalFailed(): void;
  /** What to report for a failure: a refusal of the whole run as the run met it first, the same words for every resource (run/refusals.ts). */
  reported(err: unknown): unknown;
  /** A warning for Terraform's output (and the log). */
  warn(line: string): void;
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
export { MORE_TAKEOVERS, TAKEOVERS_IN_FULL } from './run/said-once';

const RERUN: Record<RunPhase, string> = { plan: 'the plan', apply: 'the apply', query: 'the query' };

/** The process-wide part: one client (one pacer), Terraform's stop, the shared reads. */
export interface SessionFactory {
  /** A session for one RPC of `phase`, with its own warnings. */
  forCall(phase: RunPhase): ProviderSession;
}

export interface SessionOptions {
  readonly client: HostingApiClient;
  readonly tokenEnvVar: string;
  readonly log: (line: string) => void;
  readonly now: () => number;
  /** The provider's `plan_read_max_age_seconds`: an age bound on top of the run's own; default none. */
  readonly planReadMaxAgeSeconds?: number;
  /** Where a plan leaves its reads for the apply of the same terraform run; default none. */
  readonly notes?: RunNotes;
  /** The provider's `changed_since_plan`: what an apply does with a value changed by hand since the plan; default overwrite. */
  readonly changedSincePlan?: ChangedSincePlan;
  /** What this process knows of its walk: one proven to plan takes no earlier process's notes (run/walk.ts); default unproven. */
  readonly walk?: WalkProof;
  /** Where the API's address came from, in the reader's words (`base_url in the provider "hosting" block`); default HOSTING_API_URL. */
  readonly baseUrlFrom?: string;
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
 * The account the token belongs to (GET /connect, read once per process) and the API's address,
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
  const sleep = stoppableSleep(stopped);
  const warnerFor = (warnings: string[]) => (line: string) => {
    options.log(`warning: ${line}`);
    warnings.push(line);
  };
  // Terraform starts the provider anew for each walk: a `terraform plan` process never applies, so
  // the shared reads (made once, for whichever RPC comes first) speak of the phase seen last.
  let phase: RunPhase = 'plan';
  type ContextOf = (budgetSeconds: number) => ReconcileContext;
  const contextFor = (warnings: string[], rerun: string, intent: string, clients: HostingApiClient[] = []): ContextOf => (budgetSeconds) => {
    const deadlineAt = options.now() + budgetSeconds * 1000;
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
    };
  };
  // Shared reads warn nobody in particular: their warnings go to the log only.
  const readContext = () => contextFor([], RERUN[phase], 'read')(SETTINGS_RUN_SECONDS);
  const refusals = createRunRefusals(options.tokenEnvVar, options.client.baseUrl, options.baseUrlFrom);
  const reads = sharedReads(readContext, refusals);
  const handovers = createHandovers();
  const notes = options.notes ?? NO_NOTES;
  const maxAgeMs = options.planReadMaxAgeSeconds === undefined ? Number.POSITIVE_INFINITY : options.planReadMaxAgeSeconds * 1000;
  // Reads and notes count only for this plan and this account: another alias's token is another account.
  const account = options.client.accountScope;
  // The run's parts, each a module of its own (docs/guides/design.md, "The provider's run").
  const ledger = runLedger(notes, account, maxAgeMs, options.walk);
  const said = saidOnce(notes, account);
  const forecast = applyForecast(options.client, said.firstTime);
  const left = leftInPlace(notes, account, maxAgeMs, options.log);
  const policy = {
    readOnlyPlan: options.readOnlyPlan ?? false,
    refusesChangedSincePlan: (config: ObjectValue) => (config.changed_since_plan ?? options.changedSincePlan ?? 'overwrite') === 'fail',
    expectsTakeover: (config: ObjectValue) => (config.expect_takeover ?? options.expectTakeover ?? false) === true,
  };
  return {
    forCall(callPhase) {
      phase = callPhase;
      // A refresh, a plan, an import: this process plans, and breaks the chain of any earlier plan's reads (run-notes.ts).
      if (callPhase === 'plan') notes.planning(account);
      const warnings: string[] = [];
      const clients: HostingApiClient[] = [];
      const sayIf = (warning: string | undefined) => warning && warnerFor(warnings)(warning);
      return {
        ...reads,
        ...ledger,
        ...said,
        ...forecast,
        ...policy,
        context: contextFor(warnings, RERUN[callPhase], newIntentId(), clients),
        warn: warnerFor(warnings),
        accountName: async () => accountNamed(await reads.token(), options.client.baseUrl),
        reported: refusals.reported,
        plannedToLeave: left.planned,
        retained: (line) => sayIf(left.left(line)),
        removalFailed: () => sayIf(left.removalFailed()),
        get warnings() {
          const waited = waitSummary(clients);
          return waited ? [...warnings, waited] : warnings;
        },
        handovers,
      };
    },
  };
}
