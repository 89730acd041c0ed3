import { attributesOf, checkServerIdArgument, dataSourceSchema, readContext, SERVER_ID_ARGUMENT, stateOf, type ProviderDataSource } from './data-source';
import type { Traffic } from '../../api/schemas';
import { observeTraffic } from '../../reconcile/observe';
import type { ObjectValue } from '../resources/resource';
import type { CtyType } from '../schema';

const RATES: CtyType = ['list', ['object', { time: 'string', mbps: 'number' }]];

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
    { name: 'totals', type: ['object', { incoming_gb: 'number', outgoing_gb: 'number' }], computed: true, description: 'Transfer volume over the window (rates), or null.' },
    { name: 'interfaces', type: ['list', ['object', { incoming: RATES, outgoing: RATES }]], computed: true, description: 'Per interface, incoming and outgoing rates in Mbps (rates).' },
    { name: 'months', type: ['list', ['object', { start: 'string', end: 'string', rx_bytes: 'number', tx_bytes: 'number', total_bytes: 'number', limit_gb: 'number' }]], computed: true, description: 'Transfer per billing month (monthly).' },
  ]),
  validate: (config) => checkServerIdArgument(config),
  async read(session, config) {
    const observed = await observeTraffic(readContext(session), String(config.server_id));
    return stateOf(session, this.typeName, config, observed, trafficAttributes(observed.data));
  },
};
