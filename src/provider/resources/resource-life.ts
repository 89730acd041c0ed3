import { createHash, randomBytes } from 'node:crypto';
import { UNKNOWN, type Value } from '../plugin/values';
import type { AttributeSpec } from '../schema';

/**
 * What tells one life of a resource from every other: drawn when Terraform creates or imports it
 * (any address, any re-creation), kept in the state through refreshes, crashes and `moved` blocks.
 * Terraform keeps the prior values when the provider dies mid-apply, so a life outlives any crash;
 * a destroy, `-replace`, `state rm` or a new address starts another. docs/guides/design.md
 * (*What each identity names*) has the table.
 */
export const LIFE_ID = 'life_id';

export const LIFE_ID_ATTRIBUTE: AttributeSpec = {
  name: LIFE_ID,
  type: 'string',
  computed: true,
  description:
    'Names this life of the resource: drawn when it is created or imported, kept until it is destroyed or replaced. Every reboot\'s Idempotency-Key derives from it, so a re-created resource never meets a reboot of an earlier one. Nothing you set changes it.',
};

/** 96 random bits, URL-safe: no two lives share one. */
export const newLifeId = (): string => `life-${randomBytes(12).toString('base64url')}`;

/**
 * The planned life: the prior's, through every update; a create's is drawn by its apply, so the
 * plan shows it as known after apply. A state written before lives holds none, and keeps none
 * until it is created again: no plan shows a change the user did not make.
 */
export const plannedLife = (prior: Readonly<Record<string, Value>> | null): Value => (prior === null ? UNKNOWN : (prior[LIFE_ID] ?? null));

/** The life an apply records: the planned one, or a new one for a create. */
export const appliedLife = (planned: Value): string | null => (typeof planned === 'string' ? planned : planned === UNKNOWN ? newLifeId() : null);

/**
 * The life of a resource moved from a bridge: the bridge resource's own (its state holds its id),
 * so every walk that moves it gives the same, and no other bridge resource's move gives it.
 */
export const lifeOfBridge = (sourceState: Uint8Array | undefined): string =>
  `life-${createHash('sha256').update('cdktf-server-hosting/moved-life\n').update(sourceState ?? new Uint8Array()).digest('base64url').slice(0, 16)}`;
