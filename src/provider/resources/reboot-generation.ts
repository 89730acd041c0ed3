import { canonicalJson } from '../../reconcile/keys';
import { UNKNOWN, type Value } from '../plugin/values';
import type { AttributeSpec } from '../schema';

/**
 * How a reboot is told from every earlier one of its resource, through any crash: Terraform keeps
 * the prior values when the provider dies mid-apply (never its private data), so the count lives
 * in the state, and the plan knows the next one. docs/guides/design.md (*One key per intended
 * action*) has the table of what it covers.
 */
export const REBOOT_GENERATION = 'reboot_generation';

export const REBOOT_GENERATION_ATTRIBUTE: AttributeSpec = {
  name: REBOOT_GENERATION,
  type: 'number',
  computed: true,
  description:
    'How many times reboot_triggers have changed since this resource was created or imported: one more with each change, shown in the plan next to it. Each reboot\'s Idempotency-Key derives from it and the new triggers, so an apply run again after an interrupted one replays that reboot instead of rebooting twice, and a later change (back and forth to the same triggers) reboots again. Nothing else changes it.',
};

/** Triggers changed, for an applied instance only: a create or an import never reboots. */
export function triggersChanged(prior: Readonly<Record<string, Value>> | null, planned: Readonly<Record<string, Value>>): boolean {
  const before = prior?.reboot_triggers ?? null;
  return before !== null && planned.reboot_triggers !== null && canonicalJson(before) !== canonicalJson(planned.reboot_triggers);
}

/**
 * The planned generation: 0 for a new resource, one more than the prior when the triggers change
 * (known at plan, so the plan shows it), the prior otherwise (none, for a state written before
 * generations: no plan shows a change the user did not make). Unknown triggers may change: then it
 * is known after apply.
 */
export function plannedRebootGeneration(prior: Readonly<Record<string, Value>> | null, planned: Readonly<Record<string, Value>>): Value {
  if (prior === null) return 0;
  if (prior.reboot_triggers !== null && containsUnknown(planned.reboot_triggers)) return UNKNOWN;
  if (!triggersChanged(prior, planned)) return prior[REBOOT_GENERATION] ?? null;
  // A state from before generations holds none: its first trigger change is generation 1.
  return (typeof prior[REBOOT_GENERATION] === 'number' ? prior[REBOOT_GENERATION] : 0) + 1;
}

const containsUnknown = (value: Value): boolean =>
  value === UNKNOWN || (value !== null && typeof value === 'object' && Object.values(value).some(containsUnknown));

/**
 * What keys the reboot of one generation, whatever process sends it: the resource's life, the
 * count and the triggers it is for. A state written before lives (`life` null) keeps the key it
 * had, so a crashed apply re-run across the upgrade still replays its reboot.
 */
export const rebootIntent = (life: string | null, generation: number, triggers: Value): string =>
  canonicalJson(life === null ? ['reboot', generation, triggers] : ['reboot', life, generation, triggers]);
