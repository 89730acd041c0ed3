import * as protobuf from 'protobufjs/light';
import type { ServiceDefinition } from './grpc-server';
// eslint-disable-next-line import/no-extraneous-dependencies -- bundled into assets/provider/provider.js; lib/ never loads it

/*
 * The parts of Terraform's plugin protocol 6.10 (tfplugin6) and go-plugin's controller that this
 * provider serves, as a protobufjs JSON descriptor: message and field numbers are facts of the wire
 * format (docs/plugin-protocol/tfplugin6.proto in hashicorp/terraform, 6.10 as Terraform 1.14 and
 * 1.15 speak it; older Terraform skips the fields and RPCs it does not know). The descriptor is ours,
 * written as data so nothing parses .proto text at start-up. Enums travel as int32 (same varint).
 */

type Fields = Record<string, { type: string; id: number; rule?: 'repeated'; keyType?: string }>;
const msg = (fields: Fields) => ({ fields });
const rpc = (request: Fields, response: Fields) => ({ nested: { Request: msg(request), Response: msg(response) } });
const dynamic = (id: number) => ({ type: 'DynamicValue', id });
const identity = (id: number) => ({ type: 'ResourceIdentityData', id });
const diagnostics = (id: number) => ({ type: 'Diagnostic', id, rule: 'repeated' as const });

