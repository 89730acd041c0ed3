import { AsyncLocalStorage } from 'node:async_hooks';
import { Agent, type Dispatcher } from 'undici';
import { startGrpcProvider, type GrpcProvider } from './grpc-provider';
import { RequestGate } from './request-gate';
import type { ManualClock } from './simulator';
import { assertTerraformRules, finalPlanProblems, newStateProblems, planProblems, readProblems } from './terraform-rules';
import { HostingApiClient } from '../../src/api';
import { PROVIDER_SCHEMA, READ_ONLY_PLAN_ENV } from '../../src/provider/configure';
import { CONNECTION_TEST_SECONDS, testConnection } from '../../src/provider/connection-test';
import type { ProviderRpc } from '../../src/provider/plugin/protocol';
import { decodeValue, encodeValue, UNKNOWN, type Value } from '../../src/provider/plugin/values';
import type { ObjectValue } from '../../src/provider/resources/resource';
import { resourceRpcs } from '../../src/provider/resources/rpcs';
import { createSession } from '../../src/provider/session';
import { SEED_TOKEN_NAMES, type FaultEffect, type RunningSimulator } from '../../src/simulator';

/*
 * An in-process driver of the plugin protocol that keeps state as Terraform does, for tests that
 * run thousands of applies: each walk (plan, apply) gets new provider processes (a new client,
 * configured anew: the token tested), one per provider configuration; a refresh before each plan; a
 * re-plan before each apply; a replacement as a removal then a create, the removal given the
 * replacement plan's private data and that plan's warnings unshown (as Terraform's core does); an
 * apply whose provider dies keeps the prior values and drops the private data; an error keeps the
 * state returned, and a create that failed with an object is tainted: the next plan replaces it.
 * With `interleaving`, each walk takes its resources at once, as Terraform's -parallelism does.
 * test/e2e/intent-keys.test.ts runs the same sequences through the real terraform.
 */

/** One provider configuration (an alias): an account's API, and the token it is given. */
export interface ProviderAccount {
  readonly sim: RunningSimulator;
  token: string;
}

export interface ResourceConfig {
  readonly type: string;
  /** The provider configuration (alias) it belongs to. */
  readonly provider: string;
  readonly config: ObjectValue;
}

export interface StoredResource {
  readonly type: string;
  readonly provider: string;
  readonly value: ObjectValue;
  readonly private?: Uint8Array;
  /** A create that failed with an object to keep: Terraform plans its replacement next. */
  readonly tainted?: boolean;
}

export interface ApplyOptions {
  /** `-replace=<address>`. */
  readonly replace?: readonly string[];
  /** The provider serving this address dies as soon as the API accepts a write of its apply. */
  readonly crashOn?: string;
  /**
   * The provider dies while it answers the run's Nth resource RPC (refresh, plan or apply, counted
   * from 1 across both walks): what that RPC sent to the API stays sent, Terraform hears nothing.
   */
  readonly crashAtRpc?: number;
  /**
   * From the run's Nth resource RPC on (counted from 1 across both walks, or with `walk: 'apply'`
   * from the apply walk's first: a token revoked at the approval prompt), every account answers
   * every request (or those of `endpoints`, e.g. `PUT *`) with `effect` (a token refused, an API
   * that stops answering, a scope revoked) until the run ends.
   */
  readonly refuseFromRpc?: { readonly rpc: number; readonly walk?: 'apply'; readonly effect: FaultEffect; readonly endpoints?: readonly string[] };
  /** Between the plan and the apply (a saved plan applied later, by another run). */
  readonly betweenPlanAndApply?: () => Promise<void> | void;
  /** In the apply walk, between Terraform's plan of a change and its ApplyResourceChange (the account moves mid-apply). */
  readonly beforeApplyOf?: (address: string) => void;
  /** `-refresh=false` (or a run block's `plan_options { refresh = false }`): the plan starts from the stored state. */
  readonly refresh?: boolean;
  /** The plan walk runs with the account's read-only token and HOSTING_API_READ_ONLY_PLAN=on (the GitOps guide's plan job). */
  readonly readOnlyPlan?: boolean;
}

