import { CONNECTION_TEST_SECONDS, testConnection } from './connection-test';
import { errorAt, warningAt, type Diagnostic } from './diagnostics';
import { validateChangedSincePlan } from './resources/resource';
import { CHANGED_SINCE_PLAN_ATTRIBUTE, schemaOf } from './schema';
import { createSession, READ_ONLY_PLAN_ENV, stoppableSleep, type SessionFactory } from './session';
import { normalizeBaseUrl } from '../api/base-url';
import { FileBudgetStore, sharedBudgetFile } from '../api/budget-store';
import { HostingApiClient, isTransientLogLine } from '../api/client';
import { tcpKeepAliveSetting } from '../api/transport';
import { isTokenVariableName, printableUrl, TOKEN_VARIABLE_NAME_RULE } from '../contract/patterns';
import { HANDLER_ENV } from '../contract/resource-document';
import { ReconcileError } from '../reconcile/reconcile-error';
import { UNKNOWN } from './plugin/values';
import type { ObjectValue } from './resources/resource';

export const DEFAULT_TOKEN_ENV_VAR = 'HOSTING_API_TOKEN';

export { READ_ONLY_PLAN_ENV };

/** `on`, `off` or unset (off); anything else is refused, its value shown only when it is a short word (never a token pasted here). */
export function readOnlyPlanSetting(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'off') return false;
  if (value === 'on') return true;
  const shown = /^\w{1,8}$/.test(value) ? ` is ${JSON.stringify(value)}` : ' is neither "on" nor "off" (its value is not shown)';
  throw new Error(`${READ_ONLY_PLAN_ENV}${shown}: use "on" (a plan with a token that may only read) or "off" (the default)`);
}

export const PROVIDER_SCHEMA = schemaOf('The Server Hosting Management API. The token comes from an environment variable of the provider process.', [
  { name: 'base_url', type: 'string', optional: true, description: `Base URL ending in /api/v1; default: the ${HANDLER_ENV.defaultBaseUrl} environment variable.` },
  { name: 'token_env_var', type: 'string', optional: true, description: `The NAME of the environment variable holding the token; default ${DEFAULT_TOKEN_ENV_VAR}.` },
  { name: 'allow_insecure_http', type: 'bool', optional: true, description: 'Allow plain http to hosts other than this machine.' },
  {
    name: 'plan_read_max_age_seconds',
    type: 'number',
    optional: true,
    deprecated: true,
    description: 'Deprecated, and without effect: every apply reads what it changes before it writes, and names what changed since the plan. Remove it; a later major version refuses it.',
  },
  CHANGED_SINCE_PLAN_ATTRIBUTE,
  {
    name: 'expect_takeover',
    type: 'bool',
    optional: true,
    description: 'Every create of this provider takes over what exists as reviewed: no plan warns of a takeover (a resource\'s own `expect_takeover = false` still warns). For a `terraform test` file\'s provider block, whose run blocks plan the same creates again and again.',
  },
  {
    name: 'message_language',
    type: 'string',
    optional: true,
    description: 'The language the provider\'s messages name settings in: `hcl` (default), `typescript` or `python`. A stack synthesized by the constructs sets it to the language that wrote the stack.',
  },
]);


/**
 * A token pasted into `token_env_var` by mistake. Terraform prints the source line of the block a
 * provider-configuration diagnostic belongs to (with or without an attribute), and in a one-line
 * `provider "hosting" { token_env_var = "…" }` that line is the token. So the refusal is not made
 * where Terraform would point at that block: the provider configures without a connection, and
 * every resource and data source then fails, pointing at its own block. Terraform prints them in
 * any order, so each says the cause in one line; the first one made also gives the rule and what
 * to do about a leaked token.
 */
export function tokenInNameRefusals(): () => ReconcileError {
  const summary = 'token_env_var in the provider "hosting" block is not the NAME of an environment variable (its value is not shown, in case it is a token)';
  let told = false;
  return () => {
    if (told) return new ReconcileError(summary, `set token_env_var to the name of the variable that holds the token (default ${DEFAULT_TOKEN_ENV_VAR})`);
    told = true;
    return new ReconcileError(
      summary,
      `a variable name is ${TOKEN_VARIABLE_NAME_RULE}. If a token was pasted there, revoke it in the control panel and put the new one in the environment variable instead.`,
    );
  };
}

export function isTokenPastedAsName(config: ObjectValue | null): boolean {
  const name = config?.token_env_var;
  return typeof name === 'string' && !isTokenVariableName(name);
}

/** A setting that no longer does anything, said where it is set (Terraform itself warns only of deprecated references). */
export function deprecatedSettings(config: ObjectValue): Diagnostic[] {
  if (config.plan_read_max_age_seconds === null || config.plan_read_max_age_seconds === undefined) return [];
  const detail = 'every apply reads what it changes before it writes, and names what changed since the plan, however old the plan: remove the setting';
  return [warningAt('plan_read_max_age_seconds', 'plan_read_max_age_seconds is deprecated, and has no effect', detail)];
}

const notKnown = (attribute: string, what: string): Diagnostic =>
  errorAt(attribute, `${attribute} of the provider "hosting" block is not known until apply`, `the provider needs ${what} to read the servers at plan time; set it from a value known at plan time (a variable or a literal), not from another resource`);

