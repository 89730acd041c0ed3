import { configFromState, LIST_RESOURCES, listObjects, validateListConfig, type ProviderListResource } from '.';
import { diagnosticOf, warningsOf } from '../diagnostics';
import type { ProviderRpc } from '../plugin/protocol';
import { kindNamed, objectIn, type RpcEnvironment, type RpcHandler } from '../plugin/rpc';
import { encodeValue } from '../plugin/values';
import { identityData } from '../resources/identity';
import { resourceOf } from '../resources/rpcs';

type ListRpc = Extract<ProviderRpc, 'ValidateListResourceConfig' | 'ListResource' | 'GenerateResourceConfig'>;

const listOf = (typeName: string): ProviderListResource => kindNamed(LIST_RESOURCES, typeName, 'list resource type');

/** `terraform query` (Terraform 1.14+): the list resources' RPCs, and the configuration of what they found. */
export function listResourceRpcs({ session: sessionOf, scrub }: RpcEnvironment): Record<ListRpc, RpcHandler> {
  return {
    ValidateListResourceConfig: (req) => ({ diagnostics: validateListConfig(listOf(req.type_name), objectIn(req.config)) }),
    ListResource: async (req, emit) => {
      const list = listOf(req.type_name);
      const session = sessionOf('query');
      try {
        for await (const found of listObjects(session, list, objectIn(req.config), req.include_resource_object === true, Number(req.limit ?? 0))) {
          emit({
            identity: identityData(list.resource, found.identity),
            display_name: found.displayName,
            ...(found.state === undefined ? {} : { resource_object: { msgpack: encodeValue(found.state) } }),
          });
        }
        if (session.warnings.length) emit({ diagnostic: warningsOf(session.warnings, scrub) });
      } catch (err) {
        emit({ diagnostic: [...warningsOf(session.warnings, scrub), diagnosticOf(err, scrub)] });
      }
      return {};
    },
    GenerateResourceConfig: (req) => {
      const resource = resourceOf(req.type_name);
      return { config: { msgpack: encodeValue(configFromState(resource, objectIn(req.state))) } };
    },
  };
}
