import * as fc from 'fast-check';
import { SEED_DEDICATED_IPS, SEED_TOKEN_NAMES, type FaultRule } from '../../src/simulator';
import type { ApplyOptions, ResourceConfig, RunOutcome } from '../helpers/protocol-driver';
import { overBudget, unseenWaits, type BudgetOptions } from '../helpers/request-budget';
import { INTERLEAVINGS } from '../helpers/request-gate';
import { DEDICATED, firewall, ipSettings, power, reboots, SERVER, useTwoAccounts } from '../helpers/two-accounts';

/*
 * A model-based test of what the account may do around a plan (issue 74 §3): fast-check writes
 * sequences of configuration edits (members set and unset, rule sets by id and by name,
 * changed_since_plan, on_destroy, expect_takeover, triggers, hard_reboot, stop_method and its
 * fallback, timeouts), `-replace`, moves of the account by hand before a plan and between a saved
 * plan and its apply (a firewall changed, a rule set deleted and created again under another id or
 * renamed and its name given to a new one, a server stopped), plans made with a read-only token,
 * tokens rotated away, plans applied seconds or hours later, writes refused halfway (a create left
 * tainted), a read answered 429 mid-apply, a write whose answer is lost or a 503 once it took
 * effect, the API failing from any request of a run on, reads served stale (for good, or for a
 * few answers) or from a lagging cache, power operations that end failed, timed out or unknown
 * (with or without the power changed), and crashes at any RPC; and the order Terraform's walks
 * take the resources in, one after another or all at once.
 *
 * The oracle comes from what the user did and what the account holds, never from the provider's
 * code: Terraform's rules on every answer (the driver), each value the apply puts back that
 * changed since the plan is named (or refused, with "fail"), a plan that says the apply writes
 * nothing to a server is kept, a read-only plan plans, a failed apply that wrote nothing leaves the
 * state as it was (values and private data), each warning about a reboot is true of the
 * configuration, a create (of a firewall, an address's settings or a power state) warns of a
 * takeover exactly when it changes what is there unreviewed,
 * one power cycle per change of the triggers however hard_reboot is edited, an apply nothing moved
 * around warns of nothing its plan did not say and power-cycles exactly when its plan said so, a
 * start of a server the plan showed running is named, every run keeps to the request budget the
 * docs state and waits nowhere Terraform's output does not show, and the sequence converges.
 * `ACCOUNT_MOVES_RUNS` sets the number of sequences (`npm test`: 400), `ACCOUNT_MOVES_SEED` replays one,
 * and `ACCOUNT_MOVES_PATH` with `ACCOUNT_MOVES_REPLAY_PATH` (the `path` and `replayPath` it prints) its counterexample alone.
 */
const t = useTwoAccounts();
/** An address whose rDNS and description start empty: the API sets text and cannot clear it again. */
const ADDRESS = SEED_DEDICATED_IPS.secondary;
type Real = Omit<typeof t, 'reset'>;

/** Rule sets the model names (deleted and made again by hand), and those it gives by id (never deleted). */
const NAMES = ['web', 'ssh', 'mail'] as const;
const IDS = [4, 10, 11];

interface FirewallIntent {
  readonly enabled?: boolean;
  readonly rulesets?: readonly number[];
  readonly names?: readonly string[];
  readonly fail: boolean;
  readonly onDestroy: 'retain' | 'restore';
  /** expect_takeover = true: a create's takeover was reviewed, and its plan reads nothing. */
  readonly reviewed: boolean;
}

/** The address settings the configuration manages: each member set or left unset. */
interface AddressIntent {
  readonly rdns?: string;
  readonly description?: string;
  readonly onDestroy?: 'restore';
  /** expect_takeover = true. */
  readonly reviewed?: boolean;
}

interface Model {
  fw: FirewallIntent | undefined;
  ip: AddressIntent | undefined;
  triggers: string;
  /** The power the configuration asks for. */
  power: 'running' | 'stopped';
  hard: boolean;
  /** How a stop is made: stop_method, and force_stop_fallback with a graceful one. */
  stop: 'shutdown' | 'power_off' | 'shutdown, power_off if it fails';
  timeout: number;
  /** The triggers of the last apply, whatever its outcome: a new change of them may reboot once. */
  lastAttempt: string;
  /** Power cycles the user's trigger changes allow. */
  allowed: number;
  /** An apply since the last success may have sent a reboot under a key only its token's memory holds. */
  unsettled: boolean;
  /** The account moved since Terraform's state was last refreshed: by hand or a fault, or only by a killed provider's writes. */
  movedSinceState: boolean | 'by a crash';
}

