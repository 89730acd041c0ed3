import * as fc from 'fast-check';
import { SEED_TOKEN_NAMES, type FaultEffect } from '../../src/simulator';
import type { ApplyOptions, ResourceConfig, RunOutcome } from '../helpers/protocol-driver';
import { overBudget, unseenWaits } from '../helpers/request-budget';
import { INTERLEAVINGS } from '../helpers/request-gate';
import { ADDRESS, DEDICATED, firewall, ipSettings, power, reboots, SERVER, useTwoAccounts } from '../helpers/two-accounts';

/*
 * A model-based test of the identities behind every write (issues 46 §3 and 53 §3): fast-check
 * writes sequences of edits, rollbacks, replaces, destroys and re-creates, `state rm` and import,
 * `moved` blocks and address changes, saved plans applied after the account moved, several plans
 * and applies in one terraform process (as `terraform test` runs them), provider crashes after the
 * API accepted a write or at any RPC, reboots that outlive their timeout, drift by hand, an account
 * reset, two accounts with the same server ids and a rotated token, and shrinks a failing one to
 * its shortest form. After every apply the invariants below are checked.
 *
 * The oracle judges by what the user did, never by the provider's keys, generations or lives: a
 * successful apply whose reboot_triggers differ from those of the last successful apply of the
 * same resource (a create or import starts anew) owes the account one reboot; an apply of any
 * outcome whose triggers differ from the last apply's may cause one. `INTENT_MODEL_RUNS` sets the
 * number of sequences (default 1000), `INTENT_MODEL_SEED` replays one, `INTENT_MODEL_ONLY` draws
 * one family of edits, `INTENT_MODEL_COMMANDS` the longest sequence (default 16). `npm test` runs a
 * share (300); `npm run test:model` the full run (4,000).
 */
const t = useTwoAccounts();

type Address = 'pw' | 'pw_b';
const ADDRESSES: readonly Address[] = ['pw', 'pw_b'];

interface Model {
  /** What the user's configuration holds. */
  fw: Record<'a' | 'b', { enabled: boolean; rulesets: number[]; onDestroy: string } | undefined>;
  /** Where the configuration has the power state (`count`/`for_each` give it another address), if anywhere. */
  pw: Address | undefined;
  triggers: string;
  timeout: number;
  slow: boolean;
  /** The user's reboots: owed by successful applies, possible by every apply, and forgiven where the API forgets keys. */
  owed: number;
  allowed: number;
  allowance: number;
  /** The triggers of the last apply that had a power state, whatever its outcome. */
  lastAttempt?: string;
  /** Per address, the triggers of the last successful apply of the resource there; none after a create, import, `state rm` or replace. */
  applied: Partial<Record<Address, string>>;
  /** An apply that changed the triggers failed or crashed since the last success: its reboot may be sent again by whoever forgets its key. */
  unsettled: boolean;
  /** Reboots the account got before it was reset (its log of carried-out actions starts anew). */
  rebootsBeforeReset: number;
  /** Each account's firewall values seen while its resource exists: what a restoring removal may put back. */
  seen: Record<'a' | 'b', FirewallValues[]>;
  /**
   * Each account's firewall resource as its user can know it: its on_destroy, and the value each
   * of its writes found before the first write of that value in its life, which a restoring
   * removal puts back. Unknown after an apply that changed it failed or crashed: the write may or
   * may not have happened, and only the looser `seen` check holds.
   */
  life: Record<'a' | 'b', FirewallLife | 'unknown' | undefined>;
  /** The description the configuration's hosting_ip_settings (account a, retained on removal) manages, if it has one. */
  ip: { description: string } | undefined;
}

type Real = Omit<typeof t, 'reset'>;
interface FirewallValues {
  readonly enabled: boolean;
  readonly rulesets: number[];
}
interface FirewallLife {
  readonly onDestroy: string;
  readonly restore: Partial<FirewallValues>;
}

const configs = (m: Model): Record<string, ResourceConfig> => {
  const out: Record<string, ResourceConfig> = {};
  if (m.pw) out[m.pw] = power({ reboot_triggers: { v: m.triggers }, operation_timeout_seconds: m.timeout });
  for (const p of ['a', 'b'] as const) {
    const fw = m.fw[p];
    if (fw) out[`fw_${p}`] = firewall(p, { enabled: fw.enabled, rulesets: fw.rulesets, on_destroy: fw.onDestroy, expect_takeover: true });
  }
  if (m.ip) out.ip = ipSettings({ description: m.ip.description });
  return out;
};

