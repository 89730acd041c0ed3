import { errorAt, type Diagnostic } from './diagnostics';
import type { HostingApiClient } from '../api/client';
import { HostingApiError } from '../api/errors';
import type { TokenInfo } from '../api/schemas';
import { printableUrl } from '../contract/patterns';

/** How long ConfigureProvider waits for GET /connect, retries included. */
export const CONNECTION_TEST_SECONDS = 60;

export interface ConnectionSettings {
  /** The NAME of the token's variable, for the reader; never the token. */
  readonly tokenEnvVar: string;
  /** Where the API's address came from, in the reader's words (`base_url in the provider "hosting" block`). */
  readonly baseUrlFrom: string;
}

/**
 * The token tested where the API's contract says (GET /connect, section 4.1), once per provider
 * configuration: a refused token, an API nothing answers at, or one that answers only that it is
 * unavailable is this one error, and Terraform runs no resource of this configuration. Its answer
 * (the account, the token's name and scopes) serves every later check of the process.
 */
export async function testConnection(
  client: HostingApiClient,
  settings: ConnectionSettings,
  deadlineAt: number,
): Promise<{ token: TokenInfo } | { refusal: Diagnostic }> {
  try {
    return { token: (await client.withDeadline(deadlineAt).connect()).data };
  } catch (err) {
    if (!(err instanceof HostingApiError)) throw err;
    return { refusal: connectionRefusal(err, settings, client.baseUrl) };
  }
}

/** The one error of a failed connection test, in the reader's words: what failed, where, and what to do. */
export function connectionRefusal(err: HostingApiError, { tokenEnvVar, baseUrlFrom }: ConnectionSettings, baseUrl: string): Diagnostic {
  const api = printableUrl(baseUrl);
  const answered = `${err.status} ${err.code}${err.requestId ? `, request id ${err.requestId}` : ''}`;
  if (err.code === 'network_error' || err.code === 'timeout') {
    return errorAt(undefined, `the API at ${api} could not be reached: ${err.detail}`, `check ${baseUrlFrom} and the network, then run again; nothing was changed`);
  }
  if (err.apiDown) {
    return errorAt(undefined, `the API at ${api} is unavailable: ${err.detail}`, 'nothing was changed; run again once the API answers (its status page, or the provider\'s log with TF_LOG=INFO, shows each try)');
  }
  if (err.code === 'unauthorized') {
    return errorAt(undefined, `the token in ${tokenEnvVar} was refused by ${api} (${answered}): ${err.detail}`, `check that the token in the environment variable ${tokenEnvVar} is valid, not expired and not revoked; nothing was changed`);
  }
  if (err.code === 'ip_not_allowed') {
    return errorAt(undefined, `the token in ${tokenEnvVar} was refused by ${api} (${answered}): ${err.detail}`, 'add the address Terraform runs from to the token\'s allowlist in the control panel; nothing was changed');
  }
  const why = err.status ? `${answered}: ${err.detail}` : err.detail;
  return errorAt(undefined, `the token in ${tokenEnvVar} could not be tested at ${api} (GET /connect, ${why})`, 'run again shortly; if it persists, quote the request id to the hosting provider\'s support; nothing was changed');
}