export interface RunOutcome {
  readonly errors: string[];
  /** Each warning's summary, as Terraform folds them; `details` holds what each says of its resource. */
  readonly warnings: string[];
  readonly details: string[];
  /** The warnings of ApplyResourceChange alone: what the apply said that no plan did. */
  readonly appliedWarnings: string[];
  /** Addresses the plan changed, and how. */
  readonly changes: Record<string, 'create' | 'update' | 'replace' | 'delete'>;
  /** Addresses whose change the apply walk failed (its plan or its apply); the others' applies stand. */
  readonly failed: string[];
  readonly crashed: boolean;
  /** The provider died in the plan walk: Terraform kept nothing of its refresh, so the state is the one before the run. */
  readonly diedInPlan?: boolean;
}

/** One API request as its account logged it. */
type Answer = RpcRequests['answers'][number];
/** What an RPC's own code did, in process: the requests it sent and how long it waited. */
interface RpcDoings {
  readonly answers: Answer[];
  waitedMs: number;
}

/** The API requests one resource RPC sent, in order, and how long it took. */
export interface RpcRequests {
  /** The provider process that answered the RPC, numbered from 1 in the driver's life. */
  readonly process: number;
  readonly walk: 'plan' | 'apply';
  readonly rpc: ProviderRpc;
  readonly type: string;
  /** How long the RPC waited (in process, its own waits; through gRPC, how far the clock moved while it ran). */
  readonly tookMs: number;
  /** Whether an ApplyResourceChange of its process had begun when it began: the process knew it applies. */
  readonly afterApply: boolean;
  /**
   * Each request's endpoint (`METHOD /template`) and status (0: the connection dropped unanswered),
   * and whether a fault served it stale or from a lagging cache (a read the provider may repeat).
   */
  readonly answers: ReadonlyArray<{ readonly endpoint: string; readonly status: number; readonly lagging: boolean }>;
}

/** A change the plan walk planned, with the planned value the apply's re-plan must keep (null for a removal). */
interface PlannedChange {
  readonly address: string;
  readonly provider: string;
  readonly type: string;
  readonly kind: 'create' | 'update' | 'replace' | 'delete';
  readonly value: ObjectValue | null;
  /** The plan's private data, which a removal (a replacement's too) gets as Terraform's change.Private. */
  readonly private?: Uint8Array;
}

const WRITE_ACCEPTED = /^(POST|PUT|PATCH) \S+ -> 2\d\d /;

/** A provider process that died mid-RPC: Terraform gets no answer. */
class ProviderDied extends Error {}

type Rpcs = ReturnType<typeof resourceRpcs>;
interface ProviderProcess {
  readonly rpcs: Rpcs;
  readonly stop: AbortController;
  /** ConfigureProvider's error: Terraform reports it once and runs no resource RPC of this process. */
  readonly refusal?: string;
}

/** How long a run takes to reach its first RPC, as terraform's start-up does. */
const RUN_START_MS = 1_000;
/** A read a fault served stale or from a lagging cache (the simulator's fault log: `stale`, `cache 30s`). */
const isLagging = (fault: string): boolean => fault === 'stale' || fault.startsWith('cache ');
/** The requests `sim` logged since it had logged `from`. */
const loggedSince = (sim: RunningSimulator, from: number): Answer[] => {
  const sent = sim.requestsDropped + sim.requests.length - from;
  return (sent ? sim.requests.slice(-sent) : []).map((r) => ({ endpoint: r.endpoint ?? `${r.method} ${r.path}`, status: r.dropped ? 0 : r.status, lagging: r.faults.some(isLagging) }));
};
const loggedCount = (sim: RunningSimulator): number => sim.requestsDropped + sim.requests.length;
/** The resource RPCs the driver sends, by their names in the protocol. */
const RESOURCE_RPCS: readonly ProviderRpc[] = ['ReadResource', 'PlanResourceChange', 'ApplyResourceChange', 'ImportResourceState'];

