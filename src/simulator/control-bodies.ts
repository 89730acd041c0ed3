import * as z from 'zod/mini';
import type { FaultRule } from './faults';
import { TOKEN_NAME_PATTERN, TOKEN_NAME_RULE } from './seed';
import type { DriftChange } from './state';
import { FINAL_OPERATION_STATUSES, LAYER4_MODES, LAYER7_MODES, POWER_VALUES, SCOPES, SERVER_STATUSES } from '../api/schemas';
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

/** The body of `POST /__simulator/tokens`: a new token of the account with these scopes. */
export const newTokenSchema = z.strictObject({
  name: z.optional(z.string().check(z.regex(TOKEN_NAME_PATTERN, TOKEN_NAME_RULE))),
  scopes: z.array(z.enum(SCOPES)),
});

const count = z.int().check(z.nonnegative());

/** The longest latency a fault may add: a test waits for it, and a typo of a few zeros must not hang a run for days. */
/** `POST /__simulator/identity`: a random challenge of the caller's. */
export const identityChallengeSchema = z.strictObject({ challenge: z.string().check(z.regex(/^[A-Za-z0-9_-]{16,128}$/)) });

export const MAX_FAULT_LATENCY_MS = 10 * 60 * 1000;

/**
 * The body of `POST /__simulator/faults`, as strict as the drift change: a misspelt member is a 400
 * naming it, never a rule that makes every request answer 500.
 */
export const faultRuleSchema: z.ZodMiniType<FaultRule> = z.strictObject({
  endpoint: z.optional(z.string().check(z.regex(/^(\*|[A-Z]+) +(\*|\/\S*)$/, 'expected "METHOD /template", either part may be *'))),
  serverId: z.optional(z.string()),
  times: z.optional(count.check(z.positive())),
  skip: z.optional(count),
  probability: z.optional(z.number().check(z.gte(0), z.lte(1))),
  effect: z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('error'),
      status: z.int().check(z.gte(400), z.lte(599)),
      code: z.optional(z.string()),
      retryAfterSeconds: z.optional(count),
      takesEffect: z.optional(z.boolean()),
    }),
    z.strictObject({ type: z.literal('latency'), ms: count.check(z.lte(MAX_FAULT_LATENCY_MS, `at most ${MAX_FAULT_LATENCY_MS} (10 minutes)`)) }),
    z.strictObject({ type: z.literal('drop_response') }),
    z.strictObject({
      type: z.literal('operation'),
      outcome: z.strictObject({ status: z.enum(FINAL_OPERATION_STATUSES), takesEffect: z.boolean(), message: z.optional(z.string()) }),
    }),
    z.strictObject({ type: z.literal('stale') }),
    z.strictObject({ type: z.literal('cache'), maxAgeSeconds: count }),
  ]),
});

/**
 * The value, or the problems, each naming its member (e.g. `firewall.enabled: expected boolean`); a
 * key the body may not have lists the keys it may (`(body): unrecognized key "ipSettings"; the
 * accepted keys are power, status, firewall, ip`).
 */
export function parseControlBody<T>(schema: z.ZodMiniType<T>, input: unknown): { value: T } | { problems: string[] } {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { value: parsed.data };
  return {
    problems: parsed.error.issues.map((i) => {
      const where = i.path.join('.') || '(body)';
      const accepted = i.code === 'unrecognized_keys' ? acceptedKeys(schema, i.path) : undefined;
      if (i.code !== 'unrecognized_keys' || !accepted) return `${where}: ${i.message}`;
      const keys = i.keys.map((k) => JSON.stringify(k)).join(', ');
      const hint = i.keys.includes('ipSettings') && accepted.includes('ip') ? ' (the account file\'s ipSettings lists every address; here "ip" is one address\'s change: {"ip": {"address": "…", "rdns": "…"}})' : '';
      return `${where}: unrecognized key${i.keys.length > 1 ? 's' : ''} ${keys}; the accepted keys are ${accepted.join(', ')}${hint}`;
    }),
  };
}

interface SchemaDef { readonly type?: string; readonly shape?: Record<string, unknown>; readonly innerType?: unknown }
const defOf = (schema: unknown): SchemaDef | undefined => (schema as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def;

/** The keys the object schema at `path` accepts, through optional and nullable wrappers; undefined where it is no plain object. */
function acceptedKeys(schema: unknown, path: readonly PropertyKey[]): string[] | undefined {
  const unwrap = (s: unknown): unknown => {
    let def = defOf(s);
    while (def && (def.type === 'optional' || def.type === 'nullable')) {
      s = def.innerType;
      def = defOf(s);
    }
    return s;
  };
  let current = unwrap(schema);
  for (const key of path) {
    const shape = defOf(current)?.shape;
    if (!shape || typeof key !== 'string') return undefined;
    current = unwrap(shape[key]);
  }
  const shape = defOf(current)?.shape;
  return shape ? Object.keys(shape) : undefined;
}
