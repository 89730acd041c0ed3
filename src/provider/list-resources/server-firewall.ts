import { label, listSchema, own, type ProviderListResource } from './list-resource';
import { serverFirewallResource } from '../resources/server-firewall';

/** `hosting_server_firewall` (list): the firewall of every VPS and VDS the account owns. */
export const serverFirewallList: ProviderListResource = {
  resource: serverFirewallResource,
  schema: listSchema('The firewall of every VPS and VDS of the account.'),
  entries: (servers) => own(servers).filter((s) => s.type !== 'dedicated').map((s) => ({ identity: { server_id: s.id }, displayName: label(s) })),
};
