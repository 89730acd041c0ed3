import { spawn } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { commandToRun, type CommandHelp } from './command-help';
import { parseCommandLine, UsageError } from './command-line';
import { alive, LAUNCHER_VARIABLES } from './parent-watch';
import { parseSimulatorArgs, SIMULATOR_ACCESS_KEY_VARIABLE, SIMULATOR_FLAG_FORM, SIMULATOR_OPTIONS, SIMULATOR_SECRET_VARIABLE, USE_IT } from './simulator-command';
import { THIS_PACKAGE } from './this-package';
import { defaultCacheDir } from './user-cache';
import { processStart } from '../contract/process-start';
import { identityProof } from '../simulator/control-surface';
import { LISTENING_LINE } from '../simulator/listening-line';

/*
 * The simulator's life cycle as LocalStack's (`start -d`, `status`, `stop`) or docker's: `simulator
 * start` runs it detached, waits until its API answers and says how to stop it; `status` and
 * `stop` find it by port through a state file. A CI script never needs `kill $!`, which under npx
 * reaches a shell and not the simulator.
 */

/** What `simulator start` leaves for `status` and `stop`: one file per port, this user's alone. */
interface StartedSimulator {
  readonly pid: number;
  readonly port: number;
  readonly baseUrl: string;
  readonly log: string;
  /** The process's boot and start time (contract/process-start.ts), where the system tells them: a reused pid has others. */
  readonly started?: string;
  /** What the simulator proves it holds (`POST /__simulator/identity`): whatever answers on the port without it is not this one. */
  readonly secret?: string;
  /** The access key `start` handed it: a simulator other machines reach asks for it on its control surface, the identity proof included. */
  readonly accessKey?: string;
}

/** How long `start` waits for the API to answer. */
const START_TIMEOUT_MS = 30_000;
/** How long `stop` waits for a clean end before SIGKILL. */
const STOP_TIMEOUT_MS = 5_000;

