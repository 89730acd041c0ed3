import { attributesOf, checkServerIdArgument, dataSourceSchema, readContext, SERVER_ID_ARGUMENT, stateOf, type ProviderDataSource } from './data-source';
import { IPV4_PATTERN } from '../../contract/patterns';
import { observeDdos } from '../../reconcile/observe';
import { errorAt } from '../diagnostics';
import type { ObjectValue } from '../resources/resource';

/** `hosting_ddos`: DDoS protection status and recent attacks of one address (the primary unless `ip`). */
export const ddosDataSource: ProviderDataSource = {
  typeName: 'hosting_ddos',
  schema: dataSourceSchema('DDoS protection status and recent incidents of one server address (GET /servers/{id}/ddos), the primary address unless `ip` is set.', [
    SERVER_ID_ARGUMENT,
    { name: 'ip', type: 'string', optional: true, description: 'The IPv4 address to inspect; default the primary one.' },
    { name: 'address', type: 'string', computed: true, description: 'The inspected address.' },
    { name: 'status', type: 'string', computed: true, description: '`protected` or `unavailable`.' },
    {
      name: 'incidents',
      type: ['list', ['object', { id: 'string', started_at: 'string', ended_at: 'string', duration_seconds: 'number', peak: 'string', attack_types: ['list', 'string'] }]],
      computed: true,
      description: 'Recent attacks: when, how long, the peak rate and the attack types.',
    },
    { name: 'total_incidents', type: 'number', computed: true, description: 'How many incidents there were in all.' },
    { name: 'addresses', type: ['list', 'string'], computed: true, description: 'Every address of the server that `ip` accepts.' },
  ]),
  validate: (config) => [
    ...checkServerIdArgument(config),
    ...(typeof config.ip === 'string' && !IPV4_PATTERN.test(config.ip) ? [errorAt('ip', `invalid ip: "${config.ip}" is not an IPv4 address`)] : []),
  ],
  async read(session, config) {
    const observed = await observeDdos(readContext(session), String(config.server_id), typeof config.ip === 'string' ? config.ip : undefined);
    const { address, status, incidents, totalIncidents, addresses } = observed.data;
    const attributes: ObjectValue = { address, status, incidents: attributesOf(incidents), total_incidents: totalIncidents, addresses };
    return stateOf(session, this.typeName, config, observed, attributes);
  },
};
