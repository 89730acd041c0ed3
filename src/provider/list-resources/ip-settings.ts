import { label, listSchema, own, type ProviderListResource } from './list-resource';
import { ipSettingsResource } from '../resources/ip-settings';

/** `hosting_ip_settings` (list): the settings of every IPv4 address of the account's dedicated servers. */
export const ipSettingsList: ProviderListResource = {
  resource: ipSettingsResource,
  schema: listSchema('The settings of every IPv4 address of the account\'s dedicated servers.'),
  entries: (servers) => own(servers)
    .filter((s) => s.type === 'dedicated')
    .flatMap((s) => s.ipv4.map((ip) => ({ identity: { server_id: s.id, ip }, displayName: `${ip} of ${label(s)}` }))),
};