const configs = (m: Model): Record<string, ResourceConfig> => ({
  pw: power({
    state: m.power,
    reboot_triggers: { v: m.triggers },
    hard_reboot: m.hard ? true : null,
    stop_method: m.stop === 'power_off' ? 'power_off' : null,
    force_stop_fallback: m.stop === 'shutdown, power_off if it fails' ? true : null,
    operation_timeout_seconds: m.timeout,
    ready_timeout_seconds: m.timeout * 2,
  }),
  ...(m.fw && {
    fw: firewall('a', {
      enabled: m.fw.enabled ?? null,
      rulesets: m.fw.rulesets ? [...m.fw.rulesets] : null,
      ruleset_names: m.fw.names ? [...m.fw.names] : null,
      changed_since_plan: m.fw.fail ? 'fail' : 'overwrite',
      on_destroy: m.fw.onDestroy,
      expect_takeover: m.fw.reviewed ? true : null,
    }),
  }),
  ...(m.ip && {
    ip: ipSettings({
      ip: ADDRESS,
      rdns: m.ip.rdns ?? null,
      description: m.ip.description ?? null,
      on_destroy: m.ip.onDestroy ?? null,
      expect_takeover: m.ip.reviewed ? true : null,
    }),
  }),
});

const addressOf = (r: Real): AddressIntent => {
  const settings = r.a.state.server(DEDICATED).ipSettings.get(ADDRESS)!;
  return { rdns: settings.rdns ?? undefined, description: settings.description ?? undefined };
};

interface Firewall {
  readonly enabled: boolean;
  readonly rulesets: readonly number[];
}
const firewallOf = (r: Real): Firewall => {
  const fw = r.a.state.server(SERVER).firewall!;
  return { enabled: fw.enabled, rulesets: [...fw.rulesets].sort((x, y) => x - y) };
};
const idOf = (r: Real, name: string) => r.a.state.rulesets.find((s) => s.name === name)?.id;
const writesTo = (r: Real) => r.a.executed({ serverId: SERVER }).length;
const writesOf = (r: Real, kind: 'firewall' | 'action') => r.a.executed({ serverId: SERVER, kind }).length;
const addressWrites = (r: Real) => r.a.executed({ serverId: DEDICATED, kind: 'ip_settings' }).length;
const starts = (r: Real) => r.a.executed({ serverId: SERVER, kind: 'action' }).filter((w) => w.detail === 'start').length;

/** The members the configuration manages, as the account should hold them now. */
function wanted(r: Real, fw: FirewallIntent): Partial<Firewall> {
  const named = fw.names?.map((n) => idOf(r, n)!) ?? [];
  const managesRulesets = fw.rulesets !== undefined || fw.names !== undefined;
  return {
    ...(fw.enabled !== undefined && { enabled: fw.enabled }),
    ...(managesRulesets && { rulesets: [...new Set([...(fw.rulesets ?? []), ...named])].sort((x, y) => x - y) }),
  };
}

const said = (o: RunOutcome) => [...o.errors, ...o.warnings, ...o.details].join('\n');
const differs = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);
/** Terraform's state as a file holds it, values (sets sorted) and private bytes; of `addresses` only, when given. */
const stateText = (r: Real, addresses?: readonly string[], withPrivate = true) => stateTextOf(r.driver.state, addresses, withPrivate);
const stateTextOf = (state: Real['driver']['state'], addresses?: readonly string[], withPrivate = true) => JSON.stringify(
  [...state].filter(([address]) => !addresses || addresses.includes(address))
    .map(([address, s]) => [address, s.value, withPrivate ? Buffer.from(s.private ?? []).toString() : '']),
  (_k, v: unknown) => (Array.isArray(v) && v.every((x) => typeof x === 'number') ? [...v].sort() : v));

/**
 * `after` (a `stateText`) with the private data of each resource that had none in `before` and now
 * holds only the ids its rule set names resolve to taken as none again: what a refresh records anew
 * for a resource a killed provider left without private data.
 */
function withoutIdsRecordedAgain(before: string, after: string): string {
  const had = new Map((JSON.parse(before) as Array<[string, unknown, string]>).map(([address, , priv]) => [address, priv]));
  const onlyIds = (priv: string) => /^\{"rulesetIds":\{[^{}]*\}\}$/.test(priv);
  return JSON.stringify((JSON.parse(after) as Array<[string, unknown, string]>).map(([address, value, priv]) =>
    [address, value, had.get(address) === '' && onlyIds(priv) ? '' : priv]));
}

/** What the user moved between a saved plan and its apply. */
type Move = 'nothing' | 'the firewall' | 'a rule set name' | 'a rule set renamed' | 'the power' | 'the address';

function moveFirewall(r: Real, to: Firewall): void {
  r.a.drift(SERVER, { firewall: { enabled: to.enabled, rulesets: [...to.rulesets] } });
}

/** A rule set deleted and created again under a new id (the firewalls that applied it lose it). */
function remap(r: Real, name: string): void {
  const rulesets = r.a.state.rulesets;
  const index = rulesets.findIndex((s) => s.name === name);
  const old = rulesets[index];
  const id = Math.max(...rulesets.map((s) => s.id)) + 1;
  rulesets.splice(index, 1, { id, name });
  const fw = r.a.state.server(SERVER).firewall!;
  if (fw.rulesets.includes(old.id)) moveFirewall(r, { enabled: fw.enabled, rulesets: fw.rulesets.filter((x) => x !== old.id) });
}

/** A rule set renamed (its id stays, on every firewall that applies it) and its name given to a new one. */
function rename(r: Real, name: string): void {
  const rulesets = r.a.state.rulesets;
  const index = rulesets.findIndex((s) => s.name === name);
  const id = Math.max(...rulesets.map((s) => s.id)) + 1;
  rulesets.splice(index, 1, { id: rulesets[index].id, name: `${name}-old` }, { id, name });
}

