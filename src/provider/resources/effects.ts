import { warningOf, type Diagnostic } from '../diagnostics';

/*
 * What a plan tells its reviewer the apply will do to the account, beyond the values Terraform
 * shows: a takeover that changes what is there, a reboot or the start that replaces it, a create
 * that does not reboot, a write to a server that is not active, a removal that leaves settings in
 * place. Each resource's plan lists its effects (PlannedChange.effects) and the words come from
 * here alone: one summary per kind, which Terraform folds into one warning, and a detail naming
 * the resource's own. What changes nothing on the account is no effect.
 */
export type PlanEffect =
  | { readonly kind: 'takeover'; readonly of: TakeoverKind; readonly where: string; readonly changes: readonly string[] }
  | { readonly kind: 'reboot'; readonly serverId: string; readonly action: 'reboot' | 'reset' }
  | { readonly kind: 'start instead of reboot'; readonly serverId: string }
  | { readonly kind: 'create without reboot'; readonly serverId: string }
  | { readonly kind: 'server not active'; readonly label: string; readonly status: string; readonly what: string }
  | { readonly kind: 'left in place'; readonly left: string };

/** The one summary of each kind of takeover. */
const TAKEOVER_SUMMARIES = {
  'firewall': 'Creating this resource changes a firewall that exists already',
  'ip settings': 'Creating this resource changes IP settings that exist already',
  'power': 'Creating this resource changes the power state of a server',
} as const;
export type TakeoverKind = keyof typeof TAKEOVER_SUMMARIES;

/** The takeover warning's detail: two lines at most, told in the reader's language (reader-language.ts). */
export const TAKEOVER_SILENCED = 'Once reviewed, expect_takeover = true stops this warning. The provider guide, "Creates take over what exists", says why.';
export const APPLY_REBOOTS = 'The apply reboots a server: its reboot_triggers changed';
export const APPLY_STARTS_INSTEAD = 'The apply starts a server whose reboot_triggers changed, and does not reboot it';
export const CREATE_DOES_NOT_REBOOT = 'Creating a power state does not reboot its server';
const LEAVES_IN_PLACE = 'Removing this resource from Terraform leaves its settings on the server';

/**
 * Said with a planned reboot because a replacement (`-replace`) plans this update first: Terraform
 * asks for the update's plan, then the create's, shows only the update's words (the create's only
 * in the apply, which plans the create again), and never tells the provider which it applies.
 */
const UNLESS_REPLACED = 'If this plan replaces the power state instead (-/+), it is created, and creating one never reboots.';

/** The warning that tells one effect. */
export function warningOfEffect(effect: PlanEffect): Diagnostic {
  switch (effect.kind) {
    case 'takeover':
      return warningOf(TAKEOVER_SUMMARIES[effect.of], `The apply changes ${effect.where}: ${effect.changes.join('; ')}. ${TAKEOVER_SILENCED}`);
    case 'reboot':
      return warningOf(APPLY_REBOOTS, `The apply reboots ${effect.serverId} once (${effect.action === 'reset' ? 'reset, hard_reboot' : 'reboot, through the operating system'}). ${UNLESS_REPLACED}`);
    case 'start instead of reboot':
      return warningOf(APPLY_STARTS_INSTEAD, `${effect.serverId} is stopped: the apply starts it, a fresh boot, instead of rebooting it.`);
    case 'create without reboot':
      return warningOf(CREATE_DOES_NOT_REBOOT, `The apply creates the power state of ${effect.serverId} and does not reboot it: reboot_triggers reboot only when they change on a power state `
        + 'that was applied; creating, importing or replacing one never reboots. To reboot now, change a trigger after this apply, or invoke the hosting_server_reboot action.');
    case 'server not active':
      return warningOf(`${effect.label}: the server is ${effect.status}`, `The API's contract does not say whether ${effect.what} is accepted while a server is ${effect.status}: the apply will try, and report the API's answer.`);
    case 'left in place':
      return warningOf(LEAVES_IN_PLACE, `The apply leaves ${effect.left}.`);
  }
}

/**
 * What a create takes over: these resources manage settings that exist before them, and Terraform
 * shows a create with the configured values only. When the apply will change what is there, the
 * plan names each current value and what it becomes (`rulesets [2] -> [1, 2]`); the provider guide
 * says why. When the create finds what it asks for, it says nothing.
 */
export const takeover = (of: TakeoverKind, where: string, changes: readonly string[]): PlanEffect[] =>
  changes.length ? [{ kind: 'takeover', of, where, changes }] : [];
