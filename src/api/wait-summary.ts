import type { HostingApiClient } from './client';

/** Waits shorter than this together go to the log only. */
export const WAIT_WARNING_MS = 5_000;

/**
 * What one operation's requests waited for, when it adds up to more than a few seconds: the
 * summary a pipeline owner reads, e.g. `waited 35 s on the API: the rate-limit budget to reset 30 s,
 * retries after 429 rate_limited 5 s; ...`.
 */
export function waitSummary(clients: readonly Pick<HostingApiClient, 'waited'>[]): string | undefined {
  const byCause = new Map<string, number>();
  for (const { cause, ms } of clients.flatMap((c) => c.waited)) byCause.set(cause, (byCause.get(cause) ?? 0) + ms);
  const total = [...byCause.values()].reduce((sum, ms) => sum + ms, 0);
  if (total < WAIT_WARNING_MS) return undefined;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const causes = [...byCause].sort((x, y) => y[1] - x[1]).map(([cause, ms]) => `${cause} ${seconds(ms)}`).join(', ');
  return `waited ${seconds(total)} on the API: ${causes}; the token's limits are shared by every run that uses it (a lower -parallelism, or fewer runs at once, waits less)`;
}