/** The provider block of every alias: the API's address and token come from the environment, as HCL users set them. */
const PROVIDER_BLOCK: ObjectValue = Object.fromEntries(PROVIDER_SCHEMA.block.attributes.map((a: { name: string }) => [a.name, null]));
const dynamic = (value: Value) => ({ msgpack: encodeValue(value) });
const objectOf = (value: { msgpack: Uint8Array } | undefined) => (value ? (decodeValue(value.msgpack) as ObjectValue | null) : null);

/** PlanResourceChange as Terraform sends it: the proposed state is the configuration; a null one plans a removal (plan_destroy). */
const planChange = async (rpcs: Rpcs, type: string, prior: ObjectValue | null, config: ObjectValue | null, priorPrivate: Uint8Array | undefined) => {
  const states = { prior_state: dynamic(prior), proposed_new_state: dynamic(config), config: dynamic(config) };
  const request = { type_name: type, ...states, prior_private: priorPrivate };
  return await rpcs.PlanResourceChange(request, () => undefined) as any;
};

/** Whether two values are the same for Terraform's diff (sets compare as sorted). */
function same(a: Value, b: Value): boolean {
  const text = (v: Value): string => JSON.stringify(v, (_k, x: unknown) => (x === UNKNOWN ? '(unknown)' : Array.isArray(x) && x.every((n) => typeof n === 'number') ? [...(x as number[])].sort((p, q) => p - q) : x));
  return text(a) === text(b);
}

export class ProtocolDriver {
  public readonly state = new Map<string, StoredResource>();
  /** The requests of each resource RPC of the last run, as its account logged them. */
  public readonly requests: RpcRequests[] = [];
  private processes = 0;
  /** The walk whose RPCs are being sent. */
  private walk: RpcRequests['walk'] = 'plan';
  /** RPCs left before the provider dies (`crashAtRpc`), in the run in progress. */
  private rpcsToDeath: number | undefined;
  /** RPCs left before every account refuses (`refuseFromRpc`), in the run in progress. */
  private rpcsToRefusal: { left: number; readonly effect: FaultEffect; readonly endpoints?: readonly string[] } | undefined;
  private readonly clients: HostingApiClient[] = [];
  /** The in-process clients' connections (a client given a dispatcher leaves it open). */
  private readonly agents: Agent[] = [];
  private readonly grpcProviders: GrpcProvider[] = [];
  /** How the driver reaches each provider process: its RPC handlers in this process, or its gRPC service as Terraform does. */
  public transport: 'in-process' | 'grpc' = 'in-process';
  /**
   * The order the walks take independent resources in, by address (the others after them): Terraform
   * promises none, so a model may draw it.
   */
  public order: readonly string[] = [];
  /**
   * With picks, each walk takes its resources at once, as Terraform does (-parallelism, 10 by
   * default), instead of one after another; in process only. One API request runs at a time: the
   * next is the `picks[turn] % waiting`th of those waiting, in turn (a model draws the picks, so a
   * seed replays the same interleaving).
   */
  public interleaving: readonly number[] | undefined;
  private turn = 0;
  private readonly gate = new RequestGate((waiting) => (this.interleaving ? this.interleaving[this.turn++ % this.interleaving.length] % waiting : 0));
  /**
   * What the resource RPC whose code runs did so far, in interleaved walks. Node 20 keeps
   * AsyncLocalStorage with a hook on every promise, which made the models three times slower: walks
   * that take one RPC at a time read the account's log and the clock instead, and `close` turns it off.
   */
  private readonly rpcDoings = new AsyncLocalStorage<RpcDoings>();

  constructor(
    private readonly accounts: Readonly<Record<string, ProviderAccount>>,
    private readonly clock: ManualClock,
  ) {}

  /** The in-process provider's waits: the clock moves, and the RPC waiting is told. */
  private readonly wait = async (ms: number) => {
    const doings = this.rpcDoings.getStore();
    if (doings) doings.waitedMs += ms;
    this.clock.advance(ms);
  };

