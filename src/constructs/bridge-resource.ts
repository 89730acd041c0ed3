import { NullProvider } from '@cdktf/provider-null/lib/provider';
import { Resource as NullResource } from '@cdktf/provider-null/lib/resource';
import { DataResource, Fn, TerraformStack, type ITerraformDependable, type TerraformResource } from 'cdktf';
import type { Construct } from 'constructs';
import { Bridge } from './bridge';
import type { HostingApi } from './hosting-api';
import { HANDLER_ENV, type ResourceDocument } from '../contract/resource-document';

export interface BridgeResourceOptions {
  readonly api: HostingApi;
  /** Non-secret; may hold unresolved tokens, which Terraform resolves through jsonencode. */
  readonly document: ResourceDocument;
  /** More values whose change replaces the resource (and so re-runs the handler). */
  readonly extraTriggers?: Record<string, string>;
  /** Extra environment for the create-time run (destroy-time provisioners may reference only self). */
  readonly createEnvironment?: Record<string, string>;
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * One bridge resource: its replace trigger is a hash of the document (and extra triggers), its
 * stored value is the document, a create-time local-exec runs `handler apply`, a destroy-time one
 * `handler destroy`, both reading everything from `self`. The token never appears: the handler
 * reads it from the environment Terraform runs in.
 */
export function createBridgeResource(scope: Construct, id: string, options: BridgeResourceOptions): TerraformResource {
  const document = Fn.jsonencode(options.document);
  const replaceHash = Fn.sha256(Fn.jsonencode({ document: options.document, triggers: options.extraTriggers ?? {} }));
  const run = (verb: 'apply' | 'destroy', documentRef: string, environment: Record<string, string> = {}) => ({
    type: 'local-exec' as const,
    when: verb === 'destroy' ? ('destroy' as const) : ('create' as const),
    command: `node "${options.api.handlerPath}" ${verb}`,
    environment: { [HANDLER_ENV.document]: documentRef, [HANDLER_ENV.instanceId]: '${self.id}', ...environment },
  });

  if (options.api.bridge === Bridge.NULL_RESOURCE) {
    ensureNullProvider(scope);
    return new NullResource(scope, id, {
      triggers: { document, replace: replaceHash },
      dependsOn: options.dependsOn,
      provisioners: [run('apply', '${self.triggers.document}', options.createEnvironment), run('destroy', '${self.triggers.document}')],
    });
  }
  return new DataResource(scope, id, {
    input: { document },
    triggersReplace: { replace: replaceHash },
    dependsOn: options.dependsOn,
    provisioners: [run('apply', '${self.input.document}', options.createEnvironment), run('destroy', '${self.input.document}')],
  });
}

/**
 * Records `plantimestamp()` when first created and never changes (ignore_changes), so a later
 * provisioner can tell a first creation from a replacement by comparing it with the current one.
 * Returns the recorded value.
 */
export function createBirthRecord(scope: Construct, id: string, bridge: Bridge): string {
  const now = Fn.plantimestamp();
  if (bridge === Bridge.NULL_RESOURCE) {
    ensureNullProvider(scope);
    const birth = new NullResource(scope, id, { triggers: { at: now }, lifecycle: { ignoreChanges: ['triggers'] } });
    return Fn.lookup(birth.triggers, 'at', '');
  }
  const birth = new DataResource(scope, id, { input: { at: now }, lifecycle: { ignoreChanges: ['input'] } });
  return Fn.lookup(birth.output, 'at', '');
}

function ensureNullProvider(scope: Construct): void {
  const stack = TerraformStack.of(scope);
  const id = 'cdktf-server-hosting-null-provider';
  if (!stack.node.tryFindChild(id)) new NullProvider(stack, id);
}
