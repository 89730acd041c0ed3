import { decodeDynamic, type ObjectValue } from './values';
import type { ProviderSession, RunPhase } from '../session';

type Request = Record<string, any>;

/** One RPC; a streaming one (ListResource) sends its events through `emit`. */
export type RpcHandler = (request: Request, emit: (event: object) => void) => Promise<object> | object;

/** What every kind family's RPCs get from the provider server. */
export interface RpcEnvironment {
  /** The session of one RPC of a phase; throws when the provider was not configured. */
  readonly session: (phase: RunPhase) => ProviderSession;
  /** Keeps the token out of every line. */
  readonly scrub: (text: string) => string;
}

/** The kind a request names, from one of the provider's registries (`what`: "resource type", "data source", …). */
export function kindNamed<T>(registry: ReadonlyMap<string, T>, typeName: string, what: string): T {
  const kind = registry.get(typeName);
  if (!kind) throw new Error(`unknown ${what} ${typeName}`);
  return kind;
}

/** An object a request carries (a configuration, a state): every attribute, or none where Terraform sent nothing. */
export const objectIn = (value: { msgpack?: Uint8Array; json?: Uint8Array } | undefined): ObjectValue => (decodeDynamic(value) ?? {}) as ObjectValue;
