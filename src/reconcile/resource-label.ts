import type { ResourceSpec } from '../contract/resource-document';

/** How a resource is named in every line the handler prints. */
export function resourceLabel(doc: ResourceSpec): string {
  switch (doc.kind) {
    case 'firewall':
      return `firewall ${doc.serverId}`;
    case 'ip_settings':
      return `ip settings ${doc.serverId} ${doc.ip}`;
    case 'power_state':
      return `power ${doc.serverId}`;
    case 'reboot':
      return `reboot ${doc.serverId}`;
  }
}
