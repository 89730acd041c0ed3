import * as fc from 'fast-check';
import type { ResourceConfig, RunOutcome } from '../helpers/protocol-driver';
import { firewall, power, reboots, SERVER, useTwoAccounts } from '../helpers/two-accounts';

/*
 * A model-based test of the keys and run notes (issue 46 §3): fast-check writes sequences of edits,
 * rollbacks, replaces, saved plans applied after the account moved, provider crashes after the API
 * accepted a write, reboots that outlive their timeout, drift by hand, two accounts with the same
 * server ids and a rotated token, and shrinks a failing one to its shortest form. After every apply
 * the invariants below are checked. `INTENT_MODEL_RUNS` sets the number of sequences (default 1000),
 * `INTENT_MODEL_SEED` replays one, `INTENT_MODEL_ONLY` draws one family of edits, `INTENT_MODEL_COMMANDS` the
 * longest sequence (default 16).
 */
const t = useTwoAccounts();

interface Model {
  /** What the user's configuration holds. */
  fw: Record<'a' | 'b', { enabled: boolean; rulesets: number[]; onDestroy: string } | undefined>;
  triggers: string;
  timeout: number;
  slow: boolean;
  /** Reboot intents planned so far (generation and triggers), and reboots the API may repeat after a token rotation. */
  intents: Set<string>;
  pendingIntents: Set<string>;
  allowance: number;
  /** Each account's firewall values seen while its resource exists: what a restoring removal may put back. */
  seen: Record<'a' | 'b', Array<{ enabled: boolean; rulesets: number[] }>>;
}

const configs = (m: Model): Record<string, ResourceConfig> => {
  const out: Record<string, ResourceConfig> = { pw: power({ reboot_triggers: { v: m.triggers }, operation_timeout_seconds: m.timeout }) };
  for (const p of ['a', 'b'] as const) {
    const fw = m.fw[p];
    if (fw) out[`fw_${p}`] = firewall(p, { enabled: fw.enabled, rulesets: fw.rulesets, on_destroy: fw.onDestroy, expect_takeover: true });
  }
  return out;
};

type Real = Omit<typeof t, 'reset'>;

/** The reboot intent the next apply plans for `pw`, if its triggers change. */
function plannedIntent(real: Real, m: Model): string | undefined {
  const stored = real.driver.state.get('pw')?.value;
  if (!stored || stored.reboot_triggers === null || JSON.stringify(stored.reboot_triggers) === JSON.stringify({ v: m.triggers })) return undefined;
  return `${Number(stored.reboot_generation ?? 0) + 1}:${m.triggers}`;
}

const sameSet = (a: readonly number[], b: readonly number[] | undefined) =>
  b !== undefined && JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

const writesTo = (real: Real, p: 'a' | 'b') => real[p].executed({ serverId: SERVER, kind: 'firewall' }).length;

