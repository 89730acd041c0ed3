import { randomBytes } from 'node:crypto';
import type { Diagnostic } from './diagnostics';
import { leftInPlace } from './left-in-place';
import type { WalkProof } from './plan-walk';
import type { ObjectValue, Value } from './plugin/values';
import { addCosts, forecastWarning, limitsReported, SHARED_READS, type ApplyCost } from './rate-forecast';
import { readWithin, type PrivateState } from './resources/private-state';
import { NO_NOTES, type RunNotes } from './run-notes';
import { createRunRefusals, type RunRefusals } from './run-refusals';
import type { ChangedSincePlan } from './schema';
import type { HostingApiClient } from '../api/client';
import type { Ruleset, Server, ServerDetail } from '../api/schemas';
import { waitSummary } from '../api/wait-summary';
import { printableUrl } from '../contract/patterns';
import type { ReconcileContext } from '../reconcile/context';
import { readRulesets } from '../reconcile/firewall';
import { observeServers, type Observed } from '../reconcile/observe';
import { SETTINGS_RUN_SECONDS } from '../reconcile/plan-resource';
import type { TokenScopes } from '../reconcile/preflight';
import { ReconcileError } from '../reconcile/reconcile-error';
import { readServerDetail, readServerList, readTokenScopes } from '../reconcile/servers';

/**
 * What one RPC of the provider works with: contexts for its resource operation, reads that many
 * resources of the process need once, and the warnings it collected for Terraform's output.
 */
export interface ProviderSession {
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
  /**
   * A server as listed by GET /servers, or undefined when the account has no such server. A
   * refresh of N power states costs one list read: a plan process makes no write, so one fresh
   * list serves every refresh and plan-time check of the run.
   */
  listedServer(serverId: string): Promise<Server | undefined>;
  /** GET /servers as the run read it once, stale or not: for showing (data sources), never for deciding. */
  serverList(): Promise<Observed<Server[]>>;
  /** Whether an apply refuses to write over a value changed since the plan: the resource's `changed_since_plan`, else the provider's. */
  refusesChangedSincePlan(config: ObjectValue): boolean;
  /**
   * What a planned change will spend at apply, counted for the plan: the change that makes the
   * apply exceed the token's limits gets the one warning of it (rate-forecast.ts).
   */
  forecast(cost: ApplyCost): Diagnostic[];
  /** Which account this session talks to, for errors about what exists: `account 4711 (token "ci") at https://…/api/v1`. */
  accountName(): Promise<string>;
  /** GET /firewall/rulesets, fresh, read at most once per process. */
  rulesets(): Promise<readonly Ruleset[]>;
  /** GET /connect, at most once per process: what the token may do, for plan-time checks. */
  token(): Promise<TokenScopes | undefined>;
  /** GET /servers/{id}, fresh: the actions on offer now (not in the list). */
  serverDetail(serverId: string): Promise<ServerDetail>;
  /**
   * After a power write: the run's server list no longer shows the account (power, an operation),
   * so the next reader (a data source read during the apply, after what it depends on changed)
   * reads it again. Settings writes leave the list as it was; the token and rule sets never change.
   */
  forgetServerList(): void;
  /** The plan removes a resource and leaves this in place: noted for the apply's one summary (left-in-place.ts). */
  plannedToLeave(line: string): void;
  /** A resource removed from Terraform and left as it is: warned of once it was left, with the rest of the plan's (left-in-place.ts). */
  retained(line: string): void;
  /** A removal failed: what was left so far is warned of now. */
  removalFailed(): void;
  /**
   * A takeover warning's summary: its own for the first TAKEOVERS_IN_FULL of this process, then
   * one shared text, which Terraform folds into one warning ("and N more similar warnings
   * elsewhere"; each one's detail still names its change, as `plan -json` shows). Terraform renders
   * every distinct warning with its source, at a cost that grows with the square of their number:
   * 300 creates taking over cost it 6 s of CPU.
   */
  takeoverSummary(own: string): string;
  /** Whether this terraform run has not said these words for this account yet (run-notes.ts firstTime). */
  firstTime(words: string): boolean;
  /** What to report for a failure: a refused token as the run met it first, the same words for every resource. */
  reported(err: unknown): unknown;
  /** A warning for Terraform's output (and the log). */
  warn(line: string): void;
  /**
   * Whether the refresh's read behind a prior state was made for the plan this apply carries out
   * (by this process, or the run's last one that planned for this account: run-notes.ts), for
   * this account (and, with `plan_read_max_age_seconds` set, is at most that old): the apply then
   * decides on it without a read of its own. A saved plan applied by another run, or a later plan
   * of the same terraform process (`terraform test`), reads afresh.
   */
  trustsRead(priv: PrivateState): boolean;
  /** `priv` marked as read now, by this process for this account. */
  markRead(priv: PrivateState): PrivateState;
  /**
   * Whether an earlier process of this terraform run planned for this account: the apply carries
   * out its own run's plan, not one another run saved.
   */
  planOfThisRun(): boolean;
  /** What this plan noted under `key` for this account (run-notes.ts). */
  planNote(key: string): unknown;
  /** Notes what this plan read, for the apply that follows it in the same terraform run. */
  notePlan(key: string, value: unknown): void;
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
/** Takeover warnings a plan shows each in full; the rest share MORE_TAKEOVERS. */
export const TAKEOVERS_IN_FULL = 10;
export const MORE_TAKEOVERS = `Creating this resource changes settings that exist already (more than ${TAKEOVERS_IN_FULL} in this plan; each one's change is in its detail, as terraform plan -json shows)`;

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
  /** What this process knows of its walk: one proven to plan takes no earlier process's notes (plan-walk.ts); default unproven. */
  readonly walk?: WalkProof;
  /** Where the API's address came from, in the reader's words (`base_url in the provider "hosting" block`); default HOSTING_API_URL. */
  readonly baseUrlFrom?: string;
  /** HOSTING_API_READ_ONLY_PLAN (configure.ts): a scope the apply needs is a warning of the plan; default off. */
  readonly readOnlyPlan?: boolean;
}

