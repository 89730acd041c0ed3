import { warningOfEffect, type PlanEffect } from './effects';
import type { PrivateState } from './private-state';
import type { Scope } from '../../api/schemas';
import { didYouMeanServerId, SERVER_ID_PATTERN } from '../../contract/patterns';
import type { ResourceDocument } from '../../contract/resource-document';
import { writeRefusals, type ConfigElement, type Refusal } from '../../reconcile/preflight';
import { ReconcileError } from '../../reconcile/reconcile-error';
import { resourceSpecSchema } from '../../reconcile/resource-document-schema';
import { closestIds, offered } from '../closest';
import { choiceRefusal, errorAt, warningOf, type Diagnostic } from '../diagnostics';
import { UNKNOWN, type ObjectValue, type Value } from '../plugin/values';
import { CHANGED_SINCE_PLAN_VALUES, type schemaOf } from '../schema';
import { APPLY_WALK_PLAN_READ_SECONDS, READ_ONLY_PLAN_ENV, type ProviderSession } from '../session';

export type { ObjectValue } from '../plugin/values';

export interface PlannedChange {
  readonly planned: ObjectValue;
  /** Attributes whose change replaces the resource. */
  readonly requiresReplace: readonly string[];
  readonly private: PrivateState;
  /** Refusals known at plan time (e.g. a field this token may not edit), naming the attribute, and the forecast of waits. */
  readonly diagnostics?: readonly Diagnostic[];
  /** What the apply will do to the account beyond the values shown, told as warnings (effects.ts). */
  readonly effects?: readonly PlanEffect[];
}

/** What a plan says: its refusals and forecast, then its effects in words. */
export const saidAtPlan = (change: PlannedChange): Diagnostic[] => [...(change.diagnostics ?? []), ...(change.effects ?? []).map(warningOfEffect)];

export interface ResourceState {
  /** Null when the object is gone: Terraform then drops it from state. */
  readonly state: ObjectValue | null;
  readonly private: PrivateState;
}

/**
 * The outcome of an apply; with `error`, `state` holds what was applied before it (partial
 * failure). The caller moves `private` to the next generation, whatever happened.
 */
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

/**
 * What names a resource's remote object (Terraform 1.12+ resource identity): string attributes of
 * its state, in the order the `terraform import` id joins them with `/`.
 */
export interface ResourceIdentity {
  readonly attributes: ReadonlyArray<{ readonly name: string; readonly description: string }>;
}

/** One resource type of the provider, over the reconcile engine. */
export interface ProviderResource {
  readonly typeName: string;
  readonly schema: ReturnType<typeof schemaOf>;
  /** The attributes whose change replaces the resource (the docs say "forces replacement"). */
  readonly replacedBy: readonly string[];
  /** The id `terraform import` takes, e.g. `vps_web_1`, for the docs. */
  readonly importIdExample: string;
  readonly identity: ResourceIdentity;
  /** Whether its writes change what GET /servers shows (power and operations do; settings do not). */
  readonly changesServerList?: boolean;
  /** The same rules as the constructs' synth-time checks, naming the attribute. */
  validate(config: ObjectValue): Diagnostic[];
  /** One fresh read of the actual values. */
  read(session: ProviderSession, state: ObjectValue, priv: PrivateState): Promise<ResourceState>;
  plan(session: ProviderSession, prior: ObjectValue | null, config: ObjectValue, priv: PrivateState): Promise<PlannedChange>;
  /** Create or update: writes only what differs from the actual values. */
  apply(session: ProviderSession, request: ApplyRequest): Promise<AppliedChange>;
  /** Removal from Terraform: retains (saying what stays), or restores when asked to. Throws on failure. */
  destroy(session: ProviderSession, prior: ObjectValue, priv: PrivateState): Promise<void>;
  /** What a removal leaves in place on the server, in one line; undefined when it puts every value back. At most one shared read. */
  leftInPlace(session: ProviderSession, prior: ObjectValue, priv: PrivateState): Promise<string | undefined>;
  /** The skeleton state of `terraform import <address> <id>`; ReadResource fills it in. Throws on a malformed id. */
  importState(id: string): ObjectValue;
  /**
   * The state of a construct moved from a bridge (`movedFromBridge`), from the document its bridge
   * resource kept: the arguments the construct set, so the next plan shows the move and nothing
   * else; ReadResource fills in the actual values. `bridgeLife` names the bridge resource's life
   * (a digest of its state, which holds its id): the same for every walk that moves it.
   */
  stateFromBridge(document: ResourceDocument, bridgeLife: string): ObjectValue;
}

export const isKnown = (v: Value): boolean =>
  v !== UNKNOWN && (Array.isArray(v) ? v.every(isKnown) : v === null || typeof v !== 'object' || Object.values(v).every(isKnown));

