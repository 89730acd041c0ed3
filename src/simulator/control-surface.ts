import { createHmac, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { driftChangeSchema, faultRuleSchema, identityChallengeSchema, newTokenSchema, parseControlBody } from './control-bodies';
import type { FaultInjector } from './faults';
import { parseJsonBody, writeJson } from './http';
import type { RequestLog } from './request-log';
import type { SimulatorState } from './state';

/** What the control surface reads and changes. */
export interface ControlSurfaceParts {
  readonly state: SimulatorState;
  readonly faults: FaultInjector;
  readonly requests: RequestLog;
  /** Back to the seeded account (`SimulatorState.reset` and everything the API remembers of the old one). */
  readonly resetAccount: () => void;
  /** The account new tokens belong to. */
  readonly accountId: number;
  /** What `POST /identity` proves this simulator holds (SimulatorOptions.identitySecret). */
  readonly identitySecret?: string;
}

/**
 * The control surface below `/__simulator` (docs/guides/simulator.md, "The simulator by hand"):
 * what tests and people use to read the account and every request, add faults, drift a server and
 * mint narrower tokens. Who may call it is checked before (request-guard.ts).
 */
export class ControlSurface {
  private mintedTokens = 0;

  constructor(private readonly parts: ControlSurfaceParts) {}

  public answer(method: string, path: string, body: string, res: ServerResponse): void {
    try {
      this.route(method, path, parseJsonBody(body), res);
    } catch (err) {
      writeJson(res, 400, { error: (err as Error).message });
    }
  }

  private route(method: string, path: string, input: unknown, res: ServerResponse): void {
    const { state, faults, requests } = this.parts;
    if (method === 'GET' && path === '/state') return writeJson(res, 200, stateSnapshot(state));
    if (method === 'GET' && path === '/requests') {
      // An array, as before the log was bounded; how many were let go travels beside it.
      return writeJson(res, 200, requests.since(), { 'simulator-requests-total': String(requests.total), 'simulator-requests-dropped': String(requests.dropped) });
    }
    if (method === 'GET' && path === '/executed') return writeJson(res, 200, state.executed);
    if (method === 'POST' && path === '/faults') return this.addFault(input, res);
    if (method === 'DELETE' && path === '/faults') {
      faults.clear();
      return writeJson(res, 200, { cleared: true });
    }
    if (method === 'POST' && path === '/tokens') return this.mintToken(input, res);
    if (method === 'POST' && path === '/identity') return this.proveIdentity(input, res);
    if (method === 'POST' && path === '/reset') {
      this.parts.resetAccount();
      return writeJson(res, 200, { reset: true });
    }
    const drift = /^\/servers\/([^/]+)$/.exec(path);
    if (method === 'PATCH' && drift) return this.drift(decodeURIComponent(drift[1]), input, res);
    return writeJson(res, 404, { error: `no control endpoint ${method} /__simulator${path}` });
  }

  private addFault(input: unknown, res: ServerResponse): void {
    const parsed = parseControlBody(faultRuleSchema, input);
    if ('problems' in parsed) return writeJson(res, 400, { error: `invalid fault rule: ${parsed.problems.join('; ')}` });
    return writeJson(res, 201, { id: this.parts.faults.add(parsed.value) });
  }

  /** The HMAC of the caller's challenge under the identity secret: proof without showing the secret, never the same twice. */
  private proveIdentity(input: unknown, res: ServerResponse): void {
    const secret = this.parts.identitySecret;
    if (secret === undefined) return writeJson(res, 404, { error: 'this simulator was not started by "simulator start": it has no identity to prove' });
    const parsed = parseControlBody(identityChallengeSchema, input);
    if ('problems' in parsed) return writeJson(res, 400, { error: `invalid challenge: ${parsed.problems.join('; ')}` });
    return writeJson(res, 200, { proof: identityProof(secret, parsed.value.challenge) });
  }

  private mintToken(input: unknown, res: ServerResponse): void {
    const parsed = parseControlBody(newTokenSchema, input);
    if ('problems' in parsed) return writeJson(res, 400, { error: `invalid token: ${parsed.problems.join('; ')}` });
    const name = parsed.value.name ?? `token-${++this.mintedTokens}`;
    const secret = `hsim_${name.replace(/-/g, '_')}_${randomBytes(8).toString('hex')}`;
    this.parts.state.addToken({ name, secret, scopes: parsed.value.scopes, accountId: this.parts.accountId, type: 'personal_token' });
    return writeJson(res, 201, { name, secret, scopes: parsed.value.scopes });
  }

  private drift(serverId: string, input: unknown, res: ServerResponse): void {
    const parsed = parseControlBody(driftChangeSchema, input);
    if ('problems' in parsed) return writeJson(res, 400, { error: `invalid change: ${parsed.problems.join('; ')}` });
    this.parts.state.drift(serverId, parsed.value);
    return writeJson(res, 200, stateSnapshot(this.parts.state).servers.find((s) => s.server.id === serverId));
  }
}

/** `GET /__simulator/state`: every server with its firewall or addresses' settings, and the writes carried out. */
export function stateSnapshot(state: SimulatorState) {
  return {
    servers: state.allServers().map((r) => ({
      server: r.server,
      firewall: r.firewall,
      ipSettings: [...r.ipSettings.values()],
      bootCount: r.bootCount,
      currentOperationId: r.currentOperationId,
    })),
    executed: state.executed,
  };
}

/** What a simulator holding `secret` answers to `challenge` (`simulator stop` computes it too). */
export const identityProof = (secret: string, challenge: string): string =>
  createHmac('sha256', secret).update(`cdktf-server-hosting/simulator-identity\n${challenge}`).digest('hex');
