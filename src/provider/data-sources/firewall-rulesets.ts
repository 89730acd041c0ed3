import { attributesOf, dataSourceSchema, readContext, stateOf, type ProviderDataSource } from './data-source';
import { observeRulesets } from '../../reconcile/observe';
import { listOf } from '../schema';

/** `hosting_firewall_rulesets`: the rule sets a VPS firewall can apply. */
export const firewallRulesetsDataSource: ProviderDataSource = {
  typeName: 'hosting_firewall_rulesets',
  schema: dataSourceSchema('The rule sets available to a VPS firewall (GET /firewall/rulesets).', [
    { name: 'rulesets', type: listOf({ id: ['number', 'The rule set id, as `hosting_server_firewall` takes it in `rulesets`.'], name: ['string', 'The rule set\'s name.'] }), computed: true, description: 'Each rule set\'s id and name.' },
  ]),
  validate: () => [],
  async read(session, config) {
    const observed = await observeRulesets(readContext(session));
    return stateOf(session, this.typeName, config, observed, { rulesets: attributesOf(observed.data) });
  },
};