export interface ProviderEnvironment {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** One line to stderr, where Terraform shows provider logs with TF_LOG. */
  readonly log: (line: string) => void;
  /** The time the provider keeps and waits by; default the machine's (a test's manual clock, whose waits advance it). */
  readonly clock?: ProviderClock;
}

export interface ProviderClock {
  /** Milliseconds for deadlines and ages. */
  readonly now: () => number;
  /** Milliseconds since the epoch, for the API's dated answers (Retry-After, rate-limit resets). */
  readonly wallClock: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

export type Configured =
  | { readonly sessions: SessionFactory; readonly token: string; readonly diagnostics: Diagnostic[] }
  | { readonly diagnostics: Diagnostic[]; readonly token?: string };

/**
 * ConfigureProvider: the connection from the provider block and the environment, in the words of
 * an HCL user, and the token tested (GET /connect). Values not known yet are refused, never
 * silently replaced by the environment's. A refusal names no secret: `token` is what the caller
 * keeps out of every line from then on.
 */
export async function configureProvider(config: ObjectValue, environment: ProviderEnvironment, stopped: AbortSignal): Promise<Configured> {
  if (config.token_env_var === UNKNOWN) return { diagnostics: [notKnown('token_env_var', 'the name of the token\'s variable')] };
  if (config.base_url === UNKNOWN) return { diagnostics: [notKnown('base_url', 'the API\'s address')] };
  if (config.allow_insecure_http === UNKNOWN) return { diagnostics: [notKnown('allow_insecure_http', 'to know whether plain http is allowed')] };
  if (config.changed_since_plan === UNKNOWN) return { diagnostics: [notKnown('changed_since_plan', 'to know whether an apply may overwrite a change made since the plan')] };
  const changedSincePlanRefusal = validateChangedSincePlan(config, 'changed_since_plan in the provider "hosting" block');
  if (changedSincePlanRefusal.length) return { diagnostics: changedSincePlanRefusal };
  const tokenEnvVar = typeof config.token_env_var === 'string' ? config.token_env_var : DEFAULT_TOKEN_ENV_VAR;
  const token = environment.env[tokenEnvVar];
  if (!token) {
    const summary = `the environment variable ${tokenEnvVar} that should hold the API token is not set or empty`;
    return { diagnostics: [errorAt('token_env_var', summary, 'export it where terraform runs; the token is never part of the configuration')] };
  }
  const baseUrl = typeof config.base_url === 'string' ? config.base_url : environment.env[HANDLER_ENV.defaultBaseUrl];
  if (!baseUrl) return { diagnostics: [errorAt('base_url', `no API base URL: set base_url in the provider "hosting" block or the ${HANDLER_ENV.defaultBaseUrl} environment variable`)] };
  const allowInsecureHttp = config.allow_insecure_http === true;
  try {
    normalizeBaseUrl(baseUrl, { allowInsecureHttp, insecureSetting: 'allow_insecure_http = true in the provider "hosting" block' });
  } catch (err) {
    const where = typeof config.base_url === 'string' ? 'base_url' : undefined;
    return { diagnostics: [errorAt(where, (err as Error).message, where ? undefined : `from the ${HANDLER_ENV.defaultBaseUrl} environment variable (${printableUrl(baseUrl)})`)] };
  }
  let tcpKeepAlive: boolean | undefined;
  let readOnlyPlan: boolean;
  try {
    tcpKeepAlive = tcpKeepAliveSetting(environment.env[HANDLER_ENV.tcpKeepAlive], HANDLER_ENV.tcpKeepAlive);
    readOnlyPlan = readOnlyPlanSetting(environment.env[READ_ONLY_PLAN_ENV]);
  } catch (err) {
    return { diagnostics: [errorAt(undefined, (err as Error).message, 'an environment variable of the terraform process')] };
  }
  const now = environment.clock?.now ?? (() => performance.now());
  const client = new HostingApiClient({
    baseUrl,
    token,
    allowInsecureHttp,
    tcpKeepAlive,
    userAgent: 'cdktf-server-hosting-provider',
    log: (line) => isTransientLogLine(line) && environment.log(`  ${line}`),
    sleep: environment.clock?.sleep ?? stoppableSleep(stopped),
    signal: stopped,
    now,
    wallClock: environment.clock?.wallClock,
    budgetStore: new FileBudgetStore(sharedBudgetFile(baseUrl, token), environment.log),
  });
  const baseUrlFrom = typeof config.base_url === 'string' ? 'base_url in the provider "hosting" block' : HANDLER_ENV.defaultBaseUrl;
  const tested = await testConnection(client, { tokenEnvVar, baseUrlFrom }, now() + CONNECTION_TEST_SECONDS * 1000);
  if ('refusal' in tested) return { token, diagnostics: [tested.refusal] };
  const policy = {
    changedSincePlan: config.changed_since_plan === 'fail' ? 'fail' as const : 'overwrite' as const,
    readOnlyPlan,
    expectTakeover: config.expect_takeover === true,
  };
  const sessions = createSession({
    client, token: tested.token, tokenEnvVar, log: environment.log, now, sleep: environment.clock?.sleep, ...policy,
  }, stopped);
  return { token, sessions, diagnostics: [] };
}
