import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SENTINEL_TOKEN } from './mock-api';
import { useSimulator } from './simulator';
import type { DocumentOf, FirewallSpec, IpSettingsSpec, PowerStateSpec, RebootSpec, ResourceDocument } from '../../src/contract/resource-document';
import { runHandler } from '../../src/handler/run-handler';
import { defaultSeed, type RequestLogEntry, type SimulatorOptions } from '../../src/simulator';

export const TOKEN_ENV = 'HOSTING_TEST_TOKEN';
const api = { tokenEnvVar: TOKEN_ENV };
const timeouts = { readySeconds: 60, operationSeconds: 60 };

export const firewallDoc = (serverId: string, desired: FirewallSpec['desired']): DocumentOf<FirewallSpec> => ({ version: 1, kind: 'firewall', serverId, api, desired });
export const ipDoc = (serverId: string, ip: string, desired: IpSettingsSpec['desired']): DocumentOf<IpSettingsSpec> => ({ version: 1, kind: 'ip_settings', serverId, ip, api, desired });
export const powerDoc = (serverId: string, state: 'running' | 'stopped', options: Partial<DocumentOf<PowerStateSpec>> = {}): DocumentOf<PowerStateSpec> => ({
  version: 1, kind: 'power_state', serverId, api, desired: { state }, stopMethod: 'shutdown', forceStopFallback: false, timeouts, ...options,
});
export const rebootDoc = (serverId: string, hard = false): DocumentOf<RebootSpec> => ({ version: 1, kind: 'reboot', serverId, api, hard, timeouts });

export interface HandlerRun {
  readonly code: number;
  readonly stdout: string[];
  readonly stderr: string[];
  /** What reached the simulator during this run. */
  readonly requests: RequestLogEntry[];
  readonly writes: RequestLogEntry[];
}

/**
 * Runs the handler in-process against a simulator, as Terraform would run it per resource, with
 * the token in the environment. A sentinel token with every scope is seeded and used by default,
 * so every test also checks that the token never reaches the output.
 */
export function useHandler(options: Omit<SimulatorOptions, 'now' | 'seed'> = {}) {
  const seed = defaultSeed();
  const sentinel = { ...seed.tokens[0], name: 'sentinel', secret: SENTINEL_TOKEN };
  const s = useSimulator({ ...options, seed: { ...seed, tokens: [...seed.tokens, sentinel] } });
  // Shared rate-limit budgets live per test: budgets of an earlier test must not pace this one.
  let pacingDir = '';
  beforeEach(() => {
    pacingDir = mkdtempSync(join(tmpdir(), 'handler-pacing-'));
  });
  afterEach(() => rmSync(pacingDir, { recursive: true, force: true }));

  interface RunOptions {
    readonly tokenName?: string;
    readonly instanceId?: string;
    readonly env?: Record<string, string>;
  }

  async function run(command: string, doc: ResourceDocument | string, opts: RunOptions = {}): Promise<HandlerRun> {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const before = s.sim.requests.length;
    const code = await runHandler([command], {
      HOSTING_RESOURCE: typeof doc === 'string' ? doc : JSON.stringify(doc),
      HOSTING_API_URL: s.sim.baseUrl,
      [TOKEN_ENV]: opts.tokenName ? s.sim.tokens[opts.tokenName] : SENTINEL_TOKEN,
      HOSTING_INSTANCE_ID: opts.instanceId ?? 'instance-1',
      ...opts.env,
    }, {
      stdout: (line) => stdout.push(line),
      stderr: (line) => stderr.push(line),
      sleep: async (ms) => s.clock.advance(ms),
      now: s.clock.now,
      pacingDir,
    });
    const output = [...stdout, ...stderr].join('\n');
    if (output.includes(SENTINEL_TOKEN)) throw new Error(`the token leaked into the handler output:\n${output}`);
    const requests = s.sim.requests.slice(before);
    return { code, stdout, stderr, requests, writes: requests.filter((r) => r.method !== 'GET') };
  }
  return Object.assign(s, { run });
}