/** The value for validation: a placeholder that passes when Terraform does not know it yet. */
export const knownOr = <T>(value: Value, placeholder: T): T | Value => (isKnown(value) ? value : placeholder);

/** The state of `resource` with every attribute null but `values`: an import's skeleton, which ReadResource fills in. */
export const skeletonState = (resource: Pick<ProviderResource, 'schema'>, values: ObjectValue): ObjectValue =>
  ({ ...Object.fromEntries(resource.schema.block.attributes.map((a) => [a.name, null])), ...values });

/** Null (unset) as undefined, the document's "not managed". */
export const setOrUndefined = <T>(value: Value): T | undefined => (value === null ? undefined : (value as T));

/**
 * Checks a resource spec built from the configuration with the handler's own schema, so HCL users,
 * synth-time users and the bridges share one set of rules; `attributeOf` maps a spec path to the
 * attribute that holds it.
 */
export function validateSpec(typeName: string, spec: unknown, attributeOf: (path: readonly PropertyKey[]) => string | undefined): Diagnostic[] {
  const parsed = resourceSpecSchema.safeParse(spec);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const attribute = attributeOf(issue.path);
    return errorAt(attribute, `invalid ${memberOf(attribute, issue.path) ?? typeName}: ${issue.message}`);
  });
}

/** The attribute, or the member of an object attribute the problem is in (`protection.layer4`). */
function memberOf(attribute: string | undefined, path: readonly PropertyKey[]): string | undefined {
  const last = path.at(-1);
  return attribute && path.length > 2 && typeof last === 'string' && last !== attribute ? `${attribute}.${last}` : attribute;
}

export const validateOnDestroy = (config: ObjectValue): Diagnostic[] => choiceRefusal('on_destroy', config.on_destroy, ['retain', 'restore']);

/** A `changed_since_plan` the provider does not know, refused with the one likely meant; `where` names it for the reader. */
export const validateChangedSincePlan = (config: ObjectValue, where?: string): Diagnostic[] =>
  choiceRefusal('changed_since_plan', config.changed_since_plan, CHANGED_SINCE_PLAN_VALUES, where);

/**
 * The planned value of an optional, computed attribute: the configuration's when set, else the
 * prior state's (read from the server, never written), else known only after apply.
 */
export function plannedValue(config: ObjectValue, prior: ObjectValue | null, name: string): Value {
  if (config[name] !== null) return config[name];
  return prior ? prior[name] : UNKNOWN;
}

/**
 * A server id the account does not have is refused at plan time, naming it, when it is new to
 * this resource (a create, or a change that replaces it; an id from a data source is known by
 * then): Terraform would otherwise remove the old object before the apply fails. A server of the
 * wrong kind is refused by the validation Terraform runs again once the id is known. A server the
 * refresh already read needs no check.
 */
export async function checkServerExists(session: ProviderSession, prior: ObjectValue | null, config: ObjectValue): Promise<Diagnostic[]> {
  const serverId = config.server_id;
  if (typeof serverId !== 'string' || (prior && prior.server_id === serverId)) return [];
  if (await session.listedServer(serverId)) return [];
  const servers = (await session.serverList()).data;
  const candidates = closestIds(serverId, servers.map((s) => s.id)).map((id) => `${id} (${JSON.stringify(servers.find((s) => s.id === id)!.name)})`);
  const has = servers.length ? `${offered(servers.length, 'servers', candidates)}; ` : 'the account has no server; ';
  return [errorAt('server_id', `server ${JSON.stringify(serverId)} does not exist on ${session.accountName()}`, `${has}use an id that GET /servers (or the hosting_servers data source) lists for this token; nothing was changed`)];
}

/** A plan-time refusal as Terraform shows it, on the attribute whose value causes it. */
export const refusalAt = (attribute: string | undefined, refusal: Refusal): Diagnostic => errorAt(attribute, refusal.summary, refusal.hint);

/**
 * A write the plan shows that the apply could not make: the server is shared with the account, or
 * the token lacks a scope it needs. From the process's one server list and ConfigureProvider's GET /connect.
 */
export async function checkWrite(
  session: ProviderSession,
  serverId: Value,
  label: string,
  needed: readonly Scope[],
  what: string,
  element: ConfigElement = 'resource',
): Promise<Diagnostic[]> {
  if (typeof serverId !== 'string') return [];
  const server = await session.listedServer(serverId);
  if (!server) return [];
  return writeRefusals(label, server, session.token(), needed, what, element).map((r) => {
    if (!r.missingScopes) return refusalAt(undefined, r);
    // One error per provider configuration: it fails the plan, and the other writes it stops are
    // warnings that Terraform folds into one.
    if (session.readOnlyPlan || !session.firstRefusalOf('scopes')) return scopeTheApplyNeeds(r.missingScopes, r.summary, session.readOnlyPlan);
    return refusalAt(undefined, { ...r, hint: `${r.hint}; or, when this plan's token may only read and the apply has another, set ${READ_ONLY_PLAN_ENV}=on for the plan` });
  });
}

