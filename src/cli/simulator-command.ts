import { readFileSync } from 'node:fs';
import { commandToRun, type CommandHelp } from './command-help';
import { parseCommandLine, UsageError } from './command-line';
import { alive, watchParent, watchProcess } from './parent-watch';
import { DEFAULT_RATE_LIMITS, DEFAULT_REQUEST_LOG_SIZE, seedFromAccountFile, startSimulator, type RateLimits, type SimulatorSeed } from '../simulator';
import { LISTENING_LINE } from '../simulator/listening-line';

/** The flags the simulator takes, in the foreground and with `start`. */
export const SIMULATOR_FLAG_FORM = '[--port N] [--host ADDRESS] [--allow-host NAME]... [--account FILE] [--request-log N] [--still] [--owner PID] '
  + '[--requests-per-minute N] [--actions-per-minute N] [--account-requests-per-minute N]';

/** The rate limits of section 8 the command line sets, each a count per minute, as the spec states them. */
const RATE_FLAGS = {
  'requests-per-minute': ['requestsPerToken', 'requests per minute each token may send'],
  'actions-per-minute': ['actionsPerToken', 'power actions per minute each token may run'],
  'account-requests-per-minute': ['requestsPerAccount', 'requests per minute the account takes across its tokens'],
} as const;
const MAX_PER_MINUTE = 100_000;

export const SIMULATOR_OPTIONS: readonly (readonly [string, string])[] = [
  ['--port N', 'the port to listen on (default 8787); 0 picks a free one, named in the first line printed'],
  ['--host ADDRESS', 'the address to listen on (default 127.0.0.1). An address other machines reach makes the control surface and live page ask for the access key printed at start, and gives the demo tokens random secrets'],
  ['--allow-host NAME', 'a host name requests may use besides the loopback names and --host (repeatable)'],
  ['--account FILE', 'the account to simulate (docs/testing/account-file.md; default: the demo account)'],
  ['--request-log N', `how many requests the log keeps, the newest (default ${DEFAULT_REQUEST_LOG_SIZE}; at most 4 MB of them)`],
  ['--still', 'no server changes by itself (the demo\'s vps_new_4 stays provisioning): what tests want'],
  ['--owner PID', 'stop when process PID ends: $$ in a CI script, so a job killed with SIGKILL leaves no simulator behind'],
  ...Object.entries(RATE_FLAGS).map(([flag, [key, what]]): [string, string] => [`--${flag} N`, `the ${what} (default ${DEFAULT_RATE_LIMITS[key]}, the spec's)`]),
];

export const SIMULATOR_HELP: CommandHelp = {
  words: 'simulator',
  summary: 'Run the API simulator in the foreground',
  forms: [`${SIMULATOR_FLAG_FORM} [--exit-with-parent]`],
  about: 'Serves the whole Server Hosting Management API on this machine, with a demo account or yours, and prints its address, '
    + 'its tokens and its control surface. It runs until Ctrl-C or SIGTERM. "simulator start" runs it in the background.',
  options: [
    ...SIMULATOR_OPTIONS,
    ['--exit-with-parent', 'stop when the process that started this one ends (what the testing kit asks for); '
      + 'without it the simulator runs until it is interrupted (under npx, or the Python command, it also ends with them)'],
  ],
  examples: [['simulator', '--port', '8787'], ['simulator', '--port', '0', '--account', 'account.json', '--still']],
};

export interface SimulatorCommandOptions {
  readonly port: number;
  readonly host: string;
  readonly allowedHosts: readonly string[];
  readonly accountFile?: string;
  readonly requestLogSize?: number;
  readonly exitWithParent: boolean;
  /** Servers change only by requests: no timed transitions. */
  readonly still: boolean;
  /** The process whose end stops the simulator (`--owner`). */
  readonly owner?: number;
  /** The rate limits the flags set; the spec's for the others. */
  readonly limits: Partial<RateLimits>;
}