  /** One provider process for a provider configuration, configured as Terraform does (the token tested); `onWrite` hears each accepted write. */
  private async process(provider: string, onWrite?: () => void, readOnlyPlan = false): Promise<ProviderProcess> {
    const configured = this.accounts[provider];
    const account = readOnlyPlan ? { ...configured, token: configured.sim.tokens[SEED_TOKEN_NAMES.readOnly] } : configured;
    const stop = new AbortController();
    if (this.transport === 'grpc' && this.interleaving) throw new Error('interleaved walks run in process only: the gRPC service\'s requests cannot be told apart');
    if (this.transport === 'grpc') return { ...await this.grpcProcess(account, stop, onWrite, readOnlyPlan), stop };
    const client = new HostingApiClient({
      baseUrl: account.sim.baseUrl,
      token: account.token,
      dispatcher: this.gatedDispatcher(account.sim),
      sleep: this.wait,
      now: this.clock.now,
      wallClock: this.clock.now,
      signal: stop.signal,
      log: (line) => {
        if (onWrite && WRITE_ACCEPTED.test(line)) onWrite();
      },
    });
    this.clients.push(client);
    const tested = await testConnection(client, { tokenEnvVar: 'HOSTING_API_TOKEN', baseUrlFrom: 'HOSTING_API_URL' }, this.clock.now() + CONNECTION_TEST_SECONDS * 1000);
    if ('refusal' in tested) return { rpcs: {} as Rpcs, stop, refusal: tested.refusal.summary };
    const sessions = createSession({
      client, token: tested.token, tokenEnvVar: 'HOSTING_API_TOKEN', log: () => undefined, readOnlyPlan, now: this.clock.now, sleep: this.wait,
    }, stop.signal);
    const rpcs = this.mortal(resourceRpcs({ session: (phase) => sessions.forCall(phase), scrub: (t) => t }), stop, account.sim);
    return { rpcs, stop };
  }

  /**
   * The in-process client's way to the API: through the gate, each request's answers recorded for
   * the RPC that sent it in interleaved walks (a read shared by the process is the first asker's).
   */
  private gatedDispatcher(sim: RunningSimulator): Dispatcher {
    const agent = new Agent();
    this.agents.push(agent);
    const request = (options: Dispatcher.RequestOptions) => this.gate.through(async () => {
      const from = loggedCount(sim);
      try {
        const res = await agent.request(options);
        const body = await res.body.text();
        return { ...res, body: { text: async () => body } };
      } finally {
        this.rpcDoings.getStore()?.answers.push(...loggedSince(sim, from));
      }
    });
    return { request } as unknown as Dispatcher;
  }

  /**
   * The same process reached as Terraform reaches it: the provider's gRPC service, configured by
   * its provider block, on the same clock. Its client is its own, so a crash there ends the
   * process between answers: `onWrite` is heard when an RPC that wrote to the account ends, and
   * that answer is lost.
   */
  private async grpcProcess(account: ProviderAccount, stop: AbortController, onWrite?: () => void, readOnlyPlan = false) {
    const clock = { now: this.clock.now, wallClock: this.clock.now, sleep: async (ms: number) => this.clock.advance(ms) };
    const env = { HOSTING_API_TOKEN: account.token, HOSTING_API_URL: account.sim.baseUrl, ...(readOnlyPlan && { [READ_ONLY_PLAN_ENV]: 'on' }) };
    const provider = await startGrpcProvider({ env, log: () => undefined, clock }, PROVIDER_BLOCK);
    this.grpcProviders.push(provider);
    stop.signal.addEventListener('abort', () => void provider.close(), { once: true });
    if (provider.refusals.length) return { rpcs: {} as Rpcs, refusal: provider.refusals.join('; ') };
    const rpc = (name: ProviderRpc) => async (req: unknown) => {
      if (stop.signal.aborted) throw new ProviderDied();
      const writes = account.sim.executed().length;
      const res = await provider.call(name, req as Record<string, unknown>);
      if (onWrite && account.sim.executed().length > writes) {
        onWrite();
        throw new ProviderDied();
      }
      return res;
    };
    const wire = Object.fromEntries(RESOURCE_RPCS.map((name) => [name, rpc(name)])) as unknown as Rpcs;
    return { rpcs: this.mortal(wire, stop, account.sim) };
  }