const descriptionOf = (real: Real) => real.a.state.server(DEDICATED).ipSettings.get(ADDRESS)!.description;
const ipWrites = (real: Real) => real.a.executed({ serverId: DEDICATED, kind: 'ip_settings' }).length;

const sameSet = (a: readonly number[], b: readonly number[] | undefined) =>
  b !== undefined && JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/** The values a write of `wanted` changes on a firewall that holds `found`, at what `found` held. */
const foundBeforeWrite = (found: FirewallValues, wanted: FirewallValues): Partial<FirewallValues> => ({
  ...(found.enabled !== wanted.enabled && { enabled: found.enabled }),
  ...(!sameSet(found.rulesets, wanted.rulesets) && { rulesets: found.rulesets }),
});

/** What a removal of the resource whose life this is leaves on a firewall that holds `found`. */
const afterRemoval = (life: FirewallLife, found: FirewallValues): FirewallValues =>
  (life.onDestroy === 'restore' ? { enabled: life.restore.enabled ?? found.enabled, rulesets: life.restore.rulesets ?? found.rulesets } : found);

/**
 * Follows account `p`'s firewall resource through one apply that found `found` before its writes;
 * for a successful removal, what the account must hold now.
 */
function followLife(m: Model, p: 'a' | 'b', outcome: RunOutcome, found: FirewallValues): FirewallValues | undefined {
  const change = outcome.changes[`fw_${p}`];
  if (!change) return undefined;
  const life = m.life[p];
  if (outcome.errors.length || outcome.crashed) {
    m.life[p] = 'unknown';
    return undefined;
  }
  const known = life !== undefined && life !== 'unknown' ? life : undefined;
  if (change === 'delete') {
    m.life[p] = undefined;
    return known && afterRemoval(known, found);
  }
  const wanted = m.fw[p]!;
  // A replacement's create finds what the removal left; a create finds what is there.
  const takenOver = change === 'replace' ? known && afterRemoval(known, found) : change === 'create' ? found : undefined;
  if (takenOver) m.life[p] = { onDestroy: wanted.onDestroy, restore: foundBeforeWrite(takenOver, wanted) };
  else if (change === 'update' && known) m.life[p] = { onDestroy: wanted.onDestroy, restore: { ...foundBeforeWrite(found, wanted), ...known.restore } };
  else m.life[p] = 'unknown';
  return undefined;
}

/** Account `p`'s firewall as the simulator holds it (every member set). */
const firewallOf = (real: Real, p: 'a' | 'b') => real[p].state.server(SERVER).firewall as FirewallValues;

const writesTo = (real: Real, p: 'a' | 'b') => real[p].executed({ serverId: SERVER, kind: 'firewall' }).length;
const rebootsOf = (real: Real, m: Model) => m.rebootsBeforeReset + reboots(real.a);

/** The oracle's bookkeeping of one apply, from the user's configuration and what the run told them. */
function judge(real: Real, m: Model, outcome: RunOutcome, replaced: readonly string[]) {
  const succeeded = outcome.errors.length === 0 && !outcome.crashed;
  if (m.pw) {
    if (m.lastAttempt !== undefined && m.lastAttempt !== m.triggers) m.allowed += 1;
    if (succeeded) {
      const before = m.applied[m.pw];
      if (before !== undefined && before !== m.triggers && !replaced.includes(m.pw)) m.owed += 1;
    } else if (m.lastAttempt !== m.triggers) {
      m.unsettled = true;
    }
    m.lastAttempt = m.triggers;
  }
  for (const address of ADDRESSES) {
    const kept = address === m.pw && real.driver.state.has(address);
    // A create, replace or removal that failed may or may not have happened: what follows starts anew.
    const uncertain = !succeeded && (replaced.includes(address) || outcome.changes[address] === 'create' || outcome.changes[address] === 'delete');
    if (!kept || uncertain) delete m.applied[address];
    else if (succeeded) m.applied[address] = m.triggers;
  }
  if (succeeded) m.unsettled = false;
}

