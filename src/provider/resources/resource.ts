import type { ReconcileContext } from '../../reconcile/context';
import type { Diagnostic } from '../diagnostics';
import type { schemaOf } from '../schema';
import type { Value } from '../values';

/** A resource object as Terraform sends it: every schema attribute, null where unset. */
export type ObjectValue = Record<string, Value>;

export interface PlannedChange {
  readonly planned: ObjectValue;
  /** Attributes whose change replaces the resource. */
  readonly requiresReplace: readonly string[];
}

/** One resource type of the provider, over the reconcile engine. */
export interface ProviderResource {
  readonly typeName: string;
  readonly schema: ReturnType<typeof schemaOf>;
  /** The same rules as the constructs' synth-time checks, naming the attribute. */
  validate(config: ObjectValue): Diagnostic[];
  /** The actual values, or null when the object is gone (Terraform then drops it from state). */
  read(ctx: ReconcileContext, state: ObjectValue): Promise<ObjectValue | null>;
  plan(ctx: ReconcileContext, prior: ObjectValue | null, config: ObjectValue): Promise<PlannedChange>;
  /** Writes only what differs; returns the new state. */
  apply(ctx: ReconcileContext, config: ObjectValue, planned: ObjectValue): Promise<ObjectValue>;
  /** The skeleton state of `terraform import <address> <id>`; ReadResource fills it in. */
  importState(id: string): ObjectValue;
}
