import { resourceDocumentSchema } from '../../reconcile/resource-document-schema';
import { errorAt, type Diagnostic } from '../diagnostics';
import type { PrivateState } from '../private-state';
import type { schemaOf } from '../schema';
import type { ProviderSession } from '../session';
import { UNKNOWN, type Value } from '../values';

/** A resource object as Terraform sends it: every schema attribute, null where unset. */
export type ObjectValue = Record<string, Value>;

export interface PlannedChange {
  readonly planned: ObjectValue;
  /** Attributes whose change replaces the resource. */
  readonly requiresReplace: readonly string[];
  readonly private: PrivateState;
  /** Refusals known at plan time (e.g. a field this token may not edit), naming the attribute. */
  readonly diagnostics?: readonly Diagnostic[];
}

export interface ResourceState {
  /** Null when the object is gone: Terraform then drops it from state. */
  readonly state: ObjectValue | null;
  readonly private: PrivateState;
}

/** The outcome of an apply; with `error`, `state` holds what was applied before it (partial failure). */
export interface AppliedChange extends ResourceState {
  readonly error?: unknown;
}

export interface ApplyRequest {
  /** Null for a create. */
  readonly prior: ObjectValue | null;
  readonly planned: ObjectValue;
  readonly config: ObjectValue;
  readonly private: PrivateState;
}

/** One resource type of the provider, over the reconcile engine. */
export interface ProviderResource {
  readonly typeName: string;
  readonly schema: ReturnType<typeof schemaOf>;
  /** The same rules as the constructs' synth-time checks, naming the attribute. */
  validate(config: ObjectValue): Diagnostic[];
  /** One fresh read of the actual values. */
  read(session: ProviderSession, state: ObjectValue, priv: PrivateState): Promise<ResourceState>;
  plan(session: ProviderSession, prior: ObjectValue | null, config: ObjectValue, priv: PrivateState): Promise<PlannedChange>;
  /** Create or update: writes only what differs from the actual values. */
  apply(session: ProviderSession, request: ApplyRequest): Promise<AppliedChange>;
  /** Removal from Terraform: retains, or restores when asked to; warnings and errors as diagnostics. */
  destroy(session: ProviderSession, prior: ObjectValue, priv: PrivateState): Promise<Diagnostic[]>;
  /** The skeleton state of `terraform import <address> <id>`; ReadResource fills it in. Throws on a malformed id. */
  importState(id: string): ObjectValue;
}

export const isKnown = (v: Value): boolean =>
  v !== UNKNOWN && (Array.isArray(v) ? v.every(isKnown) : v === null || typeof v !== 'object' || Object.values(v).every(isKnown));

/** The value for validation: a placeholder that passes when Terraform does not know it yet. */
export const knownOr = <T>(value: Value, placeholder: T): T | Value => (isKnown(value) ? value : placeholder);

/** Null (unset) as undefined, the document's "not managed". */
export const setOrUndefined = <T>(value: Value): T | undefined => (value === null ? undefined : (value as T));

/**
 * Checks a resource document built from the configuration with the handler's own schema, so HCL
 * users, synth-time users and the bridges share one set of rules; `attributeOf` maps a document
 * path to the attribute that holds it.
 */
export function validateDocument(typeName: string, doc: unknown, attributeOf: (path: readonly PropertyKey[]) => string | undefined): Diagnostic[] {
  const parsed = resourceDocumentSchema.safeParse(doc);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const attribute = attributeOf(issue.path);
    return errorAt(attribute, `invalid ${attribute ?? typeName}: ${issue.message}`);
  });
}

const ON_DESTROY_VALUES = ['retain', 'restore'];

export function validateOnDestroy(config: ObjectValue): Diagnostic[] {
  const value = config.on_destroy;
  if (value === null || value === undefined || value === UNKNOWN || ON_DESTROY_VALUES.includes(value as string)) return [];
  return [errorAt('on_destroy', `invalid on_destroy: "${String(value)}"; expected "retain" or "restore"`)];
}

/** The connection part of a document, which the provider's configuration already holds. */
export const PROVIDER_CONNECTION = { tokenEnvVar: 'HOSTING_API_TOKEN' } as const;

/**
 * The planned value of an optional, computed attribute: the configuration's when set, else the
 * prior state's (read from the server, never written), else known only after apply.
 */
export function plannedValue(config: ObjectValue, prior: ObjectValue | null, name: string): Value {
  if (config[name] !== null) return config[name];
  return prior ? prior[name] : UNKNOWN;
}