/** Runs one apply and checks every invariant after it. */
async function applyAndCheck(real: Real, m: Model, options: ApplyOptions = {}, movedAfterPlan?: 'a' | 'b') {
  // Without a refresh the plan starts from the state: a hand change it does not see stays until a later plan sees it.
  const seesHandChanges = options.refresh !== false;
  const before = { a: writesTo(real, 'a'), b: writesTo(real, 'b'), ip: ipWrites(real), description: descriptionOf(real), reboots: rebootsOf(real, m) };
  // A reboot is possible only where the user changed the triggers since the last attempt, or one is still to settle.
  const mayReboot = m.pw !== undefined && (m.lastAttempt !== m.triggers || m.unsettled);
  const firewalls = { a: { ...firewallOf(real, 'a') }, b: { ...firewallOf(real, 'b') } };
  const seenBefore = { a: m.seen.a.length, b: m.seen.b.length };
  // What the plan shows when it does not see the account: the stored values, which may already be the configured ones.
  const storedAsConfigured = (p: 'a' | 'b') => {
    const stored = real.driver.state.get(`fw_${p}`)?.value;
    const fw = m.fw[p];
    return stored !== undefined && fw !== undefined && stored.enabled === fw.enabled && sameSet(fw.rulesets, stored.applied_rulesets as number[]);
  };
  const unseen = { a: storedAsConfigured('a'), b: storedAsConfigured('b') };
  const outcome = await real.driver.apply(configs(m), options);
  judge(real, m, outcome, options.replace ?? []);
  expect([...overBudget(real.driver.requests), ...unseenWaits(real.driver.requests)]).toEqual([]);
  // A refusal of the whole run is said in full once per account and walk; the rest point at it.
  expect(outcome.errors.filter((e) => /^the token in \S+ was refused by /.test(e)).length).toBeLessThanOrEqual(4);
  for (const p of ['a', 'b'] as const) {
    // What a create takes over starts what its removal may put back.
    if (outcome.changes[`fw_${p}`] === 'create') m.seen[p] = [firewalls[p], ...m.seen[p].slice(seenBefore[p])];
    // The firewall just before this apply's writes: a change between its plan and its writes is the last one noted.
    const restored = followLife(m, p, outcome, m.seen[p].at(-1) ?? firewalls[p]);
    const now = firewallOf(real, p);
    // A removal in a life the user can follow puts back exactly what its first writes found.
    if (restored) expect({ account: p, ...now }).toEqual({ account: p, enabled: restored.enabled, rulesets: [...restored.rulesets].sort() });
    if (outcome.changes[`fw_${p}`] !== 'delete' || outcome.errors.length || outcome.crashed) continue;
    // Restored to values its own account had, or left as it was: never another account's.
    const seen = [...m.seen[p], firewalls[p]];
    expect([seen.some((v) => v.enabled === now.enabled), seen.some((v) => sameSet(v.rulesets, now.rulesets))]).toEqual([true, true]);
    m.seen[p] = [];
  }
  // No intended action sent twice: at most one reboot per change of the triggers the user applied,
  // counted per apply too, so an extra reboot cannot hide a lost one.
  expect(rebootsOf(real, m)).toBeLessThanOrEqual(m.allowed + m.allowance);
  expect(rebootsOf(real, m) - before.reboots).toBeLessThanOrEqual(mayReboot ? 1 : 0);
  // IP settings: written only when the run changed them; a retaining removal leaves the description.
  if (!outcome.changes.ip) expect(ipWrites(real)).toBe(before.ip);
  if (outcome.changes.ip === 'delete' && !outcome.errors.length && !outcome.crashed) expect(descriptionOf(real)).toBe(before.description);
  // Each server's firewall written only for a change of its resource, and at most twice a step (the
  // PUT, and once more for a member changed by hand meanwhile; a replacement is a removal and a create):
  // nothing written to an account the run did not change.
  for (const p of ['a', 'b'] as const) {
    const change = outcome.changes[`fw_${p}`];
    expect({ account: p, writes: writesTo(real, p) - before[p] }).toEqual({ account: p, writes: change ? expect.any(Number) : 0 });
    expect(writesTo(real, p) - before[p]).toBeLessThanOrEqual(change === 'replace' ? 4 : 2);
  }
  if (outcome.errors.length || outcome.crashed) return outcome;
  // No intended write lost: after a successful apply the accounts are what the configuration says.
  if (m.pw) expect(real.driver.state.get(m.pw)?.value).toMatchObject({ reboot_triggers: { v: m.triggers } });
  for (const p of ['a', 'b'] as const) {
    const fw = m.fw[p];
    // A firewall that moved after a plan that had nothing to change on it is not in that plan (its
    // apply writes nothing, even for an on_destroy edit): the next plan shows it.
    if (fw && !((p === movedAfterPlan || !seesHandChanges) && (!outcome.changes[`fw_${p}`] || unseen[p]))) expect(real[p].state.server(SERVER).firewall).toEqual({ enabled: fw.enabled, rulesets: [...fw.rulesets].sort() });
  }
  if (m.ip && (seesHandChanges || outcome.changes.ip)) expect(descriptionOf(real)).toBe(m.ip.description);
  expect(real.a.state.server(SERVER).server.power).toBe('running');
  return outcome;
}