/** The account moves in one of the user's ways. */
function move(r: Real, what: Move, to: { firewall: Firewall; name: string }): void {
  if (what === 'the firewall') moveFirewall(r, to.firewall);
  if (what === 'a rule set name') remap(r, to.name);
  if (what === 'a rule set renamed') rename(r, to.name);
  if (what === 'the power') r.a.drift(SERVER, { power: 'stopped' });
  if (what === 'the address') r.a.drift(DEDICATED, { ip: { address: ADDRESS, rdns: 'hand.example.net', description: 'by hand' } });
}

/** A move of the account between a saved plan and its apply, and how much later the apply comes. */
interface Between {
  readonly what: Move;
  readonly firewall: Firewall;
  readonly name: string;
  readonly delayMs: number;
}

/**
 * Runs one apply and checks the oracle; `between` moves the account after the plan, `fault` holds
 * for the whole run, and `budget` says what the request budget allows of a run that moves the account mid-apply.
 */
async function applyAndCheck(r: Real, m: Model, options: ApplyOptions = {}, between?: Between, fault?: FaultRule, budget: BudgetOptions = {}) {
  const before = { unsettled: m.unsettled, reboots: reboots(r.a), starts: starts(r), powerInState: r.driver.state.get('pw')?.value.state, movedSinceState: m.movedSinceState, writes: writesTo(r), firewall: writesOf(r, 'firewall'), action: writesOf(r, 'action'), address: addressWrites(r), stateOf: stateTextOf.bind(undefined, new Map(r.driver.state)), triggersInState: r.driver.state.get('pw')?.value.reboot_triggers, keyBase: rebootKeyBase(r), firewallBefore: firewallOf(r), wantedFirewall: m.fw && wanted(r, m.fw), addressBefore: addressOf(r), power: r.a.state.server(SERVER).server.power };
  if (m.lastAttempt !== m.triggers) m.allowed += 1;
  const changesTriggers = m.lastAttempt !== m.triggers || m.unsettled;
  m.lastAttempt = m.triggers;
  const untouched = planChangesNothing(r, m, options.replace ?? []);
  let shown: Firewall | undefined;
  let moved: Firewall | undefined;
  let addressShown: AddressIntent | undefined;
  let addressMoved: AddressIntent | undefined;
  if (fault) r.a.addFault(fault);
  const outcome = await r.driver.apply(configs(m), {
    ...options,
    betweenPlanAndApply: between ? () => {
      shown = firewallOf(r);
      addressShown = addressOf(r);
      // A rule set the configuration names, when it names any: the move that can break a plan.
      const named = m.fw?.names?.length ? m.fw.names[NAMES.indexOf(between.name as (typeof NAMES)[number]) % m.fw.names.length] : between.name;
      move(r, between.what, { ...between, name: named });
      moved = firewallOf(r);
      addressMoved = addressOf(r);
      r.clock.advance(between.delayMs);
    } : options.betweenPlanAndApply,
  });
  if (fault) r.a.clearFaults();
  const text = said(outcome);
  const context = JSON.stringify({ fw: m.fw, between, fault, shown, moved, now: firewallOf(r), outcome }, null, 1);
  // Every run keeps to the request budget, and waits only where Terraform shows it, whatever moved.
  // An operation that ends unconfirmed is checked by reading the server until it shows the power (spec 3.2): reads no budget counts.
  const budgeted = fault?.effect.type === 'operation' ? [] : overBudget(r.driver.requests, budget);
  const spent = [...budgeted, ...unseenWaits(r.driver.requests)];
  if (spent.length) throw new Error(`the run spent more requests than its budget, or waited unseen: ${spent.join('; ')}:\n${JSON.stringify(r.driver.requests, null, 1)}\n${context}`);
  // One power cycle per change of the triggers, whatever hard_reboot, timeouts or crashes did.
  if (reboots(r.a) > m.allowed) throw new Error(`${reboots(r.a)} power cycles for ${m.allowed} trigger changes:\n${context}`);
  // A warning of a reboot or a start for the triggers is true of the configuration.
  if (/reboot_triggers changed/.test(outcome.warnings.join('\n')) && !differs(before.triggersInState, { v: m.triggers })) {
    throw new Error(`a warning says the triggers changed, but they did not:\n${context}`);
  }
  // A plan that changes nothing on the server (an on_destroy, a timeout) is kept: its apply writes nothing, whatever moved since.
  if (untouched.firewall && writesOf(r, 'firewall') !== before.firewall) throw new Error(`the plan changed nothing on the firewall, and the apply wrote to it:\n${context}`);
  if (untouched.power && writesOf(r, 'action') !== before.action) throw new Error(`the plan changed nothing on the power, and the apply acted:\n${context}`);
  if (untouched.address && addressWrites(r) !== before.address) throw new Error(`the plan changed nothing on the address, and the apply wrote to it:\n${context}`);
  // An apply the account did not move around, after one that settled, does what its plan said and no more: it has nothing to warn of.
  const stillAround = (between && between.what !== 'nothing') || options.beforeApplyOf || options.crashAtRpc || options.crashOn || options.betweenPlanAndApply || fault;
  if (!stillAround && !before.unsettled && outcome.errors.length === 0 && outcome.appliedWarnings.length) {
    throw new Error(`an apply nothing moved around warned of what its plan did not say:\n${context}`);
  }
  // Such an apply, when it succeeds, power-cycles the server once if its plan said a reboot, else never.
  const cycled = reboots(r.a) - before.reboots;
  // A replacement is planned as an update first, whose words Terraform shows too (effects.ts): created anew, the power state never reboots.
  const saidReboot = outcome.warnings.some((w) => /^The apply reboots a server/.test(w)) && outcome.changes.pw !== 'replace';
  if (!stillAround && !before.unsettled && outcome.errors.length === 0 && cycled !== (saidReboot ? 1 : 0)) {
    throw new Error(`the plan said ${saidReboot ? 'a reboot' : 'no reboot'}, and the apply power-cycled the server ${cycled} times:\n${context}`);
  }
  // A create's plan warns of a takeover exactly when the firewall holds other values than the configuration's, unless it was reviewed.
  if (outcome.changes.fw === 'create' && !before.movedSinceState && !stillAround) {
    const there = before.firewallBefore;
    const changesWhatIsThere = Object.entries(before.wantedFirewall ?? {}).some(([member, value]) => differs(there[member as keyof Firewall], value));
    const warned = outcome.warnings.includes('Creating this resource changes a firewall that exists already');
    if (warned !== (changesWhatIsThere && !m.fw!.reviewed)) throw new Error(`the create's plan ${warned ? 'warned of' : 'did not warn of'} a takeover:\n${context}`);
  }
  // A reviewed takeover costs no read at plan, in either walk: the apply reads it, once.
  const planReads = r.driver.requests.filter((q) => q.rpc === 'PlanResourceChange' && q.answers.some((a) => a.endpoint === 'GET /servers/{serverId}/firewall'));
  if (outcome.changes.fw === 'create' && m.fw!.reviewed && planReads.length) throw new Error(`the plan of a reviewed takeover read the firewall:\n${context}`);
  // The same for an address's settings: a takeover is warned of exactly when a managed member changes unreviewed.
  if (outcome.changes.ip === 'create' && !before.movedSinceState && !stillAround) {
    const changesWhatIsThere = (['rdns', 'description'] as const).some((member) => m.ip![member] !== undefined && differs(before.addressBefore[member], m.ip![member]));
    const warned = outcome.warnings.includes('Creating this resource changes IP settings that exist already');
    if (warned !== (changesWhatIsThere && !m.ip!.reviewed)) throw new Error(`the address's create ${warned ? 'warned of' : 'did not warn of'} a takeover:\n${context}`);
  }
  // And a power state created anew (replaced): exactly when the apply starts or stops the server.
  if (outcome.changes.pw === 'replace' && !stillAround) {
    const warned = outcome.warnings.includes('Creating this resource changes the power state of a server');
    if (warned !== (before.power !== m.power)) throw new Error(`the power state's create ${warned ? 'warned of' : 'did not warn of'} a takeover:\n${context}`);
  }
  // Each value the apply put back to an address that changed since the plan's refresh is named.
  if (addressShown && addressMoved && m.ip && outcome.changes.ip === 'update') {
    const now = addressOf(r);
    for (const member of ['rdns', 'description'] as const) {
      if (m.ip[member] === undefined || !differs(addressShown[member], addressMoved[member]) || !differs(addressMoved[member], now[member])) continue;
      if (!new RegExp(`changed since the plan: .*${member}`).test(text)) throw new Error(`the apply put back ${member}, changed since the plan, without naming it:\n${context}`);
    }
  }
  // Each value the apply put back that changed since the plan's refresh is named; "fail" puts none back.
  // A create has no refresh: it takes over what its apply finds (expect_takeover accepts that unseen).
  if (shown && moved && m.fw && outcome.changes.fw === 'update') {
    const now = firewallOf(r);
    const managed = wanted(r, m.fw);
    for (const member of ['enabled', 'rulesets'] as const) {
      if (!(member in managed) || !differs(shown[member], moved[member]) || !differs(moved[member], now[member])) continue;
      if (m.fw.fail) throw new Error(`changed_since_plan = "fail", and the apply wrote over ${member}:\n${context}`);
      if (!new RegExp(`changed since the plan: .*${member}`).test(text)) throw new Error(`the apply put back ${member}, changed since the plan, without naming it:\n${context}`);
    }
  }
  // A start of a server the plan showed running (its refresh read it so) puts back a power changed since the plan: named.
  const crashes = options.crashAtRpc !== undefined || options.crashOn !== undefined;
  if (!crashes && !before.movedSinceState && before.powerInState === 'running' && starts(r) > before.starts && !/changed since the plan: state/.test(text)) {
    throw new Error(`the apply started a server the plan showed running, without naming it:\n${context}`);
  }
  // A failed apply that wrote nothing leaves the state as it was, so the reviewed plan applies again:
  // each resource whose change failed keeps its state (another's change that applied is recorded, as
  // Terraform records it); a plan that failed leaves all of it.
  const failedWithoutWrites = (outcome.errors.length > 0 || outcome.crashed) && writesTo(r) === before.writes && addressWrites(r) === before.address;
  // A replacement whose removal applied before its create failed has no object left: Terraform removes before it creates.
  const removed = (address: string) => outcome.changes[address] === 'replace' && !r.driver.state.has(address);
  const kept = outcome.failed.length ? outcome.failed.filter((address) => !removed(address)) : undefined;
  // Where only a killed provider's writes moved the account since the state, a refresh records what it
  // finds; when it finds the values the state holds, it keeps the private data too (Terraform's state is
  // unchanged), but for the ids a firewall's rule set names resolve to, which a resource the crash left
  // without private data gets again: both plans of an apply take names' ids from the refresh.
  const crashOnly = m.movedSinceState === 'by a crash';
  const refreshedAlike = !m.movedSinceState || (crashOnly && stateText(r, kept, false) === before.stateOf(kept, false));
  const stateNow = crashOnly ? withoutIdsRecordedAgain(before.stateOf(kept), stateText(r, kept)) : stateText(r, kept);
  if (failedWithoutWrites && refreshedAlike && !between && !outcome.crashed && stateNow !== before.stateOf(kept)) {
    throw new Error(`a failed apply that wrote nothing changed the state:\n${before.stateOf(kept)}\n${stateText(r, kept)}\n${context}`);
  }
  // A reboot sent by an apply that did not finish keeps its key (the state's next generation and its
  // triggers) until a change of triggers is recorded: the same change planned again, after edits
  // that changed nothing recorded, is the same intent, and replays it.
  m.unsettled = (changesTriggers && (outcome.errors.length > 0 || outcome.crashed)) || (m.unsettled && rebootKeyBase(r) === before.keyBase);
  // The state is the refresh's (or the apply's) unless the account moved after it.
  // A fault may leave a write in the account that is not in the state, or a read's old value in the state.
  const movedAround = (between !== undefined && between.what !== 'nothing') || options.beforeApplyOf !== undefined || fault !== undefined;
  // A provider that died in the plan walk left the state as it was: what moved before still is unrecorded.
  const unrecorded = outcome.diedInPlan && m.movedSinceState === true;
  m.movedSinceState = movedAround || unrecorded || (outcome.crashed ? 'by a crash' : false);
  return outcome;
}

