import { createHash } from 'node:crypto';

/**
 * What one write is for: nothing else goes into its Idempotency-Key (docs/guides/design.md, *One
 * key per intended action*). Timeouts, stop method, fallback, on_destroy, expect_takeover and every
 * other setting that does not change what is written are not here, so editing them never makes a
 * sent action look new.
 */
export interface KeyInput {
  /** The account the write goes to (`HostingApiClient.accountScope`): two accounts never share a key. */
  readonly account: string;
  /**
   * What tells this intent from every earlier one of the same resource: the bridge resource
   * instance's id (new with every replacement), the provider's id of one apply (new with every
   * apply), or for a reboot the generation of its trigger change (the same after a crash).
   */
  readonly intent: string;
  readonly kind: string;
  readonly serverId: string;
  /** The field or action the write is for, e.g. `rdns` or `shutdown`. */
  readonly step: string;
  /** The value the write sets, or what the action is for. */
  readonly desired: unknown;
  readonly observed: unknown;
  /** 1 for the first try; a deliberate second try after `outcome_unknown` gets 2. */
  readonly attempt: number;
}

/**
 * A deterministic Idempotency-Key. The same write sent again within its intent (a retry after a lost
 * answer, or a reboot's re-run after a crash) gets the same key, so it is replayed, never executed
 * again; any other account, intent, server, step, value or attempt gets another key.
 * 8-128 characters of [A-Za-z0-9_-] (section 4, rule 2).
 */
export function idempotencyKey(input: KeyInput): string {
  const material = canonicalJson([
    'cdktf-server-hosting/v2',
    input.account,
    input.intent,
    input.kind,
    input.serverId,
    input.step,
    input.desired ?? null,
    input.observed ?? null,
    input.attempt,
  ]);
  const digest = createHash('sha256').update(material).digest('base64url');
  const step = input.step.replace(/[^A-Za-z0-9]/g, '').slice(0, 24);
  return `csh-${step}-${digest}`;
}

/** JSON with object keys sorted, so equal values give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]))
      : v,
  );
}
