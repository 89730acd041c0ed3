import type { sendUnaryData, ServerUnaryCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import { diagnosticOf, errorAt, type Diagnostic } from './diagnostics';
import { decodePrivate, encodePrivate, withInstance } from './private-state';
import type { ProviderRpc } from './protocol';
import { ipSettingsResource } from './resources/ip-settings';
import { powerStateResource } from './resources/power-state';
import type { ObjectValue, ProviderResource } from './resources/resource';
import { serverFirewallResource } from './resources/server-firewall';
import { schemaOf } from './schema';
import { createSession, stoppableSleep, type ProviderSession } from './session';
import { decodeValue, encodeValue, type Value } from './values';
import { HostingApiClient, isTransientLogLine } from '../api/client';
import { isTokenVariableName, TOKEN_VARIABLE_NAME_RULE } from '../contract/patterns';
import { HANDLER_ENV } from '../contract/resource-document';

/** Every resource type the provider serves, by Terraform type name. */
export const RESOURCES: ReadonlyMap<string, ProviderResource> = new Map(
  [serverFirewallResource, ipSettingsResource, powerStateResource].map((r) => [r.typeName, r]),
);

const DEFAULT_TOKEN_ENV_VAR = 'HOSTING_API_TOKEN';

const PROVIDER_SCHEMA = schemaOf('The Server Hosting Management API. The token comes from an environment variable of the provider process.', [
  { name: 'base_url', type: 'string', optional: true, description: 'Base URL ending in /api/v1; default: the HOSTING_API_URL environment variable.' },
  { name: 'token_env_var', type: 'string', optional: true, description: `The NAME of the environment variable holding the token; default ${DEFAULT_TOKEN_ENV_VAR}.` },
  { name: 'allow_insecure_http', type: 'bool', optional: true, description: 'Allow plain http to hosts other than this machine.' },
]);

export interface ProviderEnvironment {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** One line to stderr, where Terraform shows provider logs with TF_LOG. */
  readonly log: (line: string) => void;
  readonly shutdown: () => void;
}

type Request = Record<string, any>;
type Handler = (request: Request) => Promise<object> | object;

/**
 * The tfplugin6.Provider RPCs over the reconcile engine. One process serves one Terraform phase:
 * ConfigureProvider makes one client, so every resource of the run shares its rate-limit pacing.
 */
export interface ProviderServices {
  readonly provider: UntypedServiceImplementation;
  readonly controller: UntypedServiceImplementation;
}

export function createProviderService(environment: ProviderEnvironment): ProviderServices {
  let session: ProviderSession | undefined;
  // Terraform may ask for a stop before the provider is configured; waits started later end at once.
  const stopping = new AbortController();
  let secret: string | undefined;
  const scrub = (text: string) => (secret ? text.split(secret).join('[redacted]') : text);
  const log = (line: string) => environment.log(scrub(line));
  const resourceOf = (typeName: string) => {
    const resource = RESOURCES.get(typeName);
    if (!resource) throw new Error(`unknown resource type ${typeName}`);
    return resource;
  };
  const configured = (): ProviderSession => {
    if (!session) throw new Error('the provider was not configured');
    return session;
  };
  const failing = (err: unknown) => ({ diagnostics: [diagnosticOf(err, scrub)] });
  const objectOf = (value: { msgpack?: Uint8Array } | undefined) => decodeValue(value?.msgpack) as ObjectValue | null;
  const dynamic = (value: ObjectValue | null) => ({ msgpack: encodeValue(value) });

  const handlers: Record<ProviderRpc, Handler> = {
    GetMetadata: () => ({
      server_capabilities: { get_provider_schema_optional: true },
      resources: [...RESOURCES.keys()].map((type_name) => ({ type_name })),
    }),
    GetProviderSchema: () => ({
      provider: PROVIDER_SCHEMA,
      resource_schemas: Object.fromEntries([...RESOURCES.values()].map((r) => [r.typeName, r.schema])),
      server_capabilities: { get_provider_schema_optional: true },
    }),
    ValidateProviderConfig: (req) => ({ diagnostics: validateProviderConfig(objectOf(req.config)) }),
    ValidateDataResourceConfig: () => ({ diagnostics: [] }),
    ValidateResourceConfig: (req) => ({ diagnostics: resourceOf(req.type_name).validate(objectOf(req.config) ?? {}) }),
    ConfigureProvider: (req) => {
      const config = objectOf(req.config) ?? {};
      const tokenEnvVar = typeof config.token_env_var === 'string' ? config.token_env_var : DEFAULT_TOKEN_ENV_VAR;
      const problems = validateProviderConfig(config);
      if (problems.length) return { diagnostics: problems };
      const token = environment.env[tokenEnvVar];
      if (!token) {
        const summary = `the environment variable ${tokenEnvVar} that should hold the API token is not set or empty`;
        return { diagnostics: [errorAt('token_env_var', summary, 'export it where terraform runs; the token is never part of the configuration')] };
      }
      secret = token;
      const baseUrl = typeof config.base_url === 'string' ? config.base_url : environment.env[HANDLER_ENV.defaultBaseUrl];
      if (!baseUrl) return { diagnostics: [errorAt('base_url', `no API base URL: set base_url or ${HANDLER_ENV.defaultBaseUrl}`)] };
      try {
        const now = () => performance.now();
        const client = new HostingApiClient({
          baseUrl,
          token,
          allowInsecureHttp: config.allow_insecure_http === true,
          userAgent: 'cdktf-server-hosting-provider',
          log: (line) => isTransientLogLine(line) && log(`  ${line}`),
          sleep: stoppableSleep(stopping.signal),
          now,
        });
        session = createSession({ client, tokenEnvVar, log, now }, stopping.signal);
      } catch (err) {
        return { diagnostics: [errorAt('base_url', scrub((err as Error).message))] };
      }
      return { diagnostics: [] };
    },
    UpgradeResourceState: (req) => {
      const resource = resourceOf(req.type_name);
      const stored = JSON.parse(Buffer.from(req.raw_state?.json ?? '{}').toString('utf8')) as ObjectValue;
      const attributes = resource.schema.block.attributes.map((a) => a.name);
      const upgraded = Object.fromEntries(attributes.map((name) => [name, (stored[name] ?? null) as Value]));
      return { upgraded_state: dynamic(upgraded) };
    },
    ReadResource: async (req) => {
      const state = objectOf(req.current_state);
      if (!state) return { new_state: dynamic(null) };
      try {
        const fresh = await resourceOf(req.type_name).read(configured(), state, decodePrivate(req.private));
        return { new_state: dynamic(fresh.state), private: encodePrivate(fresh.private) };
      } catch (err) {
        return { new_state: req.current_state, private: req.private, ...failing(err) };
      }
    },
    PlanResourceChange: async (req) => {
      const proposed = objectOf(req.proposed_new_state);
      if (!proposed) return { planned_state: dynamic(null), planned_private: req.prior_private };
      try {
        const resource = resourceOf(req.type_name);
        const change = await resource.plan(configured(), objectOf(req.prior_state), objectOf(req.config) ?? {}, decodePrivate(req.prior_private));
        return {
          planned_state: dynamic(change.planned),
          requires_replace: change.requiresReplace.map((name) => ({ steps: [{ attribute_name: name }] })),
          planned_private: encodePrivate(change.private),
          diagnostics: change.diagnostics ?? [],
        };
      } catch (err) {
        return failing(err);
      }
    },
    ApplyResourceChange: async (req) => {
      const resource = resourceOf(req.type_name);
      const prior = objectOf(req.prior_state);
      const planned = objectOf(req.planned_state);
      const priv = decodePrivate(req.planned_private);
      if (!planned) {
        // Removal: the settings are retained (nothing requested) unless the resource restores them.
        try {
          const diagnostics = prior ? await resource.destroy(configured(), prior, priv) : [];
          return { new_state: dynamic(null), diagnostics };
        } catch (err) {
          return { new_state: req.prior_state, private: req.planned_private, ...failing(err) };
        }
      }
      try {
        const applied = await resource.apply(configured(), { prior, planned, config: objectOf(req.config) ?? {}, private: priv });
        const diagnostics = applied.error === undefined ? {} : failing(applied.error);
        return { new_state: dynamic(applied.state), private: encodePrivate(applied.private), ...diagnostics };
      } catch (err) {
        return { new_state: req.prior_state, private: req.planned_private, ...failing(err) };
      }
    },
    ImportResourceState: (req) => {
      try {
        const state = resourceOf(req.type_name).importState(req.id);
        return { imported_resources: [{ type_name: req.type_name, state: dynamic(state), private: encodePrivate(withInstance({})) }] };
      } catch (err) {
        return failing(err);
      }
    },
    StopProvider: () => {
      log('Terraform asked the provider to stop: every wait ends now');
      stopping.abort();
      return {};
    },
  };
  const provider: UntypedServiceImplementation = Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [
      name,
      (call: ServerUnaryCall<Request, object>, callback: sendUnaryData<object>) => {
        Promise.resolve()
          .then(() => handler(call.request))
          .then((res) => callback(null, res), (err: unknown) => callback(null, failing(err)));
      },
    ]),
  );
  const controller: UntypedServiceImplementation = {
    Shutdown: (_call: ServerUnaryCall<object, object>, callback: sendUnaryData<object>) => {
      callback(null, {});
      setImmediate(environment.shutdown);
    },
  };
  return { provider, controller };
}

function validateProviderConfig(config: ObjectValue | null): Diagnostic[] {
  const name = config?.token_env_var;
  if (typeof name === 'string' && !isTokenVariableName(name)) {
    // Never echoed: it may be a token pasted in the wrong place.
    return [errorAt('token_env_var', `token_env_var must be the NAME of an environment variable (${TOKEN_VARIABLE_NAME_RULE}), not the token; the value is not shown`)];
  }
  return [];
}