type Command = fc.AsyncCommand<Model, Real>;

/**
 * One run block of a `terraform test`, with what may come before it: a change by hand, and an
 * edit of its configuration (of values the API holds, or of one only the provider keeps).
 */
interface RunBlock {
  readonly handChange: boolean;
  readonly edit: 'none' | 'values' | 'on_destroy';
  readonly command: 'apply' | 'plan-only' | 'apply -refresh=false';
}

const runBlockValue = fc.record<RunBlock>({
  handChange: fc.boolean(),
  edit: fc.constantFrom('none', 'values', 'on_destroy'),
  command: fc.constantFrom('apply', 'plan-only', 'apply -refresh=false'),
});
const describeBlock = (b: RunBlock) => [b.handChange && 'hand change', b.edit !== 'none' && `edit ${b.edit}`, b.command].filter(Boolean).join(' + ');

/** The next block's configuration: firewall a's rule sets and the description, or firewall a's on_destroy alone. */
function edit(m: Model, what: RunBlock['edit']): void {
  const fw = m.fw.a;
  if (what === 'values') {
    if (fw) m.fw.a = { ...fw, rulesets: sameSet(fw.rulesets, [1]) ? [1, 2] : [1] };
    if (m.ip) m.ip = { description: m.ip.description === 'web' ? 'db' : 'web' };
  }
  // What the provider alone keeps: its apply has nothing to write unless the firewall moved.
  if (what === 'on_destroy' && fw) m.fw.a = { ...fw, onDestroy: fw.onDestroy === 'restore' ? 'retain' : 'restore' };
}

async function runBlock(block: RunBlock, m: Model, r: Real): Promise<void> {
  if (block.handChange) {
    r.a.drift(SERVER, { firewall: { enabled: true, rulesets: [3] } });
    r.a.drift(DEDICATED, { ip: { address: ADDRESS, description: 'by hand' } });
    remember(m, r);
  }
  edit(m, block.edit);
  if (block.command === 'apply') return void (await applyAndCheck(r, m));
  if (block.command === 'apply -refresh=false') return void (await applyAndCheck(r, m, { refresh: false }));
  // A plan-only block writes nothing, anywhere.
  const writes = r.a.executed().length + r.b.executed().length;
  await r.driver.plan(configs(m));
  expect(r.a.executed().length + r.b.executed().length).toBe(writes);
}

/** What every request (or every write) gets once a refusal of the whole run begins. */
const REFUSALS: Record<string, { readonly effect: FaultEffect; readonly endpoints?: readonly string[] }> = {
  'the token refused': { effect: { type: 'error', status: 401, code: 'unauthorized' } },
  'the API stops answering': { effect: { type: 'error', status: 503, code: 'unavailable' } },
  // The API stores that answer for the write's key: the next apply's replay of it says nothing of whether the write ran.
  'the API answering 503 once each request took effect': { effect: { type: 'error', status: 503, code: 'unavailable', takesEffect: true } },
  'a scope revoked (every write refused)': { effect: { type: 'error', status: 403, code: 'insufficient_scope' }, endpoints: ['PUT *', 'POST *', 'PATCH *'] },
};

