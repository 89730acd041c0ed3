import { ACTIONS } from '../actions';
import { actionRpcs } from '../actions/rpcs';
import { configureProvider, deprecatedSettings, isTokenPastedAsName, PROVIDER_SCHEMA, tokenInNameRefusals, type ProviderEnvironment } from '../configure';
import { DATA_SOURCES } from '../data-sources';
import { PROVIDER_SERVICE, type ProviderRpc } from './protocol';
import { dataSourceRpcs } from '../data-sources/rpcs';
import { choiceRefusal, diagnosticOf, type Diagnostic } from '../diagnostics';
import { LIST_RESOURCES } from '../list-resources';
import { listResourceRpcs } from '../list-resources/rpcs';
import { RESOURCES } from '../resources';
import { objectIn, type RpcHandler } from './rpc';
import type { ObjectValue } from '../resources/resource';
import { resourceRpcs } from '../resources/rpcs';
import type { RunPhase, SessionFactory } from '../session';
import { routesOf, type Router, type ServiceImplementation, type StreamCall, type UnaryCall, type UnaryCallback } from './grpc-server';
import { diagnosticInLanguage, languageOf, READER_LANGUAGES, settingNames, type ReaderLanguage } from '../reader-language';

/** What this provider offers beyond the required RPCs: plans of removals (what they leave in place), an optional schema fetch, moves from the bridges' resources. */
const SERVER_CAPABILITIES = { plan_destroy: true, get_provider_schema_optional: true, move_resource_state: true, generate_resource_config: true };

/** What the handshake's process hands the provider it loads. */
export interface ProviderStart {
  readonly env: NodeJS.ProcessEnv;
  /** One line to stderr, where Terraform shows provider logs with TF_LOG. */
  readonly log: (line: string) => void;
}

/** The loaded provider: where each RPC goes, and what to finish before the process ends. */
export interface LoadedProvider {
  readonly route: Router;
  close(): void;
}

/** The entry of the provider's RPC program (embedded in the handshake's, see serve.ts). */
export type ProviderProgram = { readonly startProvider: (start: ProviderStart) => LoadedProvider };

/**
 * The provider behind the handshake, loaded at Terraform's first RPC (serve.ts). It knows what
 * Terraform sends it and what the API answers, nothing else: no file of another process, no
 * command line, no process tree.
 */
export function startProvider({ env, log }: ProviderStart): LoadedProvider {
  const route: Router = routesOf([[PROVIDER_SERVICE, createProviderService({ env, log })]]);
  return { route, close: () => undefined };
}

/**
 * The tfplugin6.Provider RPCs over the reconcile engine. One process serves one Terraform phase:
 * ConfigureProvider makes one client, so every resource of the run shares its rate-limit pacing.
 */
export function createProviderService(environment: ProviderEnvironment): ServiceImplementation {
  let sessions: SessionFactory | undefined;
  /** A configuration refused without pointing at the provider block (see tokenInNameRefusals): each RPC's error. */
  let refused: (() => Error) | undefined;
  // Terraform may ask for a stop before the provider is configured; requests and waits started later end at once.
  const stopping = new AbortController();
  let secret: string | undefined;
  const scrub = (text: string) => (secret ? text.split(secret).join('[redacted]') : text);
  const log = (line: string) => environment.log(scrub(line));
  /** The provider block's configuration, which also says who reads the messages. */
  const configOf = (req: Record<string, any>) => {
    const config = objectIn(req.config);
    language = languageOf(config.message_language);
    return config;
  };
  /** Who reads the messages: the provider block says so (the constructs set it); HCL until then. */
  let language: ReaderLanguage = 'hcl';
  const rpcEnvironment = {
    session: (phase: RunPhase) => {
      if (refused) throw refused();
      if (!sessions) throw new Error('the provider was not configured');
      return sessions.forCall(phase);
    },
    scrub,
  };

  const handlers: Record<ProviderRpc, RpcHandler> = {
    GetMetadata: () => ({
      server_capabilities: SERVER_CAPABILITIES,
      resources: [...RESOURCES.keys()].map((type_name) => ({ type_name })),
      data_sources: [...DATA_SOURCES.keys()].map((type_name) => ({ type_name })),
      list_resources: [...LIST_RESOURCES.keys()].map((type_name) => ({ type_name })),
      actions: [...ACTIONS.keys()].map((type_name) => ({ type_name })),
    }),
    GetProviderSchema: () => ({
      provider: PROVIDER_SCHEMA,
      resource_schemas: Object.fromEntries([...RESOURCES.values()].map((r) => [r.typeName, r.schema])),
      data_source_schemas: Object.fromEntries([...DATA_SOURCES.values()].map((d) => [d.typeName, d.schema])),
      list_resource_schemas: Object.fromEntries([...LIST_RESOURCES.entries()].map(([typeName, list]) => [typeName, list.schema])),
      action_schemas: Object.fromEntries([...ACTIONS.values()].map((a) => [a.typeName, { schema: a.schema }])),
      server_capabilities: SERVER_CAPABILITIES,
    }),
    ValidateProviderConfig: (req) => ({ diagnostics: [...languageRefusal(configOf(req)), ...deprecatedSettings(configOf(req))] }),
    ConfigureProvider: async (req) => {
      if (isTokenPastedAsName(configOf(req))) {
        refused = tokenInNameRefusals();
        return { diagnostics: [] };
      }
      const configured = await configureProvider(configOf(req), { ...environment, log }, stopping.signal);
      secret = configured.token;
      if ('sessions' in configured) sessions = configured.sessions;
      const scrubbed = (d: Diagnostic) => ({ ...d, summary: scrub(d.summary), ...(d.detail !== undefined && { detail: scrub(d.detail) }) });
      return { diagnostics: configured.diagnostics.map(scrubbed) };
    },
    ...resourceRpcs(rpcEnvironment),
    ...dataSourceRpcs(rpcEnvironment),
    ...listResourceRpcs(rpcEnvironment),
    ...actionRpcs(rpcEnvironment),
    // No provider functions: an empty list, the protocol's answer (UNIMPLEMENTED reads as a failure to some clients).
    GetFunctions: () => ({ diagnostics: [] }),
    StopProvider: () => {
      log('Terraform asked the provider to stop: no request starts from now on, and the ones in flight are cut off');
      stopping.abort();
      return {};
    },
  };
  const told = (diagnostic: Diagnostic) => diagnosticInLanguage(diagnostic, language, SETTING_NAMES);
  return grpcService(handlers, (err) => ({ diagnostics: [diagnosticOf(err, scrub)] }), (res) => inReaderLanguage(res, told));
}