const DESCRIPTOR = {
  nested: {
    tfplugin6: {
      nested: {
        DynamicValue: msg({ msgpack: { type: 'bytes', id: 1 }, json: { type: 'bytes', id: 2 } }),
        Diagnostic: msg({ severity: { type: 'int32', id: 1 }, summary: { type: 'string', id: 2 }, detail: { type: 'string', id: 3 }, attribute: { type: 'AttributePath', id: 4 } }),
        AttributePath: {
          fields: { steps: { type: 'Step', id: 1, rule: 'repeated' } },
          nested: { Step: msg({ attribute_name: { type: 'string', id: 1 }, element_key_string: { type: 'string', id: 2 }, element_key_int: { type: 'int64', id: 3 } }) },
        },
        ResourceIdentityData: msg({ identity_data: dynamic(1) }),
        ActionSchema: msg({ schema: { type: 'Schema', id: 1 } }),
        ResourceIdentitySchema: {
          fields: { version: { type: 'int64', id: 1 }, identity_attributes: { type: 'IdentityAttribute', id: 2, rule: 'repeated' } },
          nested: {
            IdentityAttribute: msg({
              name: { type: 'string', id: 1 },
              type: { type: 'bytes', id: 2 },
              required_for_import: { type: 'bool', id: 3 },
              optional_for_import: { type: 'bool', id: 4 },
              description: { type: 'string', id: 5 },
            }),
          },
        },
        RawState: msg({ json: { type: 'bytes', id: 1 }, flatmap: { keyType: 'string', type: 'string', id: 2 } }),
        ServerCapabilities: msg({
          plan_destroy: { type: 'bool', id: 1 },
          get_provider_schema_optional: { type: 'bool', id: 2 },
          move_resource_state: { type: 'bool', id: 3 },
          generate_resource_config: { type: 'bool', id: 4 },
        }),
        ClientCapabilities: msg({ deferral_allowed: { type: 'bool', id: 1 }, write_only_attributes_allowed: { type: 'bool', id: 2 } }),
        Schema: {
          fields: { version: { type: 'int64', id: 1 }, block: { type: 'Block', id: 2 } },
          nested: {
            Block: msg({
              version: { type: 'int64', id: 1 },
              attributes: { type: 'Attribute', id: 2, rule: 'repeated' },
              description: { type: 'string', id: 4 },
              description_kind: { type: 'int32', id: 5 },
              deprecated: { type: 'bool', id: 6 },
            }),
            Attribute: msg({
              name: { type: 'string', id: 1 },
              type: { type: 'bytes', id: 2 },
              description: { type: 'string', id: 3 },
              required: { type: 'bool', id: 4 },
              optional: { type: 'bool', id: 5 },
              computed: { type: 'bool', id: 6 },
              sensitive: { type: 'bool', id: 7 },
              description_kind: { type: 'int32', id: 8 },
              deprecated: { type: 'bool', id: 9 },
              nested_type: { type: 'Object', id: 10 },
            }),
            Object: msg({ attributes: { type: 'Attribute', id: 1, rule: 'repeated' }, nesting: { type: 'int32', id: 3 } }),
          },
        },
        GetMetadata: {
          nested: {
            Request: msg({}),
            Response: msg({
              server_capabilities: { type: 'ServerCapabilities', id: 1 },
              diagnostics: diagnostics(2),
              data_sources: { type: 'DataSourceMetadata', id: 3, rule: 'repeated' },
              resources: { type: 'ResourceMetadata', id: 4, rule: 'repeated' },
              list_resources: { type: 'ListResourceMetadata', id: 7, rule: 'repeated' },
              actions: { type: 'ActionMetadata', id: 9, rule: 'repeated' },
            }),
            ActionMetadata: msg({ type_name: { type: 'string', id: 1 } }),
            DataSourceMetadata: msg({ type_name: { type: 'string', id: 1 } }),
            ResourceMetadata: msg({ type_name: { type: 'string', id: 1 } }),
            ListResourceMetadata: msg({ type_name: { type: 'string', id: 1 } }),
          },
        },
        GetProviderSchema: rpc({}, {
          provider: { type: 'Schema', id: 1 },
          resource_schemas: { keyType: 'string', type: 'Schema', id: 2 },
          data_source_schemas: { keyType: 'string', type: 'Schema', id: 3 },
          list_resource_schemas: { keyType: 'string', type: 'Schema', id: 9 },
          action_schemas: { keyType: 'string', type: 'ActionSchema', id: 11 },
          diagnostics: diagnostics(4),
          server_capabilities: { type: 'ServerCapabilities', id: 6 },
        }),
        ValidateProviderConfig: rpc({ config: dynamic(1) }, { diagnostics: diagnostics(2) }),
        ValidateResourceConfig: rpc({ type_name: { type: 'string', id: 1 }, config: dynamic(2) }, { diagnostics: diagnostics(1) }),
        ValidateDataResourceConfig: rpc({ type_name: { type: 'string', id: 1 }, config: dynamic(2) }, { diagnostics: diagnostics(1) }),
        UpgradeResourceState: rpc(
          { type_name: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 }, raw_state: { type: 'RawState', id: 3 } },
          { upgraded_state: dynamic(1), diagnostics: diagnostics(2) },
        ),
        GetResourceIdentitySchemas: rpc({}, { identity_schemas: { keyType: 'string', type: 'ResourceIdentitySchema', id: 1 }, diagnostics: diagnostics(2) }),
        UpgradeResourceIdentity: rpc(
          { type_name: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 }, raw_identity: { type: 'RawState', id: 3 } },
          { upgraded_identity: identity(1), diagnostics: diagnostics(2) },
        ),
        ConfigureProvider: rpc({ terraform_version: { type: 'string', id: 1 }, config: dynamic(2) }, { diagnostics: diagnostics(1) }),
        ReadResource: rpc(
          { type_name: { type: 'string', id: 1 }, current_state: dynamic(2), private: { type: 'bytes', id: 3 }, current_identity: identity(6) },
          { new_state: dynamic(1), diagnostics: diagnostics(2), private: { type: 'bytes', id: 3 }, new_identity: identity(5) },
        ),
        PlanResourceChange: rpc(
          {
            type_name: { type: 'string', id: 1 },
            prior_state: dynamic(2),
            proposed_new_state: dynamic(3),
            config: dynamic(4),
            prior_private: { type: 'bytes', id: 5 },
            prior_identity: identity(8),
          },
          {
            planned_state: dynamic(1),
            requires_replace: { type: 'AttributePath', id: 2, rule: 'repeated' },
            planned_private: { type: 'bytes', id: 3 },
            diagnostics: diagnostics(4),
            planned_identity: identity(7),
          },
        ),
        ApplyResourceChange: rpc(
          {
            type_name: { type: 'string', id: 1 },
            prior_state: dynamic(2),
            planned_state: dynamic(3),
            config: dynamic(4),
            planned_private: { type: 'bytes', id: 5 },
            planned_identity: identity(7),
          },
          { new_state: dynamic(1), private: { type: 'bytes', id: 2 }, diagnostics: diagnostics(3), new_identity: identity(5) },
        ),
        ImportResourceState: {
          nested: {
            Request: msg({ type_name: { type: 'string', id: 1 }, id: { type: 'string', id: 2 }, identity: identity(4) }),
            ImportedResource: msg({ type_name: { type: 'string', id: 1 }, state: dynamic(2), private: { type: 'bytes', id: 3 }, identity: identity(4) }),
            Response: msg({ imported_resources: { type: 'ImportedResource', id: 1, rule: 'repeated' }, diagnostics: diagnostics(2) }),
          },
        },
        MoveResourceState: rpc(
          {
            source_provider_address: { type: 'string', id: 1 },
            source_type_name: { type: 'string', id: 2 },
            source_schema_version: { type: 'int64', id: 3 },
            source_state: { type: 'RawState', id: 4 },
            target_type_name: { type: 'string', id: 5 },
            source_private: { type: 'bytes', id: 6 },
          },
          { target_state: dynamic(1), diagnostics: diagnostics(2), target_private: { type: 'bytes', id: 3 }, target_identity: identity(4) },
        ),
        GenerateResourceConfig: rpc({ type_name: { type: 'string', id: 1 }, state: dynamic(2) }, { config: dynamic(1), diagnostics: diagnostics(2) }),
        ValidateListResourceConfig: rpc(
          { type_name: { type: 'string', id: 1 }, config: dynamic(2), include_resource_object: dynamic(3), limit: dynamic(4) },
          { diagnostics: diagnostics(1) },
        ),
        ListResource: {
          nested: {
            Request: msg({ type_name: { type: 'string', id: 1 }, config: dynamic(2), include_resource_object: { type: 'bool', id: 3 }, limit: { type: 'int64', id: 4 } }),
            Event: msg({ identity: identity(1), display_name: { type: 'string', id: 2 }, resource_object: dynamic(3), diagnostic: diagnostics(4) }),
          },
        },
        ValidateActionConfig: rpc({ type_name: { type: 'string', id: 1 }, config: dynamic(2) }, { diagnostics: diagnostics(1) }),
        PlanAction: rpc({ action_type: { type: 'string', id: 1 }, config: dynamic(2) }, { diagnostics: diagnostics(1) }),
        InvokeAction: {
          nested: {
            Request: msg({ action_type: { type: 'string', id: 1 }, config: dynamic(2) }),
            Event: {
              fields: { progress: { type: 'Progress', id: 1 }, completed: { type: 'Completed', id: 2 } },
              nested: { Progress: msg({ message: { type: 'string', id: 1 } }), Completed: msg({ diagnostics: diagnostics(1) }) },
            },
          },
        },
        ReadDataSource: rpc({ type_name: { type: 'string', id: 1 }, config: dynamic(2) }, { state: dynamic(1), diagnostics: diagnostics(2) }),
        StopProvider: rpc({}, { Error: { type: 'string', id: 1 } }),
        // The provider has no functions: its answer is the empty map (field 1), never sent, and no diagnostic.
        GetFunctions: rpc({}, { diagnostics: diagnostics(2) }),
      },
    },
  },
};

