import { UNKNOWN, type Value } from '../../src/provider/plugin/values';
import { RESOURCES } from '../../src/provider/resources';
import type { ObjectValue } from '../../src/provider/resources/resource';
import type { WireAttribute } from '../../src/provider/schema';

/*
 * Terraform's own checks of a provider's answers (terraform/internal/plans/objchange, as Terraform
 * 1.11 applies them), for tests that drive the provider's RPCs themselves: an answer that breaks
 * one is what Terraform reports as "Provider produced inconsistent …; this is a bug in the
 * provider". Each check returns the problems in Terraform's words, empty when the answer keeps
 * the rules; `assertTerraformRules` fails a test with them.
 */

const attributesOf = (typeName: string): readonly WireAttribute[] => {
  const resource = RESOURCES.get(typeName);
  if (!resource) throw new Error(`no resource type ${typeName}`);
  return resource.schema.block.attributes;
};

const isUnknown = (v: Value | undefined): boolean => v === UNKNOWN;
const wholeKnown = (v: Value | undefined): boolean =>
  v !== UNKNOWN && (Array.isArray(v) ? v.every(wholeKnown) : v === null || v === undefined || typeof v !== 'object' || Object.values(v).every(wholeKnown));

/** Equal as Terraform compares values: a set's members (arrays here) in any order. */
function equal(a: Value | undefined, b: Value | undefined): boolean {
  const text = (v: Value | undefined) => JSON.stringify(v ?? null, (_k, x: unknown) => (x === UNKNOWN ? '(unknown)' : Array.isArray(x) ? x.map((m) => JSON.stringify(m)).sort() : x));
  return text(a) === text(b);
}

const shown = (v: Value | undefined) => (v === UNKNOWN ? 'unknown' : JSON.stringify(v ?? null));

/**
 * PlanResourceChange (objchange.AssertPlanValid): a planned value of an attribute the configuration
 * sets is the configuration's (unknown where it is unknown); one it may not compute is the
 * configuration's too (null when unset); a computed attribute left unset may be anything.
 */
export function planProblems(typeName: string, config: ObjectValue, planned: ObjectValue | null): string[] {
  if (planned === null) return ['planned an object that is null, for a configuration that is not'];
  const problems: string[] = [];
  for (const a of attributesOf(typeName)) {
    const [c, p]: Value[] = [config[a.name] ?? null, planned[a.name] ?? null];
    if (a.computed && c === null) continue;
    if (isUnknown(c) ? !isUnknown(p) : !equal(c, p)) problems.push(`.${a.name}: planned value ${shown(p)} does not match config value ${shown(c)}`);
  }
  return problems;
}

/**
 * The apply's re-plan against the plan (objchange.AssertObjectCompatible): every value the plan
 * knew is the same in the re-plan; what it did not know may be anything.
 */
export function finalPlanProblems(typeName: string, plannedFirst: ObjectValue | null, plannedAgain: ObjectValue | null): string[] {
  if (plannedFirst === null || plannedAgain === null) return plannedFirst === plannedAgain ? [] : ['the final plan is null where the plan was not, or the reverse'];
  return attributesOf(typeName).flatMap((a) => {
    const [was, now]: Value[] = [plannedFirst[a.name] ?? null, plannedAgain[a.name] ?? null];
    // A value partly unknown (a set with an unknown member) is not compared member by member here.
    if (!wholeKnown(was) || equal(was, now)) return [];
    return [`.${a.name}: was ${shown(was)}, but now ${shown(now)}`];
  });
}

/** ApplyResourceChange (objchange.AssertObjectCompatible, then wholly known): the new state keeps every planned value it knew. */
export function newStateProblems(typeName: string, planned: ObjectValue | null, newState: ObjectValue | null, failed: boolean): string[] {
  if (newState === null) return planned === null || failed ? [] : ['the new state is null where the plan was not (and no error said why)'];
  const unknown = Object.entries(newState).filter(([, v]) => !wholeKnown(v)).map(([name]) => `.${name}: the new state holds an unknown value`);
  // A failed apply returns what it made, which Terraform keeps without comparing.
  return failed || planned === null ? unknown : [...unknown, ...finalPlanProblems(typeName, planned, newState)];
}

/** ReadResource: a refreshed state is wholly known. */
export function readProblems(newState: ObjectValue | null): string[] {
  return newState === null ? [] : Object.entries(newState).filter(([, v]) => !wholeKnown(v)).map(([name]) => `.${name}: the refreshed state holds an unknown value`);
}

/** Fails with the problems, as Terraform would stop the run. */
export function assertTerraformRules(where: string, problems: readonly string[]): void {
  if (problems.length) throw new Error(`Terraform refuses the provider's answer to ${where} ("a bug in the provider"):\n${problems.join('\n')}`);
}
