import { createHash, randomBytes } from 'node:crypto';
import { canonicalJson } from '../../reconcile/keys';
import { UNKNOWN, type Value } from '../plugin/values';
import type { AttributeSpec } from '../schema';

/**
 * Why the keys of the provider's writes come from the state and the configuration, never from its
 * private data: Terraform keeps a resource's prior values through any crash, but when the provider
 * dies during ApplyResourceChange it stores the private data of an answer it never got (none).
 * docs/guides/design.md (*Keys that survive a crash*) has the table of crashes this covers.
 */
export const APPLY_ID = 'apply_id';

export const APPLY_ID_ATTRIBUTE: AttributeSpec = {
  name: APPLY_ID,
  type: 'string',
  computed: true,
  description:
    'Drawn anew by every apply that changes this resource (and by a create or an import). The Idempotency-Keys of an apply derive from the value before it, which Terraform keeps even when the provider dies mid-apply: the next apply replays what the interrupted one sent instead of doing it twice, and a later change (A to B and back again, a reboot for the same triggers) never meets an earlier one\'s keys.',
};

/** A new apply id: 96 random bits, URL-safe. */
export const newApplyId = (): string => randomBytes(12).toString('base64url');

const withoutApplyId = (values: Readonly<Record<string, Value>>): Record<string, Value> => {
  const { [APPLY_ID]: _, ...rest } = values;
  return rest;
};

/** Unknown values compare (and key) as this text: they never equal a known value. */
const forJson = (value: Value): unknown =>
  value === UNKNOWN ? '(unknown)' : Array.isArray(value) ? value.map(forJson) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forJson(v)])) : value;

/** A configuration as canonical text (unknown values marked): the same text for the same configuration in any process. */
export const configText = (config: Readonly<Record<string, Value>>): string => canonicalJson(forJson(withoutApplyId(config)));

/**
 * The planned apply id: the prior one when the plan changes nothing else (Terraform then applies
 * nothing), else known only after the apply that draws it.
 */
export function plannedApplyId(prior: Readonly<Record<string, Value>> | null, planned: Readonly<Record<string, Value>>): Value {
  if (prior === null) return UNKNOWN;
  const same = canonicalJson(forJson(withoutApplyId(prior))) === canonicalJson(forJson(withoutApplyId(planned)));
  return same ? (prior[APPLY_ID] ?? null) : UNKNOWN;
}

/**
 * What keys every write of one change: the resource type, the apply id before it (null for a create,
 * or a state written before apply ids) and the configuration (what the user wrote, the same in a
 * re-run whatever the refresh reads). `step` tells writes of one change apart (`restore` on removal).
 */
export function changeIdOf(typeName: string, prior: Readonly<Record<string, Value>> | null, config: Readonly<Record<string, Value>> | null, step = 'apply'): string {
  const material = canonicalJson([typeName, step, prior?.[APPLY_ID] ?? null, config === null ? null : configText(config)]);
  return createHash('sha256').update(material).digest('base64url').slice(0, 32);
}