/** Notes each account's firewall as it is now. */
const remember = (m: Model, r: Real) => {
  for (const p of ['a', 'b'] as const) m.seen[p].push({ ...firewallOf(r, p) });
};

const cmd = (name: string, run: (m: Model, r: Real) => Promise<void> | void, check: (m: Model) => boolean = () => true): Command => ({
  check,
  run: async (m, r) => {
    remember(m, r);
    await run(m, r);
    remember(m, r);
  },
  toString: () => name,
});

const account = fc.constantFrom<'a' | 'b'>('a', 'b');
const firewallValue = fc.record({ enabled: fc.boolean(), rulesets: fc.subarray([1, 2, 3]), onDestroy: fc.constantFrom('retain', 'restore') });
const triggersValue = fc.constantFrom('1', '2', '3');
const other = (address: Address): Address => (address === 'pw' ? 'pw_b' : 'pw');
const inState = (m: Model, r: Real) => m.pw !== undefined && r.driver.state.has(m.pw);

/** The edits and faults of each family; applies are common to both. */
const FAMILIES = {
  firewalls: [
    fc.tuple(account, firewallValue).map(([p, v]) => cmd(`fw_${p} = ${JSON.stringify(v)}`, (m) => void (m.fw[p] = v))),
    firewallValue.map((v) => cmd(`fw_a = fw_b = ${JSON.stringify(v)} (two aliases, one configuration)`, (m) => void (m.fw = { a: v, b: v }))),
    account.map((p) => cmd(`remove fw_${p}`, (m) => void (m.fw[p] = undefined))),
    fc.tuple(account, firewallValue).map(([p, v]) => cmd(`drift fw_${p} by hand to ${JSON.stringify(v)}`, (_m, r) => r[p].drift(SERVER, { firewall: { enabled: v.enabled, rulesets: v.rulesets } }))),
    // Listed twice: replaces come in runs, as in a pipeline that replaces on every deploy.
    ...[1, 2].map(() => account.map((p) => cmd(`apply -replace=fw_${p}`, async (m, r) => void (await applyAndCheck(r, m, { replace: [`fw_${p}`] })), (m) => m.fw[p] !== undefined))),
    fc.tuple(account, firewallValue).map(([p, v]) => cmd(`plan -out, fw_${p} drifts to ${JSON.stringify(v)}, apply the saved plan later`, async (m, r) => {
      const moved = () => {
        r[p].drift(SERVER, { firewall: { enabled: v.enabled, rulesets: v.rulesets } });
        remember(m, r);
        r.clock.advance(3_600_000);
      };
      await applyAndCheck(r, m, { betweenPlanAndApply: moved }, p);
    })),
  ],
  ipSettings: [
    fc.constantFrom('web', 'db', 'cache').map((d) => cmd(`ip description = "${d}"`, (m) => void (m.ip = { description: d }))),
    fc.constant(cmd('remove ip', (m) => void (m.ip = undefined), (m) => m.ip !== undefined)),
    fc.constantFrom('by hand', 'mail').map((d) => cmd(`drift ip description to "${d}"`, (_m, r) => r.a.drift(DEDICATED, { ip: { address: ADDRESS, description: d } }))),
  ],
  power: [
    triggersValue.map((v) => cmd(`triggers v${v}`, (m) => void (m.triggers = v))),
    fc.constantFrom(2, 60).map((s) => cmd(`operation timeout ${s}s`, (m) => void (m.timeout = s))),
    fc.boolean().map((slow) => cmd(slow ? 'reboots take 6 s' : 'reboots are quick', (m, r) => {
      m.slow = slow;
      r.a.setOperationDelays({ runningMs: slow ? 6_000 : 0 });
    })),
    fc.constant(cmd('rotate account a\'s token', (m, r) => {
      // The API's memory of keys is per token (section 4 does not say): a rotated token is a new scope.
      if (m.unsettled) m.allowance += 1;
      r.accounts.a.token = r.accounts.a.token === r.a.tokens.full ? r.a.tokens.reseller : r.a.tokens.full;
    })),
    fc.constant(cmd('reset account a (a fresh account: no key, operation or log of the old one)', (m, r) => {
      m.rebootsBeforeReset += reboots(r.a);
      // A reboot still to settle may be sent again to the new account, which never had it.
      if (m.unsettled) m.allowance += 1;
      r.a.reset();
    })),
    fc.constant(cmd('remove the power state (destroy)', (m) => void (m.pw = undefined), (m) => m.pw !== undefined)),
    fc.constantFrom<Address>(...ADDRESSES).map((a) => cmd(`the power state at ${a} (create, or a count/for_each address change)`, (m) => void (m.pw = a))),
    fc.constant(cmd('moved { from = pw to = the other address }', (m, r) => {
      const from = m.pw!;
      r.driver.move(from, other(from));
      m.pw = other(from);
      if (m.applied[from] !== undefined) m.applied[m.pw] = m.applied[from];
      delete m.applied[from];
    }, (m) => inState(m, t) && !t.driver.state.has(other(m.pw!)))),
    fc.constant(cmd('terraform state rm, then import', async (m, r) => {
      r.driver.stateRm(m.pw!);
      delete m.applied[m.pw!];
      expect(await r.driver.import(m.pw!, power(), SERVER)).toEqual([]);
    }, (m) => inState(m, t))),
    fc.constant(cmd('apply -replace=<the power state>', async (m, r) => void (await applyAndCheck(r, m, { replace: [m.pw!] })), (m) => inState(m, t))),
    fc.tuple(triggersValue, triggersValue).map(([x, y]) => cmd(`terraform test: apply, triggers v${x}, apply, triggers v${y}, apply (one terraform process)`, async (m, r) => {
      await r.driver.terraformTest(async () => {
        for (const v of [undefined, x, y]) {
          if (v) m.triggers = v;
          await applyAndCheck(r, m);
        }
      });
    })),
  ],
  common: [
    // Issue 59 §3: run blocks of every kind in one terraform process, with hand changes between them.
    fc.array(runBlockValue, { minLength: 2, maxLength: 4 }).map((blocks) =>
      cmd(`terraform test: ${blocks.map(describeBlock).join(', ')} (one terraform process)`, (m, r) => r.driver.terraformTest(async () => {
        for (const block of blocks) await runBlock(block, m, r);
      }))),
    fc.constant(cmd('time passes (60 s)', (_m, r) => r.clock.advance(60_000))),
    fc.constant(cmd('apply', async (m, r) => void (await applyAndCheck(r, m)))),
    fc.constantFrom('pw', 'pw_b', 'fw_a', 'fw_b').map((address) => cmd(`apply, the provider killed after ${address}'s first accepted write`, async (m, r) => void (await applyAndCheck(r, m, { crashOn: address })))),
    fc.integer({ min: 1, max: 8 }).map((n) => cmd(`apply, the provider killed while it answers the run's RPC #${n}`, async (m, r) => void (await applyAndCheck(r, m, { crashAtRpc: n })))),
    // Issue 59 §3: refusals as faults, at any RPC of either walk; the driver checks Terraform's rules on every answer.
    // Counted from the run's start, or from the apply walk's (a token revoked at the approval prompt of a plain apply).
    fc.tuple(fc.integer({ min: 1, max: 8 }), fc.constantFrom(undefined, 'apply' as const), fc.constantFrom(...Object.keys(REFUSALS))).map(([n, walk, refusal]) =>
      cmd(`apply, ${refusal} from the ${walk ? 'apply walk\'s' : 'run\'s'} RPC #${n}`, async (m, r) => void (await applyAndCheck(r, m, { refuseFromRpc: { rpc: n, walk, ...REFUSALS[refusal] } })))),
    fc.constant(cmd('plan -out, account a\'s token swapped for a read-only one (a scope revoked), apply the saved plan', async (m, r) => {
      const token = r.accounts.a.token;
      await applyAndCheck(r, m, { betweenPlanAndApply: () => void (r.accounts.a.token = r.a.tokens[SEED_TOKEN_NAMES.readOnly]) });
      r.accounts.a.token = token;
    })),
    fc.constant(cmd('plan -out, account a\'s token rotated away, apply the saved plan with the old one', async (m, r) => {
      const token = r.accounts.a.token;
      await applyAndCheck(r, m, { betweenPlanAndApply: () => void (r.accounts.a.token = 'hsim_rotated_away') });
      r.accounts.a.token = token;
    })),
  ],
};

