import { ProtocolDriver, type ResourceConfig } from './protocol-driver';
import { ManualClock } from './simulator';
import type { ObjectValue } from '../../src/provider/resources/resource';
import { SEED_DEDICATED_IPS, SEED_SERVER_IDS as IDS, startSimulator, type RunningSimulator } from '../../src/simulator';

/**
 * Two accounts with the same server ids (a staging and a production, say), each its own simulator,
 * on one manual clock, and a protocol driver whose provider `a` and `b` write to them.
 */
export function useTwoAccounts() {
  const ctx = {} as {
    a: RunningSimulator;
    b: RunningSimulator;
    clock: ManualClock;
    driver: ProtocolDriver;
    accounts: { a: { sim: RunningSimulator; token: string }; b: { sim: RunningSimulator; token: string } };
    /** Fresh accounts and a fresh driver (a model-based test's next sequence). */
    reset: () => Promise<void>;
  };
  const close = async () => {
    await ctx.driver.close();
    await Promise.all([ctx.a.close(), ctx.b.close()]);
  };
  const start = async () => {
    const delays = { queuedMs: 0, runningMs: 0 };
    const account = () => startSimulator({ now: ctx.clock.now, operationDelays: delays });
    [ctx.a, ctx.b] = await Promise.all([account(), account()]);
    ctx.accounts = { a: { sim: ctx.a, token: ctx.a.tokens.full }, b: { sim: ctx.b, token: ctx.b.tokens.full } };
    ctx.driver = new ProtocolDriver(ctx.accounts, ctx.clock);
  };
  ctx.reset = async () => {
    await close();
    await start();
  };
  beforeEach(async () => {
    ctx.clock = new ManualClock();
    await start();
  });
  afterEach(close);
  return ctx;
}

export const SERVER = IDS.vpsRunning;
/** The dedicated server and the address whose settings the model's hosting_ip_settings manages. */
export const DEDICATED = IDS.dedicated;
export const ADDRESS = SEED_DEDICATED_IPS.primary;

const FIREWALL_UNSET: ObjectValue = Object.fromEntries(
  ['id', 'server_id', 'enabled', 'rulesets', 'ruleset_names', 'applied_rulesets', 'on_destroy', 'expect_takeover'].map((name) => [name, null]),
);

export const firewall = (provider: string, over: ObjectValue = {}): ResourceConfig => ({
  type: 'hosting_server_firewall',
  provider,
  config: { ...FIREWALL_UNSET, server_id: SERVER, ...over },
});

const IP_SETTINGS_UNSET: ObjectValue = Object.fromEntries(
  ['id', 'server_id', 'ip', 'rdns', 'description', 'protection', 'on_destroy', 'expect_takeover', 'changed_since_plan'].map((name) => [name, null]),
);

export const ipSettings = (over: ObjectValue = {}): ResourceConfig => ({
  type: 'hosting_ip_settings',
  provider: 'a',
  config: { ...IP_SETTINGS_UNSET, server_id: DEDICATED, ip: ADDRESS, expect_takeover: true, ...over },
});

export const power = (over: ObjectValue = {}): ResourceConfig => ({
  type: 'hosting_power_state',
  provider: 'a',
  config: {
    id: null,
    server_id: SERVER,
    state: 'running',
    stop_method: null,
    force_stop_fallback: null,
    reboot_triggers: null,
    hard_reboot: null,
    ready_timeout_seconds: null,
    operation_timeout_seconds: null,
    expect_takeover: null,
    reboot_generation: null,
    ...over,
  },
});

/** The reboots and resets an account's server really carried out. */
export const reboots = (sim: RunningSimulator): number =>
  sim.executed({ serverId: SERVER, kind: 'action' }).filter((w) => w.detail === 'reboot' || w.detail === 'reset').length;
