import { didYouMeanServerId, IPV4_PATTERN, SERVER_ID_PATTERN } from '../../contract/patterns';
import type { ReconcileContext } from '../../reconcile/context';
import type { Observed } from '../../reconcile/observe';
import { SETTINGS_RUN_SECONDS } from '../../reconcile/plan-resource';
import { errorAt, type Diagnostic } from '../diagnostics';
import type { Value } from '../plugin/values';
import type { ObjectValue } from '../resources/resource';
import { schemaOf, type AttributeSpec } from '../schema';
import type { ProviderSession } from '../session';

/** One data source of the provider: a read of the API, shown as attributes; never a write. */
export interface ProviderDataSource {
  readonly typeName: string;
  readonly schema: ReturnType<typeof schemaOf>;
  /** Checks of the known arguments, naming the attribute. */
  validate(config: ObjectValue): Diagnostic[];
  /** The attributes, arguments included, from one read (or the run's shared one). */
  read(session: ProviderSession, config: ObjectValue): Promise<ObjectValue>;
}

/** `observed_at` and `stale`, which every data source has. */
export const META_ATTRIBUTES: readonly AttributeSpec[] = [
  { name: 'observed_at', type: 'string', computed: true, description: 'When the API observed the data (`meta.observedAt`), or null.' },
  { name: 'stale', type: 'bool', computed: true, description: 'True when live data was unavailable and the API served its last good value (`meta.stale`); a warning says so too.' },
];

export const SERVER_ID_ARGUMENT: AttributeSpec = { name: 'server_id', type: 'string', required: true, description: 'A server id as `hosting_servers` lists it (`vps_…` or `ded_…`).' };
export const IP_ARGUMENT: AttributeSpec = { name: 'ip', type: 'string', required: true, description: 'One IPv4 address of the server.' };

/** The API's camelCase members as Terraform's snake_case attributes, all the way down. */
export function attributesOf(value: unknown): Value {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(attributesOf);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), attributesOf(member)]));
  }
  return value as Value;
}

/** The data source's state: its arguments, what was read, and where the read came from. */
export function stateOf(
  session: ProviderSession,
  typeName: string,
  config: ObjectValue,
  observed: Observed<unknown>,
  attributes: ObjectValue,
): ObjectValue {
  if (observed.stale) {
    session.warn(`${typeName}: live data is unavailable; the API served its last good value, observed at ${observed.observedAt ?? 'an unknown time'} (stale = true)`);
  }
  return { ...config, ...attributes, observed_at: observed.observedAt, stale: observed.stale };
}

/** A context for one data source read: reads only, so no key namespace is ever used. */
export const readContext = (session: ProviderSession): ReconcileContext => session.context(SETTINGS_RUN_SECONDS);

export function checkServerIdArgument(config: ObjectValue, attribute = 'server_id'): Diagnostic[] {
  const id = config[attribute];
  return typeof id === 'string' && !SERVER_ID_PATTERN.test(id)
    ? [errorAt(attribute, `invalid ${attribute}: ${JSON.stringify(id)} is not a server id (vps_<segment>_<number> or ded_<uuid>, as hosting_servers lists them)${didYouMeanServerId(id)}`)]
    : [];
}

export function checkIpArgument(config: ObjectValue): Diagnostic[] {
  const ip = config.ip;
  return typeof ip === 'string' && !IPV4_PATTERN.test(ip) ? [errorAt('ip', `invalid ip: ${JSON.stringify(ip)} is not an IPv4 address`)] : [];
}

export function dataSourceSchema(description: string, attributes: readonly AttributeSpec[]) {
  return schemaOf(description, [...attributes, ...META_ATTRIBUTES]);
}
