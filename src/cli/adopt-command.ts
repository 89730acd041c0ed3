import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { adoptionOf, byServerId, render, type AccountSnapshot, type AdoptLanguage } from './adopt-render';
import { quotedString } from './code-literals';
import type { CommandHelp } from './command-help';
import { asUsage, parseCommandLine, UsageError } from './command-line';
import { THIS_PACKAGE, type CdkFlavour } from './this-package';
import { HostingApiClient } from '../api/client';
import type { Firewall, IpSettings, Server } from '../api/schemas';
import { tcpKeepAliveSetting } from '../api/transport';
import { isTokenVariableName, printableUrl, TOKEN_VARIABLE_NAME_RULE } from '../contract/patterns';
import { parseProviderSource, PROVIDER_SOURCE } from '../contract/provider-address';
import { HANDLER_ENV } from '../contract/resource-document';
import type { ReconcileContext } from '../reconcile/context';
import { readFirewall } from '../reconcile/firewall';
import { readIpSettings } from '../reconcile/ip-settings';
import { ReconcileError } from '../reconcile/reconcile-error';
import { readServerList } from '../reconcile/servers';


export interface AdoptOptions {
  readonly language: AdoptLanguage;
  /** The CDK a TypeScript or Python program imports; without --cdk, the flavour running adopt (the standalone executable is cdktf's). */
  readonly cdk: CdkFlavour;
  readonly out?: string;
  readonly tokenEnvVar: string;
  readonly baseUrl?: string;
  readonly source?: string;
  readonly version?: string;
}

export const ADOPT_HELP: CommandHelp = {
  words: 'adopt',
  summary: 'Write a stack that adopts an account\'s servers as they are',
  forms: ['--language typescript|python|hcl [--cdk cdktf|cdktn] [--out FILE] [--token-env-var NAME] [--base-url URL] [--source ADDRESS] [--version CONSTRAINT]'],
  about: 'Reads the account at HOSTING_API_URL with the token in the environment and writes a program that manages its servers '
    + 'as they are: the next plan imports them and shows no change. Progress goes to standard error.',
  options: [
    ['--language L', 'the program to write: typescript, python or hcl (required)'],
    ['--cdk C', 'the CDK a typescript or python program imports: cdktf or cdktn (CDK Terrain)'],
    ['--out FILE', 'write the program to FILE (default: standard output)'],
    ['--token-env-var NAME', 'the environment variable holding the API token (default HOSTING_API_TOKEN)'],
    ['--base-url URL', 'write this API address into the program (default: none; the provider and constructs read HOSTING_API_URL)'],
    ['--source ADDRESS', 'hcl: the provider\'s source, HOST/NAMESPACE/hosting (default: the address the mirrors serve)'],
    ['--version CONSTRAINT', 'hcl: the provider versions to accept (default: ~> this release\'s MAJOR.MINOR; none for a development build)'],
  ],
  exampleNote: 'With HOSTING_API_URL and HOSTING_API_TOKEN set:',
  examples: [['adopt', '--language', 'hcl', '--out', 'adopted/main.tf'], ['adopt', '--language', 'python', '--out', 'main.py']],
};

const ADOPT_FLAGS = {
  'language': { type: 'string' },
  'cdk': { type: 'string' },
  'out': { type: 'string' },
  'token-env-var': { type: 'string' },
  'base-url': { type: 'string' },
  'source': { type: 'string' },
  'version': { type: 'string' },
} as const;

const LANGUAGES: readonly AdoptLanguage[] = ['typescript', 'python', 'hcl'];
const CDKS: readonly CdkFlavour[] = ['cdktf', 'cdktn'];

export function parseAdoptArgs(args: readonly string[]): AdoptOptions {
  const { flags } = parseCommandLine(args, ADOPT_FLAGS);
  const { language, cdk, out } = flags;
  const tokenEnvVar = flags['token-env-var'] ?? 'HOSTING_API_TOKEN';
  if (language === undefined) throw new UsageError('--language is required');
  if (!(LANGUAGES as readonly string[]).includes(language)) throw new UsageError(`--language ${JSON.stringify(language)} is not a language adopt writes: use typescript, python or hcl`);
  if (cdk !== undefined && !(CDKS as readonly string[]).includes(cdk)) throw new UsageError(`--cdk ${JSON.stringify(cdk)} is not a CDK adopt writes for: use cdktf or cdktn (CDK Terrain)`);
  if (out === '') throw new UsageError('--out needs a file name');
  if (!isTokenVariableName(tokenEnvVar)) throw new UsageError(`--token-env-var takes the NAME of an environment variable (${TOKEN_VARIABLE_NAME_RULE}); the value is not shown`);
  // An HCL configuration imports no CDK: a --cdk there is a mistake about what is being written.
  if (language === 'hcl' && cdk) throw new UsageError('--cdk chooses the imports of a typescript or python program; an hcl configuration has none: leave --cdk out');
  if (language !== 'hcl' && (flags.source !== undefined || flags.version !== undefined)) {
    throw new UsageError('--source and --version name the provider in an hcl configuration; a typescript or python program carries its provider: leave them out');
  }
  const flavour = (cdk as CdkFlavour | undefined) ?? THIS_PACKAGE.cdk;
  return {
    language: language as AdoptLanguage,
    cdk: flavour,
    tokenEnvVar,
    ...(out !== undefined && { out }),
    ...(flags['base-url'] !== undefined && { baseUrl: parseBaseUrlFlag(flags['base-url']) }),
    ...(flags.source !== undefined && { source: asUsage(() => parseProviderSource(flags.source!)) }),
    version: flags.version === undefined ? defaultConstraint() : parseConstraint(flags.version),
  };
}

