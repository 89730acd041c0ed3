import { FileBudgetStore, sharedBudgetFile } from '../api/budget-store';
import { HostingApiClient, isTransientLogLine } from '../api/client';
import { tcpKeepAliveSetting } from '../api/transport';
import { waitSummary } from '../api/wait-summary';
import { HANDLER_ENV, type ResourceDocument } from '../contract/resource-document';
import type { ReconcileContext } from '../reconcile/context';
import { planResource, runBudgetSeconds } from '../reconcile/plan-resource';
import { ReconcileError } from '../reconcile/reconcile-error';
import { parseResourceDocument } from '../reconcile/resource-document-schema';
import { resourceLabel as describe } from '../reconcile/resource-label';

export const EXIT = { ok: 0, failed: 1, drift: 2, usage: 64 } as const;


const USAGE = 'usage: handler <apply|plan|destroy>  (the resource document comes from HOSTING_RESOURCE)';

export interface HandlerIo {
  readonly stdout: (line: string) => void;
  readonly stderr: (line: string) => void;
  /** Injected so tests run waits without waiting. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
  /** Where the handler processes of one run share rate-limit budgets; default: a folder in the temporary directory. */
  readonly pacingDir?: string;
}

/** The resource's label when its document can be read, a neutral name otherwise (never document text). */
function destroyLabel(text: string | undefined): string {
  try {
    return describe(parseResourceDocument(text));
  } catch {
    return 'resource (its stored document could not be read)';
  }
}

/**
 * The program Terraform's local-exec runs for one resource. `apply` reads, diffs and makes only the
 * writes needed; `plan` reads and diffs only (exit 2 when out of sync, like terraform plan
 * -detailed-exitcode); `destroy` retains the server's settings (docs/guides/design.md, "Destroy retains", says why).
 */
export async function runHandler(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: HandlerIo): Promise<number> {
  const [command] = argv;
  if (command !== 'apply' && command !== 'plan' && command !== 'destroy') {
    io.stderr(USAGE);
    return EXIT.usage;
  }
  const print = createPrinter(io);
  try {
    return await run(command, env, io, print);
  } catch (e) {
    print.err(`error: unexpected failure: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT.failed;
  }
}

interface Printer {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** From now on this value is replaced in every line, so it cannot reach Terraform's log by accident. */
  readonly redact: (secret: string) => void;
}

function createPrinter(io: HandlerIo): Printer {
  const secrets: string[] = [];
  const scrub = (line: string) => secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), line);
  return {
    out: (line) => io.stdout(scrub(line)),
    err: (line) => io.stderr(scrub(line)),
    redact: (secret) => secrets.push(secret),
  };
}

async function run(command: 'apply' | 'plan' | 'destroy', env: Readonly<Record<string, string | undefined>>, io: HandlerIo, print: Printer): Promise<number> {
  const { out, err } = print;
  if (command === 'destroy') {
    // Destroy must never fail: a failure here would block every replacement and removal. It makes
    // no request, so a document it cannot read (an imported resource, a newer or older version)
    // changes nothing.
    out(`${destroyLabel(env[HANDLER_ENV.document])}: destroy retains the server's current settings; no request made`);
    return EXIT.ok;
  }
  let doc: ResourceDocument;
  try {
    doc = parseResourceDocument(env[HANDLER_ENV.document]);
  } catch (e) {
    err(`error: ${(e as Error).message}`);
    return EXIT.usage;
  }

  const token = env[doc.api.tokenEnvVar];
  if (!token) {
    err(`error: ${describe(doc)}: the environment variable ${doc.api.tokenEnvVar} that should hold the API token is not set or empty`);
    return EXIT.usage;
  }
  print.redact(token);
  const instanceId = env[HANDLER_ENV.instanceId];
  if (command === 'apply' && !instanceId) {
    err(`error: ${describe(doc)}: ${HANDLER_ENV.instanceId} is not set; it keys every write so that retries are never executed twice`);
    return EXIT.usage;
  }
  const baseUrl = doc.api.baseUrl ?? env[HANDLER_ENV.defaultBaseUrl];
  if (!baseUrl) {
    err(`error: ${describe(doc)}: no API base URL: set it on the HostingApi construct (TypeScript: new HostingApi(this, 'hosting', { baseUrl: '…' }); Python: HostingApi(self, "hosting", base_url="…")) or set ${HANDLER_ENV.defaultBaseUrl}`);
    return EXIT.usage;
  }

  const debug = env[HANDLER_ENV.debug] === '1';
  const now = io.now ?? (() => performance.now());
  const deadlineAt = now() + runBudgetSeconds(doc) * 1000;
  let client: HostingApiClient;
  try {
    client = new HostingApiClient({
      baseUrl,
      allowInsecureHttp: doc.api.allowInsecureHttp,
      token,
      tcpKeepAlive: tcpKeepAliveSetting(env[HANDLER_ENV.tcpKeepAlive], HANDLER_ENV.tcpKeepAlive),
      userAgent: 'cdktf-server-hosting-handler',
      sleep: io.sleep,
      now,
      wallClock: io.now ?? Date.now,
      deadlineAt,
      // The handler processes of one apply share the token's budget: pace them as one client.
      budgetStore: new FileBudgetStore(sharedBudgetFile(baseUrl, token, io.pacingDir), (line) => err(`  ${line}`)),
      // Every attempt in debug mode; otherwise only transient trouble that is being retried or waited
      // out. Refusals are reported once, in the error block.
      log: (line) => (debug || isTransientLogLine(line)) && err(`  ${line}`),
    });
  } catch (e) {
    err(`error: ${describe(doc)}: ${(e as Error).message}`);
    return EXIT.usage;
  }

  const ctx: ReconcileContext = {
    client,
    intent: instanceId ?? 'plan-only',
    tokenEnvVar: doc.api.tokenEnvVar,
    log: out,
    warn: (line) => out(`warning: ${line}`),
    sleep: io.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    now,
    deadlineAt,
    configuration: 'the stack',
  };
  try {
    const plan = await planResource(ctx, doc, { firstPlannedAt: env[HANDLER_ENV.firstPlannedAt], plannedAt: env[HANDLER_ENV.plannedAt] });
    out(plan.summary);
    if (command === 'plan') return plan.inSync ? EXIT.ok : EXIT.drift;
    await plan.apply();
    const waited = waitSummary([client]);
    if (waited) ctx.warn(`${describe(doc)}: ${waited}`);
    return EXIT.ok;
  } catch (e) {
    if (e instanceof ReconcileError) {
      e.describe().forEach((line, i) => err(i === 0 ? `error: ${line}` : line));
    } else {
      err(`error: ${describe(doc)}: ${(e as Error).message}`);
    }
    return EXIT.failed;
  } finally {
    await client.close();
  }
}
