import type { Construct } from 'constructs';
import { Bridge } from './bridge';
import { DataResource, Fn, type ITerraformDependable, type TerraformResource } from './cdk';
import type { HostingApi } from './hosting-api';
import { literalExpressionValues } from './literal-text';
import { NullResource } from './null-resource';
import { HANDLER_ENV, type RebootSpec, type DocumentOf, type ResourceDocument } from '../contract/resource-document';

export interface BridgeResourceOptions {
  readonly api: HostingApi;
  /** Non-secret; may hold unresolved tokens, which Terraform resolves through jsonencode. */
  readonly document: ResourceDocument;
  readonly dependsOn?: ITerraformDependable[];
}

type Verb = 'apply' | 'destroy';

/** A local-exec provisioner that runs the handler with `verb`. */
function handlerRun(api: HostingApi, verb: Verb, environment: Record<string, string>) {
  return {
    type: 'local-exec' as const,
    when: verb === 'destroy' ? ('destroy' as const) : ('create' as const),
    command: `node "${api._handlerPath()}" ${verb}`,
    environment: { [HANDLER_ENV.instanceId]: '${self.id}', ...environment },
  };
}

/**
 * One bridge resource: its replace trigger is a hash of the document, its stored value is the
 * document, a create-time local-exec runs `handler apply`, a destroy-time one `handler destroy`,
 * both reading everything from `self`. The token never appears: the handler reads it from the
 * environment Terraform runs in. The destroy-time reference goes through `try()`: a resource
 * brought in by `terraform import` has no stored document, and its replacement must not fail.
 */
export function createBridgeResource(scope: Construct, id: string, options: BridgeResourceOptions): TerraformResource {
  const literal = literalExpressionValues(options.document);
  const document = Fn.jsonencode(literal);
  // The same formula as earlier releases, so upgrading the library replaces nothing.
  const replace = Fn.sha256(Fn.jsonencode({ document: literal, triggers: {} }));
  const attribute = options.api.bridge === Bridge.NULL_RESOURCE ? 'triggers' : 'input';
  const provisioners = [
    handlerRun(options.api, 'apply', { [HANDLER_ENV.document]: `\${self.${attribute}.document}` }),
    handlerRun(options.api, 'destroy', { [HANDLER_ENV.document]: `\${try(self.${attribute}.document, "")}` }),
  ];
  if (options.api.bridge === Bridge.NULL_RESOURCE) {
    return new NullResource(scope, id, { document, replace }, { dependsOn: options.dependsOn, provisioners });
  }
  return new DataResource(scope, id, { input: { document }, triggersReplace: { replace }, dependsOn: options.dependsOn, provisioners });
}

export interface RebootResourceOptions {
  readonly api: HostingApi;
  readonly document: DocumentOf<RebootSpec>;
  /** The only values whose change replaces the resource, and so reboots. */
  readonly triggers: Record<string, string>;
  /** `plantimestamp()` recorded when the reboot resource was first armed (see createArmedRecord). */
  readonly armedAt: string;
  readonly dependsOn: ITerraformDependable[];
}

/**
 * The reboot resource is replaced when, and only when, the reboot triggers change. Everything else
 * (timeouts, hard or soft, the API connection) reaches the handler through the provisioner's
 * environment, which Terraform does not compare, so changing it reboots nothing. A reboot is an
 * event, not a setting: there is nothing to retain on destroy, so no destroy-time run.
 */
export function createRebootResource(scope: Construct, id: string, options: RebootResourceOptions): TerraformResource {
  const triggers = Fn.sha256(Fn.jsonencode(literalExpressionValues(options.triggers)));
  const provisioners = [
    handlerRun(options.api, 'apply', {
      [HANDLER_ENV.document]: Fn.jsonencode(literalExpressionValues(options.document)),
      [HANDLER_ENV.firstPlannedAt]: options.armedAt,
      [HANDLER_ENV.plannedAt]: Fn.plantimestamp(),
    }),
  ];
  if (options.api.bridge === Bridge.NULL_RESOURCE) {
    return new NullResource(scope, id, { reboot: triggers }, { dependsOn: options.dependsOn, provisioners });
  }
  return new DataResource(scope, id, { triggersReplace: { reboot: triggers }, dependsOn: options.dependsOn, provisioners });
}

/**
 * Records `plantimestamp()` when created and never changes (ignore_changes). It depends on the
 * power bridge, so it is created in the same apply as the reboot resource's first instance, never
 * by an earlier apply that failed: the reboot handler compares it with the current plan time and
 * reboots only when they differ, that is, when the triggers of an applied instance changed.
 * Returns the recorded value.
 */
export function createArmedRecord(scope: Construct, id: string, bridge: Bridge, after: ITerraformDependable): string {
  const now = Fn.plantimestamp();
  if (bridge === Bridge.NULL_RESOURCE) {
    const record = new NullResource(scope, id, { at: now }, { dependsOn: [after], lifecycle: { ignoreChanges: ['triggers'] } });
    return Fn.lookup(record.triggersReference, 'at', '');
  }
  const record = new DataResource(scope, id, { input: { at: now }, dependsOn: [after], lifecycle: { ignoreChanges: ['input'] } });
  return Fn.lookup(record.output, 'at', '');
}