/** Runs one apply and checks every invariant after it. */
async function applyAndCheck(real: Real, m: Model, run: (cfg: Record<string, ResourceConfig>) => Promise<RunOutcome>, movedAfterPlan?: 'a' | 'b') {
  const intent = plannedIntent(real, m);
  if (intent) m.intents.add(intent);
  const before = { reboots: reboots(real.a), b: writesTo(real, 'b') };
  const firewalls = { a: { ...real.a.state.server(SERVER).firewall }, b: { ...real.b.state.server(SERVER).firewall } };
  const seenBefore = { a: m.seen.a.length, b: m.seen.b.length };
  const outcome = await run(configs(m));
  for (const p of ['a', 'b'] as const) {
    // What a create takes over starts what its removal may put back.
    if (outcome.changes[`fw_${p}`] === 'create') m.seen[p] = [firewalls[p], ...m.seen[p].slice(seenBefore[p])];
    if (outcome.changes[`fw_${p}`] !== 'delete' || outcome.errors.length || outcome.crashed) continue;
    // Restored to values its own account had, or left as it was: never another account's.
    const now = real[p].state.server(SERVER).firewall;
    const seen = [...m.seen[p], firewalls[p]];
    expect([seen.some((v) => v.enabled === now.enabled), seen.some((v) => sameSet(v.rulesets, now.rulesets))]).toEqual([true, true]);
    m.seen[p] = [];
  }
  const rebooted = reboots(real.a) > before.reboots;
  if (intent && (rebooted || outcome.crashed)) m.pendingIntents.add(intent);
  // No intended action sent twice: one reboot per intent (the API forgets keys of a rotated token; see the README).
  expect(reboots(real.a)).toBeLessThanOrEqual(m.intents.size + m.allowance);
  // Nothing written to an account the run did not change.
  if (!outcome.changes.fw_b) expect(writesTo(real, 'b')).toBe(before.b);
  const pw = real.driver.state.get('pw')?.value;
  // The state says what the account got: a reboot sent in this apply is in the state, even when the apply failed after it.
  if (rebooted && !outcome.crashed) expect(pw?.reboot_triggers).toEqual({ v: m.triggers });
  if (outcome.errors.length || outcome.crashed) return outcome;
  m.pendingIntents.clear();
  // No intended write lost: after a successful apply the accounts are what the configuration says.
  expect(pw).toMatchObject({ reboot_triggers: { v: m.triggers } });
  for (const p of ['a', 'b'] as const) {
    const fw = m.fw[p];
    // A firewall that moved after a plan that had nothing to change for it is not in that plan: the next plan shows it.
    if (fw && !(p === movedAfterPlan && !outcome.changes[`fw_${p}`])) expect(real[p].state.server(SERVER).firewall).toEqual({ enabled: fw.enabled, rulesets: [...fw.rulesets].sort() });
  }
  expect(real.a.state.server(SERVER).server.power).toBe('running');
  return outcome;
}

type Command = fc.AsyncCommand<Model, Real>;