/** Where the state files are: asked of every file a command touches, said (a fallback folder) once a process. */
let stateDirOf: { env: NodeJS.ProcessEnv; dir: string } | undefined;
const stateDir = (env: NodeJS.ProcessEnv) => {
  if (stateDirOf?.env !== env) {
    const say = (line: string) => process.stderr.write(`${THIS_PACKAGE.command}: ${line}\n`);
    stateDirOf = { env, dir: join(env.CDKTF_SERVER_HOSTING_STATE_DIR || defaultCacheDir(env, say), 'simulators') };
  }
  return stateDirOf.dir;
};
const stateFile = (env: NodeJS.ProcessEnv, port: number) => join(stateDir(env), `${port}.json`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The folder of state files, this user's alone; a link or another's folder is refused. */
function ownStateDir(env: NodeJS.ProcessEnv): string {
  const dir = stateDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  // eslint-disable-next-line no-bitwise -- file modes are bit fields
  const onlyMine = (stat.mode & 0o077) === 0;
  if (!stat.isDirectory() || (process.getuid && (stat.uid !== process.getuid() || !onlyMine))) {
    throw new Error(`${dir} is not a folder of this user's alone: remove it, then start again`);
  }
  return dir;
}

/** The command line that runs this tool again: the standalone executable by itself, else node and this script. */
const thisTool = (): [string, string[]] => (THIS_PACKAGE.standalone ? [process.execPath, []] : [process.execPath, [process.argv[1]]]);

/**
 * `simulator start [flags]`: the simulator detached, its output in a log file; resolves once its API
 * answers, with the lines to print.
 */
export async function startDetached(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const options = parseSimulatorArgs(args);
  if (options.exitWithParent) throw new UsageError('--exit-with-parent is for the simulator in the foreground; "simulator start" keeps it running until "simulator stop"');
  const dir = ownStateDir(env);
  sweepGone(env, dir);
  if (options.port !== 0 && existsSync(stateFile(env, options.port))) {
    const known = await describeOne(env, options.port);
    if (known.running) throw new Error([`a simulator started here already serves port ${options.port} (${known.line})`, ...commandToRun('Stop it first', stopCommand(options.port))].join('\n'));
  }
  const log = join(dir, `simulator-${process.pid}-${Date.now()}.log`);
  const out = openSync(log, 'w', 0o600);
  const [command, prefix] = thisTool();
  // Detached for good: nothing that would tie it to this short-lived process (launcherEnded) goes with it.
  const secret = randomBytes(32).toString('hex');
  const accessKey = randomBytes(24).toString('base64url');
  const inherited = Object.fromEntries(Object.entries(env).filter(([name]) => !LAUNCHER_VARIABLES.includes(name)));
  const childEnv = { ...inherited, [SIMULATOR_SECRET_VARIABLE]: secret, [SIMULATOR_ACCESS_KEY_VARIABLE]: accessKey };
  const child = spawn(command, [...prefix, 'simulator', ...args], { detached: true, stdio: ['ignore', out, out], env: childEnv });
  closeSync(out);
  child.unref();
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ended = exited.then((code) => Promise.reject(new Error(`the simulator ended at start (exit ${code}):\n${readFileSync(log, 'utf8')}`)));
  // A simulator that never answered is not left running with no state file to stop it by.
  const ready = await Promise.race([listening(log), ended]).catch((err: Error) => {
    child.kill('SIGKILL');
    throw err;
  });
  const baseUrl = ready.baseUrl;
  const port = Number(new URL(baseUrl).port);
  const started: StartedSimulator = { pid: child.pid!, port, baseUrl, log, started: processStart(child.pid!), secret, accessKey };
  writeFileSync(stateFile(env, port), JSON.stringify(started), { mode: 0o600 });
  return [
    `${LISTENING_LINE}${baseUrl}`,
    `Running in the background (pid ${started.pid}); its output, with the tokens: ${log}`,
    // The command a user copies next, with the full token, as the simulator in the foreground prints it.
    ...(ready.useIt ? commandToRun(USE_IT, ready.useIt) : []),
    ...commandToRun('Its status (exit 0 while it answers)', `${THIS_PACKAGE.runnable} simulator status --port ${port}`),
    ...commandToRun('To stop it', stopCommand(port)),
  ];
}

const stopCommand = (port: number) => `${THIS_PACKAGE.runnable} simulator stop --port ${port}`;

/** The command of the simulator's output that points a shell at it (`export HOSTING_API_URL=… HOSTING_API_TOKEN=…`). */
const USE_IT_COMMAND = '  export HOSTING_API_URL=';

/**
 * The base URL once the log shows the listening line, and the command to use it printed after the
 * tokens (waited for briefly: it follows at once); rejects after START_TIMEOUT_MS.
 */
async function listening(log: string): Promise<{ readonly baseUrl: string; readonly useIt?: string }> {
  const until = Date.now() + START_TIMEOUT_MS;
  let baseUrl: string | undefined;
  let useItUntil = 0;
  while (Date.now() < until) {
    const lines = readFileSync(log, 'utf8').split('\n');
    const line = lines.find((l) => l.startsWith(LISTENING_LINE));
    const useIt = lines.find((l) => l.startsWith(USE_IT_COMMAND))?.trim();
    if (line && baseUrl === undefined) {
      baseUrl = line.slice(LISTENING_LINE.length).trim();
      useItUntil = Date.now() + 2_000;
    }
    if (baseUrl !== undefined && (useIt || Date.now() > useItUntil)) return { baseUrl, useIt };
    await sleep(baseUrl === undefined ? 100 : 20);
  }
  throw new Error(`the simulator did not answer within ${START_TIMEOUT_MS / 1000} s; its output is in ${log}`);
}

const STATUS_FLAGS = { port: { type: 'string' } } as const;
const STOP_FLAGS = { ...STATUS_FLAGS, 'keep-log': { type: 'boolean' } } as const;

/**
 * What simulators that ended without `stop` left (a CI job killed with SIGKILL, an owner gone):
 * the state file of each whose process has ended, and the output no state file names any more,
 * once older than a start can take. A new job starts from none of it.
 */
function sweepGone(env: NodeJS.ProcessEnv, dir: string): void {
  const named = new Set<string>();
  for (const port of portsOf(undefined, env)) {
    const state = readState(env, port);
    if (state && alive(state.pid)) {
      named.add(state.log);
      continue;
    }
    if (state && dirname(state.log) === dir) rmSync(state.log, { force: true });
    rmSync(stateFile(env, port), { force: true });
  }
  for (const name of readdirSync(dir).filter((n) => /^simulator-\d+-\d+\.log$/.test(n))) {
    const log = join(dir, name);
    if (!named.has(log) && Date.now() - lstatSync(log).mtimeMs > 2 * START_TIMEOUT_MS) rmSync(log, { force: true });
  }
}

/** The ports named by `--port`, or every simulator this user started. */
function portsOf(port: string | undefined, env: NodeJS.ProcessEnv): number[] {
  if (port !== undefined) {
    if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) throw new UsageError(`--port ${JSON.stringify(port)} is not a port: a number from 1 to 65535`);
    return [Number(port)];
  }
  const dir = stateDir(env);
  return existsSync(dir) ? readdirSync(dir).filter((n) => /^\d+\.json$/.test(n)).map((n) => Number(n.slice(0, -5))).sort((a, b) => a - b) : [];
}