  /**
   * RPCs that count towards `crashAtRpc` (the one it names runs, then its process dies before
   * answering; the others it was running lose their answers too), each with the requests it sent
   * to `sim` and its waits recorded: in interleaved walks, its own; else, one RPC at a time, from the
   * log's tail and the clock.
   */
  private mortal(rpcs: Rpcs, stop: AbortController, sim: RunningSimulator): Rpcs {
    const process = ++this.processes;
    let applying = false;
    const counted = Object.entries(rpcs).map(([name, rpc]) => [name, async (req: { type_name?: string }, cb: unknown) => {
      if (this.rpcsToRefusal && --this.rpcsToRefusal.left === 0) {
        const { effect, endpoints = ['* *'] } = this.rpcsToRefusal;
        for (const account of Object.values(this.accounts)) endpoints.forEach((endpoint) => account.sim.addFault({ endpoint, effect }));
      }
      const [from, startedAt, walk, afterApply] = [loggedCount(sim), this.clock.now(), this.walk, applying];
      const doings: RpcDoings = { answers: [], waitedMs: 0 };
      applying ||= name === 'ApplyResourceChange';
      const call = () => (rpc as (r: unknown, c: unknown) => Promise<unknown>)(req, cb);
      const res = await (this.interleaving ? this.rpcDoings.run(doings, call) : call()).finally(() => {
        const [answers, tookMs] = this.interleaving ? [doings.answers, doings.waitedMs] : [loggedSince(sim, from), this.clock.now() - startedAt];
        this.requests.push({ process, walk, rpc: name as ProviderRpc, type: req.type_name ?? '', tookMs, afterApply, answers });
      }).catch((err: unknown) => {
        throw stop.signal.aborted ? new ProviderDied() : err;
      });
      if (this.rpcsToDeath !== undefined && --this.rpcsToDeath === 0) stop.abort();
      if (stop.signal.aborted) throw new ProviderDied();
      return res;
    }]);
    return Object.fromEntries(counted) as Rpcs;
  }

  /**
   * `terraform test`: every plan and apply of `body` is one terraform process (one run), as its run
   * blocks are; each still gets provider processes of its own.
   */
  public async terraformTest<T>(body: () => Promise<T>): Promise<T> {
    // Each run block's walks get provider processes of their own, as in any other terraform run.
    return body();
  }

  /** `terraform state rm`: Terraform forgets the object; the account keeps it. */
  public stateRm(address: string): void {
    this.state.delete(address);
  }

  /** A `moved` block: the object and its state under another address. */
  public move(from: string, to: string): void {
    const stored = this.state.get(from);
    if (!stored) throw new Error(`nothing at ${from} to move`);
    this.state.delete(from);
    this.state.set(to, stored);
  }

  /** `terraform import` (or an `import` block): ImportResourceState, then the refresh of the next plan. */
  public async import(address: string, resource: ResourceConfig, id: string): Promise<string[]> {
    const { rpcs, refusal } = await this.process(resource.provider);
    if (refusal) return [refusal];
    const res = await rpcs.ImportResourceState({ type_name: resource.type, id }, () => undefined) as any;
    const errors = (res.diagnostics ?? []).filter((d: { severity: number }) => d.severity === 1)
      .map((d: { summary: string }) => d.summary);
    const [imported] = res.imported_resources ?? [];
    if (imported) {
      this.state.set(address, { type: resource.type, provider: resource.provider, value: objectOf(imported.state)!, private: imported.private });
    }
    return errors;
  }

  /** `terraform apply` of `configs` (address to resource); with `betweenPlanAndApply`, a saved plan applied by another run. */
  public async apply(configs: Readonly<Record<string, ResourceConfig>>, options: ApplyOptions = {}): Promise<RunOutcome> {
    const outcome: RunOutcome = { errors: [], warnings: [], details: [], appliedWarnings: [], changes: {}, failed: [], crashed: false };
    this.requests.length = 0;
    this.rpcsToDeath = options.crashAtRpc;
    const armRefusal = () => {
      this.rpcsToRefusal = options.refuseFromRpc && { ...options.refuseFromRpc, left: options.refuseFromRpc.rpc };
    };
    if (options.refuseFromRpc?.walk !== 'apply') armRefusal();
    try {
      return await this.planAndApply(configs, options, outcome, armRefusal);
    } finally {
      this.rpcsToDeath = undefined;
      if (this.rpcsToRefusal && this.rpcsToRefusal.left <= 0) Object.values(this.accounts).forEach((account) => account.sim.clearFaults());
      this.rpcsToRefusal = undefined;
    }
  }

