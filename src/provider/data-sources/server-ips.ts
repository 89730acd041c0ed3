import { attributesOf, checkServerIdArgument, dataSourceSchema, readContext, SERVER_ID_ARGUMENT, stateOf, type ProviderDataSource } from './data-source';
import { observeServerIps } from '../../reconcile/observe';
import { listOf } from '../schema';

/** `hosting_server_ips`: the addresses of one server (GET /servers/{id}/ips). */
export const serverIpsDataSource: ProviderDataSource = {
  typeName: 'hosting_server_ips',
  schema: dataSourceSchema('The IP addresses of one server (GET /servers/{id}/ips).', [
    SERVER_ID_ARGUMENT,
    { name: 'addresses', type: listOf({ address: ['string', 'The address.'], version: ['string', '`ipv4` or `ipv6`.'], primary: ['bool', 'Whether it is the server\'s primary address.'] }), computed: true, description: 'Each address, its version (`ipv4` or `ipv6`) and whether it is the primary one.' },
  ]),
  validate: (config) => checkServerIdArgument(config),
  async read(session, config) {
    const observed = await observeServerIps(readContext(session), String(config.server_id));
    return stateOf(session, this.typeName, config, observed, { addresses: attributesOf(observed.data) });
  },
};
