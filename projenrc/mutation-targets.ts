import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

/*
 * What mutation testing mutates (issue 59 §3), named by file and function, never by line numbers
 * that the next commit moves: the lines that decide what the identities guarantee (keys, a
 * reboot's generation and life, the diffs) and what the connection test says, not the messages and plumbing around them. The line ranges Stryker needs are found
 * here, in the sources as they are, when projen writes stryker.config.json; a test in `npm test`
 * (test/build/mutation-targets.test.ts) fails when the written ranges no longer match the
 * functions they name.
 */

export interface MutationTarget {
  readonly file: string;
  /** Functions (declarations, consts, object members and methods with a body) to mutate; the whole file when absent. */
  readonly functions?: readonly string[];
}

export const MUTATION_TARGETS: readonly MutationTarget[] = [
  { file: 'src/reconcile/keys.ts' },
  { file: 'src/provider/resources/reboot-generation.ts', functions: ['triggersChanged', 'plannedRebootGeneration', 'rebootIntent'] },
  { file: 'src/provider/resources/resource-life.ts', functions: ['newLifeId', 'plannedLife', 'appliedLife', 'lifeOfBridge'] },
  { file: 'src/provider/shared-reads.ts', functions: ['once', 'sharedReads'] },
  { file: 'src/provider/connection-test.ts', functions: ['testConnection', 'connectionRefusal'] },
  { file: 'src/reconcile/firewall.ts', functions: ['sortedUnique', 'diffFirewall', 'movedFirewall', 'refuseRenamedRulesets'] },
  { file: 'src/reconcile/ip-settings.ts', functions: ['normalizeHost', 'sameHostName', 'diffIpSettings', 'sameField', 'movedIpSettings'] },
  { file: 'src/reconcile/power-state.ts', functions: ['powerActionFor'] },
  // What an apply names or refuses of a value changed since the plan (changed_since_plan).
  { file: 'src/reconcile/since-plan.ts' },
  // One rule for the reboot a plan says and the one its apply sends.
  { file: 'src/provider/resources/power-state.ts', functions: ['rebootsForTriggers', 'actionsFrom', 'triggerEffects', 'shownPower', 'read'] },
  // What a removal puts back, and what its plan says it cannot.
  { file: 'src/provider/resources/server-firewall.ts', functions: ['leftInPlace', 'destroy', 'restoreOf', 'goneRulesets'] },
  { file: 'src/provider/resources/ip-settings.ts', functions: ['leftInPlace', 'destroy'] },
  // Stale data never decides: a stale answer, or one the API's cache observed before this resource's last write, is read again;
  // the power state's refresh judges the server list it decides on (shared-reads.ts, power-state.ts).
  { file: 'src/reconcile/context.ts', functions: ['observedBy', 'readFresh', 'confirmWrite'] },
  // A key's stored failure, this run's or an earlier one's, replayed to a power action.
  { file: 'src/reconcile/power-operations.ts', functions: ['runAction'] },
  // Answers earlier runs left under the same keys are walked past, never counted as this run's tries.
  { file: 'src/reconcile/reboot.ts', functions: ['rebootServer'] },
  // No private data is no bytes: a refresh that finds nothing to keep leaves Terraform's state as it was.
  { file: 'src/provider/resources/private-state.ts', functions: ['encodePrivate'] },
];

/** The name a node with a body is known by in its file, if it is one of the kinds a target names. */
function nameOf(node: ts.Node): string | undefined {
  const named = (n: { name?: ts.Node }) => (n.name && ts.isIdentifier(n.name) ? n.name.text : undefined);
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) return node.body ? named(node) : undefined;
  const hasFunction = (init: ts.Expression | undefined) => !!init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init));
  if (ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node)) return hasFunction(node.initializer) ? named(node) : undefined;
  return undefined;
}

/** `file:start-end` (1-based, inclusive) of each function the target names; throws naming a missing or ambiguous one. */
export function rangesOf(root: string, target: MutationTarget): string[] {
  if (!target.functions) return [target.file];
  const text = readFileSync(join(root, target.file), 'utf8');
  const source = ts.createSourceFile(target.file, text, ts.ScriptTarget.Latest, true);
  const found = new Map<string, ts.Node[]>();
  const visit = (node: ts.Node) => {
    const name = nameOf(node);
    if (name && target.functions!.includes(name)) found.set(name, [...(found.get(name) ?? []), node]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return target.functions.map((name) => {
    const nodes = found.get(name) ?? [];
    const problem = nodes.length === 0 ? 'no such function' : `${nodes.length} functions of that name`;
    if (nodes.length !== 1) throw new Error(`mutation target ${target.file} ${name}: ${problem}`);
    const line = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
    return `${target.file}:${line(nodes[0].getStart(source))}-${line(nodes[0].getEnd())}`;
  });
}

/** Stryker's `mutate` list for the targets, from the sources as they are now. */
export function mutateList(root: string, targets: readonly MutationTarget[] = MUTATION_TARGETS): string[] {
  return targets.flatMap((target) => rangesOf(root, target));
}