  private async planAndApply(
    configs: Readonly<Record<string, ResourceConfig>>, options: ApplyOptions, outcome: RunOutcome, applyWalkBegins: () => void,
  ): Promise<RunOutcome> {
    const saved = new Map(this.state);
    let planned;
    try {
      planned = await this.planWalk(configs, options, outcome);
    } catch (err) {
      if (!(err instanceof ProviderDied)) throw err;
      // The plan failed: nothing of its refresh is kept.
      this.state.clear();
      for (const [address, stored] of saved) this.state.set(address, stored);
      return { ...outcome, crashed: true, diedInPlan: true };
    }
    if (outcome.errors.length || planned.length === 0) return outcome;
    await options.betweenPlanAndApply?.();
    this.walk = 'apply';
    if (options.refuseFromRpc?.walk === 'apply') applyWalkBegins();
    let crashed = false;
    // A provider process serves every resource of its configuration; the crash is armed per address.
    const processOf = this.processesOf(outcome, (provider, address) => {
      if (address !== options.crashOn) return this.process(provider);
      let proc: ProviderProcess | undefined;
      return this.process(provider, () => {
        crashed = true;
        proc?.stop.abort();
      }).then((p) => (proc = p));
    }, (provider, address) => `${provider}/${address === options.crashOn ? 'crash' : 'ok'}`);
    await this.eachOf(planned, async (change) => {
      const proc = await processOf(change.provider, change.address);
      // ConfigureProvider failed: Terraform applies nothing of that configuration.
      if (proc.refusal) return;
      await this.applyChange(proc.rpcs, change, configs[change.address], outcome, () => (crashed = true), options.beforeApplyOf);
    }, () => crashed);
    return { ...outcome, crashed };
  }

  /** `terraform plan` (or a run block with `command = plan`): the plan walk alone. */
  public async plan(configs: Readonly<Record<string, ResourceConfig>>, options: ApplyOptions = {}): Promise<RunOutcome> {
    const outcome: RunOutcome = { errors: [], warnings: [], details: [], appliedWarnings: [], changes: {}, failed: [], crashed: false };
    const saved = new Map(this.state);
    await this.planWalk(configs, options, outcome);
    // A plan writes no state: the refresh's values are kept only by an apply.
    this.state.clear();
    for (const [address, stored] of saved) this.state.set(address, stored);
    return outcome;
  }

