import type { ServerResponse } from 'node:http';
import type { FaultRule } from './faults';
import type { BudgetHistory } from './rate-limiter';
import type { RequestLog } from './request-log';
import type { ServerRecord } from './state';
import type { Ruleset } from '../api/schemas';

/*
 * The live page's data, and the server-sent events that carry it. The page gets the whole view on
 * connecting and, at most every UPDATE_DELAY_MS while requests arrive, the account and budgets again
 * with only the requests it has not seen (each with the writes it carried out; the newest
 * DASHBOARD_REQUEST_ROWS at most). A page that does not read is not written to until it does.
 * Only names and token names travel: never a token's secret.
 */

/** One dedicated address's settings as the page shows them. */
export interface DashboardAddress {
  readonly address: string;
  readonly rdns: string | null;
  readonly description: string | null;
  readonly protection: string;
}

/** One server as the page shows it. */
export interface DashboardServer {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly status: string;
  readonly power: string;
  readonly accessRole: string;
  readonly firewall?: { readonly enabled: boolean; readonly rulesets: ReadonlyArray<{ readonly id: number; readonly name?: string }> };
  readonly addresses: ReadonlyArray<DashboardAddress>;
}

export interface DashboardView {
  readonly servers: readonly DashboardServer[];
  readonly faults: ReadonlyArray<{ readonly id: number; readonly rule: FaultRule; readonly remaining: number | null }>;
  readonly budgets: readonly BudgetHistory[];
  readonly windowMs: number;
  readonly now: number;
}

/** What the page's view is made of, read when an update is sent. */
export interface DashboardSources {
  readonly view: () => DashboardView;
  readonly requests: RequestLog;
}

/** Each server's columns on the page, rule sets by name as well as id. */
export function dashboardServers(records: readonly ServerRecord[], rulesets: readonly Ruleset[]): DashboardServer[] {
  const rulesetName = new Map(rulesets.map((r) => [r.id, r.name]));
  return records.map(({ server, firewall, ipSettings }) => ({
    id: server.id,
    name: server.name,
    type: server.type,
    status: server.status,
    power: server.power,
    accessRole: server.accessRole,
    firewall: firewall && { enabled: firewall.enabled, rulesets: firewall.rulesets.map((id) => ({ id, name: rulesetName.get(id) })) },
    addresses: [...ipSettings.values()].map((ip) => ({
      address: ip.address,
      rdns: ip.rdns,
      description: ip.description,
      protection: ip.protection ? `layer 4 ${ip.protection.layer4}, layer 7 ${ip.protection.layer7}` : 'none',
    })),
  }));
}

const UPDATE_DELAY_MS = 50;

/** The newest requests the page holds, and a page opened late gets; it says how many there are in all. */
export const DASHBOARD_REQUEST_ROWS = 500;

/** How many pages may watch at once; one more is answered 503. */
export const MAX_WATCHERS = 32;

/**
 * How long one stream stays open. A page's EventSource reconnects at once and gets a fresh view,
 * so a page never notices; a connection that never reads holds its place this long at most.
 */
export const WATCHER_MAX_AGE_MS = 5 * 60_000;

/** How long a page may leave an update unread before its stream is closed (it reconnects when it reads again). */
export const WATCHER_STALL_MS = 30_000;

/**
 * How much may wait unsent for one page. A page that stops reading (a paused tab) gets no more
 * updates until it drains; one whose buffer still passes this is closed, and its EventSource
 * reconnects for a fresh view.
 */
export const WATCHER_BUFFER_BYTES = 4 * 1024 * 1024;

/** How long streams live; tests shorten them. */
export interface WatcherTimeouts {
  readonly maxAgeMs: number;
  readonly stallMs: number;
}

interface Watcher {
  readonly res: ServerResponse;
  readonly openedAt: number;
  /** How many requests (counted since the start) it has had. */
  sent: number;
  /** Set while its connection holds more than it can take: it hears of changes after `drain`. */
  behind: boolean;
  /** While behind: closes the stream unless it drains in time. */
  stall?: NodeJS.Timeout;
}

/** The pages watching: each gets the view, and the requests it has not had yet. */
export class DashboardStream {
  private readonly watchers = new Set<Watcher>();
  private pending?: NodeJS.Timeout;

  constructor(
    private readonly sources: DashboardSources,
    private readonly timeouts: WatcherTimeouts = { maxAgeMs: WATCHER_MAX_AGE_MS, stallMs: WATCHER_STALL_MS },
  ) {}

  /**
   * Answers `GET /__simulator/events`: the stream stays open until the page goes, it stalls (leaves
   * an update unread for `stallMs`), or it is `maxAgeMs` old; a page's EventSource then reconnects.
   */
  public watch(res: ServerResponse): void {
    if (this.watchers.size >= MAX_WATCHERS) {
      const retry = Math.ceil(this.untilAPlaceFrees() / 1000);
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': String(retry) })
        .end(JSON.stringify({
          error: `${this.watchers.size} live pages are open, the most one simulator serves: close one, or retry in ${retry} s, `
            + `when the oldest stream ends (streams last ${Math.round(this.timeouts.maxAgeMs / 1000)} s, and its page reconnects)`,
        }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    const watcher: Watcher = { res, openedAt: Date.now(), sent: 0, behind: false };
    this.watchers.add(watcher);
    const expiry = setTimeout(() => res.destroy(), this.timeouts.maxAgeMs).unref();
    res.on('close', () => {
      clearTimeout(expiry);
      clearTimeout(watcher.stall);
      this.watchers.delete(watcher);
    });
    this.send(watcher, this.sources.view());
  }

  /** Milliseconds until the oldest stream ends by age. */
  private untilAPlaceFrees(): number {
    const oldest = Math.min(...[...this.watchers].map((w) => w.openedAt));
    return Math.max(1000, oldest + this.timeouts.maxAgeMs - Date.now());
  }

  /** How many pages watch now. */
  public get watching(): number {
    return this.watchers.size;
  }

  /** Something changed: the pages hear of it shortly, once for a burst of requests. */
  public changed(): void {
    if (this.pending || this.watchers.size === 0) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      const view = this.sources.view();
      for (const watcher of this.watchers) this.send(watcher, view);
    }, UPDATE_DELAY_MS);
    this.pending.unref();
  }

  private send(watcher: Watcher, view: DashboardView): void {
    if (watcher.behind) return;
    const { requests } = this.sources;
    const unsent = requests.since(Math.max(watcher.sent, requests.total - DASHBOARD_REQUEST_ROWS));
    const update = {
      ...view,
      requests: unsent,
      requestCount: requests.total,
      requestsDropped: requests.dropped,
      requestsKept: requests.count,
      requestLogSize: requests.size,
      requestLogBytes: requests.maxBytes,
      requestRows: DASHBOARD_REQUEST_ROWS,
    };
    watcher.sent = requests.total;
    // One line of JSON: JSON.stringify escapes every newline, so no text from the account can end the event.
    const flushed = watcher.res.write(`event: update\ndata: ${JSON.stringify(update)}\n\n`);
    if (watcher.res.writableLength > WATCHER_BUFFER_BYTES) {
      watcher.res.destroy();
      return;
    }
    if (!flushed) {
      watcher.behind = true;
      // A page that reads nothing for this long has gone (or never read): its place goes to another.
      watcher.stall = setTimeout(() => watcher.res.destroy(), this.timeouts.stallMs).unref();
      watcher.res.once('drain', () => {
        clearTimeout(watcher.stall);
        watcher.behind = false;
        this.send(watcher, this.sources.view());
      });
    }
  }
}
