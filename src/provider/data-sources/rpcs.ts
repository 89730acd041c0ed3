import { DATA_SOURCES, type ProviderDataSource } from '.';
import { diagnosticOf, warningsOf } from '../diagnostics';
import type { ProviderRpc } from '../plugin/protocol';
import { kindNamed, objectIn, type RpcEnvironment, type RpcHandler } from '../plugin/rpc';
import { encodeValue } from '../plugin/values';

type DataSourceRpc = Extract<ProviderRpc, 'ValidateDataResourceConfig' | 'ReadDataSource'>;

const dataSourceOf = (typeName: string): ProviderDataSource => kindNamed(DATA_SOURCES, typeName, 'data source');

/** The data source RPCs of tfplugin6: validation of the arguments, and one read, never a write. */
export function dataSourceRpcs({ session: sessionOf, scrub }: RpcEnvironment): Record<DataSourceRpc, RpcHandler> {
  return {
    ValidateDataResourceConfig: (req) => ({ diagnostics: dataSourceOf(req.type_name).validate(objectIn(req.config)) }),
    ReadDataSource: async (req) => {
      const session = sessionOf('plan');
      const warnings = () => warningsOf(session.warnings, scrub);
      try {
        const state = await dataSourceOf(req.type_name).read(session, objectIn(req.config));
        return { state: { msgpack: encodeValue(state) }, diagnostics: warnings() };
      } catch (err) {
        return { diagnostics: [...warnings(), diagnosticOf(err, scrub)] };
      }
    },
  };
}
