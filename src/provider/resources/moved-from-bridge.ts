import type { ResourceDocument } from '../../contract/resource-document';
import { ReconcileError } from '../../reconcile/reconcile-error';
import { parseResourceDocument } from '../../reconcile/resource-document-schema';

/*
 * `MoveResourceState` from the bridges (`moved { from = terraform_data.… to = hosting_… }`): a
 * construct that was synthesized with Bridge.TERRAFORM_DATA or Bridge.NULL_RESOURCE keeps its
 * document in its bridge resource's state, which says what the construct set. Nothing is read or
 * written here; the next refresh reads the actual values.
 */

interface BridgeType {
  /** Whether the provider Terraform names as the source of the move is the one that keeps this type. */
  readonly provider: (address: string) => boolean;
  /** Where the resource's state keeps the document's JSON text. */
  readonly document: (state: Record<string, unknown>) => unknown;
}

/** A dynamic attribute in a state's JSON is `{ value, type }`. */
const dynamicValue = (attribute: unknown) =>
  (attribute && typeof attribute === 'object' && 'value' in attribute ? (attribute as { value: unknown }).value : attribute) as Record<string, unknown> | undefined;

const BRIDGE_TYPES: Record<string, BridgeType> = {
  terraform_data: { provider: (address) => address === 'terraform.io/builtin/terraform', document: (state) => dynamicValue(state.input)?.document },
  // The null provider under any host and namespace: the Terraform Registry's, OpenTofu's, or a team's
  // own mirror of it. Its type and the construct document its triggers hold decide, not where it came from.
  null_resource: { provider: (address) => address.split('/').pop() === 'null', document: (state) => (state.triggers as Record<string, unknown> | undefined)?.document },
};

/** The kind of document each resource type takes over. */
const KIND_OF_TYPE: Record<string, ResourceDocument['kind']> = {
  hosting_server_firewall: 'firewall',
  hosting_ip_settings: 'ip_settings',
  hosting_power_state: 'power_state',
};

export interface MoveSource {
  readonly providerAddress: string;
  readonly typeName: string;
  /** The source resource's state as stored (JSON). */
  readonly stateJson: string;
  readonly targetTypeName: string;
}

/** The document a bridge resource kept, checked to be one of the target type's kind. */
export function documentFromBridge(source: MoveSource): ResourceDocument {
  const bridge = BRIDGE_TYPES[source.typeName];
  if (!bridge || !bridge.provider(source.providerAddress)) {
    throw new ReconcileError(
      `${source.targetTypeName} takes moves only from this package's bridge resources (terraform_data, null_resource), not from ${source.providerAddress} ${source.typeName}`,
      'move from the resource the construct was synthesized with before (movedFromBridge names it), or import the settings instead',
    );
  }
  const text = bridge.document(JSON.parse(source.stateJson) as Record<string, unknown>);
  if (typeof text !== 'string') {
    throw new ReconcileError(
      `this ${source.typeName} holds no construct document: it is not the resource a ServerFirewall, IpSettings or PowerState was synthesized with (a PowerState's reboot record, say)`,
      'move only the construct\'s own bridge resource; movedFromBridge forgets the reboot records with removed blocks',
    );
  }
  const document = parseResourceDocument(text);
  if (document.kind !== KIND_OF_TYPE[source.targetTypeName]) {
    throw new ReconcileError(`this ${source.typeName} was synthesized for a ${document.kind} document (server ${document.serverId}), which ${source.targetTypeName} cannot take over`, 'move it to the resource of the same construct');
  }
  return document;
}
