import * as z from 'zod/mini';
import { ipSettingsSchema, serverDetailSchema, type IpSettings, type ServerDetail } from '../../api/schemas';
import { canonicalJson } from '../../reconcile/keys';
import type { Value } from '../plugin/values';

/**
 * What the provider keeps beside a resource's state (Terraform's `private` bytes): never shown in a
 * plan, carried from plan to apply and stored with the state. Terraform stores none when the
 * provider dies mid-apply, so nothing here may decide a write's Idempotency-Key (keys.ts); an older
 * provider's members (`instance`, `generation`, `readIn`, `notedAtPlan`, `readAt`) are dropped as
 * they are read. Nothing here changes with time: a refresh of an account that did not move gives
 * the bytes it was given, so a failed apply leaves the state, and the saved plan, as they were.
 */
export interface PrivateState {
  /** The values observed before this resource first changed them, per attribute (OnDestroy.RESTORE). */
  readonly restore?: Readonly<Record<string, Value>>;
  /** Which IP settings fields this token may edit, from the last read. */
  readonly editable?: Readonly<Record<string, boolean>>;
  /**
   * The create failed halfway: Terraform taints the object and plans its replacement, whose plan
   * takes over `restore` (the values from before that create) through the refresh of this object
   * (plan phase) and through the removal of this object (apply phase, which plans again).
   */
  readonly incomplete?: boolean;
  /**
   * The plan of a replacement for an incomplete create. Terraform hands the replacement's private
   * data to the removal of the old object too: that removal restores nothing, so values are not
   * written back only to be written again (rDNS flipping), and the replacement converges from
   * where the create stopped.
   */
  readonly replacesIncomplete?: boolean;
  /**
   * The firewall a create's plan read to say what it takes over, for the apply Terraform runs right
   * after that plan (in the apply walk, the same process): its diff needs no second read.
   */
  readonly observedFirewall?: { readonly enabled: boolean; readonly rulesets: readonly number[] };
  /** The same for an address's settings. */
  readonly observedSettings?: IpSettings;
  /**
   * The ids the state's `ruleset_names` had when the refresh (or the apply) read the account's rule
   * sets: Terraform plans a change again in the apply walk, a new process, and that plan shows
   * the same ids from them, where a fresh list could show another id for a name made again since.
   */
  readonly rulesetIds?: Readonly<Record<string, number>>;
  /** The same for a power change: the server its plan read, with the operation in flight and the actions on offer. */
  readonly observedServer?: ServerDetail;
  /**
   * The API's latest `observedAt` before this resource's last write: a read observed no later (the
   * API's shared cache, section 1 rule 6) is older than the state, and is read again.
   */
  readonly writtenAfter?: string;
}

const valueSchema: z.ZodMiniType<Value> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(valueSchema), z.record(z.string(), valueSchema)]));

const privateStateSchema: z.ZodMiniType<PrivateState> = z.object({
  restore: z.optional(z.record(z.string(), valueSchema)),
  editable: z.optional(z.record(z.string(), z.boolean())),
  incomplete: z.optional(z.boolean()),
  replacesIncomplete: z.optional(z.boolean()),
  observedFirewall: z.optional(z.object({ enabled: z.boolean(), rulesets: z.array(z.int().check(z.nonnegative())) })),
  observedSettings: z.optional(ipSettingsSchema),
  observedServer: z.optional(serverDetailSchema),
  rulesetIds: z.optional(z.record(z.string(), z.int().check(z.nonnegative()))),
  writtenAfter: z.optional(z.string()),
});

/**
 * The stored bytes, checked: a member of the wrong shape (bytes of another provider version, or
 * edited by hand) is an error that says so, never a key namespace or restore value made of it.
 */
export function decodePrivate(bytes: Uint8Array | undefined): PrivateState {
  if (!bytes || bytes.length === 0) return {};
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new Error('the provider\'s private data of this resource is not JSON; remove the resource from the state and import it again');
  }
  const parsed = privateStateSchema.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ');
    throw new Error(`the provider's private data of this resource is malformed at ${where}; remove the resource from the state and import it again`);
  }
  return parsed.data;
}

/**
 * Members in one order whatever the order they were set in: the same private data is the same bytes.
 * None is no bytes, as Terraform keeps a resource that has none (after a provider died mid-apply, say):
 * a refresh that finds nothing to keep leaves its state as it was.
 */
export function encodePrivate(state: PrivateState): Buffer {
  return Object.keys(state).length === 0 ? Buffer.alloc(0) : Buffer.from(canonicalJson(state));
}

/**
 * After writes: the first observed value of each written attribute (later changes keep the first,
 * so RESTORE returns to what was there before this resource).
 */
export function withRestoreValues(state: PrivateState, observedBefore: Readonly<Record<string, Value>>): PrivateState {
  if (Object.keys(observedBefore).length === 0) return state;
  return { ...state, restore: { ...observedBefore, ...state.restore } };
}
