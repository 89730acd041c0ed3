import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import type { Value } from '../plugin/values';

/**
 * What the provider keeps beside a resource's state (Terraform's `private` bytes): never shown in a
 * plan, carried from plan to apply and stored with the state.
 */
export interface PrivateState {
  /** Random per resource instance (create or import), so a replacement never meets its predecessor's keys. */
  readonly instance?: string;
  /**
   * How many applies of this instance returned, successful or not. Keys of a later apply differ, so
   * neither A → B → A nor a retry after a failure takes an earlier apply's stored answer for its own;
   * an apply killed before it returned keeps its generation, so a re-run may replay (and not repeat).
   */
  readonly generation?: number;
  /** The values observed before this resource first changed them, per attribute (OnDestroy.RESTORE). */
  readonly restore?: Readonly<Record<string, Value>>;
  /** Which IP settings fields this token may edit, from the last read. */
  readonly editable?: Readonly<Record<string, boolean>>;
  /**
   * The create failed halfway: Terraform taints the object and plans its replacement, whose plan
   * takes over `restore` (the values from before that create) through the refresh of this object
   * (plan phase) and through the removal of this object (apply phase, which plans again).
   */
  readonly incomplete?: boolean;
  /**
   * The plan of a replacement for an incomplete create. Terraform hands the replacement's private
   * data to the removal of the old object too: that removal restores nothing, so values are not
   * written back only to be written again (rDNS flipping), and the replacement converges from
   * where the create stopped.
   */
  readonly replacesIncomplete?: boolean;
  /**
   * The firewall a create's plan read to say what it takes over, for the apply Terraform runs right
   * after that plan: its diff needs no second read. Never kept in the state.
   */
  readonly observedFirewall?: { readonly enabled: boolean; readonly rulesets: readonly number[] };
}

const valueSchema: z.ZodMiniType<Value> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(valueSchema), z.record(z.string(), valueSchema)]));

const privateStateSchema: z.ZodMiniType<PrivateState> = z.object({
  instance: z.optional(z.string().check(z.minLength(1))),
  generation: z.optional(z.int().check(z.nonnegative())),
  restore: z.optional(z.record(z.string(), valueSchema)),
  editable: z.optional(z.record(z.string(), z.boolean())),
  incomplete: z.optional(z.boolean()),
  replacesIncomplete: z.optional(z.boolean()),
  observedFirewall: z.optional(z.object({ enabled: z.boolean(), rulesets: z.array(z.int().check(z.nonnegative())) })),
});

/**
 * The stored bytes, checked: a member of the wrong shape (bytes of another provider version, or
 * edited by hand) is an error that says so, never a key namespace or restore value made of it.
 */
export function decodePrivate(bytes: Uint8Array | undefined): PrivateState {
  if (!bytes || bytes.length === 0) return {};
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new Error('the provider\'s private data of this resource is not JSON; remove the resource from the state and import it again');
  }
  const parsed = privateStateSchema.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ');
    throw new Error(`the provider's private data of this resource is malformed at ${where}; remove the resource from the state and import it again`);
  }
  return parsed.data;
}

export function encodePrivate(state: PrivateState): Buffer {
  return Buffer.from(JSON.stringify(state));
}

/** A resource instance that has none yet gets one; everything else is kept. */
export function withInstance(state: PrivateState): PrivateState {
  return state.instance ? state : { ...state, instance: randomUUID() };
}

/** The part of every Idempotency-Key that names the resource instance and this apply. */
export function keyNamespace(state: PrivateState): string {
  return `${state.instance ?? 'unplanned'}.${state.generation ?? 0}`;
}

/**
 * After writes: the first observed value of each written attribute (later changes keep the first,
 * so RESTORE returns to what was there before this resource).
 */
export function withRestoreValues(state: PrivateState, observedBefore: Readonly<Record<string, Value>>): PrivateState {
  if (Object.keys(observedBefore).length === 0) return state;
  return { ...state, restore: { ...observedBefore, ...state.restore } };
}

/** After an apply returned, whatever it did: its keys are not used again. */
export function nextGeneration(state: PrivateState): PrivateState {
  return { ...state, generation: (state.generation ?? 0) + 1 };
}
