import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { faultBody, serverChangeBody, simulatedServer } from './control-bodies';
import type { Fault } from './fault';
import type { ServerChange, SimulatedServer } from './server-state';
import { sharedBudgetFile } from '../api/budget-store';
import { inReaderWords } from '../constructs/validation';
import { likelyName, likelyServerId } from '../contract/patterns';
import { SCOPES } from '../contract/scopes';
import { LISTENING_LINE } from '../simulator/listening-line';

/*
 * A simulated account for a team's own tests: the simulator in a process of its own (Python's jsii
 * kernel serves nothing while Python waits on terraform, and one process model serves both
 * languages), driven through its control surface. Every method is synchronous, so it reads the same
 * in TypeScript and Python.
 */

/** The package's command, `<package>/assets/standalone/cli.js` (a bundle: the library loads no zod or undici), run as `simulator`. */
const CLI = join(__dirname, '..', '..', 'assets', 'standalone', 'cli.js');
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 10_000;

export interface SimulatedAccountOptions {
  /**
   * An account file (JSON; docs/testing/account-file.md): servers, IP settings, firewalls, rule
   * sets, tokens. A relative path is resolved against the working directory.
   * @default - the demo account (`npx cdktf-server-hosting simulator` without `--account`)
   */
  readonly accountFile?: string;
  /**
   * The loopback port to listen on.
   * @default - a free port
   */
  readonly port?: number;
  /**
   * Whether servers change by themselves, as a real account's do: the demo account's `vps_new_4`
   * turns from provisioning to active 1.5 s after the start. Off, only the test's requests and
   * `changeServer` change the account, so a "the plan is clean" test cannot race the clock.
   * @default false
   */
  readonly timedTransitions?: boolean;
  /**
   * Requests a minute each token may send (section 8 of the API): lower, to see how a stack fares
   * under a tighter budget.
   * @default 120
   */
  readonly requestsPerMinute?: number;
  /**
   * Power actions a minute each token may run.
   * @default 10
   */
  readonly actionsPerMinute?: number;
  /**
   * Requests a minute the account takes across its tokens.
   * @default 300
   */
  readonly accountRequestsPerMinute?: number;
}

/** A power action the simulator carried out. */
export interface ExecutedAction {
  readonly serverId: string;
  /** `start`, `shutdown`, `power_off`, `reboot` or `reset`. */
  readonly action: string;
}

/** A write the simulator carried out: an action, a firewall PUT or an IP settings PATCH. */
export interface ExecutedWrite {
  readonly serverId: string;
  /** `action`, `firewall` or `ip_settings`. */
  readonly kind: string;
  /** The action's name, or the request body as JSON. */
  readonly detail: string;
}