/**
 * A scope the plan's token lacks, where the plan runs with a token that may only read, or where a
 * lack of this token's already failed this plan: one summary per set of scopes, which Terraform
 * folds into one warning; each detail names its write.
 */
function scopeTheApplyNeeds(scopes: readonly Scope[], refusal: string, readOnlyPlan: boolean): Diagnostic {
  const write = refusal.replace(/; nothing was changed$/, '');
  const why = readOnlyPlan ? `${READ_ONLY_PLAN_ENV} is on: this plan's token may only read` : 'the error above, of this token\'s scopes, fails this plan';
  return warningOf(`The apply needs a token with ${scopes.join(' and ')}`, `${write}. ${why}; run the apply with a token that has ${scopes.join(' and ')}.`);
}

/**
 * A settings write (firewall, IP settings) to a server that is not active. The contract says power
 * actions wait for `active`, and is silent about settings (README, "Where the API's contract is
 * silent"): the plan says so, the apply tries and reports the API's answer.
 */
export async function serverNotActive(session: ProviderSession, serverId: Value, label: string, what: string): Promise<PlanEffect[]> {
  if (typeof serverId !== 'string') return [];
  const server = await session.listedServer(serverId);
  if (!server || server.status === 'active') return [];
  return [{ kind: 'server not active', label, status: server.status, what }];
}

/** The attributes of `replacedBy` whose value the configuration changes. */
export function replacing(resource: Pick<ProviderResource, 'replacedBy'>, prior: ObjectValue | null, config: ObjectValue): string[] {
  return prior ? resource.replacedBy.filter((name) => prior[name] !== config[name]) : [];
}

/**
 * What is wrong with an import id that is no server id of the kind a resource takes, e.g.
 * `"vps_web2" is not a server id: a VPS id is vps_<name>_<number> (vps_web_1); did you mean …?`,
 * or undefined when it is one.
 */
export function importIdProblem(id: string, kind: 'vps' | 'ded' | 'any'): string | undefined {
  const shapes = { vps: 'a VPS id, vps_<name>_<number> (vps_web_1)', ded: 'a dedicated server id, ded_<uuid>', any: 'a server id: vps_<name>_<number> (vps_web_1) or ded_<uuid>' };
  if (!SERVER_ID_PATTERN.test(id)) return `${JSON.stringify(id)} is not a server id; the import id is ${shapes[kind]}${didYouMeanServerId(id)}`;
  if (kind !== 'any' && !id.startsWith(`${kind}_`)) return `${JSON.stringify(id)} is a ${id.startsWith('vps_') ? 'VPS' : 'dedicated server'} id; the import id is ${shapes[kind]}`;
  return undefined;
}

/**
 * A plan's read that only checks ahead what its apply does again, in the apply walk: one that would
 * wait past its few seconds for the rate budget (deadline_exceeded) is left to the apply (undefined);
 * any other failure is the plan's.
 */
export async function unlessItWaits<T>(session: ProviderSession, read: (budgetSeconds: number) => Promise<T>): Promise<T | undefined> {
  const seconds = session.planReadSeconds();
  return read(seconds).catch((err: unknown) => {
    const code = err instanceof ReconcileError ? err.apiError?.code : undefined;
    if (code === 'deadline_exceeded' && seconds === APPLY_WALK_PLAN_READ_SECONDS) return undefined;
    throw err;
  });
}

/** A refusal that means the object is gone (404): the refresh drops it from the state. */
export const isGone = (err: unknown): boolean => err instanceof ReconcileError && err.apiError?.code === 'not_found';


/** Whether the plan creates the remote object's resource anew: a create, or a replacement. */
export const creates = (prior: ObjectValue | null, requiresReplace: readonly string[]): boolean => prior === null || requiresReplace.length > 0;

/**
 * The log line of a removal that left its settings in place: the plan warned of it (effects.ts, "left in place"),
 * and Terraform folds no warning of a removal, which has no configuration to point at.
 */
export const leftInPlaceLine = (left: string): string => `removed from Terraform, left as it is: ${left}`;

const sameValue = (a: Value | undefined, b: Value | undefined): boolean =>
  isKnown(b ?? null) && JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Whether an update changes nothing on the server (`serverFacing`), only how the provider works
 * (timeouts, on_destroy, …): its apply writes nothing, whatever moved since the plan, as the plan
 * showed. Sets are sorted in both.
 */
export const writesNothing = (prior: ObjectValue | null, planned: ObjectValue, serverFacing: readonly string[]): boolean =>
  prior !== null && serverFacing.every((name) => sameValue(prior[name], planned[name]));
