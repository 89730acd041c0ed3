import { checkServerIdArgument, dataSourceSchema, readContext, SERVER_ID_ARGUMENT, stateOf, type ProviderDataSource } from './data-source';
import { observeFirewall } from '../../reconcile/observe';

/** `hosting_server_firewall` (data): the firewall of one VPS as it is. */
export const serverFirewallDataSource: ProviderDataSource = {
  typeName: 'hosting_server_firewall',
  schema: dataSourceSchema('The firewall of one VPS as it is (GET /servers/{id}/firewall).', [
    { ...SERVER_ID_ARGUMENT, description: 'A VPS or VDS id as `hosting_servers` lists it (`vps_…`): the firewall exists only for virtual servers.' },
    { name: 'enabled', type: 'bool', computed: true, description: 'Whether the firewall is on.' },
    { name: 'rulesets', type: ['list', 'number'], computed: true, description: 'Ids of the rule sets that apply.' },
  ]),
  validate: (config) => checkServerIdArgument(config),
  async read(session, config) {
    const observed = await observeFirewall(readContext(session), String(config.server_id));
    return stateOf(session, this.typeName, config, observed, { enabled: observed.data.enabled, rulesets: observed.data.rulesets });
  },
};