  private async planWalk(configs: Readonly<Record<string, ResourceConfig>>, options: ApplyOptions, outcome: RunOutcome) {
    this.walk = 'plan';
    // Terraform takes a moment to start: the API's observations of this run come after the last run's.
    this.clock.advance(RUN_START_MS);
    const processOf = this.processesOf(outcome, (provider) => this.process(provider, undefined, options.readOnlyPlan), (provider) => provider);
    const planned: PlannedChange[] = [];
    let failed = false;
    const rank = (address: string) => (this.order.includes(address) ? this.order.indexOf(address) : this.order.length);
    const addresses = [...new Set([...this.state.keys(), ...Object.keys(configs)])].sort((a, b) => rank(a) - rank(b));
    await this.eachOf(addresses, async (address) => {
      const stored = this.state.get(address);
      const wanted = configs[address];
      const { rpcs, refusal } = await processOf((stored ?? wanted).provider, address);
      if (refusal) {
        failed = true;
        return;
      }
      const type = (stored ?? wanted).type;
      let prior: ObjectValue | null = null;
      let priorPrivate: Uint8Array | undefined;
      if (stored && options.refresh === false) {
        prior = stored.value;
        priorPrivate = stored.private;
      } else if (stored) {
        const request = { type_name: type, current_state: dynamic(stored.value), private: stored.private };
        const read = await rpcs.ReadResource(request, () => undefined) as any;
        // Terraform plans the other resources still; this one's plan is not made.
        if (this.collect(read.diagnostics, outcome)) {
          failed = true;
          return;
        }
        prior = objectOf(read.new_state);
        assertTerraformRules(`ReadResource of ${address}`, readProblems(prior));
        priorPrivate = read.private;
        if (prior === null) this.state.delete(address);
        else this.state.set(address, { ...stored, value: prior, private: priorPrivate });
      }
      if (!wanted) {
        if (!prior) return;
        const removal = await planChange(rpcs, type, prior, null, priorPrivate);
        if (this.collect(removal.diagnostics, outcome)) failed = true;
        else planned.push({ address, provider: stored!.provider, type, kind: 'delete', value: null, private: removal.planned_private });
        return;
      }
      // A tainted object is planned as a create (no prior value, no private data), then replaced.
      const tainted = prior !== null && stored?.tainted === true;
      const plan = await planChange(rpcs, type, tainted ? null : prior, wanted.config, tainted ? undefined : priorPrivate);
      if (this.collect(plan.diagnostics, outcome)) {
        failed = true;
        return;
      }
      const value = objectOf(plan.planned_state)!;
      assertTerraformRules(`PlanResourceChange of ${address}`, planProblems(type, wanted.config, value));
      const replaced = prior !== null && ((plan.requires_replace ?? []).length > 0 || options.replace?.includes(address));
      const change = { address, provider: wanted.provider, type, value, private: plan.planned_private as Uint8Array | undefined };
      if (prior === null) planned.push({ ...change, kind: 'create' });
      else if (tainted) planned.push({ ...change, kind: 'replace' });
      else if (replaced) planned.push({ ...change, kind: 'replace', ...await this.planOfReplacement(rpcs, address, type, wanted.config, change.private, outcome) });
      else if (!Object.keys(value).every((name) => same(value[name], prior![name]))) planned.push({ ...change, kind: 'update' });
    });
    if (failed) return [];
    for (const p of planned) outcome.changes[p.address] = p.kind;
    return planned;
  }

  /** A walk's provider processes, started once per key (`keyOf`), their ConfigureProvider errors told once. */
  private processesOf(
    outcome: RunOutcome, start: (provider: string, address: string) => Promise<ProviderProcess>, keyOf: (provider: string, address: string) => string,
  ): (provider: string, address: string) => Promise<ProviderProcess> {
    const processes = new Map<string, Promise<ProviderProcess>>();
    return (provider, address) => {
      const key = keyOf(provider, address);
      if (!processes.has(key)) {
        processes.set(key, start(provider, address).then((proc) => {
          if (proc.refusal) this.collect([{ severity: 1, summary: proc.refusal }], outcome);
          return proc;
        }));
      }
      return processes.get(key)!;
    };
  }

