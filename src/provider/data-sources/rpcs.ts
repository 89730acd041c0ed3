import { DATA_SOURCES, type ProviderDataSource } from '.';
import { diagnosticOf } from '../diagnostics';
import type { ProviderRpc } from '../plugin/protocol';
import type { RpcEnvironment, RpcHandler } from '../plugin/rpc';
import { decodeValue, encodeValue } from '../plugin/values';
import { warningOf, type ObjectValue } from '../resources/resource';

type DataSourceRpc = Extract<ProviderRpc, 'ValidateDataResourceConfig' | 'ReadDataSource'>;

export function dataSourceOf(typeName: string): ProviderDataSource {
  const dataSource = DATA_SOURCES.get(typeName);
  if (!dataSource) throw new Error(`unknown data source ${typeName}`);
  return dataSource;
}

const configOf = (req: Record<string, any>) => (decodeValue(req.config?.msgpack) ?? {}) as ObjectValue;

/** The data source RPCs of tfplugin6: validation of the arguments, and one read, never a write. */
export function dataSourceRpcs({ session: sessionOf, scrub }: RpcEnvironment): Record<DataSourceRpc, RpcHandler> {
  return {
    ValidateDataResourceConfig: (req) => ({ diagnostics: dataSourceOf(req.type_name).validate(configOf(req)) }),
    ReadDataSource: async (req) => {
      // The run's parts (design guide, "The provider's run"): shared reads (shown, stale or not), refusals.
      const session = sessionOf('plan');
      const warnings = () => session.warnings.map((w) => warningOf(scrub(w)));
      try {
        const state = await dataSourceOf(req.type_name).read(session, configOf(req));
        return { state: { msgpack: encodeValue(state) }, diagnostics: warnings() };
      } catch (err) {
        return { diagnostics: [...warnings(), diagnosticOf(session.reported(err), scrub)] };
      }
    },
  };
}
