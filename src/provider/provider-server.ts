import type { sendUnaryData, ServerUnaryCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import { diagnosticOf, errorAt, type Diagnostic } from './diagnostics';
import type { ProviderRpc } from './protocol';
import type { ObjectValue, ProviderResource } from './resources/resource';
import { serverFirewallResource } from './resources/server-firewall';
import { schemaOf } from './schema';
import { decodeValue, encodeValue, type Value } from './values';
import { HostingApiClient, isTransientLogLine } from '../api/client';
import { isTokenVariableName, TOKEN_VARIABLE_NAME_RULE } from '../contract/patterns';
import { HANDLER_ENV } from '../contract/resource-document';
import type { ReconcileContext } from '../reconcile/context';
import { SETTINGS_RUN_SECONDS } from '../reconcile/plan-resource';

/** Every resource type the provider serves, by Terraform type name. */
export const RESOURCES: ReadonlyMap<string, ProviderResource> = new Map([serverFirewallResource].map((r) => [r.typeName, r]));

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
  let ctx: ReconcileContext | undefined;
  let secret: string | undefined;
  const scrub = (text: string) => (secret ? text.split(secret).join('[redacted]') : text);
  const log = (line: string) => environment.log(scrub(line));
  const resourceOf = (typeName: string) => {
    const resource = RESOURCES.get(typeName);
    if (!resource) throw new Error(`unknown resource type ${typeName}`);
    return resource;
  };
  /** A context per resource operation, with the deadline a handler run of a settings kind gets. */
  const configured = (): ReconcileContext => {
    if (!ctx) throw new Error('the provider was not configured');
    return { ...ctx, deadlineAt: ctx.now() + SETTINGS_RUN_SECONDS * 1000 };
  };
  const failing = (err: unknown) => ({ diagnostics: [diagnosticOf(err, scrub)] });

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
    ValidateProviderConfig: (req) => ({ diagnostics: validateProviderConfig(decodeValue(req.config?.msgpack) as ObjectValue) }),
    ValidateDataResourceConfig: () => ({ diagnostics: [] }),
    ValidateResourceConfig: (req) => ({ diagnostics: resourceOf(req.type_name).validate(decodeValue(req.config?.msgpack) as ObjectValue) }),
    ConfigureProvider: (req) => {
      const config = decodeValue(req.config?.msgpack) as ObjectValue;
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
        });
        ctx = {
          client,
          instanceId: 'provider',
          tokenEnvVar,
          log,
          sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
          now,
          deadlineAt: Number.POSITIVE_INFINITY,
        };
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
      return { upgraded_state: { msgpack: encodeValue(upgraded) } };
    },
    ReadResource: async (req) => {
      const state = decodeValue(req.current_state?.msgpack) as ObjectValue | null;
      if (!state) return { new_state: { msgpack: encodeValue(null) } };
      try {
        const fresh = await resourceOf(req.type_name).read(configured(), state);
        return { new_state: { msgpack: encodeValue(fresh) }, private: req.private };
      } catch (err) {
        return { new_state: req.current_state, private: req.private, ...failing(err) };
      }
    },
    PlanResourceChange: async (req) => {
      const proposed = decodeValue(req.proposed_new_state?.msgpack) as ObjectValue | null;
      if (!proposed) return { planned_state: { msgpack: encodeValue(null) } };
      const prior = decodeValue(req.prior_state?.msgpack) as ObjectValue | null;
      const config = decodeValue(req.config?.msgpack) as ObjectValue;
      try {
        const { planned, requiresReplace } = await resourceOf(req.type_name).plan(configured(), prior, config);
        return {
          planned_state: { msgpack: encodeValue(planned) },
          requires_replace: requiresReplace.map((name) => ({ steps: [{ attribute_name: name }] })),
          planned_private: req.prior_private,
        };
      } catch (err) {
        return failing(err);
      }
    },
    ApplyResourceChange: async (req) => {
      const planned = decodeValue(req.planned_state?.msgpack) as ObjectValue | null;
      // Delete retains: the server keeps its current settings, and nothing is requested.
      if (!planned) return { new_state: { msgpack: encodeValue(null) } };
      const config = decodeValue(req.config?.msgpack) as ObjectValue;
      try {
        const state = await resourceOf(req.type_name).apply(configured(), config, planned);
        return { new_state: { msgpack: encodeValue(state) }, private: req.planned_private };
      } catch (err) {
        return { new_state: req.prior_state, ...failing(err) };
      }
    },
    ImportResourceState: (req) => ({
      imported_resources: [{ type_name: req.type_name, state: { msgpack: encodeValue(resourceOf(req.type_name).importState(req.id)) } }],
    }),
    StopProvider: () => ({}),
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
