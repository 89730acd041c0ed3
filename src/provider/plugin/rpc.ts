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