const stoppedError = () =>
  new ReconcileError(
    'stopped: Terraform asked the provider to stop (Ctrl-C) while it was waiting; no further request was started',
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
 * A load run once until forgotten; a failed one is not kept, so the next caller asks again, except
 * after the token was refused: the run's every read would be refused the same way.
 */
function once<T>(load: () => Promise<T>, refusals: RunRefusals): { (): Promise<T>; forget(): void } {
  let pending: Promise<T> | undefined;
  const get = async () => {
    refusals.check();
    pending ??= load().catch((err) => {
      pending = undefined;
      refusals.reported(err);
      throw err;
    });
    return pending;
  };
  return Object.assign(get, { forget: () => (pending = undefined) });
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
  const observedList = once(() => observeServers(readContext()), refusals);
  // Resources decide on the list (existence, power): a stale one is read again until fresh.
  const servers = once(async () => {
    const observed = await observedList();
    return new Map((observed.stale ? await readServerList(readContext()) : observed.data).map((s) => [s.id, s]));
  }, refusals);
  const rulesets = once(() => readRulesets(readContext(), 'firewall'), refusals);
  const token = once(() => readTokenScopes(readContext()), refusals);
  const handovers = createHandovers();
  const notes = options.notes ?? NO_NOTES;
  const maxAgeMs = options.planReadMaxAgeSeconds === undefined ? Number.POSITIVE_INFINITY : options.planReadMaxAgeSeconds * 1000;
  // Reads and notes count only for this plan and this account: another alias's token is another account.
  const account = options.client.accountScope;
  /** What this process's plan will spend at apply so far, and whether it said that the apply waits. */
  let applyCost = { cost: SHARED_READS, changes: 0 };
  let forecastSaid = false;
  const left = leftInPlace(notes, account, maxAgeMs, options.log);
  let takeoversSaid = 0;
  return {
    forCall(callPhase) {
      phase = callPhase;
      // A refresh, a plan, an import: this process plans, and breaks the chain of any earlier plan's reads (run-notes.ts).
      if (callPhase === 'plan') notes.planning(account);
      const warnings: string[] = [];
      const clients: HostingApiClient[] = [];
      const sayIf = (warning: string | undefined) => warning && warnerFor(warnings)(warning);
      return {
        context: contextFor(warnings, RERUN[callPhase], newIntentId(), clients),
        warn: warnerFor(warnings),
        listedServer: async (serverId) => (await servers()).get(serverId),
        serverList: observedList,
        readOnlyPlan: options.readOnlyPlan ?? false,
        refusesChangedSincePlan: (config) => (config.changed_since_plan ?? options.changedSincePlan ?? 'overwrite') === 'fail',
        forecast: (cost) => {
          if (forecastSaid || (cost.requests === 0 && cost.actions === 0)) return [];
          applyCost = { cost: addCosts(applyCost.cost, cost), changes: applyCost.changes + 1 };
          const limits = limitsReported(options.client.reportedLimit('request'), options.client.reportedLimit('action'));
          const warning = forecastWarning(applyCost.cost, applyCost.changes, limits);
          forecastSaid = warning !== undefined;
          // Once a run: the apply of a `terraform apply` plans again, and its plan said it already.
          return warning && notes.firstTime(`${account} the apply will wait`) ? [warning] : [];
        },
        accountName: async () => accountNamed(await token(), options.client.baseUrl),
        rulesets,
        token,
        serverDetail: (serverId) => readServerDetail(readContext(), serverId),
        forgetServerList: () => [observedList, servers].forEach((read) => read.forget()),
        reported: refusals.reported,
        plannedToLeave: left.planned,
        retained: (line) => sayIf(left.left(line)),
        removalFailed: () => sayIf(left.removalFailed()),
        takeoverSummary: (own) => (++takeoversSaid <= TAKEOVERS_IN_FULL ? own : MORE_TAKEOVERS),
        firstTime: (words) => notes.firstTime(`${account} ${words}`),
        get warnings() {
          const waited = waitSummary(clients);
          return waited ? [...warnings, waited] : warnings;
        },
        handovers,
        trustsRead: (priv) => notes.ofThisPlan(account, priv.readIn) && readWithin(priv, maxAgeMs, Date.now()),
        markRead: (priv) => ({ ...priv, readAt: Date.now(), readIn: notes.process }),
        planOfThisRun: () => notes.plannedEarlier(account),
        // A plan walk's notes are its own: an earlier plan-only run block's would be stale (`terraform test`).
        planNote: (key) => notes.get(account, key, maxAgeMs, options.walk?.plansOnly() ?? false),
        notePlan: (key, value) => notes.put(account, key, value),
      };
    },
  };
}