/** `INTENT_MODEL_ONLY=firewalls` (or `ipSettings`, `power`) draws the edits of one family alone, to look for one kind of fault. */
const KINDS = ['firewalls', 'ipSettings', 'power'] as const;
const ONLY = process.env.INTENT_MODEL_ONLY as (typeof KINDS)[number] | undefined;
const commands = [...KINDS.filter((kind) => ONLY === undefined || kind === ONLY).flatMap((kind) => FAMILIES[kind]), ...FAMILIES.common];

/**
 * After the sequence: with quick reboots and no fault, one more apply converges (no permanent
 * failure), a second one changes nothing, and the account got every reboot the user's successful
 * applies owed it.
 */
async function converges(m: Model, r: Real) {
  m.slow = false;
  r.a.setOperationDelays({ runningMs: 0 });
  r.clock.advance(60_000);
  const last = await applyAndCheck(r, m);
  expect(last.errors).toEqual([]);
  const again = await r.driver.apply(configs(m));
  expect(again.changes).toEqual({});
  r.clock.advance(60_000);
  // No intended reboot lost: each change of the triggers a successful apply made was carried out.
  expect(rebootsOf(r, m)).toBeGreaterThanOrEqual(m.owed);
}

// A share in `npm test` (300 sequences, about 45 s on two cores); `npm run test:model` runs 4,000.
const RUNS = Number(process.env.INTENT_MODEL_RUNS ?? 300);
/**
 * One sequence in ten reaches each provider process through its gRPC service, as Terraform does
 * (the wire encoding, ConfigureProvider, the service's error wrapping and reader-language pass);
 * `INTENT_MODEL_TRANSPORT=grpc` sends them all that way.
 */