function readState(env: NodeJS.ProcessEnv, port: number): StartedSimulator | undefined {
  try {
    const state = JSON.parse(readFileSync(stateFile(env, port), 'utf8')) as StartedSimulator;
    return Number.isInteger(state.pid) && typeof state.baseUrl === 'string' ? state : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether what answers at the simulator's address proves it holds the secret (an HMAC of a fresh
 * challenge, so no answer can be replayed), sending the access key an exposed simulator asks for:
 * `proved`; `silent` when nothing answered in time (paused, busy, or gone from the port);
 * `stranger` when something answered without the proof.
 */
async function identityAnswer(state: StartedSimulator, secret: string): Promise<'proved' | 'silent' | 'stranger'> {
  const challenge = randomBytes(24).toString('base64url');
  let res: Response;
  try {
    res = await fetch(new URL('/__simulator/identity', state.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(state.accessKey && { authorization: `Bearer ${state.accessKey}` }) },
      body: JSON.stringify({ challenge }),
      signal: AbortSignal.timeout(2_000),
    });
  } catch {
    return 'silent';
  }
  try {
    const body = await firstBytes(res, MAX_PROOF_BYTES);
    const proof = res.ok ? (JSON.parse(body) as { proof?: unknown }).proof : undefined;
    const expected = Buffer.from(identityProof(secret, challenge));
    return typeof proof === 'string' && proof.length === expected.length && timingSafeEqual(Buffer.from(proof), expected) ? 'proved' : 'stranger';
  } catch {
    return 'stranger';
  }
}

/** A proof is 64 hex digits in a small JSON object; whatever else answers there is read no further. */
const MAX_PROOF_BYTES = 1024;

