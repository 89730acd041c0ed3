import { createHash } from 'node:crypto';
import type { SeedToken, SimulatorSeed } from './seed';
import {
  scopesForAction,
  type Firewall,
  type IpSettings,
  type Metrics,
  type Operation,
  type OperationStatus,
  type PowerAction,
  type PowerValue,
  type Ruleset,
  type Scope,
  type Server,
  type ServerDetail,
  type ServerStatus,
  type Traffic,
} from '../api/schemas';

export interface TokenRecord {
  readonly id: string;
  readonly name: string;
  readonly accountId: number;
  readonly type: 'personal_token' | 'reseller_token';
  readonly scopes: ReadonlySet<Scope>;
  readonly expiresAt: number;
  revoked: boolean;
  readonly allowlist?: readonly string[];
}

export interface ServerRecord {
  readonly accountId: number;
  server: Server;
  firewall?: Firewall;
  readonly ipSettings: Map<string, IpSettings>;
  activeAt?: number;
  readonly metrics?: Metrics;
  readonly traffic?: Traffic;
  /** Starts, reboots and resets that took effect: how tests count reboots. */
  bootCount: number;
  currentOperationId?: string;
}

/** How an operation ends; set by a fault, otherwise `succeeded` with its effect. */
export interface OperationOutcome {
  readonly status: Extract<OperationStatus, 'succeeded' | 'failed' | 'timed_out' | 'outcome_unknown'>;
  /** Whether the power change happens, whatever the status says. */
  readonly takesEffect: boolean;
  readonly message?: string;
}

interface OperationRecord {
  operation: Operation;
  readonly runningAt: number;
  readonly finalAt: number;
  readonly outcome: OperationOutcome;
}

/** An out-of-band change, as made in the control panel. */
export interface DriftChange {
  readonly power?: PowerValue;
  readonly status?: ServerStatus;
  readonly firewall?: Partial<Firewall>;
  readonly ip?: { readonly address: string } & Partial<IpSettings>;
}

/** One change the simulator really carried out (replays are not listed). */
export interface ExecutedWrite {
  readonly serverId: string;
  readonly kind: 'action' | 'firewall' | 'ip_settings';
  readonly detail: string;
  readonly at: number;
}

export interface OperationDelays {
  /** From acceptance to `running`. */
  readonly queuedMs: number;
  /** From `running` to the final status. */
  readonly runningMs: number;
}

export const DEFAULT_OPERATION_DELAYS: OperationDelays = { queuedMs: 150, runningMs: 600 };

const TOKEN_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const POWER_EFFECT: Record<PowerAction, PowerValue> = {
  start: 'running',
  shutdown: 'stopped',
  power_off: 'stopped',
  reboot: 'running',
  reset: 'running',
};

