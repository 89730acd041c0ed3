import * as z from 'zod/mini';
import { IPV4_PATTERN, LAYER4_MODES, LAYER7_MODES, SERVER_ID_PATTERN } from '../api/schemas';
import { didYouMeanServerId, isTokenVariableName, likelyName, RDNS_PATTERN, settingTooLarge, TOKEN_VARIABLE_NAME_RULE } from '../contract/patterns';
import { DOCUMENT_VERSION, MAX_TIMEOUT_SECONDS, type ResourceDocument, type ResourceSpec } from '../contract/resource-document';

/** A setting the API takes in one request of at most 10 KB (spec section 8). */
const fitsOneRequest = (field: string) => z.superRefine((value: string, ctx) => {
  const problem = settingTooLarge(field, value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
});

const api = z.strictObject({
  baseUrl: z.optional(z.string()),
  // The message never quotes the value: it may be a token pasted in the wrong place.
  tokenEnvVar: z.string().check(z.refine(isTokenVariableName, `must be the NAME of an environment variable (${TOKEN_VARIABLE_NAME_RULE}), not the token; the value is not shown`)),
  allowInsecureHttp: z.optional(z.boolean()),
});
const document = { version: z.literal(DOCUMENT_VERSION), api };
// The same rules as the constructs' synth-time checks (src/constructs/validation.ts), so a value
// that synthesizes is never refused at apply time, after the old bridge instance is gone.
// `abort`: a value that is no server id at all gets that one error, not also "must be a VPS".
const serverId = z.string().check(z.regex(SERVER_ID_PATTERN, {
  error: (issue) => `must be a server id such as vps_ab_1 or ded_<uuid>${typeof issue.input === 'string' ? didYouMeanServerId(issue.input) : ''}`,
  abort: true,
}));
const vpsId = serverId.check(z.startsWith('vps_', 'must be a VPS (vps_…): the firewall exists only for virtual servers'));
const dedicatedId = serverId.check(z.startsWith('ded_', 'must be a dedicated server (ded_…): IP settings exist only for dedicated servers'));
/** One of `values`, refused in the provider's words: the value given, the one it likely meant, and the ones allowed. */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: (issue) => notOneOf(issue.input, values) });
const notOneOf = (input: unknown, values: readonly string[]): string => {
  const meant = typeof input === 'string' ? likelyName(input, values) : undefined;
  return `${JSON.stringify(input)} is not one of ${values.map((v) => JSON.stringify(v)).join(', ')}${meant ? `; did you mean ${JSON.stringify(meant)}?` : ''}`;
};
const seconds = z.number().check(
  z.positive({ error: (issue) => `is ${String(issue.input)}; it must be a number of seconds greater than 0` }),
  z.refine(Number.isFinite, 'must be a finite number of seconds'),
  z.lte(MAX_TIMEOUT_SECONDS, { error: (issue) => `is ${String(issue.input)}; it must be at most ${MAX_TIMEOUT_SECONDS.toLocaleString('en')} seconds (a day)` }),
);
const timeouts = z.strictObject({ readySeconds: seconds, operationSeconds: seconds });

/** A rule set by id (a whole number, 0 or more) or by name, refused in the reader's words with the value quoted. */
const notRuleset = (issue: { readonly input?: unknown }) => `${JSON.stringify(issue.input)} is no rule set: use an id (a whole number, 0 or more) or a name`;
const rulesetEntry = z.union(
  [z.int({ error: notRuleset }).check(z.nonnegative({ error: notRuleset })), z.string().check(z.minLength(1, { error: notRuleset }))],
  { error: notRuleset },
);

const atLeastOne = (desired: object) => Object.values(desired).some((v) => v !== undefined);

/** Each kind's members; strict, so a typo in a hand-written document is an error, not a no-op. */
const SHAPES = {
  firewall: {
    kind: z.literal('firewall'),
    serverId: vpsId,
    desired: z
      .strictObject({
        enabled: z.optional(z.boolean()),
        rulesets: z.optional(z.array(rulesetEntry)),
      })
      .check(z.refine(atLeastOne, 'set enabled and/or rulesets')),
  },
  ip_settings: {
    kind: z.literal('ip_settings'),
    serverId: dedicatedId,
    ip: z.string().check(z.regex(IPV4_PATTERN, 'must be an IPv4 address')),
    desired: z
      .strictObject({
        rdns: z.optional(z.string().check(z.regex(RDNS_PATTERN, 'must be one word without spaces or control characters'), fitsOneRequest('rdns'))),
        description: z.optional(z.string().check(fitsOneRequest('description'))),
        protection: z.optional(z.strictObject({ layer4: oneOf(LAYER4_MODES), layer7: oneOf(LAYER7_MODES) })),
      })
      .check(z.refine(atLeastOne, 'set rdns, description and/or protection')),
  },
  power_state: {
    kind: z.literal('power_state'),
    serverId,
    desired: z.strictObject({ state: oneOf(['running', 'stopped']) }),
    stopMethod: oneOf(['shutdown', 'power_off']),
    forceStopFallback: z.boolean(),
    timeouts,
  },
  reboot: { kind: z.literal('reboot'), serverId, hard: z.boolean(), timeouts },
};

/** What a resource wants, as the provider checks its attributes: no connection part. */
export const resourceSpecSchema: z.ZodMiniType<ResourceSpec> = z.discriminatedUnion('kind', [
  z.strictObject(SHAPES.firewall),
  z.strictObject(SHAPES.ip_settings),
  z.strictObject(SHAPES.power_state),
  z.strictObject(SHAPES.reboot),
]);

/** The handler's input: a spec with the document version and the connection. */
export const resourceDocumentSchema: z.ZodMiniType<ResourceDocument> = z.discriminatedUnion('kind', [
  z.strictObject({ ...document, ...SHAPES.firewall }),
  z.strictObject({ ...document, ...SHAPES.ip_settings }),
  z.strictObject({ ...document, ...SHAPES.power_state }),
  z.strictObject({ ...document, ...SHAPES.reboot }),
]);

/** Parses the JSON text of a document; the error lists every problem with its path. */
export function parseResourceDocument(text: string | undefined): ResourceDocument {
  if (!text) throw new Error('no resource document: the environment variable HOSTING_RESOURCE is empty');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`the resource document is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = resourceDocumentSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(document)'}: ${i.message}`);
    throw new Error(`the resource document is invalid: ${problems.join('; ')}`);
  }
  return parsed.data;
}
