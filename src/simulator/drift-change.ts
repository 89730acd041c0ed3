import * as z from 'zod/mini';
import type { DriftChange } from './state';
import { LAYER4_MODES, LAYER7_MODES, POWER_VALUES, SERVER_STATUSES } from '../api/schemas';
import { IPV4_PATTERN } from '../contract/patterns';

const nullableText = z.nullable(z.string());

/**
 * The body of `PATCH /__simulator/servers/{id}`: strict, so a typo or a wrong type is a 400 naming
 * the member, never a 200 that makes the API serve data outside the spec.
 */
export const driftChangeSchema: z.ZodMiniType<DriftChange> = z.strictObject({
  power: z.optional(z.enum(POWER_VALUES)),
  status: z.optional(z.enum(SERVER_STATUSES)),
  firewall: z.optional(z.strictObject({ enabled: z.optional(z.boolean()), rulesets: z.optional(z.array(z.int().check(z.nonnegative()))) })),
  ip: z.optional(z.strictObject({
    address: z.string().check(z.regex(IPV4_PATTERN, 'must be an IPv4 address of the server')),
    rdns: z.optional(nullableText),
    description: z.optional(nullableText),
    protection: z.optional(z.nullable(z.strictObject({ layer4: z.enum(LAYER4_MODES), layer7: z.enum(LAYER7_MODES) }))),
    editable: z.optional(z.strictObject({ rdns: z.boolean(), description: z.boolean(), protection: z.boolean() })),
  })),
});

/** The change, or the problems, each naming its member (e.g. `firewall.enabled: expected boolean`). */
export function parseDriftChange(input: unknown): { change: DriftChange } | { problems: string[] } {
  const parsed = driftChangeSchema.safeParse(input);
  if (parsed.success) return { change: parsed.data };
  return { problems: parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`) };
}