const SIMULATOR_FLAGS = {
  'port': { type: 'string' },
  'host': { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  'account': { type: 'string' },
  'request-log': { type: 'string' },
  'still': { type: 'boolean' },
  'exit-with-parent': { type: 'boolean' },
  'owner': { type: 'string' },
  'requests-per-minute': { type: 'string' },
  'actions-per-minute': { type: 'string' },
  'account-requests-per-minute': { type: 'string' },
} as const;

export function parseSimulatorArgs(args: readonly string[]): SimulatorCommandOptions {
  const { flags } = parseCommandLine(args, SIMULATOR_FLAGS, 0, SIMULATOR_VERBS);
  const port = flags.port ?? '8787';
  if (!/^\d+$/.test(port) || Number(port) > 65535) throw new UsageError(`--port ${JSON.stringify(port)} is not a port: a number from 0 (any free port) to 65535`);
  const logSize = flags['request-log'];
  const isLogSize = logSize === undefined || (/^\d+$/.test(logSize) && Number(logSize) >= 1 && Number(logSize) <= 1_000_000);
  if (!isLogSize) {
    throw new UsageError(`--request-log ${JSON.stringify(logSize)} is not a number of requests from 1 to 1000000`);
  }
  if (flags.host === '') throw new UsageError('--host needs an address, e.g. 127.0.0.1');
  const owner = flags.owner === undefined ? undefined : ownerOf(flags.owner);
  return {
    port: Number(port),
    host: flags.host ?? '127.0.0.1',
    allowedHosts: flags['allow-host'] ?? [],
    ...(flags.account !== undefined && { accountFile: flags.account }),
    ...(logSize !== undefined && { requestLogSize: Number(logSize) }),
    exitWithParent: flags['exit-with-parent'] ?? false,
    still: flags.still ?? false,
    ...(owner !== undefined && { owner }),
    limits: rateLimitsOf(flags),
  };
}

/** `--owner`'s process: one that runs now, or the simulator would outlive nothing. */
function ownerOf(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--owner ${JSON.stringify(value)} is not a process id: a whole number, e.g. $$ in a shell script`);
  if (!alive(Number(value))) throw new UsageError(`--owner ${value}: no process ${value} runs, so the simulator would stop at once`);
  return Number(value);
}

/** The limits the rate flags set, each a whole number from 1 to MAX_PER_MINUTE. */
function rateLimitsOf(flags: Partial<Record<keyof typeof RATE_FLAGS, string>>): Partial<RateLimits> {
  const limits: Partial<Record<keyof RateLimits, number>> = {};
  for (const [flag, [key]] of Object.entries(RATE_FLAGS) as [keyof typeof RATE_FLAGS, (typeof RATE_FLAGS)[keyof typeof RATE_FLAGS]][]) {
    const value = flags[flag];
    if (value === undefined) continue;
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_PER_MINUTE) {
      throw new UsageError(`--${flag} ${JSON.stringify(value)} is not a count per minute: a whole number from 1 to ${MAX_PER_MINUTE.toLocaleString('en')}`);
    }
    limits[key] = Number(value);
  }
  return limits;
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

/** Runs the simulator in the foreground until SIGINT or SIGTERM (or, if asked, until its parent ends). */
export async function runSimulatorCommand(args: readonly string[], print: (line: string) => void, warn = print): Promise<void> {
  const options = parseSimulatorArgs(args);
  const seed = options.accountFile === undefined ? undefined : readAccountFile(options.accountFile);
  const { port, host, allowedHosts, requestLogSize, limits } = options;
  const [identitySecret, accessKey] = [takeHandedOver(SIMULATOR_SECRET_VARIABLE), takeHandedOver(SIMULATOR_ACCESS_KEY_VARIABLE)];
  // Listened for before the listening line: a script that signals as soon as it reads it reaches a clean stop.
  const stopped = untilStopped(options.exitWithParent, options.owner);
  const timedTransitions = !options.still;
  const sim = await startSimulator({ port, host, allowedHosts, seed, requestLogSize, limits, timedTransitions, identitySecret, accessKey });
  print(`${LISTENING_LINE}${sim.baseUrl}`);
  if (sim.accessKey) warnExposed(options.host, warn);
  const key = sim.accessKey ? `?access=${sim.accessKey}` : '';
  print(`Live page, to watch in a browser: ${sim.dashboardUrl}${key}`);
  print('Control surface (docs/guides/simulator.md, "The simulator by hand"; a change is JSON, content-type: application/json):');
  if (sim.accessKey) print(`  Access key (send "Authorization: Bearer KEY"; printed only here): ${sim.accessKey}`);
  print(`  GET    ${sim.controlUrl}/state            every server, firewall and address`);
  print(`  GET    ${sim.controlUrl}/requests         the requests received (the newest ${options.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE})`);
  print(`  GET    ${sim.controlUrl}/executed         every write and action carried out`);
  print(`  POST   ${sim.controlUrl}/faults           add a fault rule; DELETE clears them`);
  print(`  PATCH  ${sim.controlUrl}/servers/{id}     change a server out of band, e.g. {"power":"stopped"}`);
  print(`  POST   ${sim.controlUrl}/tokens           a new token, e.g. {"scopes":["servers:read"]}`);
  const rates = { ...DEFAULT_RATE_LIMITS, ...limits };
  print(`Rate limits, a minute: ${rates.requestsPerToken} requests and ${rates.actionsPerToken} actions per token, ${rates.requestsPerAccount} requests per account`);
  print(`${seed ? 'Tokens' : 'Demo tokens'} (valid only for this simulator):`);
  for (const [name, secret] of Object.entries(sim.tokens)) print(`  ${name.padEnd(22)} ${secret}`);
  commandToRun(USE_IT, `export HOSTING_API_URL=${sim.baseUrl} HOSTING_API_TOKEN=${sim.tokens.full}`).forEach(print);
  print('Press Ctrl-C to stop.');
  await stopped;
  await sim.close();
}

/** What the command after it does: `simulator start` passes it on from the simulator's output. */
export const USE_IT = 'To use it from this shell, with its token of every scope';

/** The subcommands of `simulator` (simulator-lifecycle.ts), which a mistyped first word is compared with. */
export const SIMULATOR_VERBS = ['start', 'status', 'stop'];

/** How `simulator start` hands the simulator its identity secret (simulator-lifecycle.ts). */
export const SIMULATOR_SECRET_VARIABLE = 'CDKTF_SERVER_HOSTING_SIMULATOR_SECRET';

/** How `simulator start` hands the simulator the access key it will need if it listens where other machines reach it. */
export const SIMULATOR_ACCESS_KEY_VARIABLE = 'CDKTF_SERVER_HOSTING_SIMULATOR_ACCESS_KEY';

/** A secret `simulator start` handed over, taken out of the environment so no child of this process inherits it. */
function takeHandedOver(variable: string): string | undefined {
  const secret = process.env[variable];
  delete process.env[variable];
  return secret || undefined;
}

function warnExposed(host: string, warn: (line: string) => void): void {
  warn(`Warning: listening on ${host}, which other machines can reach. Anyone who can reach it can use its API with the`);
  warn('  token secrets below; the control surface and the live page need the access key printed below. The demo tokens');
  warn('  have random secrets here; secrets set in an account file are kept. Use 127.0.0.1 unless another machine must connect.');
}

/**
 * Resolves on SIGINT or SIGTERM, or once `owner` has ended; with `exitWithParent`, also when the process that started this one
 * ends: the testing kit runs the simulator as its child, and a test process that dies must not
 * leave a simulator listening behind it. Run by hand (`simulator &` from a script that then
 * returns, say) it keeps running: that parent ending is no reason to stop.
 */
function untilStopped(exitWithParent: boolean, owner: number | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      unwatch?.();
      resolve();
    };
    const unwatch = exitWithParent ? watchParent(stop) : undefined;
    if (owner !== undefined) watchProcess(owner, stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
