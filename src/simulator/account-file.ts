import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { DEMO_ACCOUNT_ID, TOKEN_NAME_PATTERN, TOKEN_NAME_RULE, ipSettingsWithDefaults, serverWithDefaults, type SeedServer, type SeedToken, type SimulatorSeed } from './seed';
import { LAYER4_MODES, LAYER7_MODES, POWER_VALUES, SCOPES, SERVER_STATUSES, SERVER_TYPES, type Scope } from '../api/schemas';
import { IPV4_PATTERN, likelyName, SERVER_ID_PATTERN } from '../contract/patterns';

/*
 * An account file: the simulated account a team's tests run against, as JSON. What is not given
 * takes the simulator's defaults (an active, running server with no addresses; a disabled
 * firewall; addresses without rDNS or description, protection dynamic/off, all editable). The JSON
 * Schema in docs/testing/account-file.schema.json is generated from this schema by docgen.
 */

const firewallSchema = z.strictObject({
  enabled: z.boolean().default(false).describe('Whether the firewall is on.'),
  rulesets: z.array(z.int().nonnegative()).default([]).describe('Ids of the rule sets that apply; each must be one of `rulesets`.'),
}).describe('VPS and VDS only. Default: off, no rule sets.');

const ipSettingsSchema = z.strictObject({
  address: z.string().regex(IPV4_PATTERN).describe('One of the server\'s `ipv4` addresses.'),
  rdns: z.string().nullable().optional().describe('Reverse DNS name. Default null.'),
  description: z.string().nullable().optional().describe('Default null.'),
  protection: z.strictObject({ layer4: z.enum(LAYER4_MODES), layer7: z.enum(LAYER7_MODES) }).nullable().optional().describe('Default `{"layer4": "dynamic", "layer7": "off"}`.'),
  editable: z.strictObject({ rdns: z.boolean(), description: z.boolean(), protection: z.boolean() }).optional().describe('Which settings a token may change. Default all true.'),
});

const serverSchema = z.strictObject({
  id: z.string().regex(SERVER_ID_PATTERN).describe('`vps_<segment>_<number>` for VPS and VDS, `ded_<uuid>` for dedicated servers.'),
  type: z.enum(SERVER_TYPES),
  name: z.string(),
  status: z.enum(SERVER_STATUSES).default('active'),
  power: z.enum(POWER_VALUES).default('running'),
  hostname: z.string().nullable().optional().describe('Default `<name>.example.com`.'),
  os: z.string().nullable().optional().describe('Default `debian-12`.'),
  ipv4: z.array(z.string().regex(IPV4_PATTERN)).default([]),
  ipv6: z.array(z.string()).default([]),
  shared: z.boolean().default(false).describe('True: the server is shared with the account (access role `secondary`): readable, never changeable.'),
  firewall: firewallSchema.optional(),
  ipSettings: z.array(ipSettingsSchema).optional().describe('Dedicated servers only: settings per IPv4 address; an address of `ipv4` not listed gets the defaults.'),
});

const tokenSchema = z.strictObject({
  name: z.string().regex(TOKEN_NAME_PATTERN, TOKEN_NAME_RULE).describe(`The name the simulator prints beside the secret: ${TOKEN_NAME_RULE}.`),
  secret: z.string().regex(/^\S{16,}$/).optional().describe('At least 16 characters without spaces. Default: `hsim_<name>_` and 16 random hex digits, new each start.'),
  scopes: z.array(z.enum(SCOPES)).describe('What the token may do (spec section 5).'),
});

export const accountFileSchema = z.strictObject({
  $schema: z.string().optional().describe('Where editors find this schema.'),
  accountId: z.int().positive().default(DEMO_ACCOUNT_ID),
  rulesets: z.array(z.strictObject({ id: z.int().nonnegative(), name: z.string() })).default([]).describe('The rule sets VPS firewalls can apply.'),
  servers: z.array(serverSchema),
  tokens: z.array(tokenSchema).default([]).describe('Tokens besides `full`, which has every scope and is always there.'),
}).describe('A simulated account for `cdktf-server-hosting simulator --account FILE` and `testing.SimulatedAccount`.');

export type AccountFile = z.input<typeof accountFileSchema>;

/** The name of the token with every scope that every account has. */
export const FULL_TOKEN = 'full';