/** What a reboot's key starts from: the power state's life and generation. */
const rebootKeyBase = (r: Real) => JSON.stringify([r.driver.state.get('pw')?.value.life_id, r.driver.state.get('pw')?.value.reboot_generation]);

/**
 * What the plan of this run will show as changing nothing on the server, from what the user did:
 * the account has not moved since Terraform's state was written, and that state already holds the
 * configured values (only on_destroy, changed_since_plan, hard_reboot, how a stop is made or a timeout may differ).
 * Rule sets by name are known after apply in any plan that changes the firewall resource.
 */
function planChangesNothing(r: Real, m: Model, replaced: readonly string[]): { firewall: boolean; power: boolean; address: boolean } {
  if (m.movedSinceState) return { firewall: false, power: false, address: false };
  const kept = planKeeps(r, m);
  return { firewall: kept.firewall && !replaced.includes('fw'), power: kept.power && !replaced.includes('pw'), address: kept.address && !replaced.includes('ip') };
}

function planKeeps(r: Real, m: Model): { firewall: boolean; power: boolean; address: boolean } {
  const ip = r.driver.state.get('ip')?.value;
  const addressKept = ip !== undefined && m.ip !== undefined
    && (m.ip.rdns === undefined || ip.rdns === m.ip.rdns) && (m.ip.description === undefined || ip.description === m.ip.description);
  const fw = r.driver.state.get('fw')?.value;
  const pw = r.driver.state.get('pw')?.value;
  const want = m.fw && wanted(r, m.fw);
  const firewallKept = fw !== undefined && want !== undefined && m.fw?.names === undefined
    && (want.enabled === undefined || fw.enabled === want.enabled)
    && (want.rulesets === undefined || !differs([...(fw.applied_rulesets as number[])].sort((x, y) => x - y), want.rulesets));
  const powerKept = pw !== undefined && pw.state === m.power && !differs(pw.reboot_triggers, { v: m.triggers });
  return { firewall: firewallKept, power: powerKept, address: addressKept };
}