  /** `step` of each item: one after another until `stop` says so, or, with `interleaving`, all at once. */
  private async eachOf<T>(items: readonly T[], step: (item: T) => Promise<void>, stop: () => boolean = () => false): Promise<void> {
    if (this.interleaving) {
      const settled = await Promise.allSettled(items.map(step));
      const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failure) throw failure.reason;
      return;
    }
    for (const item of items) {
      await step(item);
      if (stop()) return;
    }
  }

  /**
   * Terraform plans a replacement's new object as a create, handing it the update plan's private
   * data, and shows that plan's diagnostics only when one is an error (the update plan said the
   * rest). The apply's re-plan of the create must keep that plan; the removal gets its private data.
   */
  private async planOfReplacement(
    rpcs: Rpcs, address: string, type: string, config: ObjectValue, updatePrivate: Uint8Array | undefined, outcome: RunOutcome,
  ): Promise<{ value: ObjectValue | null; private?: Uint8Array }> {
    const plan = await planChange(rpcs, type, null, config, updatePrivate);
    const diagnostics = (plan.diagnostics ?? []) as Array<{ severity: number; summary: string }>;
    if (diagnostics.some((d) => d.severity === 1)) {
      this.collect(diagnostics, outcome);
      return { value: null };
    }
    const value = objectOf(plan.planned_state);
    assertTerraformRules(`PlanResourceChange of ${address}'s replacement`, planProblems(type, config, value));
    return { value, private: plan.planned_private };
  }

  private async applyChange(
    rpcs: Rpcs,
    change: PlannedChange,
    wanted: ResourceConfig | undefined,
    outcome: RunOutcome,
    died: () => void,
    beforeApply?: (address: string) => void,
  ) {
    const stored = this.state.get(change.address);
    const store = (value: ObjectValue, priv: Uint8Array | undefined, tainted: boolean) =>
      this.state.set(change.address, { type: change.type, provider: change.provider, value, private: priv, ...(tainted && { tainted }) });
    const call = async (prior: ObjectValue | null, priorPrivate: Uint8Array | undefined, config: ObjectValue | null) => {
      let planned: ObjectValue | null = null;
      let plannedPrivate = priorPrivate;
      let res: any;
      let lost = false;
      try {
        if (config) {
          // Terraform plans each change again right before applying it.
          const plan = await planChange(rpcs, change.type, prior, config, priorPrivate);
          if (this.collect(plan.diagnostics, outcome)) {
            outcome.failed.push(change.address);
            return { failed: true };
          }
          planned = objectOf(plan.planned_state);
          assertTerraformRules(`the apply's PlanResourceChange of ${change.address}`, [
            ...planProblems(change.type, config, planned),
            // A replacement's create was planned as the change's new object; its removal has no plan to keep.
            ...finalPlanProblems(change.type, change.value, planned),
          ]);
          plannedPrivate = plan.planned_private;
        }
        beforeApply?.(change.address);
        const states = { prior_state: dynamic(prior), planned_state: dynamic(planned), config: dynamic(config) };
        const request = { type_name: change.type, ...states, planned_private: plannedPrivate };
        res = await rpcs.ApplyResourceChange(request, () => undefined);
      } catch (err) {
        if (!(err instanceof ProviderDied)) throw err;
        lost = true;
        died();
      }
      if (lost) {
        // The provider died: Terraform keeps the prior values (tainted as they were) and no private data.
        if (prior) store(prior, undefined, stored?.tainted === true);
        else this.state.delete(change.address);
        outcome.failed.push(change.address);
        return { failed: true };
      }
      const failed = this.collect(res.diagnostics, outcome);
      const warned = (res.diagnostics ?? []) as Array<{ severity: number; summary: string }>;
      outcome.appliedWarnings.push(...warned.filter((d) => d.severity !== 1).map((d) => d.summary));
      if (failed) outcome.failed.push(change.address);
      const value = res.new_state ? objectOf(res.new_state) : prior;
      assertTerraformRules(`ApplyResourceChange of ${change.address}`, newStateProblems(change.type, planned, value, failed));
      // A create that failed with an object is tainted; a failed removal keeps the object as it was.
      const tainted = failed && (prior === null || stored?.tainted === true);
      if (value) store(value, res.private, tainted);
      else this.state.delete(change.address);
      return { failed };
    };
    if (change.kind === 'delete' || change.kind === 'replace') {
      const removed = await call(stored!.value, change.private, null);
      if (removed.failed || change.kind === 'delete') return;
      this.state.delete(change.address);
      await call(null, undefined, wanted!.config);
      return;
    }
    await call(stored?.value ?? null, stored?.private, wanted!.config);
  }

  /** Adds the diagnostics to the outcome; whether one was an error. */
  private collect(diagnostics: Array<{ severity: number; summary: string; detail?: string }> | undefined, outcome: RunOutcome): boolean {
    let failed = false;
    for (const d of diagnostics ?? []) {
      if (d.severity === 1) {
        failed = true;
        outcome.errors.push(d.summary);
      } else {
        outcome.warnings.push(d.summary);
        outcome.details.push(d.detail ?? '');
      }
    }
    return failed;
  }

  public async close(): Promise<void> {
    await Promise.all([...this.clients.splice(0).map((c) => c.close()), ...this.grpcProviders.splice(0).map((p) => p.close())]);
    await Promise.all(this.agents.splice(0).map((a) => a.close()));
    this.rpcDoings.disable();
  }
}
