import type { RpcRequests } from './protocol-driver';
import { APPLY_WALK_PLAN_READ_SECONDS } from '../../src/provider/session';

/*
 * The request budget the docs state (issue 74 §2, the GitOps guide's "What each case costs"), as
 * an oracle of the model-based tests: what each resource RPC of a run may send the API.
 */

/** Reads each provider process makes once, whatever its resources: the token's test, the server list, the rule sets. */
const PER_PROCESS = new Set(['GET /connect', 'GET /servers', 'GET /firewall/rulesets']);
const POLL = 'GET /servers/{serverId}/operations/{operationId}';
const RULESETS = 'GET /firewall/rulesets';

/** A read of one resource's own: not a process's shared read, not an operation's poll. */
const isRead = (endpoint: string): boolean => endpoint.startsWith('GET ') && !PER_PROCESS.has(endpoint) && endpoint !== POLL;

/**
 * Whether the read at `i` ends an operation's wait: the server as the operation left it, read
 * right after the polls; with `rereads`, also each read of it again in a row, until it shows what
 * the operation did.
 */
function endsWait(endpoints: readonly string[], i: number, rereads: boolean): boolean {
  let before = i - 1;
  while (rereads && before >= 0 && endpoints[before] === endpoints[i]) before--;
  return endpoints[before] === POLL;
}

export interface BudgetOptions {
  /**
   * The server may not show what an action did when the apply reads it after the action's polls:
   * the power was moved by hand in the meantime. The apply reads it again until it does, or until
   * its confirming reads (CONFIRM_DELAYS_MS) are spent, and those reads are the wait's.
   */
  readonly rereadsAfterActions?: boolean;
}

/**
 * A request the budget counts: one the API answered with something to go on. A 429, a 5xx or a
 * dropped connection is retried, a read served stale or from a lagging cache is read again, and a
 * refused token (401) fails the run: their requests are the pacing's, the API's and the refusals'
 * concern, not the features'.
 */
const budgeted = ({ status, lagging }: RpcRequests['answers'][number]): boolean => status >= 200 && status < 500 && status !== 401 && status !== 429 && !lagging;

/**
 * Where a run spent more requests than its budget: a refresh and a plan read their resource at
 * most once; an apply reads it at most once more than it writes (each write confirmed by at most
 * one read), its polls aside (the read that ends an operation's wait among them), never the same
 * thing twice in a row, and a firewall's apply may list the rule sets once more (names resolve
 * from a fresh list there), and once again per write the API refused (the list explains which rule
 * set is gone); each process lists the rule sets once besides, and the servers once.
 * The models make no list stale and no server wait to be ready, whose reads are repeated; a run
 * that moves the power mid-apply says so (`rereadsAfterActions`).
 */
export function overBudget(runRequests: readonly RpcRequests[], { rereadsAfterActions = false }: BudgetOptions = {}): string[] {
  const problems: string[] = [];
  const requests = runRequests.map((r) => ({ ...r, endpoints: r.answers.filter(budgeted).map((a) => a.endpoint) }));
  type Counted = (typeof requests)[number];
  const applies = (r: Counted) => r.rpc === 'ApplyResourceChange';
  // A read that ends an operation's wait (the server as the operation left it): a poll too.
  const reads = (r: Counted) => r.endpoints.filter((e, i) => isRead(e) && !endsWait(r.endpoints, i, rereadsAfterActions)).length;
  const writes = (r: Counted) => r.endpoints.filter((e) => !e.startsWith('GET ')).length;
  const refusedWrites = (r: Counted) => r.answers.filter((a) => budgeted(a) && a.status >= 400 && !a.endpoint.startsWith('GET ')).length;
  const count = (rs: readonly Counted[], endpoint: string) => rs.flatMap((r) => r.endpoints).filter((e) => e === endpoint).length;
  for (const r of requests) {
    const allowed = applies(r) ? 1 + writes(r) : 1;
    if (reads(r) > allowed) problems.push(`${r.rpc} of a ${r.type} read ${reads(r)} times: ${r.endpoints.join(', ')}`);
    const repeated = r.endpoints.find((e, i) => isRead(e) && e === r.endpoints[i - 1] && !endsWait(r.endpoints, i, rereadsAfterActions));
    if (repeated) problems.push(`${r.rpc} of a ${r.type} read ${repeated} twice in a row: ${r.endpoints.join(', ')}`);
    if (applies(r) && count([r], RULESETS) > 1 + refusedWrites(r)) problems.push(`${r.rpc} of a ${r.type} listed the rule sets ${count([r], RULESETS)} times`);
  }
  for (const process of new Set(requests.map((r) => r.process))) {
    const its = requests.filter((r) => r.process === process);
    const shared = count(its.filter((r) => !applies(r)), RULESETS);
    if (shared > 1) problems.push(`process ${process} listed the rule sets ${shared} times outside its applies`);
    if (count(its, 'GET /servers') > 1) problems.push(`process ${process} listed the servers ${count(its, 'GET /servers')} times`);
  }
  return problems;
}

/**
 * Where a wait happened that Terraform's output does not show (issue 74 §2): once a process of the
 * apply walk has begun to apply a change, its plans begun since wait at most the few seconds of
 * a plan's read in that walk (a longer wait is the apply's, under Terraform's progress lines). The
 * walk's first plans, begun before any apply, may wait: a process learns that it applies only then.
 * So may a plan that makes a read the process shares (the GitOps guide says why).
 */
export function unseenWaits(requests: readonly RpcRequests[]): string[] {
  const shares = (r: RpcRequests) => r.answers.some((a) => PER_PROCESS.has(a.endpoint));
  return requests
    .filter((r) => r.walk === 'apply' && r.rpc !== 'ApplyResourceChange' && r.afterApply && !shares(r) && r.tookMs > (APPLY_WALK_PLAN_READ_SECONDS + 1) * 1000)
    .map((r) => `${r.rpc} of a ${r.type} waited ${r.tookMs} ms in the apply walk`);
}