const CONSTRAINT_PART = String.raw`\s*(?:=|!=|>=|<=|>|<|~>)?\s*\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.]+)?\s*`;
const CONSTRAINT = new RegExp(`^${CONSTRAINT_PART}(?:,${CONSTRAINT_PART})*$`);

function parseConstraint(text: string): string {
  if (CONSTRAINT.test(text)) return text.trim();
  throw new UsageError(`--version ${JSON.stringify(text)} is not a version constraint, e.g. "~> 1.4" or ">= 1.4.2, < 2.0.0"`);
}

/** `~> MAJOR.MINOR` of this release: the versions a team that adopts today accepts. None for a development build. */
function defaultConstraint(): string | undefined {
  const [major, minor] = THIS_PACKAGE.version.split('.');
  return THIS_PACKAGE.version === '0.0.0' ? undefined : `~> ${major}.${minor}`;
}

function parseBaseUrlFlag(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === 'https:' || url.protocol === 'http:') return printableUrl(text);
  } catch {
    // Said below.
  }
  throw new UsageError(`--base-url ${JSON.stringify(text)} is not an http(s) URL, e.g. https://api.example.com/api/v1`);
}

export interface AdoptIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The program, when no --out is given. */
  readonly stdout: (text: string) => void;
  /** Progress, one line per server. */
  readonly stderr: (line: string) => void;
}

/** Failures that say nothing about one server: every read would fail the same way, so adopt stops. */
const ACCOUNT_WIDE = new Set(['unauthorized', 'ip_not_allowed', 'insufficient_scope', 'aborted', 'deadline_exceeded', 'network_error']);

/** What one server holds that adopt manages: its firewall (VPS, VDS) or its addresses' settings (dedicated). */
async function readServer(ctx: ReconcileContext, server: Server, firewalls: Map<string, Firewall>, addresses: Map<string, IpSettings[]>) {
  if (server.id.startsWith('vps_')) firewalls.set(server.id, await readFirewall(ctx, `firewall ${server.id}`, server.id));
  if (server.type === 'dedicated') {
    const settings: IpSettings[] = [];
    for (const ip of server.ipv4) settings.push(await readIpSettings(ctx, `ip settings ${server.id} ${ip}`, server.id, ip));
    addresses.set(server.id, settings);
  }
}

/**
 * Reads the account (the list, then one paced read per setting) into what `adoptionOf` needs. A
 * read that fails for one server is reported and the server left out; the others are adopted.
 */
async function readAccount(ctx: ReconcileContext, progress: (line: string) => void): Promise<AccountSnapshot> {
  const servers = byServerId((await readServerList(ctx)).data);
  const firewalls = new Map<string, Firewall>();
  const addresses = new Map<string, IpSettings[]>();
  const readFailures = new Map<string, string>();
  for (const [i, server] of servers.entries()) {
    progress(`[${i + 1}/${servers.length}] ${server.id} (${quotedString(server.name)}, ${server.type}${server.accessRole === 'secondary' ? ', shared: not managed' : ''})`);
    if (server.accessRole === 'secondary') continue;
    try {
      await readServer(ctx, server, firewalls, addresses);
    } catch (err) {
      if (!(err instanceof ReconcileError) || ACCOUNT_WIDE.has(err.apiError?.code ?? '')) throw err;
      // The program keeps what is stable from run to run; the request id, for support, goes to the progress.
      readFailures.set(server.id, `${err.summary}${err.apiError ? ` (API: ${err.apiError.status} ${err.apiError.code})` : ''}`);
      progress(`  skipped: ${err.describe().map((line) => line.trim()).join('; ')}`);
    }
  }
  return { servers, firewalls, addresses, readFailures };
}

/** The compiler settings of an adopted TypeScript project: CommonJS, which ts-node runs on every Node line. */
const TSCONFIG = '{"compilerOptions": {"module": "commonjs", "target": "ES2022", "strict": true, "skipLibCheck": true}}';

/**
 * How the program `adopt` wrote becomes a project `cdktf plan` runs: it writes the program alone,
 * so the next step is said where the person reads (the same lines as the adopting guide).
 */