/** The API's writes, each of which a run may see fail after it took effect. */
const WRITES = ['POST /servers/{serverId}/actions', 'PUT /servers/{serverId}/firewall', 'PATCH /servers/{serverId}/ips/{ip}'] as const;
type Failure = 'its answer lost' | 'answered 503';
const failure = (how: Failure): FaultRule['effect'] =>
  (how === 'its answer lost' ? { type: 'drop_response' } : { type: 'error', status: 503, code: 'unavailable', takesEffect: true });
/** How a power action's operation may end (spec 3.2), and whether the power changed all the same. */
const OPERATION_ENDS = ['failed', 'timed_out', 'outcome_unknown'] as const;

type Command = fc.AsyncCommand<Model, Real>;
const cmd = (name: string, run: (m: Model, r: Real) => Promise<unknown> | void, check: (m: Model) => boolean = () => true): Command => ({
  check,
  run: async (m, r) => void (await run(m, r)),
  toString: () => name,
});

const firewallIntent = fc.record<FirewallIntent>({
  enabled: fc.option(fc.boolean(), { nil: undefined }),
  rulesets: fc.option(fc.subarray(IDS), { nil: undefined }),
  names: fc.option(fc.subarray([...NAMES], { minLength: 1 }), { nil: undefined }),
  fail: fc.boolean(),
  onDestroy: fc.constantFrom('retain', 'restore'),
  reviewed: fc.boolean(),
}, { requiredKeys: ['fail', 'onDestroy', 'reviewed'] });
const firewallValue = fc.record<Firewall>({ enabled: fc.boolean(), rulesets: fc.subarray(IDS) });
const name = fc.constantFrom(...NAMES);
const moveValue = fc.constantFrom<Move>('nothing', 'the firewall', 'a rule set name', 'a rule set renamed', 'the power', 'the address');
const addressIntent = fc.record<AddressIntent>({
  rdns: fc.option(fc.constantFrom('web.example.com', 'mail.example.com'), { nil: undefined }),
  description: fc.option(fc.constantFrom('web', 'mail'), { nil: undefined }),
  onDestroy: fc.option(fc.constant('restore' as const), { nil: undefined }),
  reviewed: fc.option(fc.constant(true), { nil: undefined }),
});
const delay = fc.constantFrom(2_000, 3_600_000);