/**
 * The descriptor's types, each resolved at its first message: a process answers a few of its 40-odd
 * messages, and resolving them all (Root.fromJSON) took some 6 ms of each process's first answer.
 * A test resolves them all (test/provider/protocol.test.ts).
 */
export const PROTOCOL = new protobuf.Root().addJSON(DESCRIPTOR.nested);
const CONVERSION: protobuf.IConversionOptions = { longs: Number, arrays: true, objects: true };

function method(service: string, name: string, request: string, response: string, responseStream = false) {
  let req: protobuf.Type | undefined;
  let res: protobuf.Type | undefined;
  return {
    path: `/${service}/${name}`,
    responseStream,
    requestDeserialize: (bytes: Buffer) => {
      req ??= PROTOCOL.lookupType(request);
      return req.toObject(req.decode(bytes), CONVERSION);
    },
    responseSerialize: (value: object) => {
      res ??= PROTOCOL.lookupType(response);
      return Buffer.from(res.encode(res.fromObject(value)).finish());
    },
  };
}

const RPCS = [
  'GetMetadata', 'GetProviderSchema', 'GetResourceIdentitySchemas', 'UpgradeResourceIdentity', 'ValidateProviderConfig', 'ValidateResourceConfig', 'ValidateDataResourceConfig',
  'UpgradeResourceState', 'ConfigureProvider', 'ReadResource', 'PlanResourceChange', 'ApplyResourceChange', 'ImportResourceState', 'MoveResourceState',
  'ReadDataSource', 'StopProvider', 'GetFunctions', 'GenerateResourceConfig', 'ValidateListResourceConfig', 'ListResource', 'ValidateActionConfig', 'PlanAction', 'InvokeAction',
] as const;
/** The RPCs that answer with a stream of events, and the message of each event. */
const STREAM_EVENTS: Partial<Record<string, string>> = { ListResource: 'tfplugin6.ListResource.Event', InvokeAction: 'tfplugin6.InvokeAction.Event' };
export type ProviderRpc = (typeof RPCS)[number];

/** tfplugin6.Provider, the RPCs this provider answers; Terraform gets UNIMPLEMENTED for the rest. */
export const PROVIDER_SERVICE: ServiceDefinition = Object.fromEntries(
  RPCS.map((name) => [name, method('tfplugin6.Provider', name, `tfplugin6.${name}.Request`, STREAM_EVENTS[name] ?? `tfplugin6.${name}.Response`, name in STREAM_EVENTS)]),
);

