import { createHash } from 'node:crypto';

export interface KeyInput {
  /**
   * What names this change wherever it is run again: the bridge resource instance's id (Terraform
   * draws a new one on every replacement), or the provider's change id (`changeIdOf`: the
   * resource's prior `apply_id` and planned values, which Terraform keeps through any crash).
   */
  readonly changeId: string;
  readonly kind: string;
  readonly serverId: string;
  /** The field or action the write is for, e.g. `rdns` or `shutdown`. */
  readonly step: string;
  readonly desired: unknown;
  readonly observed: unknown;
  /** 1 for the first try; a deliberate second try after `outcome_unknown` gets 2. */
  readonly attempt: number;
}

/**
 * A deterministic Idempotency-Key. The same write sent again, in this run or in the next one after
 * a process died, gets the same key, so a lost response is replayed, never executed again. Anything
 * that makes it a different intent gives a different key: another change (change id), another
 * step, another desired or observed value (so A -> B -> A really writes the last time), a
 * deliberate new attempt.
 * 8-128 characters of [A-Za-z0-9_-] (section 4, rule 2).
 */
export function idempotencyKey(input: KeyInput): string {
  const material = canonicalJson([
    'cdktf-server-hosting/v1',
    input.changeId,
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