/** A running simulated account. `stop()` ends it; so does the end of the process that started it. */
export class SimulatedAccount {
  /** Starts a simulated account and returns once it answers. */
  public static start(options: SimulatedAccountOptions = {}): SimulatedAccount {
    const accountFile = options.accountFile === undefined ? undefined : resolve(options.accountFile);
    if (accountFile !== undefined && !existsSync(accountFile)) {
      // Said before a simulator starts, in the caller's words: not the simulator's ENOENT from another process.
      throw new Error(`SimulatedAccount.start: ${inReaderWords('accountFile')} ${JSON.stringify(options.accountFile)} does not exist; looked for ${accountFile} (a relative path is read from the folder the tests run in, ${process.cwd()})`);
    }
    const logDir = mkdtempSync(join(tmpdir(), 'hosting-simulated-account-'));
    const log = join(logDir, 'simulator.log');
    const out = openSync(log, 'w');
    // --exit-with-parent: a test process that dies without stop() must not leave its simulator listening.
    const args = [
      'simulator', '--exit-with-parent', '--port', String(options.port ?? 0),
      ...(options.timedTransitions ? [] : ['--still']),
      ...(accountFile === undefined ? [] : ['--account', accountFile]),
      ...rateFlags(options),
    ];
    const child = spawn(process.execPath, ['-e', `require(${JSON.stringify(CLI)}).main(process.argv.slice(1)).then((code) => process.exit(code))`, ...args], {
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    child.unref();
    process.once('exit', () => child.kill());
    try {
      return new SimulatedAccount(waitForUrl(log), child.pid!);
    } catch (err) {
      child.kill();
      throw err;
    } finally {
      rmSync(logDir, { recursive: true, force: true });
    }
  }

  /** The API's base URL, ending in `/api/v1`: `HostingApi`'s `baseUrl`, or `HOSTING_API_URL`. */
  public readonly baseUrl: string;
  /** A token with every scope, for `HOSTING_API_TOKEN`. */
  public readonly token: string;
  /**
   * The account's live page, to open in a browser while a test runs (or is paused): its servers,
   * every request with what it carried out, the rate budget per window and the fault rules in force.
   */
  public readonly dashboardUrl: string;
  readonly #controlUrl: string;
  readonly #pid: number;
  /** The secrets this account minted: their pacing files go with it (the provider keeps one per API and token). */
  readonly #minted: string[] = [];

  private constructor(baseUrl: string, pid: number) {
    this.baseUrl = baseUrl;
    this.#controlUrl = baseUrl.replace(/\/api\/v1$/, '/__simulator');
    this.dashboardUrl = `${this.#controlUrl}/`;
    this.#pid = pid;
    this.token = this.tokenWithScopes([...SCOPES]);
  }

  /** A new token of the account with only these scopes (e.g. `servers:read`), to test what a narrower token cannot do. */
  public tokenWithScopes(scopes: string[]): string {
    const unknown = scopes.find((scope) => !(SCOPES as readonly string[]).includes(scope));
    if (unknown !== undefined) {
      const meant = likelyName(unknown, SCOPES);
      const hint = meant ? `did you mean "${meant}"? ` : '';
      throw new Error(`SimulatedAccount.${inReaderWords('tokenWithScopes')}: ${JSON.stringify(unknown)} is not a scope; ${hint}the scopes are ${SCOPES.join(', ')}`);
    }
    const { secret } = this.#control('POST', '/tokens', { scopes }) as { secret: string };
    this.#minted.push(secret);
    return secret;
  }

  /** Every power action carried out, in order; only those on `serverId` when given. */
  public executedActions(serverId?: string): ExecutedAction[] {
    return this.executedWrites(serverId).filter((w) => w.kind === 'action').map((w) => ({ serverId: w.serverId, action: w.detail }));
  }

  /** Every write carried out (actions, firewall and IP settings writes), in order; replays of a retried write are not counted. */
  public executedWrites(serverId?: string): ExecutedWrite[] {
    const all = this.#control('GET', '/executed') as ExecutedWrite[];
    return all
      .filter((w) => serverId === undefined || w.serverId === serverId)
      .map(({ serverId: id, kind, detail }) => ({ serverId: id, kind, detail }));
  }

  /** Every server of the account as it is now, with its firewall or IP settings. */
  public state(): SimulatedServer[] {
    return (this.#control('GET', '/state') as { servers: unknown[] }).servers.map(simulatedServer);
  }

  /** Changes a server out of band, as its control panel would: the drift the next plan must show. */
  public changeServer(serverId: string, change: ServerChange): void {
    try {
      this.#control('PATCH', `/servers/${encodeURIComponent(serverId)}`, serverChangeBody(change));
    } catch (err) {
      // Only a refused change costs a read of the servers, to name the one most likely meant.
      const ids = this.state().map((server) => server.id);
      if (ids.includes(serverId)) throw err;
      // A look-alike (vps_web_l for vps_web_1) first, then the one nearest by edits.
      const meant = [likelyServerId(serverId)].find((id) => id !== undefined && ids.includes(id)) ?? likelyName(serverId, ids);
      throw new Error(`SimulatedAccount.${inReaderWords('changeServer')}: the account has no server ${JSON.stringify(serverId)}; ${meant ? `did you mean "${meant}"? ` : ''}its servers are ${ids.join(', ')}`);
    }
  }

  /** Adds a fault rule; returns its id. */
  public addFault(fault: Fault): number {
    return (this.#control('POST', '/faults', faultBody(fault)) as { id: number }).id;
  }

  /** Removes every fault rule. */
  public clearFaults(): void {
    this.#control('DELETE', '/faults');
  }

  /**
   * Back to the account it started with (the account file's, or the demo's): servers and settings
   * as seeded, no writes carried out, no faults. A fresh account per test without a restart; `token`
   * and the tokens made with `tokenWithScopes` stay valid.
   */
  public reset(): void {
    this.#control('POST', '/reset', {});
  }

  /**
   * Ends the simulator, and returns once its port refuses connections: a suite can start the next
   * account on the same port right after. The rate-limit pacing files of the tokens it minted go too.
   */
  public stop(): void {
    for (const secret of this.#minted.splice(0)) {
      const budget = sharedBudgetFile(this.baseUrl, secret);
      for (const file of [budget, `${budget}.lock`]) rmSync(file, { force: true });
    }
    try {
      process.kill(this.#pid, 'SIGTERM');
    } catch {
      return; // Already ended.
    }
    waitUntilClosed(this.baseUrl);
  }

  /** One control request, synchronously: a short-lived node process does the HTTP. */
  #control(method: string, path: string, body?: unknown): unknown {
    const script = 'let i="";process.stdin.on("data",(d)=>(i+=d)).on("end",async()=>{const r=JSON.parse(i);'
      + 'try{const res=await fetch(r.url,{method:r.method,headers:{"content-type":"application/json"},body:r.body});'
      + 'process.stdout.write(JSON.stringify({status:res.status,text:await res.text()}))}'
      + 'catch(e){process.stdout.write(JSON.stringify({status:0,text:String(e.cause?.code??e.cause?.message??e.message)}))}})';
    const input = JSON.stringify({ url: `${this.#controlUrl}${path}`, method, body: body === undefined ? undefined : JSON.stringify(body) });
    const result = spawnSync(process.execPath, ['-e', script], { input, encoding: 'utf8', timeout: 30_000 });
    const { status, text } = JSON.parse(result.stdout || '{"status":0,"text":"no answer"}') as { status: number; text: string };
    if (status === 0) throw new Error(`the simulated account at ${this.baseUrl} does not answer (stopped?): ${text}`);
    const answer = JSON.parse(text) as { error?: string };
    if (status >= 400) throw new Error(`simulated account: ${method} ${path}: ${answer.error ?? text}`);
    return answer;
  }
}

const MAX_PER_MINUTE = 100_000;

/** The simulator's rate flags for the options set, each checked first and refused in the caller's words. */
function rateFlags(options: SimulatedAccountOptions): string[] {
  const flags = [
    ['requestsPerMinute', 'requests-per-minute', options.requestsPerMinute],
    ['actionsPerMinute', 'actions-per-minute', options.actionsPerMinute],
    ['accountRequestsPerMinute', 'account-requests-per-minute', options.accountRequestsPerMinute],
  ] as const;
  return flags.flatMap(([option, flag, value]) => {
    if (value === undefined) return [];
    if (!Number.isInteger(value) || value < 1 || value > MAX_PER_MINUTE) {
      throw new Error(`SimulatedAccount.start: ${inReaderWords(option)} is ${value}; it must be a whole number from 1 to ${MAX_PER_MINUTE.toLocaleString('en')}`);
    }
    return [`--${flag}`, String(value)];
  });
}

/** The simulator's first line names its URL; any other first line is the reason it did not start. */
function waitForUrl(log: string): string {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const text = readFileSync(log, 'utf8');
    if (text.startsWith(LISTENING_LINE) && text.includes('\n')) return text.slice(LISTENING_LINE.length, text.indexOf('\n'));
    if (text.length && !LISTENING_LINE.startsWith(text.slice(0, LISTENING_LINE.length)) && text.includes('\n')) {
      sleep(100);
      throw new Error(`the simulated account did not start: ${readFileSync(log, 'utf8').trim()}`);
    }
    sleep(25);
  }
  throw new Error(`the simulated account did not start within ${START_TIMEOUT_MS / 1000} s: ${readFileSync(log, 'utf8').trim() || 'no output'}`);
}

/**
 * Blocks until nothing listens at the URL's port any more. A short-lived node process polls it: the
 * child ended here cannot be reaped while this thread blocks, so its pid says nothing.
 */
function waitUntilClosed(url: string): void {
  const { hostname, port } = new URL(url);
  const script = 'const net=require("node:net");const [h,p]=process.argv.slice(1);'
    + 'const probe=()=>{const s=net.connect(Number(p),h);s.on("connect",()=>{s.destroy();setTimeout(probe,10)});s.on("error",()=>process.exit(0))};probe()';
  const result = spawnSync(process.execPath, ['-e', script, hostname, port], { timeout: STOP_TIMEOUT_MS });
  if (result.status !== 0) throw new Error(`the simulated account at ${url} still answered ${STOP_TIMEOUT_MS / 1000} s after stop()`);
}

/** Blocks the thread: the start is synchronous in every language. */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