const TRANSPORT = process.env.INTENT_MODEL_TRANSPORT === 'grpc'
  ? fc.constant('grpc' as const)
  : fc.oneof({ arbitrary: fc.constant('in-process' as const), weight: 9 }, { arbitrary: fc.constant('grpc' as const), weight: 1 });
const SEED = process.env.INTENT_MODEL_SEED === undefined ? undefined : Number(process.env.INTENT_MODEL_SEED);

test(`no sequence of applies, crashes, lives, processes, edits or accounts sends an intent twice, loses one, fails for good or writes elsewhere (${RUNS} sequences)`, async () => {
  const initial = async (): Promise<{ model: Model; real: Real }> => {
    await t.driver.apply({});
    // The two accounts' firewalls differ from the start, so one's values can never pass for the other's.
    t.b.drift(SERVER, { firewall: { enabled: true, rulesets: [2, 3] } });
    const user = { fw: { a: undefined, b: undefined }, pw: 'pw' as const, triggers: '1', timeout: 60, slow: false };
    const oracle = { owed: 0, allowed: 0, allowance: 0, applied: {}, unsettled: false, rebootsBeforeReset: 0 };
    const model: Model = { ...user, ...oracle, seen: { a: [], b: [] }, life: { a: undefined, b: undefined }, ip: undefined };
    return { model, real: t };
  };
  await fc.assert(
    // Last, the order Terraform's walks take the resources in: the settings first and the power states last, or as configured;
    // or, in process, all at once with their API requests interleaved as drawn.
    fc.asyncProperty(fc.commands(commands, { maxCommands: Number(process.env.INTENT_MODEL_COMMANDS ?? 16), size: 'max' }), TRANSPORT, fc.boolean(), INTERLEAVINGS, async (sequence, transport, settingsFirst, interleaving) => {
      // A fresh pair of accounts per sequence: the hooks of useTwoAccounts run once per test, so reset by hand.
      await t.reset();
      t.driver.transport = transport;
      t.driver.order = settingsFirst ? ['ip', 'fw_b', 'fw_a'] : [];
      t.driver.interleaving = transport === 'in-process' ? interleaving : undefined;
      const setup = await initial();
      await applyAndCheck(setup.real, setup.model);
      await fc.asyncModelRun(() => setup, sequence);
      await converges(setup.model, setup.real);
    }),
    { numRuns: RUNS, seed: SEED, verbose: 1 },
  );
}, 540_000);