export function runnableProject(language: 'typescript' | 'python', out: string | undefined, cdk: CdkFlavour): string {
  const library = `${cdk}-server-hosting`;
  const file = out ?? (language === 'typescript' ? 'main.ts' : 'main.py');
  const core = cdk === 'cdktn' ? "cdktn@^0.24 'constructs@>=10.6.0 <10.8.0'" : 'cdktf@^0.21 constructs@^10.4';
  // ts-node 10 cannot load TypeScript 7 (its compiler API is gone): the hint pins the last line it runs.
  const install = language === 'typescript' ? `npm install ${library} ${core} ts-node@^10.9 typescript@~5.9` : `pip install ${library}`;
  const app = language === 'typescript' ? `npx ts-node ${file}` : `python3 ${file}`;
  // Without a tsconfig, ts-node compiles for node16 modules, which Node 20.19+ then loads as ESM and refuses (.ts).
  const tsconfig = language === 'typescript' ? `write tsconfig.json as ${TSCONFIG}; ` : '';
  return `to run it as a project: in its folder, ${install}; ${tsconfig}write cdktf.json as {"language": "${language}", "app": "${app}"}; then plan with the ${cdk} CLI (docs/guides/adopting-an-account.md)`;
}

/**
 * Before any request: the folder `--out` names is made if missing, and a folder given for the file
 * is refused, so a whole account is never read for a file that cannot be written.
 */
function prepareOut(out: string): void {
  if (existsSync(out) && statSync(out).isDirectory()) throw new Error(`--out ${out} is a folder; name the file to write, e.g. --out ${join(out, 'main.tf')}`);
  try {
    mkdirSync(dirname(out), { recursive: true });
  } catch (err) {
    throw new Error(`--out ${out}: its folder could not be made (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); nothing was read`);
  }
}

/** The exit status of an `adopt` that wrote its program but left servers out because their reads failed. */
export const ADOPT_INCOMPLETE = 3;

/**
 * `adopt`: one program that manages what the account holds, as it is, every resource marked for
 * import. Returns 0, or ADOPT_INCOMPLETE when servers were left out (the program says which).
 */
export async function runAdoptCommand(args: readonly string[], io: AdoptIo): Promise<number> {
  const options = parseAdoptArgs(args);
  if (options.out) prepareOut(options.out);
  const token = io.env[options.tokenEnvVar];
  if (!token) throw new Error(`the environment variable ${options.tokenEnvVar} that should hold the API token is not set or empty`);
  const baseUrl = io.env[HANDLER_ENV.defaultBaseUrl];
  if (!baseUrl) throw new Error(`no API base URL: set ${HANDLER_ENV.defaultBaseUrl}`);
  const now = () => performance.now();
  const tcpKeepAlive = tcpKeepAliveSetting(io.env[HANDLER_ENV.tcpKeepAlive], HANDLER_ENV.tcpKeepAlive);
  const client = new HostingApiClient({ baseUrl, token, tcpKeepAlive, userAgent: 'cdktf-server-hosting-adopt', log: (line) => / -> 429 |waiting/.test(line) && io.stderr(`  ${line}`), now });
  const ctx: ReconcileContext = {
    client,
    intent: 'adopt',
    tokenEnvVar: options.tokenEnvVar,
    log: () => undefined,
    warn: (line) => io.stderr(`warning: ${line}`),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now,
    deadlineAt: Number.POSITIVE_INFINITY,
    rerun: `${THIS_PACKAGE.command} adopt`,
  };
  try {
    const adoption = adoptionOf(await readAccount(ctx, io.stderr));
    const program = render(options.language, adoption, {
      baseUrl: options.baseUrl,
      tokenEnvVar: options.tokenEnvVar === 'HOSTING_API_TOKEN' ? undefined : options.tokenEnvVar,
      cdk: options.cdk,
      source: options.source,
      version: options.version,
    });
    if (options.out) writeFileSync(options.out, program);
    else io.stdout(program);
    io.stderr(`${adoption.resources.length} resources to import${options.out ? `, written to ${options.out}` : ''}`);
    if (options.language !== 'hcl') io.stderr(runnableProject(options.language, options.out, options.cdk));
    if (options.language === 'hcl' && !options.source) {
      io.stderr(`the configuration installs the provider from ${PROVIDER_SOURCE}, the address \`provider mirror\` serves; installing from a registry, adopt with --source HOST/NAMESPACE/hosting`);
    }
    if (adoption.skipped.length === 0) return 0;
    io.stderr(`${adoption.skipped.length} server(s) NOT adopted because a read failed (listed at the top of the program); run adopt again to include them`);
    return ADOPT_INCOMPLETE;
  } catch (err) {
    if (err instanceof ReconcileError) throw new Error(err.describe().join('\n'));
    throw err;
  } finally {
    await client.close();
  }
}
