import { replacing, type ObjectValue, type ProviderResource } from './resource';
import { UNKNOWN, type Value } from '../plugin/values';

/** Whether two values are the same to Terraform's diff: a set's members in any order. */
function same(a: Value, b: Value): boolean {
  const text = (v: Value) => JSON.stringify(v, (_key, x: unknown) => (Array.isArray(x) ? [...x].map((m) => JSON.stringify(m)).sort() : x));
  return text(a ?? null) === text(b ?? null);
}

/**
 * The plan of a resource whose reads were refused by a refusal of the whole run said by another
 * resource: what a plan knows without reading. Only a plan walk gives it (run/walk.ts), and the
 * plan fails on that refusal, so it is never applied; it must still keep Terraform's rules and
 * show no change the configuration did not ask for. Unchanged: the prior state as it is. Changed:
 * the configuration's values, the prior's where an optional, computed one is unset, and what only
 * the server decides known after apply (the id too, when the change replaces the resource).
 */
export function plannedWithoutReads(resource: Pick<ProviderResource, 'schema' | 'replacedBy'>, prior: ObjectValue | null, config: ObjectValue): { planned: ObjectValue; requiresReplace: string[] } {
  const attributes = resource.schema.block.attributes;
  const set = (name: string) => config[name] !== null && config[name] !== undefined;
  const asked = attributes.filter((a) => !a.computed || set(a.name));
  if (prior && asked.every((a) => same(config[a.name], prior[a.name]))) return { planned: prior, requiresReplace: [] };
  const requiresReplace = replacing(resource, prior, config);
  const kept = (name: string, optional: boolean) => prior && (optional || (name === 'id' && requiresReplace.length === 0));
  const valueOf = (a: (typeof attributes)[number]): Value => {
    if (set(a.name)) return config[a.name];
    if (!a.computed) return null;
    return kept(a.name, a.optional) ? prior![a.name] : UNKNOWN;
  };
  const planned: ObjectValue = Object.fromEntries(attributes.map((a) => [a.name, valueOf(a)]));
  return { planned, requiresReplace };
}