const hasFirewall = (m: Model) => m.fw !== undefined;
const moved = (m: Model) => void (m.movedSinceState = true);

const COMMANDS = [
  // Edits of the configuration.
  firewallIntent.map((fw) => cmd(`fw = ${JSON.stringify(fw)}`, (m) => void (m.fw = fw))),
  fc.constant(cmd('fw: changed_since_plan toggled', (m) => void (m.fw = { ...m.fw!, fail: !m.fw!.fail }), hasFirewall)),
  fc.constant(cmd('fw: on_destroy toggled', (m) => void (m.fw = { ...m.fw!, onDestroy: m.fw!.onDestroy === 'retain' ? 'restore' : 'retain' }), hasFirewall)),
  fc.constant(cmd('fw: expect_takeover toggled', (m) => void (m.fw = { ...m.fw!, reviewed: !m.fw!.reviewed }), hasFirewall)),
  fc.constant(cmd('remove fw', (m) => void (m.fw = undefined), hasFirewall)),
  addressIntent.map((ip) => cmd(`ip = ${JSON.stringify(ip)}`, (m) => void (m.ip = ip.rdns === undefined && ip.description === undefined ? undefined : ip))),
  fc.constant(cmd('the address changed by hand', (m, r) => {
    move(r, 'the address', { firewall: firewallOf(r), name: 'web' });
    moved(m);
  })),
  fc.constantFrom('1', '2', '3').map((v) => cmd(`triggers v${v}`, (m) => void (m.triggers = v))),
  fc.constant(cmd('state toggled (running, stopped)', (m) => void (m.power = m.power === 'running' ? 'stopped' : 'running'))),
  fc.constant(cmd('hard_reboot toggled', (m) => void (m.hard = !m.hard))),
  fc.constantFrom(60, 120).map((s) => cmd(`operation timeout ${s}s, ready timeout ${2 * s}s`, (m) => void (m.timeout = s))),
  fc.constantFrom<Model['stop']>('shutdown', 'power_off', 'shutdown, power_off if it fails').map((stop) => cmd(`stop by ${stop}`, (m) => void (m.stop = stop))),
  // The account moves by hand before a plan.
  firewallValue.map((v) => cmd(`the firewall changed by hand to ${JSON.stringify(v)}`, (m, r) => {
    moveFirewall(r, v);
    moved(m);
  })),
  name.map((n) => cmd(`rule set "${n}" deleted and created again`, (m, r) => {
    remap(r, n);
    moved(m);
  })),
  name.map((n) => cmd(`rule set "${n}" renamed, and a new one named "${n}"`, (m, r) => {
    rename(r, n);
    moved(m);
  })),
  fc.constant(cmd('the server stopped by hand', (m, r) => {
    r.a.drift(SERVER, { power: 'stopped' });
    moved(m);
  })),
  // Runs.
  fc.constant(cmd('apply', (m, r) => applyAndCheck(r, m))),
  fc.constant(cmd('plan with a read-only token (HOSTING_API_READ_ONLY_PLAN=on), apply', async (m, r) => {
    const outcome = await applyAndCheck(r, m, { readOnlyPlan: true });
    if (!outcome.crashed) expect({ errors: outcome.errors, m }).toEqual({ errors: [], m });
  })),
  fc.tuple(moveValue, firewallValue, name, delay).map(([what, fwValue, n, ms]) =>
    cmd(`plan -out, ${what === 'nothing' ? 'nothing' : `${what} moved (${JSON.stringify(what === 'the firewall' ? fwValue : what === 'a rule set name' || what === 'a rule set renamed' ? n : 'stopped')})`}, apply the saved plan ${ms / 1000} s later`,
      (m, r) => applyAndCheck(r, m, {}, { what, firewall: fwValue, name: n, delayMs: ms }))),
  // The issue's case 4 in one command: an edit of how the provider works, and the firewall moved seconds after the plan.
  fc.tuple(firewallValue, delay).map(([v, ms]) => cmd(`fw: on_destroy toggled, plan -out, the firewall moved (${JSON.stringify(v)}), apply the saved plan ${ms / 1000} s later`, (m, r) => {
    m.fw = { ...m.fw!, onDestroy: m.fw!.onDestroy === 'retain' ? 'restore' : 'retain' };
    return applyAndCheck(r, m, {}, { what: 'the firewall', firewall: v, name: 'web', delayMs: ms });
  }, hasFirewall)),
  // Mid-apply: after Terraform's plan of a change in the apply walk (whose read the apply starts from), before its apply.
  fc.tuple(fc.constantFrom<Move>('the firewall', 'a rule set name', 'a rule set renamed', 'the power', 'the address'), firewallValue, name).map(([what, v, n]) =>
    cmd(`apply, ${what} moved between the apply walk's plan of each change and its apply`, (m, r) => {
      const moveNow = () => move(r, what, { firewall: v, name: m.fw?.names?.[0] ?? n });
      // With the walks taken at once, the power may be moved while the apply confirms an action it sent.
      return applyAndCheck(r, m, { beforeApplyOf: moveNow }, undefined, undefined, { rereadsAfterActions: what === 'the power' });
    })),
  fc.constant(cmd('apply with a token that may start and reboot, and nothing else', async (m, r) => {
    const token = r.accounts.a.token;
    // The API's memory of keys is per token (section 4 does not say): a reboot still to settle may be sent again.
    if (m.unsettled) m.allowed += 1;
    r.accounts.a.token = r.a.tokens[SEED_TOKEN_NAMES.powerWithoutControl];
    const outcome = await applyAndCheck(r, m);
    r.accounts.a.token = token;
    // A scope the token lacks fails the plan on one error per provider configuration.
    expect(outcome.errors.filter((e) => / lacks /.test(e)).length).toBeLessThanOrEqual(1);
  })),
  fc.constant(cmd('ip: on_destroy toggled, plan -out, the address moved, apply the saved plan 2 s later', (m, r) => {
    m.ip = { ...m.ip!, onDestroy: m.ip!.onDestroy ? undefined : 'restore' };
    return applyAndCheck(r, m, {}, { what: 'the address', firewall: firewallOf(r), name: 'web', delayMs: 2_000 });
  }, (m) => m.ip !== undefined)),
  // A create or change of the address that fails halfway: its state records what was written (a create's is tainted and replaced next).
  fc.constant(cmd('apply, the address\'s second write refused (a scope revoked mid-apply)', async (m, r) => {
    r.a.addFault({ endpoint: 'PATCH /servers/{serverId}/ips/{ip}', skip: 1, times: 1, effect: { type: 'error', status: 403, code: 'insufficient_scope' } });
    await applyAndCheck(r, m);
    r.a.clearFaults();
  }, (m) => m.ip !== undefined)),
  // A wait for the API's limits in the apply walk, after an apply of the process: its plan leaves the read to the apply.
  fc.constantFrom('GET /servers/{serverId}/firewall', 'GET /servers/{serverId}/ips/{ip}').map((endpoint) =>
    cmd(`apply, the next ${endpoint} answered 429 (Retry-After 30 s) once the power state is applied`, async (m, r) => {
      const rateLimited = { type: 'error', status: 429, code: 'rate_limited', retryAfterSeconds: 30 } as const;
      await applyAndCheck(r, m, { beforeApplyOf: (address) => void (address === 'pw' && r.a.addFault({ endpoint, times: 1, effect: rateLimited })) });
      r.a.clearFaults();
    })),
  // The API failing at a write, or at any request of a run on, after the write took effect: the next apply neither repeats nor loses one.
  fc.tuple(fc.constantFrom(...WRITES), fc.integer({ min: 1, max: 3 }), fc.constantFrom<Failure>('its answer lost', 'answered 503')).map(([endpoint, k, how]) =>
    cmd(`apply, write #${k} to ${endpoint} ${how} after it took effect`, (m, r) => applyAndCheck(r, m, {}, undefined, { endpoint, skip: k - 1, times: 1, effect: failure(how) }))),
  fc.integer({ min: 1, max: 14 }).map((n) => cmd(`apply, the API answering 503 from the run's request #${n} on (a write still takes effect)`, (m, r) =>
    applyAndCheck(r, m, {}, undefined, { endpoint: '* *', skip: n - 1, effect: failure('answered 503') }))),
  // Section 1, rules 6 and 7: reads served from a cache that lags behind writes, or stale (meta.stale) while live data is unavailable.
  // Stale for good (the run must fail clearly), or for 1 to 3 answers, then live (a read again decides).
  fc.tuple(fc.integer({ min: 1, max: 10 }), fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined })).map(([n, k]) =>
    cmd(`apply, reads answered stale from the run's request #${n} on${k ? `, ${k} of them` : ''}`, (m, r) =>
      applyAndCheck(r, m, {}, undefined, { endpoint: 'GET *', skip: n - 1, ...(k && { times: k }), effect: { type: 'stale' } }))),
  // A cache that "lives a few seconds" (rule 6), shared with the reads of the run before.
  fc.constantFrom(2, 5).map((seconds) => cmd(`apply, reads served from a shared cache up to ${seconds} s old`, (m, r) =>
    applyAndCheck(r, m, {}, undefined, { endpoint: 'GET *', effect: { type: 'cache', maxAgeSeconds: seconds } }))),
  fc.tuple(fc.constantFrom(...OPERATION_ENDS), fc.boolean(), fc.integer({ min: 1, max: 2 })).map(([status, takesEffect, k]) =>
    cmd(`apply, power action #${k}'s operation ends ${status} ${takesEffect ? 'with' : 'without'} the power changed`, (m, r) =>
      applyAndCheck(r, m, {}, undefined, { endpoint: 'POST /servers/{serverId}/actions', skip: k - 1, times: 1, effect: { type: 'operation', outcome: { status, takesEffect } } }))),
  fc.constant(cmd('plan -out, the token rotated away, apply the saved plan', async (m, r) => {
    const token = r.accounts.a.token;
    await applyAndCheck(r, m, { betweenPlanAndApply: () => void (r.accounts.a.token = 'hsim_rotated_away') });
    r.accounts.a.token = token;
  })),
  fc.integer({ min: 1, max: 8 }).map((n) => cmd(`apply, the provider killed while it answers the run's RPC #${n}`, (m, r) => applyAndCheck(r, m, { crashAtRpc: n }))),
  fc.constant(cmd('apply, the provider killed after the power state\'s first accepted write', (m, r) => applyAndCheck(r, m, { crashOn: 'pw' }))),
  // An interrupted reboot, the issue's case 7 in one command: the next apply may come with hard_reboot edited.
  fc.constantFrom('1', '2', '3').map((v) => cmd(`triggers v${v}, apply, the provider killed once the reboot is sent`, (m, r) => {
    m.triggers = v;
    return applyAndCheck(r, m, { crashOn: 'pw' });
  })),
  fc.constantFrom('pw', 'fw', 'ip').map((address) => cmd(`apply -replace=${address}`, (m, r) => applyAndCheck(r, m, { replace: [address] }),
    (m) => address === 'pw' || (address === 'fw' ? m.fw : m.ip) !== undefined)),
  fc.constant(cmd('time passes (60 s)', (_m, r) => r.clock.advance(60_000))),
];