export function hashToken(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * The account data behind the simulator. Time-driven changes (operations progressing, servers
 * finishing provisioning) happen lazily in `settle`, which every request calls first, so there are
 * no timers to leak and an injected clock drives everything.
 */
export class SimulatorState {
  public readonly rulesets: Ruleset[];
  public readonly executed: ExecutedWrite[] = [];
  private readonly tokensByHash = new Map<string, TokenRecord>();
  private readonly servers = new Map<string, ServerRecord>();
  private readonly operations = new Map<string, OperationRecord>();
  private operationCounter = 0;

  constructor(
    private readonly seed: SimulatorSeed,
    private readonly now: () => number,
    public operationDelays: OperationDelays,
  ) {
    this.rulesets = [];
    for (const t of seed.tokens) this.addToken(t);
    this.loadAccount();
  }

  /**
   * Back to the account the simulator started with: servers, settings, rule sets and operations as
   * seeded, no writes carried out. A fresh account per test run, without a restart. Tokens stay as
   * they are: a test harness holds the ones it made (the testing kit's own token among them).
   */
  public reset(): void {
    this.servers.clear();
    this.operations.clear();
    this.executed.splice(0);
    this.loadAccount();
  }

  private loadAccount(): void {
    const { seed, now } = this;
    const start = now();
    for (const s of seed.servers) {
      this.servers.set(s.server.id, {
        accountId: s.accountId,
        server: structuredClone(s.server),
        firewall: s.firewall && structuredClone(s.firewall),
        ipSettings: new Map((s.ipSettings ?? []).map((ip) => [ip.address, structuredClone(ip)])),
        activeAt: s.activeAfterMs === undefined ? undefined : start + s.activeAfterMs,
        metrics: s.metrics,
        traffic: s.traffic,
        bootCount: 0,
      });
    }
    this.rulesets.splice(0, this.rulesets.length, ...seed.rulesets.map((r) => ({ ...r })));
  }

  /** A token valid from now on; without `expiresAt`, for 30 days. */
  public addToken(t: SeedToken): void {
    this.tokensByHash.set(hashToken(t.secret), {
      id: `tok_${hashToken(t.secret).slice(0, 12)}`,
      name: t.name,
      accountId: t.accountId,
      type: t.type,
      scopes: new Set(t.scopes),
      expiresAt: t.expiresAt ?? this.now() + TOKEN_LIFETIME_MS,
      revoked: t.revoked ?? false,
      allowlist: t.allowlist,
    });
  }

  public tokenBySecret(secret: string): TokenRecord | undefined {
    return this.tokensByHash.get(hashToken(secret));
  }

  public revokeToken(name: string): void {
    for (const token of this.tokensByHash.values()) {
      if (token.name === name) token.revoked = true;
    }
  }

  /** A server of this account, or undefined: another account's server does not exist for it. */
  public serverFor(accountId: number, serverId: string): ServerRecord | undefined {
    const record = this.servers.get(serverId);
    return record && record.accountId === accountId ? record : undefined;
  }

  public serversOf(accountId: number): ServerRecord[] {
    return [...this.servers.values()].filter((r) => r.accountId === accountId);
  }

  public allServers(): ServerRecord[] {
    return [...this.servers.values()];
  }

  /** For the control surface: any server, whichever account owns it. */
  public server(serverId: string): ServerRecord {
    const record = this.servers.get(serverId);
    if (!record) {
      throw new Error(`no server ${serverId} in the simulator`);
    }
    return record;
  }

  public settle(): void {
    const now = this.now();
    for (const record of this.servers.values()) {
      if (record.activeAt !== undefined && now >= record.activeAt) {
        record.server = { ...record.server, status: 'active', createdAt: record.server.createdAt ?? new Date(now).toISOString() };
        record.activeAt = undefined;
      }
    }
    for (const op of this.operations.values()) {
      this.advance(op, now);
    }
  }

  public operation(serverId: string, operationId: string): Operation | undefined {
    const op = this.operations.get(operationId);
    return op && op.operation.serverId === serverId ? op.operation : undefined;
  }

  /** What this token may run on this server right now (section 2.3, `actions`). */
  public actionsFor(record: ServerRecord, scopes: ReadonlySet<Scope>): PowerAction[] {
    const { server } = record;
    if (server.accessRole !== 'primary' || server.status !== 'active' || record.currentOperationId) {
      return [];
    }
    const byPower: Record<PowerValue, PowerAction[]> = {
      running: ['shutdown', 'power_off', 'reboot', 'reset'],
      stopped: ['start'],
      unknown: ['start', 'shutdown', 'power_off', 'reboot', 'reset'],
    };
    return byPower[server.power].filter((a) => scopesForAction(a).every((s) => scopes.has(s)));
  }

  public detail(record: ServerRecord, scopes: ReadonlySet<Scope>): ServerDetail {
    const current = record.currentOperationId ? this.operations.get(record.currentOperationId)?.operation ?? null : null;
    return { ...record.server, actions: this.actionsFor(record, scopes), currentOperation: current };
  }

  public startAction(record: ServerRecord, action: PowerAction, outcome: OperationOutcome): Operation {
    const now = this.now();
    const id = `op_${String(++this.operationCounter).padStart(6, '0')}`;
    const operation: Operation = {
      id,
      serverId: record.server.id,
      action,
      status: 'queued',
      message: null,
      requestedAt: new Date(now).toISOString(),
      completedAt: null,
    };
    const op: OperationRecord = {
      operation,
      runningAt: now + this.operationDelays.queuedMs,
      finalAt: now + this.operationDelays.queuedMs + this.operationDelays.runningMs,
      outcome,
    };
    this.operations.set(id, op);
    record.currentOperationId = id;
    this.executed.push({ serverId: record.server.id, kind: 'action', detail: action, at: now });
    this.advance(op, now);
    return { ...op.operation };
  }

  public setFirewall(record: ServerRecord, change: Partial<Firewall>): Firewall {
    record.firewall = { ...record.firewall!, ...change };
    this.executed.push({ serverId: record.server.id, kind: 'firewall', detail: JSON.stringify(change), at: this.now() });
    return { ...record.firewall };
  }

  public setIpSetting(record: ServerRecord, address: string, change: Partial<IpSettings>): IpSettings {
    const updated = { ...record.ipSettings.get(address)!, ...change };
    record.ipSettings.set(address, updated);
    this.executed.push({ serverId: record.server.id, kind: 'ip_settings', detail: JSON.stringify(change), at: this.now() });
    return { ...updated };
  }

  /** Out-of-band changes ("drift"): made as if in the control panel, not counted as executed writes. */
  public drift(serverId: string, change: DriftChange): void {
    // Made now: operations that ended by now have had their effect first.
    this.settle();
    const record = this.server(serverId);
    if (change.power || change.status) {
      record.server = { ...record.server, ...(change.power && { power: change.power }), ...(change.status && { status: change.status }) };
    }
    if (change.firewall) {
      record.firewall = { ...record.firewall!, ...change.firewall };
    }
    if (change.ip) {
      const current = record.ipSettings.get(change.ip.address);
      if (!current) throw new Error(`server ${serverId} has no address ${change.ip.address}`);
      record.ipSettings.set(change.ip.address, { ...current, ...change.ip });
    }
  }

  private advance(op: OperationRecord, now: number): void {
    const { operation } = op;
    if (operation.status === 'queued' && now >= op.runningAt) {
      operation.status = 'running';
    }
    if (operation.status !== 'running' || now < op.finalAt) {
      return;
    }
    const record = this.servers.get(operation.serverId)!;
    operation.status = op.outcome.status;
    operation.completedAt = new Date(now).toISOString();
    operation.message = op.outcome.message ?? (op.outcome.status === 'succeeded' ? null : defaultMessage(op.outcome.status));
    if (op.outcome.takesEffect) {
      const action = operation.action as PowerAction;
      record.server = { ...record.server, power: POWER_EFFECT[action] };
      if (action === 'start' || action === 'reboot' || action === 'reset') {
        record.bootCount += 1;
      }
    }
    if (record.currentOperationId === operation.id) {
      record.currentOperationId = undefined;
    }
  }
}

function defaultMessage(status: OperationStatus): string {
  switch (status) {
    case 'failed':
      return 'the server reported that the action failed';
    case 'timed_out':
      return 'the server did not confirm the action in time';
    default:
      return 'the action was sent but its result could not be confirmed';
  }
}
