import { attributesOf, checkIpArgument, checkServerIdArgument, dataSourceSchema, IP_ARGUMENT, readContext, SERVER_ID_ARGUMENT, stateOf, type ProviderDataSource } from './data-source';
import { observeIpSettings } from '../../reconcile/observe';
import { EDITABLE_MEMBERS, PROTECTION_MEMBERS } from '../api-members';
import type { ObjectValue } from '../resources/resource';
import { objectOf } from '../schema';

/** `hosting_ip_settings` (data): rDNS, description, DDoS protection and what is editable, of one address. */
export const ipSettingsDataSource: ProviderDataSource = {
  typeName: 'hosting_ip_settings',
  schema: dataSourceSchema('The settings of one IPv4 address of a dedicated server (GET /servers/{id}/ips/{ip}), and which of them this token may edit.', [
    SERVER_ID_ARGUMENT,
    IP_ARGUMENT,
    { name: 'rdns', type: 'string', computed: true, description: 'Reverse DNS name, or null.' },
    { name: 'description', type: 'string', computed: true, description: 'Description, or null.' },
    { name: 'protection', type: objectOf(PROTECTION_MEMBERS), computed: true, description: 'DDoS protection mode, or null.' },
    { name: 'editable', type: objectOf(EDITABLE_MEMBERS), computed: true, description: 'Which fields this token may change.' },
  ]),
  validate: (config) => [...checkServerIdArgument(config), ...checkIpArgument(config)],
  async read(session, config) {
    const observed = await observeIpSettings(readContext(session), String(config.server_id), String(config.ip));
    const { rdns, description, protection, editable } = observed.data;
    const attributes: ObjectValue = { rdns, description, protection: attributesOf(protection), editable: attributesOf(editable) };
    return stateOf(session, this.typeName, config, observed, attributes);
  },
};