/** After the sequence, with nothing moving: one apply converges, the next plans nothing. */
async function converges(m: Model, r: Real) {
  r.clock.advance(60_000);
  const last = await applyAndCheck(r, m);
  expect({ errors: last.errors, m }).toEqual({ errors: [], m });
  if (m.fw) expect({ ...firewallOf(r), ...wanted(r, m.fw) }).toEqual(firewallOf(r));
  const managed = m.ip && { rdns: m.ip.rdns, description: m.ip.description };
  const setMembers = managed && Object.fromEntries(Object.entries(managed).filter(([, v]) => v !== undefined));
  if (setMembers) expect({ ...addressOf(r), ...setMembers }).toEqual(addressOf(r));
  expect(r.a.state.server(SERVER).server.power).toBe(m.power);
  const again = await r.driver.apply(configs(m));
  expect({ changes: again.changes, warnings: again.warnings }).toEqual({ changes: {}, warnings: [] });
}

const WALK_ORDERS = [['pw', 'fw', 'ip'], ['pw', 'ip', 'fw'], ['fw', 'pw', 'ip'], ['fw', 'ip', 'pw'], ['ip', 'pw', 'fw'], ['ip', 'fw', 'pw']];
const RUNS = Number(process.env.ACCOUNT_MOVES_RUNS ?? 400);
const SEED = process.env.ACCOUNT_MOVES_SEED === undefined ? undefined : Number(process.env.ACCOUNT_MOVES_SEED);
const PATH = process.env.ACCOUNT_MOVES_PATH;
const REPLAY_PATH = process.env.ACCOUNT_MOVES_REPLAY_PATH;

