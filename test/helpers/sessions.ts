import type { HostingApiClient } from '../../src/api';
import { createSession, type SessionFactory, type SessionOptions } from '../../src/provider/session';

/**
 * The sessions of a configured provider process over `client`, as ConfigureProvider makes them:
 * the token tested first (GET /connect), its answer serving every later check.
 */
export async function configuredSessions(
  client: HostingApiClient,
  options: Partial<Omit<SessionOptions, 'client'>> = {},
  stopped: AbortSignal = new AbortController().signal,
): Promise<SessionFactory> {
  const { data: token } = await client.connect();
  return createSession({ tokenEnvVar: 'HOSTING_API_TOKEN', log: () => undefined, now: () => performance.now(), token, ...options, client }, stopped);
}
