import { readFileSync } from 'node:fs';
import { THIS_PACKAGE } from './this-package';
import { seedFromAccountFile, startSimulator, type SimulatorSeed } from '../simulator';
import { LISTENING_LINE } from '../simulator/listening-line';

export const SIMULATOR_USAGE = `${THIS_PACKAGE.command} simulator [--port N] [--host ADDRESS] [--account FILE]`;

/** The first line the simulator prints, which `testing.SimulatedAccount` waits for: the URL follows it. */

export interface SimulatorCommandOptions {
  readonly port: number;
  readonly host: string;
  readonly accountFile?: string;
}

export function parseSimulatorArgs(args: readonly string[]): SimulatorCommandOptions {
  const options: { port: number; host: string; accountFile?: string } = { port: 8787, host: '127.0.0.1' };
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split('=', 2);
    const value = inline ?? args[++i];
    if (flag === '--port' && /^\d+$/.test(value ?? '') && Number(value) < 65536) options.port = Number(value);
    else if (flag === '--host' && value) options.host = value;
    else if (flag === '--account' && value) options.accountFile = value;
    else throw new Error(`unknown or invalid option "${args[i - (inline === undefined ? 1 : 0)]}"; usage: ${SIMULATOR_USAGE}`);
  }
  return options;
}

/** The account an account file describes (docs/testing/account-file.md), naming the file in every error. */
export function readAccountFile(file: string): SimulatorSeed {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the account file ${file}: ${(err as Error).message}`);
  }
  try {
    return seedFromAccountFile(json);
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
}

/** Runs the simulator in the foreground until SIGINT or SIGTERM. */
export async function runSimulatorCommand(args: readonly string[], print: (line: string) => void): Promise<void> {
  const options = parseSimulatorArgs(args);
  const seed = options.accountFile === undefined ? undefined : readAccountFile(options.accountFile);
  const sim = await startSimulator({ port: options.port, host: options.host, seed });
  print(`${LISTENING_LINE}${sim.baseUrl}`);
  print(`Live page, to watch in a browser: ${sim.dashboardUrl}`);
  print('Control surface (docs/guides/simulator.md, "The simulator by hand"):');
  print(`  GET    ${sim.controlUrl}/state            every server, firewall and address`);
  print(`  GET    ${sim.controlUrl}/requests         every request received`);
  print(`  GET    ${sim.controlUrl}/executed         every write and action carried out`);
  print(`  POST   ${sim.controlUrl}/faults           add a fault rule; DELETE clears them`);
  print(`  PATCH  ${sim.controlUrl}/servers/{id}     change a server out of band, e.g. {"power":"stopped"}`);
  print(`  POST   ${sim.controlUrl}/tokens           a new token, e.g. {"scopes":["servers:read"]}`);
  print(`${seed ? 'Tokens' : 'Demo tokens'} (valid only for this simulator):`);
  for (const [name, secret] of Object.entries(sim.tokens)) print(`  ${name.padEnd(22)} ${secret}`);
  print(`Try: HOSTING_API_URL=${sim.baseUrl} HOSTING_API_TOKEN=${sim.tokens.full} ...`);
  print('Press Ctrl-C to stop.');
  await untilStopped();
  await sim.close();
}

/**
 * Resolves on SIGINT or SIGTERM, or when the process that started this one ends: a wrapper such as
 * the Python wheel's console script runs this as its child, and `kill` of the wrapper must not leave
 * a simulator listening behind it.
 */
function untilStopped(): Promise<void> {
  const parent = process.ppid;
  return new Promise<void>((resolve) => {
    const stop = () => {
      clearInterval(watch);
      resolve();
    };
    const watch = setInterval(() => process.ppid !== parent && stop(), 250);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
