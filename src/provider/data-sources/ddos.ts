import { attributesOf, checkIpArgument, checkServerIdArgument, dataSourceSchema, readContext, SERVER_ID_ARGUMENT, stateOf, type ProviderDataSource } from './data-source';
import { observeDdos } from '../../reconcile/observe';
import type { ObjectValue } from '../resources/resource';
import { listOf } from '../schema';

/** `hosting_ddos`: DDoS protection status and recent attacks of one address (the primary unless `ip`). */
export const ddosDataSource: ProviderDataSource = {
  typeName: 'hosting_ddos',
  schema: dataSourceSchema('DDoS protection status and recent incidents of one server address (GET /servers/{id}/ddos), the primary address unless `ip` is set.', [
    SERVER_ID_ARGUMENT,
    { name: 'ip', type: 'string', optional: true, description: 'The IPv4 address to inspect; default the primary one.' },
    { name: 'address', type: 'string', computed: true, description: 'The inspected address.' },
    { name: 'status', type: 'string', computed: true, description: '`protected` or `unavailable` (protection cannot be read for the address now).' },
    {
      name: 'incidents',
      type: listOf({
        id: ['string', 'The incident id.'],
        started_at: ['string', 'When the attack started (ISO 8601).'],
        ended_at: ['string', 'When it ended (ISO 8601), or null while it goes on.'],
        duration_seconds: ['number', 'How long it lasted, in seconds, or null.'],
        peak: ['string', 'The peak attack rate, a number with a unit (e.g. `12 Gbps`), or null.'],
        attack_types: [['list', 'string'], 'The kinds of attack seen, as the API names them (the API does not list its values).'],
      }),
      computed: true,
      description: 'Recent attacks: when, how long, the peak rate and the attack types.',
    },
    { name: 'total_incidents', type: 'number', computed: true, description: 'How many incidents there were in all.' },
    { name: 'addresses', type: ['list', 'string'], computed: true, description: 'Every address of the server that `ip` accepts.' },
  ]),
  validate: (config) => [...checkServerIdArgument(config), ...checkIpArgument(config)],
  async read(session, config) {
    const observed = await observeDdos(readContext(session), String(config.server_id), typeof config.ip === 'string' ? config.ip : undefined);
    const { address, status, incidents, totalIncidents, addresses } = observed.data;
    const attributes: ObjectValue = { address, status, incidents: attributesOf(incidents), total_incidents: totalIncidents, addresses };
    return stateOf(session, this.typeName, config, observed, attributes);
  },
};