/** Notes each account's firewall as it is now. */
const remember = (m: Model, r: Real) => {
  for (const p of ['a', 'b'] as const) m.seen[p].push({ ...r[p].state.server(SERVER).firewall });
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

/** The edits and faults of each family; applies are common to both. */
const FAMILIES = {
  firewalls: [
    fc.tuple(account, firewallValue).map(([p, v]) => cmd(`fw_${p} = ${JSON.stringify(v)}`, (m) => void (m.fw[p] = v))),
    firewallValue.map((v) => cmd(`fw_a = fw_b = ${JSON.stringify(v)} (two aliases, one configuration)`, (m) => void (m.fw = { a: v, b: v }))),
    account.map((p) => cmd(`remove fw_${p}`, (m) => void (m.fw[p] = undefined))),
    fc.tuple(account, firewallValue).map(([p, v]) => cmd(`drift fw_${p} by hand to ${JSON.stringify(v)}`, (_m, r) => r[p].drift(SERVER, { firewall: { enabled: v.enabled, rulesets: v.rulesets } }))),
    // Listed twice: replaces come in runs, as in a pipeline that replaces on every deploy.
    ...[1, 2].map(() => account.map((p) => cmd(`apply -replace=fw_${p}`, async (m, r) => void (await applyAndCheck(r, m, (cfg) => r.driver.apply(cfg, { replace: [`fw_${p}`] }))), (m) => m.fw[p] !== undefined))),
    fc.tuple(account, firewallValue).map(([p, v]) => cmd(`plan -out, fw_${p} drifts to ${JSON.stringify(v)}, apply the saved plan later`, async (m, r) => {
      const moved = () => {
        r[p].drift(SERVER, { firewall: { enabled: v.enabled, rulesets: v.rulesets } });
        remember(m, r);
        r.clock.advance(3_600_000);
      };
      await applyAndCheck(r, m, (cfg) => r.driver.apply(cfg, { betweenPlanAndApply: moved }), p);
    })),
  ],
  power: [
    fc.constantFrom('1', '2', '3').map((v) => cmd(`triggers v${v}`, (m) => void (m.triggers = v))),
    fc.constantFrom(2, 60).map((s) => cmd(`operation timeout ${s}s`, (m) => void (m.timeout = s))),
    fc.boolean().map((slow) => cmd(slow ? 'reboots take 6 s' : 'reboots are quick', (m, r) => {
      m.slow = slow;
      r.a.setOperationDelays({ runningMs: slow ? 6_000 : 0 });
    })),
    fc.constant(cmd('rotate account a\'s token', (m, r) => {
      // The API's memory of keys is per token (section 4 does not say): a rotated token is a new scope.
      if (m.pendingIntents.size) m.allowance += 1;
      r.accounts.a.token = r.accounts.a.token === r.a.tokens.full ? r.a.tokens.reseller : r.a.tokens.full;
    })),
  ],
  common: [
    fc.constant(cmd('time passes (60 s)', (_m, r) => r.clock.advance(60_000))),
    fc.constant(cmd('apply', async (m, r) => void (await applyAndCheck(r, m, (cfg) => r.driver.apply(cfg))))),
    fc.constantFrom('pw', 'fw_a', 'fw_b').map((address) => cmd(`apply, the provider killed after ${address}'s first accepted write`, async (m, r) => void (await applyAndCheck(r, m, (cfg) => r.driver.apply(cfg, { crashOn: address }))))),
  ],
};

/** `INTENT_MODEL_ONLY=firewalls` (or `power`) draws the edits of one family alone, to look for one kind of fault. */
const ONLY = process.env.INTENT_MODEL_ONLY as 'firewalls' | 'power' | undefined;
const commands = [...(ONLY === 'power' ? [] : FAMILIES.firewalls), ...(ONLY === 'firewalls' ? [] : FAMILIES.power), ...FAMILIES.common];

/** After the sequence: with quick reboots and no fault, one more apply converges (no permanent failure), and a second one changes nothing. */
async function converges(m: Model, r: Real) {
  m.slow = false;
  r.a.setOperationDelays({ runningMs: 0 });
  r.clock.advance(60_000);
  const last = await applyAndCheck(r, m, (cfg) => r.driver.apply(cfg));
  expect(last.errors).toEqual([]);
  const again = await r.driver.apply(configs(m));
  expect(again.changes).toEqual({});
}

const RUNS = Number(process.env.INTENT_MODEL_RUNS ?? 1000);
const SEED = process.env.INTENT_MODEL_SEED === undefined ? undefined : Number(process.env.INTENT_MODEL_SEED);

test(`no sequence of applies, crashes, edits or accounts sends an intent twice, loses one, fails for good or writes elsewhere (${RUNS} sequences)`, async () => {
  const initial = async (): Promise<{ model: Model; real: Real }> => {
    await t.driver.apply({});
    // The two accounts' firewalls differ from the start, so one's values can never pass for the other's.
    t.b.drift(SERVER, { firewall: { enabled: true, rulesets: [2, 3] } });
    return { model: { fw: { a: undefined, b: undefined }, triggers: '1', timeout: 60, slow: false, intents: new Set(), pendingIntents: new Set(), allowance: 0, seen: { a: [], b: [] } }, real: t };
  };
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { maxCommands: Number(process.env.INTENT_MODEL_COMMANDS ?? 16), size: 'max' }), async (sequence) => {
      // A fresh pair of accounts per sequence: the hooks of useTwoAccounts run once per test, so reset by hand.
      await t.reset();
      const setup = await initial();
      await t.driver.apply(configs(setup.model));
      await fc.asyncModelRun(() => setup, sequence);
      await converges(setup.model, setup.real);
    }),
    { numRuns: RUNS, seed: SEED, verbose: 1 },
  );
}, 540_000);

