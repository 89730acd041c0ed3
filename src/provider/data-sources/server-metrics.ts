import { attributesOf, checkServerIdArgument, dataSourceSchema, readContext, SERVER_ID_ARGUMENT, stateOf, type ProviderDataSource } from './data-source';
import { observeMetrics } from '../../reconcile/observe';
import type { ObjectValue } from '../resources/resource';
import { listOf, objectOf, type MemberTable } from '../schema';

const USAGE: MemberTable = {
  total_bytes: ['number', 'The total, in bytes.'],
  used_bytes: ['number', 'What is used, in bytes.'],
  usage_percent: ['number', 'What is used, in percent, or null.'],
};

/** `hosting_server_metrics`: resource usage of one server. */
export const serverMetricsDataSource: ProviderDataSource = {
  typeName: 'hosting_server_metrics',
  schema: dataSourceSchema('Resource usage of one server (GET /servers/{id}/metrics); dedicated servers report it through an agent, so members may be null.', [
    SERVER_ID_ARGUMENT,
    { name: 'sampled_at', type: 'string', computed: true, description: 'When the sample was taken, or null.' },
    { name: 'cpu_percent', type: 'number', computed: true, description: 'CPU usage in percent, or null.' },
    { name: 'memory', type: objectOf(USAGE), computed: true, description: 'Memory in bytes, or null.' },
    { name: 'storage', type: listOf({ mount: ['string', 'The mount point.'], ...USAGE }), computed: true, description: 'Each mount point\'s usage in bytes.' },
    { name: 'bandwidth', type: objectOf({ used_bytes: ['number', 'Traffic used this billing month, in bytes.'], limit_bytes: ['number', 'The month\'s allowance in bytes, or null when unmetered.'] }), computed: true, description: 'Traffic used in the current billing month, or null.' },
  ]),
  validate: (config) => checkServerIdArgument(config),
  async read(session, config) {
    const observed = await observeMetrics(readContext(session), String(config.server_id));
    return stateOf(session, this.typeName, config, observed, attributesOf(observed.data) as ObjectValue);
  },
};
