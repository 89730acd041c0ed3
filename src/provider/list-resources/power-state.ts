import { label, listSchema, own, type ProviderListResource } from './list-resource';
import { powerStateResource } from '../resources/power-state';

/** `hosting_power_state` (list): the power of every active server the account owns. */
export const powerStateList: ProviderListResource = {
  resource: powerStateResource,
  schema: listSchema('The power of every active server of the account (one that is not active takes no power action, so it is not listed).'),
  entries: (servers) => own(servers).filter((s) => s.status === 'active' && s.power !== 'unknown').map((s) => ({ identity: { server_id: s.id }, displayName: label(s) })),
};