/** The members an object of the account file takes at `path`, to name the one a key not taken likely meant. */
function membersAt(path: readonly PropertyKey[]): string[] {
  let schema: z.ZodType = accountFileSchema;
  const inner = (s: z.ZodType): z.ZodType => {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) return inner(s.unwrap() as z.ZodType);
    return s;
  };
  for (const step of path) {
    schema = inner(schema);
    if (schema instanceof z.ZodArray) schema = schema.element as z.ZodType;
    else if (schema instanceof z.ZodObject) schema = (schema.shape as Record<string, z.ZodType>)[String(step)];
    if (!schema) return [];
  }
  schema = inner(schema);
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** One mistake of the file in the reader's words: where, what, and the member a typo likely meant. */
function issueWords(issue: z.core.$ZodIssue): string {
  const where = issue.path.join('.') || '(file)';
  if (issue.code !== 'unrecognized_keys') return `${where}: ${issue.message}`;
  const members = membersAt(issue.path);
  return issue.keys.map((key) => {
    const meant = likelyName(key, members);
    return `${where}: ${JSON.stringify(key)} is not a member here${meant ? `; did you mean ${JSON.stringify(meant)}?` : `: its members are ${members.join(', ')}`}`;
  }).join('; ');
}

/** The seed an account file describes, or an error naming each wrong member (`servers.1.firewall: …`). */
export function seedFromAccountFile(json: unknown): SimulatorSeed {
  const parsed = accountFileSchema.safeParse(json);
  if (!parsed.success) throw new Error(`the account file is not valid: ${parsed.error.issues.map(issueWords).join('; ')}`);
  const account = parsed.data;
  const problems = consistencyProblems(account);
  if (problems.length) throw new Error(`the account file is not valid: ${problems.join('; ')}`);
  return {
    rulesets: account.rulesets,
    servers: account.servers.map((s) => seedServer(account.accountId, s)),
    tokens: tokensOf(account.accountId, account.tokens),
  };
}

type Account = z.output<typeof accountFileSchema>;
type ServerEntry = z.output<typeof serverSchema>;

/** What one member cannot say about another: ids unique, each kind's own settings, known rule sets and addresses. */
function consistencyProblems(account: Account): string[] {
  const rulesetIds = new Set(account.rulesets.map((r) => r.id));
  const seen = new Set<string>();
  return account.servers.flatMap((s, i) => {
    const at = `servers.${i}`;
    const dedicated = s.type === 'dedicated';
    const problems = [
      seen.has(s.id) && `${at}.id: ${s.id} is used twice`,
      s.id.startsWith(dedicated ? 'ded_' : 'vps_') || `${at}.id: a ${s.type} server's id starts with ${dedicated ? 'ded_' : 'vps_'}`,
      dedicated && s.firewall && `${at}.firewall: dedicated servers have no firewall here (the API has none for them)`,
      !dedicated && s.ipSettings && `${at}.ipSettings: only dedicated servers have IP settings`,
      ...(s.firewall?.rulesets ?? []).filter((id) => !rulesetIds.has(id)).map((id) => `${at}.firewall.rulesets: ${id} is not one of rulesets`),
      ...(s.ipSettings ?? []).filter((ip) => !s.ipv4.includes(ip.address)).map((ip) => `${at}.ipSettings: ${ip.address} is not one of the server's ipv4`),
    ];
    seen.add(s.id);
    return problems.filter((p): p is string => typeof p === 'string');
  });
}

function seedServer(accountId: number, s: ServerEntry): SeedServer {
  const { id, shared, firewall, ipSettings, ...fields } = s;
  const server = serverWithDefaults(id, { ...fields, hostname: fields.hostname === undefined ? `${s.name}.example.com` : fields.hostname, os: fields.os === undefined ? 'debian-12' : fields.os, accessRole: shared ? 'secondary' : 'primary' });
  if (s.type !== 'dedicated') return { accountId, server, firewall: firewall ?? { enabled: false, rulesets: [] } };
  const listed = new Map((ipSettings ?? []).map((ip) => [ip.address, ip]));
  return { accountId, server, ipSettings: s.ipv4.map((address) => ipSettingsWithDefaults(address, withoutUndefined(listed.get(address) ?? {}))) };
}

function tokensOf(accountId: number, entries: Account['tokens']): SeedToken[] {
  const token = (name: string, scopes: readonly Scope[], secret?: string): SeedToken =>
    ({ name, scopes, accountId, type: 'personal_token', secret: secret ?? `hsim_${name.replace(/\W/g, '_')}_${randomBytes(8).toString('hex')}` });
  const full = entries.some((t) => t.name === FULL_TOKEN) ? [] : [token(FULL_TOKEN, SCOPES)];
  return [...full, ...entries.map((t) => token(t.name, t.scopes, t.secret))];
}

const withoutUndefined = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/** The account file's JSON Schema (draft 2020-12), for docs/ and editors. */
export function accountFileJsonSchema(): object {
  return z.toJSONSchema(accountFileSchema, { io: 'input' });
}