test(`no move of the account around a plan makes Terraform refuse an answer, a value put back unnamed, a plan broken or a reboot doubled (${RUNS} sequences)`, async () => {
  await fc.assert(
    // The order Terraform's walks take the three resources in, or all three at once with their API requests
    // interleaved as drawn; drawn after the commands (a seed draws the same commands as before).
    fc.asyncProperty(fc.commands(COMMANDS, { maxCommands: 12, size: 'max', replayPath: REPLAY_PATH }), fc.constantFrom(...WALK_ORDERS), INTERLEAVINGS, async (sequence, order, interleaving) => {
      await t.reset();
      t.driver.order = order;
      t.driver.interleaving = interleaving;
      t.a.state.rulesets.push({ id: 10, name: 'db' }, { id: 11, name: 'dns' });
      const model: Model = { fw: undefined, ip: undefined, triggers: '1', power: 'running', hard: false, stop: 'shutdown', timeout: 60, lastAttempt: '1', allowed: 0, unsettled: false, movedSinceState: false };
      await applyAndCheck(t, model);
      await fc.asyncModelRun(() => ({ model, real: t }), sequence);
      await converges(model, t);
    }),
    { numRuns: RUNS, seed: SEED, path: PATH, endOnFailure: PATH !== undefined, verbose: 1 },
  );
}, 300_000);
