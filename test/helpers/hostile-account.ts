import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulatorWithSentinel } from './simulator';
import { defaultSeed, SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, type RunningSimulator, type SeedServer, type SimulatorSeed } from '../../src/simulator';

/**
 * An account whose text fields other people wrote: names with code lines for each language that
 * `adopt` writes, names that collide once made identifiers, descriptions with template sequences,
 * quotes, backslashes and newlines, values the API accepts that DNS host names would not, and one
 * server whose read fails. A program that runs any of it creates `ranFile`; one that evaluates a
 * template reads `secretFile` into a value.
 */
/** Text other people wrote, as the API may hold it: template sequences, quotes, a backslash, a comment end, newlines. */
export const HOSTILE_TEXT = '${file("/etc/hostname")} costs %{month} "q" \\ `tick` */ $${z}\n\tline 2';

export interface HostileAccount {
  readonly sim: RunningSimulator;
  /** Must not exist after any generated program ran. */
  readonly ranFile: string;
  /** Its content must reach no request. */
  readonly secretText: string;
  /** The description of the dedicated server's primary address, exactly. */
  readonly description: string;
  readonly longDescription: string;
  readonly close: () => Promise<void>;
}

export async function startHostileAccount(): Promise<HostileAccount> {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
  const ranFile = join(dir, 'ran');
  const secretFile = join(dir, 'secret');
  const secretText = 'SECRET-FILE-CONTENT';
  writeFileSync(secretFile, secretText);
  const description = `\${file(${JSON.stringify(secretFile)})} costs %{month} "q" \\ \`tick\` */ $\${z}\n\tline 2`;
  const longDescription = 'x'.repeat(300);
  const names: Record<string, string> = {
    [IDS.vpsStopped]: 'WEB_1 */ "`\\', // slugs to web-1, as does web-1's
    [IDS.vdsRunning]: `db-1\nrequire("fs").writeFileSync(${JSON.stringify(ranFile)}, "ts") //`,
    [IDS.vpsSuspended]: `unpaid-6\nopen(${JSON.stringify(ranFile)}, "w").write("py")  #`,
    [IDS.dedicatedStopped]: 'metal-2\nresource "terraform_data" "ran" {}\n#',
    [IDS.vpsShared]: `partner-5\u2028require("fs").writeFileSync(${JSON.stringify(ranFile)}, "ls")\r\nimport os`,
  };
  const seed = defaultSeed();
  const servers = seed.servers.map((s): SeedServer => {
    const renamed = { ...s, server: { ...s.server, name: names[s.server.id] ?? s.server.name } };
    if (s.server.id !== IDS.dedicated) return renamed;
    return {
      ...renamed,
      ipSettings: renamed.ipSettings!.map((ip) => {
        if (ip.address === IPS.primary) return { ...ip, description };
        if (ip.address === IPS.secondary) return { ...ip, rdns: 'mail_relay.example.com', description: longDescription };
        return ip;
      }),
    };
  });
  const hostileSeed: SimulatorSeed = { ...seed, servers };
  const sim = await simulatorWithSentinel({ seed: hostileSeed });
  sim.addFault({ endpoint: 'GET /servers/{serverId}/firewall', serverId: IDS.vpsFailed, effect: { type: 'error', status: 404, code: 'not_found' } });
  return {
    sim,
    ranFile,
    secretText,
    description,
    longDescription,
    close: async () => {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether any generated program ran text it was handed, or a template read the secret into a request. */
export function hostileTextEscaped(account: HostileAccount): { ran: boolean; secretSent: boolean } {
  return {
    ran: existsSync(account.ranFile),
    secretSent: JSON.stringify(account.sim.executed()).includes(account.secretText),
  };
}
