import { objectOf, oneOf, type MemberTable } from './schema';
import { ACCESS_ROLES, LAYER4_MODES, LAYER7_MODES, OPERATION_STATUSES, POWER_ACTIONS, POWER_VALUES, SERVER_STATUSES, SERVER_TYPES } from '../api/schemas';

/*
 * What the API's objects mean, member by member (spec sections 2.3 to 2.7), shared by the
 * schemas that show them: the registry docs and editors read these descriptions.
 */

const RESOURCES = objectOf({
  cpu_cores: ['number', 'CPU cores, or null.'],
  memory_mb: ['number', 'Memory in MB, or null.'],
  storage_gb: ['number', 'Storage in GB, or null.'],
  traffic_gb: ['number', 'The monthly traffic allowance in GB; null when unmetered.'],
});

/** An operation (section 2.4), as `current_operation` holds it. */
export const OPERATION = objectOf({
  id: ['string', 'The operation id.'],
  server_id: ['string', 'The server the operation acts on.'],
  action: ['string', `The requested action: ${oneOf(POWER_ACTIONS)}.`],
  status: ['string', `${oneOf(OPERATION_STATUSES)}; \`outcome_unknown\` means the request was sent but its result could not be confirmed, so the server is read before anything is retried.`],
  message: ['string', 'What the API says about the operation, or null.'],
  requested_at: ['string', 'When it was requested (ISO 8601), or null.'],
  completed_at: ['string', 'When it ended (ISO 8601), or null.'],
});

/** Every member of a server as listed (section 2.3), with what it means. */
export const SERVER_MEMBERS: MemberTable = {
  id: ['string', 'The server id (`vps_…` or `ded_…`).'],
  type: ['string', `${oneOf(SERVER_TYPES)}.`],
  name: ['string', 'The server\'s name.'],
  hostname: ['string', 'Its host name, or null.'],
  status: ['string', `${oneOf(SERVER_STATUSES)}; power actions are accepted only while \`active\`.`],
  power: ['string', `${oneOf(POWER_VALUES)}.`],
  ipv4: [['list', 'string'], 'Its IPv4 addresses.'],
  ipv6: [['list', 'string'], 'Its IPv6 addresses.'],
  os: ['string', 'Its operating system, or null.'],
  resources: [RESOURCES, 'What the server has: CPU cores, memory, storage and its traffic allowance.'],
  access_role: ['string', `${oneOf(ACCESS_ROLES)}: \`primary\` servers are the account's own; \`secondary\` ones are shared with it and read-only for it.`],
  service_id: ['number', 'The billing service id, or null.'],
  created_at: ['string', 'When the server was created (ISO 8601), or null.'],
};

/** DDoS protection of an address (section 2.7). */
export const PROTECTION_MEMBERS: MemberTable = {
  layer4: ['string', `${oneOf(LAYER4_MODES)}: \`dynamic\` filters only while an attack is under way, \`permanent\` all the time.`],
  layer7: ['string', `${oneOf(LAYER7_MODES)}: \`only\` filters web traffic only.`],
};

/** Which settings of an address the token may change (section 2.7). */
export const EDITABLE_MEMBERS: MemberTable = {
  rdns: ['bool', 'Whether this token may change `rdns`.'],
  description: ['bool', 'Whether this token may change `description`.'],
  protection: ['bool', 'Whether this token may change `protection`.'],
};