/** The start of a response's body, at most `limit` bytes: a stranger on the port may send without end. */
async function firstBytes(res: Response, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    chunks.push(Buffer.from(chunk as Uint8Array));
    size += (chunk as Uint8Array).length;
    if (size > limit) break;
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

type Proof =
  /** The simulator `start` made; `answering` false when it did not answer in time (paused in a debugger, busy). */
  | { readonly ours: true; readonly answering: boolean }
  /** Not proved: `gone` (ended), or why; `kept` when it may still be ours (it may answer later), so its state file stays. */
  | { readonly ours: false; readonly why: string; readonly kept?: boolean };

/**
 * Whether the process the state file names is the simulator `start` made, or why not. It is when it
 * answers the identity challenge on its port with the secret only `start` and it know, or, silent,
 * when it is the very process `start` spawned (its pid with the boot and start time recorded: a pid
 * reused since has others). Nothing is signalled unless it is.
 */
async function provenOurs(state: StartedSimulator): Promise<Proof> {
  if (!alive(state.pid)) return { ours: false, why: 'gone' };
  const started = processStart(state.pid);
  if (state.started !== undefined && started !== undefined && started !== state.started) return { ours: false, why: `pid ${state.pid} now belongs to another process` };
  if (state.secret === undefined) return { ours: false, why: 'its state file, written by an older version, cannot prove which process it started' };
  const answer = await identityAnswer(state, state.secret);
  if (answer === 'proved') return { ours: true, answering: true };
  if (state.started !== undefined && started === state.started) return { ours: true, answering: false };
  if (answer === 'silent') return { ours: false, why: `nothing answered on port ${state.port} within 2 s`, kept: true };
  return { ours: false, why: `what answers on port ${state.port} is not the simulator started here` };
}

async function describeOne(env: NodeJS.ProcessEnv, port: number): Promise<{ running: boolean; line: string }> {
  const state = readState(env, port);
  if (!state) return { running: false, line: `no simulator started with "simulator start" on port ${port}` };
  const proven = await provenOurs(state);
  if (proven.ours && proven.answering) return { running: true, line: `running at ${state.baseUrl} (pid ${state.pid}, output in ${state.log})` };
  if (proven.ours) return { running: false, line: `the simulator started on port ${port} (pid ${state.pid}) runs but did not answer within 2 s (paused or busy?); stop still stops it` };
  if (proven.kept) return { running: false, line: `the simulator started on port ${port} (pid ${state.pid}) cannot be vouched for now (${proven.why}); its state is kept: ask again` };
  rmSync(stateFile(env, port), { force: true });
  const what = proven.why === 'gone' ? 'is gone' : `cannot be vouched for (${proven.why})`;
  return { running: false, line: `the simulator started on port ${port} (pid ${state.pid}) ${what}; its output was in ${state.log}` };
}

/** `simulator status [--port N]`: one line per simulator; exit 0 when every one asked for runs, 3 otherwise. */
export async function simulatorStatus(args: readonly string[], print: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const ports = portsOf(parseCommandLine(args, STATUS_FLAGS).flags.port, env);
  if (ports.length === 0) {
    print('no simulator started with "simulator start" is running');
    return 3;
  }
  let all = true;
  for (const port of ports) {
    const { running, line } = await describeOne(env, port);
    all &&= running;
    print(line);
  }
  return all ? 0 : 3;
}

/**
 * `simulator stop [--port N]`: SIGTERM, a clean close awaited, SIGKILL after STOP_TIMEOUT_MS. Only a
 * process proved to be the simulator `start` made (provenOurs) is signalled; a stranger that has its
 * pid or port since (a container's leftover state file, say) is named and left alone.
 */
export async function stopSimulators(args: readonly string[], print: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { flags } = parseCommandLine(args, STOP_FLAGS);
  const ports = portsOf(flags.port, env);
  if (ports.length === 0) {
    print('no simulator started with "simulator start" is running; nothing to stop');
    return 0;
  }
  for (const port of ports) {
    const state = readState(env, port);
    const proven: Proof = state ? await provenOurs(state) : { ours: false, why: 'gone' };
    if (!state || !proven.ours) {
      if (!(!proven.ours && proven.kept)) rmSync(stateFile(env, port), { force: true });
      const stranger = proven.ours || proven.why === 'gone' ? '' : ` (${proven.why}; it was not signalled)`;
      print(`no simulator started with "simulator start" serves port ${port}${stranger}; nothing to stop`);
      continue;
    }
    process.kill(state.pid, 'SIGTERM');
    // A simulator paused (SIGSTOP, a debugger) handles SIGTERM only once it runs again.
    if (!proven.answering) process.kill(state.pid, 'SIGCONT');
    const until = Date.now() + STOP_TIMEOUT_MS;
    while (alive(state.pid) && Date.now() < until) await sleep(50);
    if (alive(state.pid)) process.kill(state.pid, 'SIGKILL');
    rmSync(stateFile(env, port), { force: true });
    print(`stopped the simulator at ${state.baseUrl} (pid ${state.pid}); ${flags['keep-log'] ? `its output stays in ${state.log}` : removeLog(env, state.log)}`);
  }
  return 0;
}

/** What `start` made goes with `stop`: the log, if it is in this user's state folder, where `start` writes it. */
function removeLog(env: NodeJS.ProcessEnv, log: string): string {
  if (dirname(log) !== stateDir(env)) return `its output stays in ${log}`;
  rmSync(log, { force: true });
  return 'its output was removed (--keep-log keeps it)';
}

export const SIMULATOR_START_HELP: CommandHelp = {
  words: 'simulator start',
  summary: 'Start the simulator in the background',
  forms: [SIMULATOR_FLAG_FORM],
  about: 'Starts the simulator in the background and waits until its API answers. It prints the address, the file its output '
    + '(with the tokens) goes to, and the commands that ask for its status and stop it. A CI script needs no "kill $!".',
  options: SIMULATOR_OPTIONS,
  examples: [['simulator', 'start', '--port', '8787'], ['simulator', 'start', '--port', '0', '--account', 'account.json', '--still']],
};

export const SIMULATOR_STATUS_HELP: CommandHelp = {
  words: 'simulator status',
  summary: 'Say whether the simulators started here answer',
  forms: ['[--port N]'],
  about: 'Says, for each simulator "simulator start" started (or the one on --port), whether it still answers. '
    + 'Exits 0 when every one asked for answers, 3 otherwise.',
  options: [['--port N', 'only the simulator started on this port (default: every one)']],
  examples: [['simulator', 'status', '--port', '8787']],
};

export const SIMULATOR_STOP_HELP: CommandHelp = {
  words: 'simulator stop',
  summary: 'Stop the simulators started here',
  forms: ['[--port N] [--keep-log]'],
  about: 'Stops the simulators "simulator start" started (or the one on --port), waiting for a clean close, and removes the '
    + 'output files start made. A process is signalled only once it proves to be the simulator start made.',
  options: [
    ['--port N', 'only the simulator started on this port (default: every one)'],
    ['--keep-log', 'keep the output files'],
  ],
  examples: [['simulator', 'stop', '--port', '8787'], ['simulator', 'stop']],
};

/** Checks the arguments of `simulator [start|status|stop] …` as the command would, without running anything. */
export function checkSimulatorArgs([verb, ...rest]: readonly string[]): void {
  if (verb === 'start') parseSimulatorArgs(rest);
  else if (verb === 'status') parseCommandLine(rest, STATUS_FLAGS);
  else if (verb === 'stop') parseCommandLine(rest, STOP_FLAGS);
  else parseSimulatorArgs(verb === undefined ? [] : [verb, ...rest]);
}
