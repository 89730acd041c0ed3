import { attributesOf, checkServerIdArgument, dataSourceSchema, readContext, SERVER_ID_ARGUMENT, stateOf, type ProviderDataSource } from './data-source';
import type { Traffic } from '../../api/schemas';
import { observeTraffic } from '../../reconcile/observe';
import type { ObjectValue } from '../resources/resource';
import { listOf, objectOf } from '../schema';

const RATES = listOf({ time: ['string', 'The sample time (ISO 8601).'], mbps: ['number', 'The rate in Mbps.'] });

/** Both kinds in one shape: the members of the other kind are null or empty. */
function trafficAttributes(traffic: Traffic): ObjectValue {
  if (traffic.kind === 'monthly') return { kind: 'monthly', from: null, to: null, totals: null, interfaces: [], months: attributesOf(traffic.months) };
  const { kind, from, to, totals, interfaces } = traffic;
  return { kind, from, to, totals: attributesOf(totals), interfaces: attributesOf(interfaces), months: [] };
}

/** `hosting_server_traffic`: port rates (dedicated) or monthly transfer (VPS) of one server. */
export const serverTrafficDataSource: ProviderDataSource = {
  typeName: 'hosting_server_traffic',
  schema: dataSourceSchema('Traffic of one server (GET /servers/{id}/traffic): `rates` (dedicated: the last 24 hours of port rates) or `monthly` (VPS: transfer per billing month); the members of the other kind are null or empty.', [
    SERVER_ID_ARGUMENT,
    { name: 'kind', type: 'string', computed: true, description: '`rates` or `monthly`.' },
    { name: 'from', type: 'string', computed: true, description: 'Start of the window (rates).' },
    { name: 'to', type: 'string', computed: true, description: 'End of the window (rates).' },
    { name: 'totals', type: objectOf({ incoming_gb: ['number', 'Incoming transfer in GB.'], outgoing_gb: ['number', 'Outgoing transfer in GB.'] }), computed: true, description: 'Transfer volume over the window (rates), or null.' },
    { name: 'interfaces', type: listOf({ incoming: [RATES, 'Incoming rates, one sample each.'], outgoing: [RATES, 'Outgoing rates, one sample each.'] }), computed: true, description: 'Per interface, incoming and outgoing rates in Mbps (rates).' },
    {
      name: 'months',
      type: listOf({
        start: ['string', 'Start of the billing month (ISO 8601).'],
        end: ['string', 'End of the billing month (ISO 8601).'],
        rx_bytes: ['number', 'Bytes received.'],
        tx_bytes: ['number', 'Bytes sent.'],
        total_bytes: ['number', 'Bytes received and sent.'],
        limit_gb: ['number', 'The month\'s allowance in GB, or null when unmetered.'],
      }),
      computed: true,
      description: 'Transfer per billing month (monthly).',
    },
  ]),
  validate: (config) => checkServerIdArgument(config),
  async read(session, config) {
    const observed = await observeTraffic(readContext(session), String(config.server_id));
    return stateOf(session, this.typeName, config, observed, trafficAttributes(observed.data));
  },
};
