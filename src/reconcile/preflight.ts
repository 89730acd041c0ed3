import { isFinalOperationStatus, scopesForAction, type PowerAction, type Ruleset, type Scope, type Server, type ServerDetail } from '../api/schemas';

/*
 * Refusals a read can predict, decided at plan time from what the run read once (the token's
 * scopes, the server list, the rule sets) or for the one resource (a server's offered actions):
 * a pipeline that plans in a pull request learns of them there, not after the merge. Pure: the
 * caller reads, these decide. The apply keeps its own checks, since things change in between.
 */

export interface Refusal {
  readonly summary: string;
  readonly hint: string;
  /** The scopes the token lacks, when that is the refusal: the same for every write of the run. */
  readonly missingScopes?: readonly Scope[];
}

/** What the refusal is about, in Terraform's words: a resource, or an action (Terraform 1.14+). */
export type ConfigElement = 'resource' | 'action';

/** What the token may do, as GET /connect lists it. */
export interface TokenScopes {
  readonly name: string;
  readonly scopes: readonly string[];
  /** The account the token belongs to (GET /connect). */
  readonly accountId?: number;
}

/** A write to a server shared with the account, or one the token's scopes do not allow. */
export function writeRefusals(label: string, server: Server, token: TokenScopes | undefined, needed: readonly Scope[], what: string, element: ConfigElement = 'resource'): Refusal[] {
  const refusals: Refusal[] = [];
  if (server.accessRole === 'secondary') {
    refusals.push({
      summary: `${label}: the server is shared with this account and is read-only for it, so ${what} would be refused (403 primary_owner_required); nothing was changed`,
      hint: `manage it from the owning account, or remove this ${element}`,
    });
  }
  const missing = token ? needed.filter((scope) => !token.scopes.includes(scope)) : [];
  if (token && missing.length) {
    refusals.push({
      summary: `${label}: token ${JSON.stringify(token.name)} lacks ${missing.join(' and ')}, which ${what} needs (it has ${token.scopes.join(', ') || 'no scope'}); nothing was changed`,
      hint: `create a token with ${needed.join(' and ')} in the control panel's API section`,
      missingScopes: missing,
    });
  }
  return refusals;
}

/** Rule set ids the account does not offer. */
export function unknownRulesetIds(ids: readonly number[], available: readonly Ruleset[]): number[] {
  return ids.filter((id) => !available.some((r) => r.id === id));
}

/** An address the server does not have (GET /servers lists its IPv4 addresses). */
export function foreignAddress(label: string, server: Server, ip: string): Refusal | undefined {
  if (server.ipv4.includes(ip)) return undefined;
  return {
    summary: `${label}: ${ip} is not an address of server ${server.id} (it has ${server.ipv4.join(', ') || 'no IPv4 address'}); nothing was changed`,
    hint: 'use one of the server\'s addresses (the hosting_server_ips data source lists them)',
  };
}

/**
 * A power action the server cannot take now. Statuses that pass by themselves (provisioning,
 * building) and an operation in flight are waited for by the apply, so they refuse nothing; a
 * suspended, failed or terminated server refuses every action, and an active one what the API does
 * not offer this token. `actions` lists what the reading token may run (spec 2.3): a token without
 * the action's scopes (a read-only plan's) is offered nothing, which says nothing of the apply's.
 */
export function actionRefusal(label: string, server: ServerDetail, action: PowerAction, token: TokenScopes | undefined, element: ConfigElement = 'resource'): Refusal | undefined {
  const busy = server.currentOperation !== null && !isFinalOperationStatus(server.currentOperation.status);
  if (server.status === 'suspended' || server.status === 'failed' || server.status === 'terminated') {
    return {
      summary: `${label}: the server is ${server.status}, and power actions are accepted only while it is active, so ${action} would be refused; nothing was changed`,
      hint: server.status === 'terminated' ? `remove this ${element} or point it at another server` : 'resolve the server\'s status in the control panel, then plan again',
    };
  }
  const mayRun = !token || scopesForAction(action).every((scope) => token.scopes.includes(scope));
  if (server.status !== 'active' || busy || server.power === 'unknown' || server.actions.includes(action) || !mayRun) return undefined;
  return {
    summary: `${label}: the API does not offer ${action} for this server now (it is ${server.power}; offered: ${server.actions.join(', ') || 'nothing'}); nothing was changed`,
    hint: `check the server in the control panel${scopesForAction(action).includes('servers:control') ? ' and that the token has servers:control' : ''}, then plan again`,
  };
}
