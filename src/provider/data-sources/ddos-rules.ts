import { attributesOf, checkIpArgument, checkServerIdArgument, dataSourceSchema, IP_ARGUMENT, readContext, SERVER_ID_ARGUMENT, stateOf, type ProviderDataSource } from './data-source';
import { observeDdosRules } from '../../reconcile/observe';
import { listOf } from '../schema';

/** `hosting_ddos_rules`: the DDoS filter rules of one address of a dedicated server. */
export const ddosRulesDataSource: ProviderDataSource = {
  typeName: 'hosting_ddos_rules',
  schema: dataSourceSchema('The DDoS filter rules of one address of a dedicated server (GET /servers/{id}/ips/{ip}/ddos/rules).', [
    SERVER_ID_ARGUMENT,
    IP_ARGUMENT,
    { name: 'available', type: 'bool', computed: true, description: 'Whether filter rules are available for the address.' },
    {
      name: 'rules',
      type: listOf({
        protocol: ['string', 'The protocol the rule filters, as the API names it (the API does not list its values).'],
        port: ['number', 'The port the rule applies to.'],
        state: ['string', 'The rule\'s state, as the API reports it (the API does not list its values).'],
      }),
      computed: true,
      description: 'Each rule\'s protocol, port and state.',
    },
  ]),
  validate: (config) => [...checkServerIdArgument(config), ...checkIpArgument(config)],
  async read(session, config) {
    const observed = await observeDdosRules(readContext(session), String(config.server_id), String(config.ip));
    return stateOf(session, this.typeName, config, observed, { available: observed.data.available, rules: attributesOf(observed.data.rules) });
  },
};
