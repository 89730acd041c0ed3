import { DATA_SOURCES, type ProviderDataSource } from '.';
import { diagnosticOf, warningsOf } from '../diagnostics';
import type { ProviderRpc } from '../plugin/protocol';
import type { RpcEnvironment, RpcHandler } from '../plugin/rpc';
import { decodeDynamic, encodeValue } from '../plugin/values';
import type { ObjectValue } from '../resources/resource';

type DataSourceRpc = Extract<ProviderRpc, 'ValidateDataResourceConfig' | 'ReadDataSource'>;

export function dataSourceOf(typeName: string): ProviderDataSource {
  const dataSource = DATA_SOURCES.get(typeName);
  if (!dataSource) throw new Error(`unknown data source ${typeName}`);
  return dataSource;
}

const configOf = (req: Record<string, any>) => (decodeDynamic(req.config) ?? {}) as ObjectValue;

/** The data source RPCs of tfplugin6: validation of the arguments, and one read, never a write. */
export function dataSourceRpcs({ session: sessionOf, scrub }: RpcEnvironment): Record<DataSourceRpc, RpcHandler> {
  return {
    ValidateDataResourceConfig: (req) => ({ diagnostics: dataSourceOf(req.type_name).validate(configOf(req)) }),
    ReadDataSource: async (req) => {
      const session = sessionOf('plan');
      const warnings = () => warningsOf(session.warnings, scrub);
      try {
        const state = await dataSourceOf(req.type_name).read(session, configOf(req));
        return { state: { msgpack: encodeValue(state) }, diagnostics: warnings() };
      } catch (err) {
        return { diagnostics: [...warnings(), diagnosticOf(err, scrub)] };
      }
    },
  };
}