/** The settings any message of this provider may name, by their HCL names. */
const SETTING_NAMES = settingNames([PROVIDER_SCHEMA, ...[...RESOURCES.values(), ...DATA_SOURCES.values()].map((kind) => kind.schema)]
  .map((schema) => schema.block));

/** A message_language the provider does not speak, refused in HCL's words (the block's own). */
const languageRefusal = (config: ObjectValue): Diagnostic[] =>
  choiceRefusal('message_language', config.message_language, READER_LANGUAGES, 'message_language in the provider "hosting" block');

/** A response whose diagnostics are told in the reader's language (unary, or a stream's event). */
function inReaderLanguage(res: any, told: (d: Diagnostic) => Diagnostic): any {
  if (res === null || typeof res !== 'object') return res;
  if (Array.isArray(res.diagnostics)) return { ...res, diagnostics: res.diagnostics.map(told) };
  if (Array.isArray(res.diagnostic)) return { ...res, diagnostic: res.diagnostic.map(told) };
  if (Array.isArray(res.completed?.diagnostics)) return { ...res, completed: { ...res.completed, diagnostics: res.completed.diagnostics.map(told) } };
  return res;
}

/** Each RPC as a gRPC handler: a thrown error becomes an error diagnostic, never a gRPC failure. */
function grpcService(handlers: Record<string, RpcHandler>, failing: (err: unknown) => object, tell: (res: object) => object): ServiceImplementation {
  const serve = (name: string, handler: RpcHandler) => {
    const errorEvent = ERROR_EVENTS[name];
    const told: RpcHandler = async (req, write) => tell(await handler(req, (event) => write(tell(event))));
    const failingTold = (err: unknown) => tell(failing(err));
    if (!errorEvent) return unary(told, failingTold);
    return streaming(told, (err) => tell(errorEvent((failing(err) as { diagnostics: object[] }).diagnostics)));
  };
  return Object.fromEntries(Object.entries(handlers).map(([name, handler]) => [name, serve(name, handler)]));
}

function unary(handler: RpcHandler, failing: (err: unknown) => object) {
  return (call: UnaryCall, callback: UnaryCallback) => {
    const noEvents = () => undefined;
    Promise.resolve()
      .then(() => handler(call.request, noEvents))
      .then((res) => callback(null, res), (err: unknown) => callback(null, failing(err)));
  };
}

/** Each streaming RPC's event that carries diagnostics: where a thrown error goes. */
const ERROR_EVENTS: Partial<Record<string, (diagnostics: object[]) => object>> = {
  ListResource: (diagnostics) => ({ diagnostic: diagnostics }),
  InvokeAction: (diagnostics) => ({ completed: { diagnostics } }),
};

/** A server stream: the handler's events, then the end; a thrown error is a last event with its diagnostic. */
function streaming(handler: RpcHandler, errorEvent: (err: unknown) => object) {
  return (call: StreamCall) => {
    Promise.resolve()
      .then(() => handler(call.request, (event) => call.write(event)))
      .catch((err: unknown) => call.write(errorEvent(err)))
      .finally(() => call.end());
  };
}
